//! Flag groups that several commands flatten into their arguments.

use clap::Args;
use knights::Board;
use knights::question::{AnswerKind, TourKind};
use knights::store::AnswerFilter;

use super::values::{EngineArg, KindArg, parse_board};

/// `--closed`: count closed tours instead of open ones.
#[derive(Debug, Args)]
pub struct KindFlag {
    /// Count closed tours (ending a knight's move from the start) instead of open ones.
    #[arg(long)]
    closed: bool,
}

impl KindFlag {
    /// The kind of tour asked for.
    pub fn kind(&self) -> TourKind {
        if self.closed {
            TourKind::Closed
        } else {
            TourKind::Open
        }
    }
}

/// `--engine`.
#[derive(Debug, Args)]
pub struct EngineArgs {
    /// Counting engine for what the store lacks: `auto` picks the faster for each question
    /// (memo for small boards, frontier for totals, closed tours and larger boards).
    // For comparing and testing the engines: `auto` is right for everyone else.
    #[arg(long, value_enum, default_value_t = EngineArg::Auto, hide_short_help = true)]
    pub engine: EngineArg,
}

/// Which stored answers a command works on.
#[derive(Debug, Args)]
pub struct FilterArgs {
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

impl FilterArgs {
    /// The filter, refused (exit 2) when no board can pass it.
    pub fn filter(&self) -> Result<AnswerFilter, crate::cli::exit::CliError> {
        let filter = AnswerFilter::from(self);
        filter.check().map_err(|e| {
            crate::cli::exit::CliError::bad_input(format!(
                "--min-squares {} and --max-squares {}: {e}",
                e.min, e.max
            ))
        })?;
        Ok(filter)
    }
}

impl From<&FilterArgs> for AnswerFilter {
    fn from(args: &FilterArgs) -> Self {
        AnswerFilter {
            board: args.board,
            kind: args.kind.map(AnswerKind::from),
            min_squares: args.min_squares,
            max_squares: args.max_squares,
        }
    }
}

/// The global options that the store commands (`query`, `export`, `import`, `precompute`) have
/// no use for: accepted after the command's name as before it, but not listed in its help.
/// `--no-cache` is refused there; `--memory` bounds only what `import` holds.
#[derive(Debug, Args)]
pub struct StoreOnlyFlags {
    #[arg(long, hide = true)]
    pub no_cache: bool,
    #[arg(long, hide = true, value_name = "SIZE")]
    pub memory: Option<knights::MemoryBudget>,
}

/// The global options that `tour` has no use for (it never uses the store): accepted, ignored,
/// not listed in its help.
#[derive(Debug, Args)]
pub struct NoStoreFlags {
    #[arg(long, hide = true, value_name = "PATH")]
    db: Option<std::path::PathBuf>,
    #[arg(long, hide = true)]
    no_cache: bool,
}
