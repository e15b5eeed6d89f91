//! The `knights` command: parses arguments, calls the library, prints.

use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use knights::batch::{self, BatchAnswers};
use knights::count::CountTable;
use knights::exchange::{self, ExchangeFormat};
use knights::existence;
use knights::input::{self, BatchFormat};
use knights::output::{self, BoardTotal, ClosedReport, Format, StartCount, TourFormat};
use knights::precompute::{self, BoardRange, BoardSelection};
use knights::question::{Question, TourKind};
use knights::resolve::{self, Engine, EngineChoice, Progress, Settings};
use knights::store::{self, AnswerFilter, Store};
use knights::{Board, CancelFlag, MemoryBudget, Square};

const EXAMPLES: &str = "\
Examples:
  knights count 5 4 0 0                     open tours from a corner of 5x4: 32
  knights count 6 6                         the per-square table of 6x6 and its totals
  printf '2\\n5 4 0 0\\n3 4 0 0\\n' | knights solve   the judge format: prints 32 and 2
  knights batch queries.txt --format csv    many queries, answered from the store where it can
  knights precompute --max-squares 30       fill the store with every board up to 30 squares
  knights query --board 5x5                 list what the store knows
  knights count 6 8 --total                 the open tours of 6x8, without the per-square table
  knights series 3 --cols 4..40 --closed    closed tours of every 3xn board, one line each
  knights tour 8 8 0 0                      one tour, printed as step numbers on the board

Every answer is kept in the answer store (an SQLite file): --db PATH, else $KNIGHTS_DB, else
knights/answers.db in your data directory (~/.local/share on Linux).";

/// Count knight's tours on rectangular boards, exactly, and remember every answer.
#[derive(Debug, Parser)]
#[command(name = "knights", version, after_help = EXAMPLES)]
struct Cli {
    /// The answer store (an SQLite file). Default: $KNIGHTS_DB, else knights/answers.db in the
    /// user's data directory.
    #[arg(long, global = true, value_name = "PATH", env = "KNIGHTS_DB")]
    db: Option<PathBuf>,

    /// Compute without reading or writing the answer store.
    #[arg(long, global = true)]
    no_cache: bool,

    /// Memory the counting tables may use, e.g. 512M or 4G. When it is reached, counting
    /// goes on (slower) without storing more.
    #[arg(long, global = true, value_name = "SIZE", default_value = "2G")]
    memory: MemoryBudget,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count open tours from one square, or from every square of a board.
    #[command(after_help = "\
Examples:
  knights count 5 4 0 0             32 (open tours from the corner of a 5x4 board)
  knights count 5 5 2 2             64
  knights count 5 5                 the table of all 25 squares, and the board's totals
  knights count 6 6 --format json   the same as JSON (counts are strings of digits)")]
    Count(CountArgs),

    /// Answer the judge format: T, then T lines `ROWS COLS ROW COL`; prints one count per line.
    #[command(after_help = "\
Reads T, then T queries of four numbers ROWS COLS ROW COL (0-based start square), separated by
any whitespace. Prints the number of open tours of each query, one per line, and nothing else.
The whole input is checked before anything is printed.

Examples:
  printf '2\\n5 4 0 0\\n3 4 0 0\\n' | knights solve     prints 32 and 2
  knights solve queries.txt")]
    Solve(SolveArgs),

    /// Answer a file of queries: the judge format, or one `ROWS COLS ROW COL` per line.
    #[command(after_help = "\
The file is either the judge format (T, then T queries) or a list with one query
`ROWS COLS ROW COL` per line; blank lines and # comments are allowed in both. Each distinct
question is computed once (in parallel), answers already in the store are not recomputed, and
new answers are saved as they finish. The judge format prints bare counts; a list prints a table
(or JSON, CSV). A summary goes to standard error.

Examples:
  knights batch queries.txt
  knights batch - --format csv < queries.txt")]
    Batch(BatchArgs),

    /// Fill the answer store for a range of boards: every start square and the board totals.
    #[command(after_help = "\
Computes every canonical start square and the total of every selected board, skipping what the
store already has (so an interrupted run resumes where it stopped). Shows a progress bar on a
terminal.

Examples:
  knights precompute --boards 3x3..6x6
  knights precompute --max-squares 30
  knights precompute --boards 4x4..5x8 --min-squares 20")]
    Precompute(PrecomputeArgs),

