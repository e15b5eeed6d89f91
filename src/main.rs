//! The `knights` command: parses arguments, calls the library, prints.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};
use knights::count::memo::MemoCounter;
use knights::count::{CountTable, reference};
use knights::output::{Format, StartCount};
use knights::{Board, CancelFlag, MemoryBudget, Square, input, solve};

const EXAMPLES: &str = "\
Examples:
  knights count 5 4 0 0                     open tours from a corner of 5x4: 32
  knights count 6 6                         the per-square table of 6x6 and its totals
  printf '2\\n5 4 0 0\\n3 4 0 0\\n' | knights solve   the judge format: prints 32 and 2";

/// Count knight's tours on rectangular boards, exactly.
#[derive(Debug, Parser)]
#[command(name = "knights", version, after_help = EXAMPLES)]
struct Cli {
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
    /// Output format.
    #[arg(long, short, value_enum, default_value_t = FormatArg::Table)]
    format: FormatArg,
    /// Counting engine: `memo` (fast) or `reference` (plain backtracking, for comparison).
    #[arg(long, value_enum, default_value_t = EngineArg::Memo)]
    engine: EngineArg,
    /// Print the time taken and the engine's figures on standard error.
    #[arg(long)]
    stats: bool,
}

#[derive(Debug, Args)]
struct SolveArgs {
    /// File to read; standard input when absent or `-`.
    file: Option<PathBuf>,
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum EngineArg {
    Memo,
    Reference,
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

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return report_usage_error(err),
    };
    let cancel = CancelFlag::new();
    let handler_flag = cancel.clone();
    // The first Ctrl-C asks the work to stop cleanly; a second one ends the process at once.
    let _ = ctrlc::set_handler(move || {
        if handler_flag.is_cancelled() {
            std::process::exit(130);
        }
        handler_flag.cancel();
    });
    match run(cli, &cancel) {
        Ok(()) => ExitCode::SUCCESS,
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
        Some(e) if e.is_bad_input() => 2,
        _ if err.downcast_ref::<BadInput>().is_some() => 2,
        _ => 1,
    }
}

/// An input problem found by the command itself (e.g. an unreadable file).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct BadInput(String);

fn run(cli: Cli, cancel: &CancelFlag) -> Result<()> {
    match cli.command {
        Command::Count(args) => count(args, cli.memory, cancel),
        Command::Solve(args) => solve_judge(args, cli.memory, cancel),
    }
}

fn count(args: CountArgs, memory: MemoryBudget, cancel: &CancelFlag) -> Result<()> {
    let board = Board::new(args.rows, args.cols)?;
    let start = match (args.row, args.col) {
        (Some(row), Some(col)) => {
            let square = Square::new(row, col);
            board.check_square(square)?;
            Some(square)
        }
        _ => None,
    };
    let exporter = Format::from(args.format).exporter();
    let clock = Instant::now();
    let (text, figures) = match args.engine {
        EngineArg::Memo => {
            let mut engine = MemoCounter::new(board, memory, cancel.clone())?;
            let text = match start {
                Some(square) => {
                    let count = engine.count_from(square)?;
                    exporter.start_count(&StartCount::open(board, square, count))?
                }
                None => exporter.table(&engine.table()?)?,
            };
            let s = engine.stats();
            let figures = format!(
                "memo engine: {} states solved, {} table hits, {} states pruned, {} entries ({:.1} MiB){}",
                s.states_solved,
                s.table_hits,
                s.states_pruned,
                s.entries,
                s.table_bytes as f64 / (1 << 20) as f64,
                if s.stores_refused > 0 {
                    format!(
                        ", {} states not stored: memory budget reached",
                        s.stores_refused
                    )
                } else {
                    String::new()
                }
            );
            (text, figures)
        }
        EngineArg::Reference => {
            let text = match start {
                Some(square) => {
                    let count = reference::count_open_tours(board, square, cancel)?;
                    exporter.start_count(&StartCount::open(board, square, count))?
                }
                None => {
                    let counts = board
                        .all_squares()
                        .map(|square| reference::count_open_tours(board, square, cancel))
                        .collect::<Result<Vec<_>, _>>()?;
                    exporter.table(&CountTable::new(board, counts))?
                }
            };
            (text, "reference engine (plain backtracking)".to_string())
        }
    };
    if args.stats {
        eprintln!("{figures}; {:.3} s", clock.elapsed().as_secs_f64());
    }
    print(&text)
}

fn solve_judge(args: SolveArgs, memory: MemoryBudget, cancel: &CancelFlag) -> Result<()> {
    let (name, text) = read_input(args.file.as_deref())?;
    let queries = input::parse_judge(&text).map_err(|e| match &name {
        Some(name) => anyhow::Error::new(knights::Error::from(e)).context(name.clone()),
        None => knights::Error::from(e).into(),
    })?;
    let answers = solve::answer_queries(&queries, memory, cancel).map_err(|e| match &name {
        Some(name) => anyhow::Error::new(e).context(name.clone()),
        None => e.into(),
    })?;
    let mut out = String::with_capacity(answers.len() * 8);
    for answer in answers {
        out.push_str(&answer.to_string());
        out.push('\n');
    }
    print(&out)
}

/// Reads a file (or standard input for `None` and `-`), returning its name for messages.
fn read_input(path: Option<&std::path::Path>) -> Result<(Option<String>, String)> {
    let mut bytes = Vec::new();
    let name = match path {
        Some(path) if path.as_os_str() != "-" => {
            let name = path.display().to_string();
            bytes =
                std::fs::read(path).map_err(|e| BadInput(format!("cannot read {name}: {e}")))?;
            Some(name)
        }
        _ => {
            io::stdin()
                .read_to_end(&mut bytes)
                .context("cannot read standard input")?;
            None
        }
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        BadInput(format!(
            "{} is not text: invalid UTF-8 at byte {}",
            name.as_deref().unwrap_or("standard input"),
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok((name, text))
}

/// Writes to standard output; a closed pipe (e.g. `| head`) is not an error.
fn print(text: &str) -> Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to standard output"),
    }
}
