//! Flag groups that several commands flatten into their arguments.

use clap::Args;
use knights::Board;
use knights::question::TourKind;
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
    #[arg(long, value_enum, default_value_t = EngineArg::Auto)]
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

impl From<&FilterArgs> for AnswerFilter {
    fn from(args: &FilterArgs) -> Self {
        AnswerFilter {
            board: args.board,
            kind: args.kind.map(TourKind::from),
            min_squares: args.min_squares,
            max_squares: args.max_squares,
        }
    }
}
