//! `knights precompute`: fill the store for a range of boards.

use std::time::Instant;

use anyhow::Result;
use knights::input::plural;
use knights::precompute::{self, BoardRange, BoardSelection};
use knights::resolve;

use crate::cli::exit::CliError;
use crate::cli::flags::{EngineArgs, KindFlag, StoreOnlyFlags};
use crate::cli::io::{progress_bar, report_progress};
use crate::cli::session::Session;
use crate::cli::values::parse_range;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Computes every canonical start square and the total of every selected board, skipping what the
store already has (so an interrupted run resumes where it stopped). Shows a progress bar on a
terminal.

Examples:
  knights precompute --boards 3x3..6x6
  knights precompute --max-squares 30
  knights precompute --boards 4x4..5x8 --min-squares 20")]
pub struct Args {
    #[command(flatten)]
    unused: StoreOnlyFlags,
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

pub fn run(args: Args, session: &Session) -> Result<()> {
    if args.boards.is_none() && args.max_squares.is_none() {
        return Err(CliError::bad_input(
            "say which boards: --boards AxB..CxD and/or --max-squares N",
        )
        .into());
    }
    let selection = BoardSelection {
        range: args.boards,
        min_squares: args.min_squares,
        max_squares: args.max_squares,
    };
    let boards = selection.boards()?;
    let questions = precompute::questions(&boards, args.kind.kind());
    let mut store = session.writable_store("precompute", args.unused.no_cache)?;
    let bar = progress_bar(args.quiet);
    let clock = Instant::now();
    // What was saved is what the store gained: the computed answers, the theorems' zeros and the
    // totals summed from their starts alike.
    let before = store.len()?;
    let result = resolve::resolve(
        &questions,
        Some(&mut store),
        &session.settings(args.engine.engine),
        &mut |event| report_progress(&bar, event),
    );
    bar.finish_and_clear();
    match result {
        Ok(_) if store.is_on_a_full_disk() => Err(CliError {
            code: 1,
            message: format!(
                "the disk that holds the answer store {} is full: {} answers computed were not saved; {} were; make room and run the same command again",
                store.path(),
                store.unsaved(),
                store.len()?.saturating_sub(before)
            ),
        }
        .into()),
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
        Err(knights::Error::Interrupted) => Err(CliError::stopped(format!(
            "interrupted: the {} answers computed so far are saved in {}; run the same command again to go on",
            store.len()?.saturating_sub(before),
            store.path()
        ))
        .into()),
        Err(e) => Err(e.into()),
    }
}