    /// List the answers in the store.
    #[command(after_help = "\
Each stored answer is a canonical question: boards with rows <= cols, the least square of each
symmetry class, and board totals (start `total`).

Examples:
  knights query --board 5x5
  knights query --max-squares 20 --format csv")]
    Query(QueryArgs),

    /// Write stored answers to a CSV or JSON file (for `knights import`).
    #[command(after_help = "\
Examples:
  knights export --output answers.csv
  knights export --max-squares 30 --format json --output small.json")]
    Export(ExportArgs),

    /// Add answers from a CSV or JSON export to the store, after checking every record.
    #[command(after_help = "\
Every record is checked (canonical question, known kind and engine, exact count, totals equal to
the sum of their starts, no conflict with the store) before anything is written: one bad record
rejects the whole file, naming its line.

Examples:
  knights import data/lookup.csv
  knights import answers.json")]
    Import(ImportArgs),

    /// Print the totals of the boards ROWS x n for a range of n: one line per board.
    #[command(after_help = "\
The OEIS-style table: every board ROWS x n for n in the range, with its number of tours (open,
or closed with --closed), each direction counted and once. Boards the store has are printed at
once; the rest are computed (in one pass of the frontier engine where the short side is ROWS)
and saved as each is known.

Examples:
  knights series 3 --cols 4..20
  knights series 5 --cols 5..12 --closed --format csv")]
    Series(SeriesArgs),

    /// Find one tour and show it: open from a square, or closed.
    #[command(after_help = "\
Prints the board with the step number of every square (1 at the start), or the squares in order
as JSON, or an SVG picture of the path (start: green disc, end: red square). Any board size:
small boards by search, large ones by a construction that cannot fail. Every tour is checked
before it is printed. When no tour exists, says why and exits with code 3.

Examples:
  knights tour 8 8 0 0
  knights tour 6 6 0 0 --closed --format svg --output tour.svg
  knights tour 1000 1000 0 0 --format json --output big.json")]
    Tour(TourArgs),
}

#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
struct TourArgs {
    /// Number of rows (at least 1).
    #[arg(value_parser = parse_side)]
    rows: u32,
    /// Number of columns (at least 1).
    #[arg(value_parser = parse_side)]
    cols: u32,
    /// Start row, 0-based.
    #[arg(value_parser = parse_coordinate)]
    row: u32,
    /// Start column, 0-based.
    #[arg(value_parser = parse_coordinate)]
    col: u32,
    /// A closed tour (the last square a knight's move from the first).
    #[arg(long)]
    closed: bool,
    /// Output format.
    #[arg(long, short, value_enum, default_value_t = TourFormatArg::Board)]
    format: TourFormatArg,
    /// Write to this file (replaced only once complete) instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Picks among equally good moves: the same seed always gives the same tour.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print how the tour was found and the time taken on standard error.
    #[arg(long)]
    stats: bool,
}

