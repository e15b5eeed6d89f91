//! `knights count`: open tours from one square (or from one square to another), the per-square
//! table, or a board's totals.

use std::time::Instant;

use anyhow::Result;
use knights::existence;
use knights::output::{self, BetweenCount, BoardTotal, ClosedReport, Format, StartCount};
use knights::question::{Question, TourKind};
use knights::resolve;
use knights::view::View;
use knights::{Board, Square};

use crate::cli::exit::CliError;
use crate::cli::flags::{EngineArgs, KindFlag};
use crate::cli::io::{WorkBar, check_output, escaped, print};
use crate::cli::session::Session;
use crate::cli::values::{CountFormatArg, EngineArg, RowsArg, parse_coordinate, parse_side};

#[derive(Debug, clap::Args)]
#[command(
    allow_negative_numbers = true,
    after_help = "\
Examples:
  knights count 5 4 0 0             32 (open tours from the corner of a 5x4 board)
  knights count 5 5 2 2             64
  knights count 5 5 0 0 --to 4 4    open tours from one corner that end on the opposite one
  knights count 5 5                 the table of all 25 squares, and the board's totals
  knights count 6 6 --format json   the same as JSON (counts are strings of digits)"
)]
pub struct Args {
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
    /// End square: count only the open tours from ROW COL that end on ROW2 COL2.
    #[arg(
        long,
        num_args = 2,
        // Once: a second end would otherwise be dropped without a word.
        action = clap::ArgAction::Set,
        value_names = ["ROW2", "COL2"],
        value_parser = parse_coordinate,
        requires = "row",
        conflicts_with_all = ["closed", "total"]
    )]
    to: Option<Vec<u32>>,
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
    /// With `--engine frontier`: the side of the board the frontier's rows run along (`long`
    /// counts the board a second way, to check a count; answers in the store are served as
    /// usual, `--no-cache` counts them).
    #[arg(long = "rows", value_enum, value_name = "SIDE", hide_short_help = true)]
    frontier_rows: Option<RowsArg>,
    /// Say why the count is what it is (the theorem behind a zero); JSON always has it.
    #[arg(long)]
    explain: bool,
    /// Print where the answer came from, the time taken and the engine's figures on standard
    /// error.
    #[arg(long, hide_short_help = true)]
    stats: bool,
    /// Write a line for every layer of the frontier engine's passes, as it finishes, to FILE
    /// (CSV: phase, square, squares, states, resident bytes, seconds): where a board's passes
    /// grow, to plan how far they fit.
    #[arg(long, value_name = "FILE", hide_short_help = true)]
    layers: Option<std::path::PathBuf>,
}

pub fn run(args: Args, session: &Session) -> Result<()> {
    if let Some(path) = &args.layers {
        check_output(path)?;
        let file = std::fs::File::create(path)
            .and_then(|file| session.cancel.log_layers(std::io::BufWriter::new(file)));
        file.map_err(|e| CliError::bad_input(format!("cannot write {}: {e}", escaped(path))))?;
    }
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
    let view = match (start, args.to.as_deref()) {
        (Some(start), Some(&[row, col])) => View::between(board, start, Square::new(row, col))
            .map_err(|e| CliError::bad_input(format!("--to {row} {col} is {}", e.predicate())))?,
        (Some(square), _) => View::Start(board, square, kind),
        (None, _) => match kind {
            TourKind::Closed => View::Closed(board),
            TourKind::Open if args.total => View::Total(board),
            TourKind::Open => View::Table(board),
        },
    };
    let mut settings = session.settings(args.engine.engine);
    if let Some(rows) = args.frontier_rows {
        if args.engine.engine != EngineArg::Frontier {
            return Err(CliError::bad_input(
                "--rows says how the frontier engine turns the board: give it with --engine frontier",
            )
            .into());
        }
        settings.rows = rows.into();
    }
    let refused = match view.check_engines(&settings) {
        Err(refused) if !view.may_be_stored() => return Err(refused.into()),
        checked => checked.err(),
    };
    let questions = view.questions();
    let mut store = session.store()?;
    if let Some(refused) = refused {
        // No engine here counts it on one machine, but a merged plan may have, and the store
        // holds what it merged (or imported, through the same checks): that is served.
        if !knights::resolve::served_past_one_machine(&refused, store.as_deref(), &questions)? {
            return Err(refused.into());
        }
    }
    let clock = Instant::now();
    // A refusal names the board as it was asked, not as an engine turned it.
    let resolution = resolve_showing_progress(&questions, store.as_deref_mut(), &settings, session)
        .map_err(|e| match e.downcast::<knights::Error>() {
            Ok(e) => e.on_board(board).into(),
            Err(e) => e,
        })?;
    let count = view.count(&resolution);
    let mut text = match (args.format.format(), view) {
        (None, View::Table(_)) => output::heatmap(&view.table(&resolution)),
        (None, View::Start(..) | View::Between(..)) => {
            return Err(output::no_picture("a single count").into());
        }
        (None, View::Closed(_)) => {
            return Err(
                output::no_picture("a closed-tour count (the same from every square)").into(),
            );
        }
        (None, View::Total(_)) => return Err(output::no_picture("a board total").into()),
        (Some(format), _) => {
            let exporter = format.exporter();
            match view {
                View::Start(board, square, kind) => {
                    exporter.start_count(&StartCount::new(board, square, kind, count.clone()))?
                }
                View::Closed(board) => exporter.closed_board(&ClosedReport::new(board, count))?,
                View::Total(board) => {
                    exporter.board_totals(&[BoardTotal::new(board, kind, count)])?
                }
                View::Table(_) => exporter.table(&view.table(&resolution))?,
                View::Between(board, start, end) => {
                    exporter.between_count(&BetweenCount::new(board, start, end, count.clone()))?
                }
            }
        }
    };
    if args.explain && args.format.format() == Some(Format::Table) {
        let why = match view {
            View::Between(board, start, end) => {
                existence::explain_between(board, start, end, count)
            }
            _ => existence::explain(board, kind, start, count),
        };
        text.push_str(&format!("why: {why}\n"));
    }
    if args.stats {
        eprintln!(
            "{}; {:.3} s; memory budget {}",
            resolution.source(&questions),
            clock.elapsed().as_secs_f64(),
            session.memory
        );
    }
    print(&text)
}

/// Answers `questions` with a progress bar on a terminal. An interruption after some answers
/// were saved says so, and how to go on.
fn resolve_showing_progress(
    questions: &[Question],
    mut store: Option<&mut knights::store::Store>,
    settings: &resolve::Settings,
    session: &Session,
) -> Result<resolve::Resolution> {
    let bar = WorkBar::new(false, &session.cancel);
    let mut computed = 0usize;
    let resolution = resolve::resolve(questions, store.as_deref_mut(), settings, &mut |event| {
        if let resolve::Progress::Computed(_) = event {
            computed += 1;
        }
        bar.report(event)
    });
    drop(bar);
    match (resolution, store) {
        (Err(knights::Error::Interrupted), Some(store)) if computed > 0 => Err(CliError::stopped(
            format!(
                "interrupted: {computed} {} finished before it {} saved in {}; run the same command again to go on",
                knights::input::plural(computed, "answer", "answers"),
                if computed == 1 { "is" } else { "are" },
                store.path()
            ),
        )
        .into()),
        (resolution, _) => {
            let resolution = resolution?;
            for note in &resolution.notes {
                eprintln!("note: {note}");
            }
            Ok(resolution)
        }
    }
}