#[derive(Debug, Args)]
struct SeriesArgs {
    /// The fixed side of the boards.
    #[arg(value_parser = parse_side)]
    rows: u32,
    /// The range of the other side, A..B (or a single n).
    #[arg(long, value_name = "A..B", value_parser = parse_cols)]
    cols: std::ops::RangeInclusive<u32>,
    #[command(flatten)]
    kind: KindFlag,
    /// Output format.
    #[arg(long, short, value_enum, default_value_t = FormatArg::Table)]
    format: FormatArg,
    #[command(flatten)]
    engine: EngineArgs,
    /// No progress bar on standard error.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
struct CountArgs {
    /// Number of rows (at least 1).
    #[arg(value_parser = parse_side)]
    rows: u32,
    /// Number of columns (at least 1).
    #[arg(value_parser = parse_side)]
    cols: u32,
    /// Start row, 0-based. Give ROW and COL together, or neither for the whole table.
    #[arg(value_parser = parse_coordinate, requires = "col")]
    row: Option<u32>,
    /// Start column, 0-based.
    #[arg(value_parser = parse_coordinate)]
    col: Option<u32>,
    #[command(flatten)]
    kind: KindFlag,
    /// Only the board's totals (directed and undirected), without the per-square table.
    #[arg(long, conflicts_with = "row")]
    total: bool,
    /// Output format (`svg`: the per-square table as a heatmap).
    #[arg(long, short, value_enum, default_value_t = CountFormatArg::Table)]
    format: CountFormatArg,
    #[command(flatten)]
    engine: EngineArgs,
    /// Say why the count is what it is (the theorem behind a zero); JSON always has it.
    #[arg(long)]
    explain: bool,
    /// Print where the answer came from, the time taken and the engine's figures on standard
    /// error.
    #[arg(long)]
    stats: bool,
}

#[derive(Debug, Args)]
struct EngineArgs {
    /// Counting engine for what the store lacks: `auto` picks the faster for each question
    /// (memo for small boards, frontier for totals, closed tours and larger boards).
    #[arg(long, value_enum, default_value_t = EngineArg::Auto)]
    engine: EngineArg,
}

#[derive(Debug, Args)]
struct SolveArgs {
    /// File to read; standard input when absent or `-`.
    file: Option<PathBuf>,
    #[command(flatten)]
    kind: KindFlag,
    #[command(flatten)]
    engine: EngineArgs,
}

#[derive(Debug, Args)]
struct BatchArgs {
    /// File to read, or `-` for standard input.
    file: PathBuf,
    #[command(flatten)]
    kind: KindFlag,
    /// Output format (the judge format always prints bare counts as `table`).
    #[arg(long, short, value_enum, default_value_t = FormatArg::Table)]
    format: FormatArg,
    #[command(flatten)]
    engine: EngineArgs,
    /// No summary or progress bar on standard error.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Debug, Args)]
struct PrecomputeArgs {
    /// Boards AxB..CxD: rows A to C, columns B to D (both orientations are one board).
    #[arg(long, value_name = "RANGE", value_parser = parse_range)]
    boards: Option<BoardRange>,
    /// Only boards of at least N squares.
    #[arg(long, value_name = "N")]
    min_squares: Option<u64>,
    /// Only boards of at most N squares (alone: every board up to N squares).
    #[arg(long, value_name = "N")]
    max_squares: Option<u64>,
    #[command(flatten)]
    kind: KindFlag,
    #[command(flatten)]
    engine: EngineArgs,
    /// No progress bar or summary.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Debug, Args)]
struct FilterArgs {
    /// Only this board, e.g. 5x5 (either orientation).
    #[arg(long, value_name = "RxC", value_parser = parse_board)]
    board: Option<Board>,
    /// Only this kind of count.
    #[arg(long, value_enum)]
    kind: Option<KindArg>,
    /// Only boards of at least N squares.
    #[arg(long, value_name = "N")]
    min_squares: Option<u64>,
    /// Only boards of at most N squares.
    #[arg(long, value_name = "N")]
    max_squares: Option<u64>,
}

#[derive(Debug, Args)]
struct QueryArgs {
    #[command(flatten)]
    filter: FilterArgs,
    /// Output format.
    #[arg(long, short, value_enum, default_value_t = FormatArg::Table)]
    format: FormatArg,
}

#[derive(Debug, Args)]
struct ExportArgs {
    #[command(flatten)]
    filter: FilterArgs,
    /// File format; by default JSON for a `.json` output file, CSV otherwise.
    #[arg(long, short, value_enum)]
    format: Option<ExchangeArg>,
    /// File to write (replaced only once complete); standard output when absent.
    #[arg(long, short)]
    output: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct ImportArgs {
    /// File to read, or `-` for standard input.
    file: PathBuf,
    /// File format; by default JSON for a `.json` file, CSV otherwise.
    #[arg(long, short, value_enum)]
    format: Option<ExchangeArg>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum CountFormatArg {
    Table,
    Json,
    Csv,
    /// A heatmap of the per-square table.
    Svg,
}

impl From<CountFormatArg> for Format {
    fn from(arg: CountFormatArg) -> Self {
        match arg {
            CountFormatArg::Table => Format::Table,
            CountFormatArg::Json => Format::Json,
            CountFormatArg::Csv => Format::Csv,
            CountFormatArg::Svg => Format::Svg,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum TourFormatArg {
    /// The board with the step number of every square.
    Board,
    /// The board's size and the squares in order.
    Json,
    /// A picture of the board and the knight's path.
    Svg,
}

impl From<TourFormatArg> for TourFormat {
    fn from(arg: TourFormatArg) -> Self {
        match arg {
            TourFormatArg::Board => TourFormat::Board,
            TourFormatArg::Json => TourFormat::Json,
            TourFormatArg::Svg => TourFormat::Svg,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum FormatArg {
    Table,
    Json,
    Csv,
}

impl From<FormatArg> for Format {
    fn from(arg: FormatArg) -> Self {
        match arg {
            FormatArg::Table => Format::Table,
            FormatArg::Json => Format::Json,
            FormatArg::Csv => Format::Csv,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ExchangeArg {
    Csv,
    Json,
}

impl From<ExchangeArg> for ExchangeFormat {
    fn from(arg: ExchangeArg) -> Self {
        match arg {
            ExchangeArg::Csv => ExchangeFormat::Csv,
            ExchangeArg::Json => ExchangeFormat::Json,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum EngineArg {
    /// The faster engine for each question.
    Auto,
    /// The memoized search over (square, unvisited squares): boards of up to 64 squares.
    Memo,
    /// The transfer-matrix DP over the frontier: boards with a short side of up to 8.
    Frontier,
    /// Plain backtracking, for comparison.
    Reference,
}

impl From<EngineArg> for EngineChoice {
    fn from(arg: EngineArg) -> Self {
        match arg {
            EngineArg::Auto => EngineChoice::Auto,
            EngineArg::Memo => EngineChoice::Memo,
            EngineArg::Frontier => EngineChoice::Frontier,
            EngineArg::Reference => EngineChoice::Reference,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum KindArg {
    Open,
    Closed,
}

impl From<KindArg> for TourKind {
    fn from(arg: KindArg) -> Self {
        match arg {
            KindArg::Open => TourKind::Open,
            KindArg::Closed => TourKind::Closed,
        }
    }
}

/// `--closed`: count closed tours instead of open ones.
#[derive(Debug, Args)]
struct KindFlag {
    /// Count closed tours (ending a knight's move from the start) instead of open ones.
    #[arg(long)]
    closed: bool,
}

impl KindFlag {
    fn kind(&self) -> TourKind {
        if self.closed {
            TourKind::Closed
        } else {
            TourKind::Open
        }
    }
}

fn parse_whole(text: &str) -> Result<u64, String> {
    match text.trim().parse::<i128>() {
        Ok(v) if v < 0 => Err(format!("{text} is negative")),
        Ok(v) => u64::try_from(v).map_err(|_| format!("{text} is far too large")),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

fn parse_side(text: &str) -> Result<u32, String> {
    let value = parse_whole(text).map_err(|e| format!("{e}; a board side is at least 1"))?;
    if value == 0 {
        return Err("a board side is at least 1".into());
    }
    u32::try_from(value)
        .ok()
        .filter(|&v| v <= knights::board::MAX_SIDE)
        .ok_or_else(|| format!("a board side is at most {}", knights::board::MAX_SIDE))
}

fn parse_coordinate(text: &str) -> Result<u32, String> {
    let value = parse_whole(text).map_err(|e| format!("{e}; squares are numbered from 0"))?;
    u32::try_from(value).map_err(|_| format!("{text} is far too large"))
}

fn parse_cols(text: &str) -> Result<std::ops::RangeInclusive<u32>, String> {
    let (low, high) = text.split_once("..").unwrap_or((text, text));
    let low = parse_side(low.trim())?;
    let high = parse_side(high.trim())?;
    if low > high {
        return Err(format!("'{text}' is empty: {low} is more than {high}"));
    }
    Ok(low..=high)
}

fn parse_range(text: &str) -> Result<BoardRange, String> {
    text.parse()
}

fn parse_board(text: &str) -> Result<Board, String> {
    let range: BoardRange = text.parse()?;
    if range.from != range.to {
        return Err(format!("'{text}' is a range; give one board like 5x6"));
    }
    Board::new(range.from.0, range.from.1).map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return report_usage_error(err),
    };
    let cancel = CancelFlag::new();
    let handler_flag = cancel.clone();
    // The first Ctrl-C asks the work to stop cleanly (finished answers are saved); a second
    // one ends the process at once.
    let _ = ctrlc::set_handler(move || {
        if handler_flag.is_cancelled() {
            std::process::exit(130);
        }
        handler_flag.cancel();
    });
    match run(cli, &cancel) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if err.downcast_ref::<NoTour>().is_some() => {
            eprintln!("{err}");
            ExitCode::from(exit_code(&err))
        }
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(exit_code(&err))
        }
    }
}

/// Prints a command-line error as one line (help and version go to stdout as usual).
fn report_usage_error(err: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = err.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            ExitCode::from(2)
        }
        _ => {
            eprintln!("{}", one_line(&err.render().to_string()));
            ExitCode::from(2)
        }
    }
}

/// Folds clap's message (error, details, usage, hint) into one line that names what is wrong
/// and where to read more.
fn one_line(rendered: &str) -> String {
    let message: Vec<&str> = rendered
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect();
    let command: Vec<&str> = rendered
        .lines()
        .find_map(|line| line.strip_prefix("Usage: "))
        .map(|usage| {
            usage
                .split_whitespace()
                .take_while(|word| !word.starts_with(['<', '[', '-']))
                .collect()
        })
        .unwrap_or_else(|| vec!["knights"]);
    format!("{} (see '{} --help')", message.join(" "), command.join(" "))
}

/// 2 for bad input, 130 for an interrupted run, 1 for anything else.
fn exit_code(err: &anyhow::Error) -> u8 {
    match err.downcast_ref::<knights::Error>() {
        Some(knights::Error::Interrupted) => 130,
        _ if err.downcast_ref::<Stopped>().is_some() => 130,
        _ if err.downcast_ref::<NoTour>().is_some() => 3,
        Some(e) if e.is_bad_input() => 2,
        _ if err.downcast_ref::<knights::board::BoardError>().is_some() => 2,
        _ if err.downcast_ref::<BadInput>().is_some() => 2,
        _ => 1,
    }
}

/// No tour exists (exit code 3).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct NoTour(String);

/// An interruption, with what was kept (exit code 130).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Stopped(String);

/// An input problem found by the command itself (e.g. an unreadable file).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct BadInput(String);

/// What every command shares: the store's location and the engine settings.
struct Session {
    db: Option<PathBuf>,
    no_cache: bool,
    memory: MemoryBudget,
    cancel: CancelFlag,
}

impl Session {
    /// The answer store, or `None` with `--no-cache`.
    fn store(&self) -> Result<Option<Store>> {
        if self.no_cache {
            return Ok(None);
        }
        self.open_store().map(Some)
    }

    /// The answer store, for the commands that exist to use it.
    fn required_store(&self, command: &str) -> Result<Store> {
        if self.no_cache {
            return Err(BadInput(format!(
                "{command} works on the answer store; --no-cache makes no sense here"
            ))
            .into());
        }
        self.open_store()
    }

    fn open_store(&self) -> Result<Store> {
        let path = match &self.db {
            Some(path) => path.clone(),
            None => {
                let path = store::default_path().ok_or_else(|| {
                    BadInput("no data directory is known here; give the store's place with --db PATH or $KNIGHTS_DB".into())
                })?;
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).with_context(|| {
                        format!(
                            "cannot create the directory {} for the answer store",
                            dir.display()
                        )
                    })?;
                }
                path
            }
        };
        Ok(Store::open(&path).map_err(knights::Error::from)?)
    }

    fn settings(&self, engine: EngineArg) -> Settings {
        Settings {
            engine: engine.into(),
            memory: self.memory,
            cancel: self.cancel.clone(),
        }
    }
}

fn run(cli: Cli, cancel: &CancelFlag) -> Result<()> {
    let context = Session {
        db: cli.db,
        no_cache: cli.no_cache,
        memory: cli.memory,
        cancel: cancel.clone(),
    };
    match cli.command {
        Command::Count(args) => count(args, &context),
        Command::Solve(args) => solve(args, &context),
        Command::Batch(args) => batch_file(args, &context),
        Command::Precompute(args) => precompute_boards(args, &context),
        Command::Query(args) => query(args, &context),
        Command::Export(args) => export(args, &context),
        Command::Import(args) => import(args, &context),
        Command::Series(args) => series(args, &context),
        Command::Tour(args) => tour(args, &context),
    }
}

fn count(args: CountArgs, context: &Session) -> Result<()> {
    let board = Board::new(args.rows, args.cols)?;
    let start = match (args.row, args.col) {
        (Some(row), Some(col)) => {
            let square = Square::new(row, col);
            board.check_square(square)?;
            Some(square)
        }
        _ => None,
    };
    let kind = args.kind.kind();
    let questions: Vec<Question> = match (kind, start) {
        (_, Some(square)) => vec![Question::from_start(board, square, kind)],
        (TourKind::Closed, None) => vec![Question::total(board, kind)],
        (TourKind::Open, None) if args.total => vec![Question::total(board, kind)],
        (TourKind::Open, None) => std::iter::once(Question::total(board, kind))
            .chain(
                Question::starts_of_board(board, kind)
                    .into_iter()
                    .map(|(q, _)| q),
            )
            .collect(),
    };
    let settings = context.settings(args.engine.engine);
    check_engines(&questions, &settings)?;
    let mut store = context.store()?;
    let clock = Instant::now();
    let resolution = resolve::resolve(&questions, store.as_mut(), &settings, &mut |_| {})?;
    let exporter = Format::from(args.format).exporter();
    let count = resolution.count(&questions[0]);
    let mut text = match (kind, start) {
        (_, Some(square)) => {
            exporter.start_count(&StartCount::new(board, square, kind, count.clone()))?
        }
        (TourKind::Closed, None) => exporter.closed_board(&ClosedReport::new(board, count))?,
        (TourKind::Open, None) if args.total => {
            exporter.board_totals(&[BoardTotal::new(board, kind, count)])?
        }
        (TourKind::Open, None) => {
            let counts = board
                .all_squares()
                .map(|sq| {
                    resolution
                        .count(&Question::from_start(board, sq, kind))
                        .clone()
                })
                .collect();
            exporter.table(&CountTable::new(board, counts))?
        }
    };
    if args.explain && Format::from(args.format) == Format::Table {
        text.push_str(&format!(
            "why: {}\n",
            existence::explain(board, kind, start, count)
        ));
    }
    if args.stats {
        let stored = questions
            .iter()
            .filter(|q| resolution.from_store.contains(q))
            .count();
        let engine = &resolution.answers[&questions[0]].engine;
        let figures = resolution.engine_stats;
        let source = if stored == questions.len() {
            "answered from the store".to_string()
        } else if engine == resolve::THEOREM {
            "answered by an existence theorem, without a search".to_string()
        } else if figures.frontier.transitions > 0 {
            let f = figures.frontier;
            format!(
                "computed by the frontier engine ({} transitions, largest layer {} states, {:.1} MiB; counts in {})",
                f.transitions,
                f.peak_states,
                f.peak_bytes as f64 / (1u64 << 20) as f64,
                match f.count_bits {
                    0 => "arbitrary precision".to_string(),
                    bits => format!("{bits} bits"),
                }
            )
        } else {
            let m = figures.memo;
            format!(
                "computed by the {engine} engine ({} states solved, {} table hits, {} states pruned, {} table entries, {:.1} MiB{})",
                m.states_solved,
                m.table_hits,
                m.states_pruned,
                m.entries,
                m.table_bytes as f64 / (1u64 << 20) as f64,
                if m.stores_refused > 0 {
                    format!(
                        "; {} states not kept: memory budget reached",
                        m.stores_refused
                    )
                } else {
                    String::new()
                }
            )
        };
        eprintln!("{source}; {:.3} s", clock.elapsed().as_secs_f64());
    }
    print(&text)
}

/// Refuses, before the store is touched, a question no engine asked for can take (unless a
/// theorem answers it without one).
fn check_engines(questions: &[Question], settings: &Settings) -> Result<()> {
    for question in questions {
        if existence::no_tour(question.board, question.kind, question.start).is_some() {
            continue;
        }
        match settings.engine.engine_for(question) {
            Engine::Memo => {
                knights::graph::KnightGraph::new(question.board)?;
            }
            Engine::Frontier => {
                let short = question.board.rows().min(question.board.cols());
                if short > knights::count::frontier::MAX_WIDTH {
                    return Err(knights::Error::BoardTooLarge {
                        board: question.board,
                        max_squares: u64::from(knights::count::frontier::MAX_WIDTH)
                            * u64::from(knights::board::MAX_SIDE),
                        engine: "frontier (short side at most 8)",
                    }
                    .into());
                }
            }
            Engine::Reference => {}
        }
    }
    Ok(())
}

fn tour(args: TourArgs, context: &Session) -> Result<()> {
    let board = Board::new(args.rows, args.cols)?;
    let start = Square::new(args.row, args.col);
    board.check_square(start)?;
    knights::tour::check_memory(board, context.memory)?;
    let clock = Instant::now();
    match knights::tour::find_tour(board, start, args.closed, args.seed, &context.cancel)? {
        Ok((tour, method)) => {
            let seconds = clock.elapsed().as_secs_f64();
            let text = output::write_tour(&tour, method, args.format.into());
            match &args.output {
                Some(path) => write_file(path, &text)?,
                None => print(&text)?,
            }
            if args.stats {
                eprintln!("found by {method} in {seconds:.4} s");
            }
            Ok(())
        }
        Err(reason) => Err(NoTour(reason.to_string()).into()),
    }
}

fn series(args: SeriesArgs, context: &Session) -> Result<()> {
    let kind = args.kind.kind();
    let settings = context.settings(args.engine.engine);
    let questions: Vec<Question> = args
        .cols
        .clone()
        .map(|n| Board::new(args.rows, n).map(|b| Question::total(b, kind)))
        .collect::<Result<_, _>>()?;
    // The one frontier pass takes any length when ROWS is narrow enough.
    if args.rows > knights::count::frontier::MAX_WIDTH
        || !matches!(settings.engine, EngineChoice::Auto | EngineChoice::Frontier)
    {
        check_engines(&questions, &settings)?;
    }
    let mut store = context.store()?;
    let format = Format::from(args.format);
    let exporter = format.exporter();
    let bar = progress_bar(args.quiet);
    bar.set_length(questions.len() as u64);
    let mut rows: Vec<BoardTotal> = Vec::new();
    let mut printed = Ok(());
    let result = knights::series::series(
        args.rows,
        args.cols.clone(),
        kind,
        store.as_mut(),
        &settings,
        &mut |row| {
            bar.inc(1);
            let total = BoardTotal::new(row.board, kind, &row.answer.count);
            // Text is printed line by line as boards are known; JSON and CSV at the end.
            if format == Format::Table && printed.is_ok() {
                let line = output::TextExporter::series_line(&total, rows.is_empty());
                bar.suspend(|| printed = print(&line));
            }
            rows.push(total);
        },
    );
    bar.finish_and_clear();
    printed?;
    result?;
    if format != Format::Table {
        print(&exporter.board_totals(&rows)?)?;
    }
    Ok(())
}

fn solve(args: SolveArgs, context: &Session) -> Result<()> {
    let path = args.file.unwrap_or_else(|| PathBuf::from("-"));
    let (name, text) = read_input(&path)?;
    let queries = input::parse_judge(&text).map_err(|e| in_file(&name, knights::Error::from(e)))?;
    let answers = answer_batch(
        &queries,
        args.kind.kind(),
        &name,
        context,
        EngineArg::Memo,
        true,
    )?;
    print(&output::bare_counts(&answers.counts))
}

fn batch_file(args: BatchArgs, context: &Session) -> Result<()> {
    let (name, text) = read_input(&args.file)?;
    let parsed = input::parse_batch(&text).map_err(|e| in_file(&name, knights::Error::from(e)))?;
    let clock = Instant::now();
    let kind = args.kind.kind();
    let answers = answer_batch(
        &parsed.queries,
        kind,
        &name,
        context,
        args.engine.engine,
        args.quiet,
    )?;
    let format = Format::from(args.format);
    let text = if parsed.format == BatchFormat::Judge && format == Format::Table {
        output::bare_counts(&answers.counts)
    } else {
        let records: Vec<StartCount> = parsed
            .queries
            .iter()
            .zip(&answers.counts)
            .map(|(q, count)| StartCount::new(q.board, q.start, kind, count.clone()))
            .collect();
        format.exporter().start_counts(&records)?
    };
    print(&text)?;
    if !args.quiet {
        eprintln!(
            "{} {}: {} from the store, {} computed ({} distinct {} computed) in {:.2} s",
            answers.counts.len(),
            plural(answers.counts.len(), "answer", "answers"),
            answers.from_store,
            answers.computed,
            answers.distinct_computed,
            plural(answers.distinct_computed, "question", "questions"),
            clock.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// Answers queries through the store, with a progress bar unless `quiet`.
fn answer_batch(
    queries: &[input::Query],
    kind: TourKind,
    name: &str,
    context: &Session,
    engine: EngineArg,
    quiet: bool,
) -> Result<BatchAnswers> {
    batch::check_queries(queries, kind).map_err(|e| in_file(name, e))?;
    let mut store = context.store()?;
    let bar = progress_bar(quiet);
    let result = batch::answer_queries(
        queries,
        kind,
        store.as_mut(),
        &context.settings(engine),
        &mut |event| report_progress(&bar, event),
    );
    bar.finish_and_clear();
    Ok(result?)
}

fn precompute_boards(args: PrecomputeArgs, context: &Session) -> Result<()> {
    let selection = BoardSelection {
        range: args.boards,
        min_squares: args.min_squares,
        max_squares: args.max_squares,
    };
    let boards = selection.boards()?;
    let questions = precompute::questions(&boards, args.kind.kind());
    let mut store = context.required_store("precompute")?;
    let bar = progress_bar(args.quiet);
    let clock = Instant::now();
    let mut computed = 0usize;
    let result = resolve::resolve(
        &questions,
        Some(&mut store),
        &context.settings(args.engine.engine),
        &mut |event| {
            if let Progress::Computed(_) = event {
                computed += 1;
            }
            report_progress(&bar, event);
        },
    );
    bar.finish_and_clear();
    match result {
        Ok(resolution) => {
            if !args.quiet {
                eprintln!(
                    "{} {} ({} answers): {} already stored, {} computed in {:.2} s; saved in {}",
                    boards.len(),
                    plural(boards.len(), "board", "boards"),
                    questions.len(),
                    resolution.from_store.len(),
                    questions.len() - resolution.from_store.len(),
                    clock.elapsed().as_secs_f64(),
                    store.path()
                );
            }
            Ok(())
        }
        Err(knights::Error::Interrupted) => Err(Stopped(format!(
            "interrupted: the {computed} answers computed so far are saved in {}; run the same command again to go on",
            store.path()
        ))
        .into()),
        Err(e) => Err(e.into()),
    }
}

fn filter(args: &FilterArgs) -> AnswerFilter {
    AnswerFilter {
        board: args.board,
        kind: args.kind.map(TourKind::from),
        min_squares: args.min_squares,
        max_squares: args.max_squares,
    }
}

fn query(args: QueryArgs, context: &Session) -> Result<()> {
    let store = context.required_store("query")?;
    let answers = store.list(&filter(&args.filter))?;
    print(&Format::from(args.format).exporter().answers(&answers)?)
}

fn export(args: ExportArgs, context: &Session) -> Result<()> {
    let store = context.required_store("export")?;
    let answers = store.list(&filter(&args.filter))?;
    let format = match (args.format, &args.output) {
        (Some(format), _) => format.into(),
        (None, Some(path)) => ExchangeFormat::from_file_name(&path.to_string_lossy()),
        (None, None) => ExchangeFormat::Csv,
    };
    let exporter = match format {
        ExchangeFormat::Csv => Format::Csv,
        ExchangeFormat::Json => Format::Json,
    }
    .exporter();
    let text = exporter.answers(&answers)?;
    match args.output {
        Some(path) => {
            write_file(&path, &text)?;
            eprintln!("exported {} answers to {}", answers.len(), path.display());
            Ok(())
        }
        None => print(&text),
    }
}

fn import(args: ImportArgs, context: &Session) -> Result<()> {
    let (name, text) = read_input(&args.file)?;
    let format = match args.format {
        Some(format) => format.into(),
        None => ExchangeFormat::from_file_name(&name),
    };
    let answers = exchange::read_answers(&text, format)
        .map_err(|e| in_file(&name, knights::Error::from(e)))?;
    let mut store = context.required_store("import")?;
    let report = exchange::import(&mut store, &answers).map_err(|e| in_file(&name, e))?;
    eprintln!(
        "imported {} new answers from {name} ({} already stored) into {}",
        report.added,
        report.already_stored,
        store.path()
    );
    Ok(())
}

/// A progress bar on standard error, hidden when it is not a terminal or when `quiet`.
fn progress_bar(quiet: bool) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {elapsed_precise} [{wide_bar}] {pos}/{len} answers computed, ETA {eta}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

fn report_progress(bar: &ProgressBar, event: Progress<'_>) {
    match event {
        Progress::Planned { questions } => bar.set_length(questions as u64),
        Progress::Computed(_) => bar.inc(1),
    }
}

/// Names the file an error belongs to (standard input needs no name).
fn in_file(name: &str, e: knights::Error) -> anyhow::Error {
    if name == "standard input" {
        e.into()
    } else {
        anyhow::Error::new(e).context(name.to_string())
    }
}

/// Reads a file, or standard input for `-`; returns a name for messages and the text.
fn read_input(path: &Path) -> Result<(String, String)> {
    let mut bytes = Vec::new();
    let name = if path.as_os_str() == "-" {
        io::stdin()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
        "standard input".to_string()
    } else {
        let name = path.display().to_string();
        bytes = std::fs::read(path).map_err(|e| BadInput(format!("cannot read {name}: {e}")))?;
        name
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        BadInput(format!(
            "{name} is not text: invalid UTF-8 at byte {}",
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok((name, text))
}

/// Writes `text` to `path` through a temporary file, so that a failure never leaves a partial
/// file in place of a good one.
fn write_file(path: &Path, text: &str) -> Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let temporary = dir.join(format!(
        ".{}.partial",
        path.file_name()
            .map_or("export".into(), |n| n.to_string_lossy())
    ));
    std::fs::write(&temporary, text)
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    std::fs::rename(&temporary, path).with_context(|| format!("cannot write {}", path.display()))
}

/// Writes to standard output; a closed pipe (e.g. `| head`) is not an error.
fn print(text: &str) -> Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to standard output"),
    }
}
