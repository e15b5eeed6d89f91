//! Which engine answers a question: the one place that says it, its fallback included.
//!
//! * [`EngineChoice::choose`]: the engine that counts a question under the choice asked for,
//!   and the engine that takes over when it stops on the memory budget; or why none can.
//! * [`check_engines`] and [`check_table`]: the same for many questions, before any store is
//!   touched.
//! * [`beyond_one_machine`]: the boards whose counts from one square no engine gives on one
//!   machine; [`beyond_every_engine`]: why no engine of this build can count a question.
//! * How an engine counts: [`Engine::counts_open_totals`] (or the total is the sum of its
//!   starts), [`counts_starts_together`] (the frontier engine's starts of a board that meets
//!   in the middle) and [`EngineChoice::in_one_pass`] (the boards of a series in one pass).
//!
//! The engines' own limits are asked of the engines ([`crate::count::memo::check_board`],
//! [`frontier::check_board`], [`frontier::meets_in_the_middle`]); what is written here is the
//! choice between them.

use crate::board::Board;
use crate::count::frontier::{self, FrontierMode};
use crate::count::memo;
use crate::error::Error;
use crate::existence::no_tour_for;
use crate::graph::MAX_BITSET_SQUARES;
use crate::question::{Question, Shape, TourKind};
use crate::store::EngineName;
use crate::trust::provenance;

use super::Settings;

/// An engine that computes counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Engine {
    /// The memoized dynamic program over (square, unvisited squares).
    Memo,
    /// The transfer-matrix dynamic program over the frontier.
    Frontier,
    /// Plain backtracking, the reference.
    Reference,
}

impl Engine {
    /// Ok when this engine can count on `board`; otherwise the error that names its limit
    /// (each engine says its own).
    pub fn check(self, board: Board) -> Result<(), Error> {
        match self {
            Engine::Memo => memo::check_board(board),
            Engine::Frontier => frontier::check_board(board),
            Engine::Reference => Ok(()),
        }
    }

    /// The name recorded in the store.
    pub const fn name(self) -> &'static str {
        match self {
            Engine::Memo => "memo",
            Engine::Frontier => "frontier",
            Engine::Reference => "reference",
        }
    }

    /// The name an answer it counted is recorded with.
    pub fn recorded(self) -> EngineName {
        match self {
            Engine::Memo => EngineName::Memo,
            Engine::Frontier => EngineName::Frontier,
            Engine::Reference => EngineName::Reference,
        }
    }

    /// True when the engine counts an open board total itself; the memo engine and the
    /// reference count from starts, and a total under them is the sum of its starts (recorded
    /// with the engine `sum`: [`provenance::counts_starts_only`]).
    pub fn counts_open_totals(self) -> bool {
        !provenance::counts_starts_only(self.name())
    }
}

/// The engine asked for: one of them, or `Auto` to pick the faster for each question.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EngineChoice {
    /// The faster engine for each question: the memo engine for small boards (at most
    /// [`AUTO_MEMO_SQUARES`] squares; [`AUTO_MEMO_TOTAL_SQUARES`] for board totals), the
    /// frontier engine for larger boards, board totals and closed tours beyond them.
    #[default]
    Auto,
    /// Always the memo engine.
    Memo,
    /// Always the frontier engine.
    Frontier,
    /// Always plain backtracking.
    Reference,
}

/// `Auto` counts from a start and closed tours with the memo engine up to this many squares.
pub const AUTO_MEMO_SQUARES: u64 = 40;

/// `Auto` counts open board totals with the memo engine (the sum of the starts) up to this
/// many squares: on these boards its per-square table is faster than the frontier's total.
pub const AUTO_MEMO_TOTAL_SQUARES: u64 = 36;

/// What [`EngineChoice::choose`] decided for one question.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Choice {
    /// The engine that counts the question (a theorem's zero pre-empts it: no search).
    pub engine: Engine,
    /// The engine that counts the question instead when `engine` stops on the memory budget:
    /// under `Auto`, the memo engine (which goes on, slower, when its table is full) after
    /// the frontier engine, on boards it takes.
    pub on_memory_budget: Option<Engine>,
}

impl EngineChoice {
    /// The engine that counts `question` (canonical) and its fallback, or why none can: under
    /// `Auto` the other engine when the faster one cannot take the board, and an error naming
    /// the limits of both when neither can; counts from one square of a board beyond one
    /// machine are refused ([`beyond_one_machine`]; pairs are the way around it: each is one
    /// bounded search). A question that a theorem decides needs no engine: it gets the one it
    /// would have, never an error.
    pub fn choose(self, question: &Question) -> Result<Choice, Error> {
        let board = question.board;
        let preferred = self.preferred(question);
        let decided = no_tour_for(question).is_some();
        let engine = if decided {
            preferred
        } else {
            if self == EngineChoice::Auto
                && matches!(question.shape(), Shape::Start(_))
                && beyond_one_machine(board)
            {
                return Err(Error::BeyondOneMachine {
                    board,
                    total: false,
                });
            }
            self.check_total_reach(question)?;
            match (self, preferred.check(board)) {
                (_, Ok(())) => preferred,
                (EngineChoice::Auto, Err(_)) => {
                    let other = match preferred {
                        Engine::Memo => Engine::Frontier,
                        _ => Engine::Memo,
                    };
                    other.check(board).map_err(|_| Error::BeyondEngines {
                        board,
                        max_squares: MAX_BITSET_SQUARES,
                        max_width: frontier::MAX_WIDTH,
                    })?;
                    other
                }
                (_, Err(e)) => return Err(e),
            }
        };
        let on_memory_budget = (self == EngineChoice::Auto
            && engine == Engine::Frontier
            && board.squares() <= AUTO_MEMO_SQUARES)
            .then_some(Engine::Memo);
        Ok(Choice {
            engine,
            on_memory_budget,
        })
    }

    /// Refuses, under `Auto`, an open board total whose frontier pass would outgrow one
    /// machine ([`frontier::total_beyond_one_machine`]: 8x8 and longer boards of width 8 or 9), at
    /// once rather than after hours; a theorem's zero is never refused. Its pairs give it.
    pub fn check_total_reach(self, question: &Question) -> Result<(), Error> {
        if self == EngineChoice::Auto
            && question.is_open_total()
            && no_tour_for(question).is_none()
            && frontier::total_beyond_one_machine(question.board)
        {
            return Err(Error::BeyondOneMachine {
                board: question.board,
                total: true,
            });
        }
        Ok(())
    }

    /// The engine asked for, or under `Auto` the faster for `question`'s board: the memo
    /// engine up to its squares, or on boards too wide for the frontier engine.
    fn preferred(self, question: &Question) -> Engine {
        match self {
            EngineChoice::Memo => Engine::Memo,
            EngineChoice::Frontier => Engine::Frontier,
            EngineChoice::Reference => Engine::Reference,
            EngineChoice::Auto => {
                let board = question.board;
                let narrow = board.rows().min(board.cols()) <= frontier::MAX_WIDTH;
                let limit = if question.is_open_total() {
                    AUTO_MEMO_TOTAL_SQUARES
                } else {
                    AUTO_MEMO_SQUARES
                };
                if board.squares() <= limit || !narrow {
                    Engine::Memo
                } else {
                    Engine::Frontier
                }
            }
        }
    }

    /// True when the board total `question` of `board` (`rows × n` as a series asks it, `rows`
    /// its short side) is counted in the one frontier pass that reads every height of the
    /// width `rows` off its layers: the frontier engine asked for, or under `Auto` the boards
    /// it takes from the memo engine.
    pub fn in_one_pass(self, board: Board, question: &Question) -> bool {
        board.rows() <= frontier::MAX_WIDTH
            && board.cols() >= board.rows()
            && match self {
                EngineChoice::Frontier => true,
                EngineChoice::Auto => self.preferred(question) == Engine::Frontier,
                _ => false,
            }
    }
}

/// How a series counts the boards it does not know: those of the one frontier pass, and those
/// counted one by one through the resolver before it and after it, so that its rows still come
/// in order of `n`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeriesPlan {
    /// The boards the pass reads off its layers, shortest first (empty, or at least one).
    pub pass: Vec<Board>,
    /// The boards counted one by one before the pass, in order.
    pub before: Vec<Board>,
    /// The boards counted one by one after the pass, in order.
    pub after: Vec<Board>,
}

/// How a series of `kind` totals counts `missing` (boards `rows × n` in order of `n`) with
/// `engine`: the one place that decides pass or one by one.
pub fn series_plan(engine: EngineChoice, missing: &[Board], kind: TourKind) -> SeriesPlan {
    // The frontier engine counts every height of one width in a single pass; `auto` leaves
    // the boards the memo engine does faster to it.
    let one_pass = |board: &Board| engine.in_one_pass(*board, &Question::total(*board, kind));
    let (mut pass, before): (Vec<Board>, Vec<Board>) = missing.iter().partition(|b| one_pass(b));
    // The pass costs what its tallest board costs. While that board is near square and meets
    // in the middle, it is much faster on its own (docs/measurements/ has 7x7's open total
    // both ways; 8x8's closed tours do not fit in memory in one pass): such boards at the top
    // of the range are counted one by one, after the pass over the others. On long boards a
    // pass one row shorter saves little, and the meeting would be work on top; a board that
    // meets below one that does not is reached by the pass.
    let mode = match kind {
        TourKind::Closed => FrontierMode::Closed,
        TourKind::Open => FrontierMode::Total,
    };
    let mut after = Vec::new();
    while let Some(&board) = pass.last() {
        if board.cols() > board.rows() + NEAR_SQUARE || !frontier::meets_in_the_middle(board, mode)
        {
            break;
        }
        after.push(board);
        pass.pop();
    }
    after.reverse();
    // A pass over several heights finishes a board at every row, so the boards below it that
    // it can count (those at least as long as wide) come with it at no cost: the memo engine
    // would only count them again.
    let before = if pass.len() > 1 {
        let (free, before): (Vec<Board>, Vec<Board>) =
            before.into_iter().partition(|b| b.cols() >= b.rows());
        pass.extend(free);
        pass.sort_by_key(Board::cols);
        before
    } else {
        before
    };
    SeriesPlan {
        pass,
        before,
        after,
    }
}

/// How much longer than wide a board that meets in the middle may be and still be counted on
/// its own rather than in a series' pass.
const NEAR_SQUARE: u32 = 4;

/// True for boards whose counts from one square no engine gives on one machine: the frontier
/// engine says where its layers from a start outgrow one machine (7x8 meets in the middle; 8x8
/// does not fit), and the memo engine's table is far slower still. Their totals and closed
/// tours are within reach, and so are their pairs.
pub fn beyond_one_machine(board: Board) -> bool {
    frontier::starts_beyond_one_machine(board)
}

/// Why no engine of this build can count `question` (none when one can, or when a theorem
/// decides it). The reference counter is left out: it takes any board, but past 30 or so
/// squares not in a lifetime.
pub fn beyond_every_engine(question: &Question) -> Option<String> {
    let reachable = [EngineChoice::Memo, EngineChoice::Frontier]
        .into_iter()
        .any(|engine| engine.choose(question).is_ok());
    (!reachable).then(|| {
        format!(
            "the memo engine takes boards of at most {MAX_BITSET_SQUARES} squares, the frontier engine boards with a short side of at most {}",
            frontier::MAX_WIDTH
        )
    })
}

/// True when the frontier engine counts the open tours from `question`'s start together with
/// the other starts of its board: where the board's total meets in the middle, they share the
/// computation of the total's top half.
pub fn counts_starts_together(question: &Question, engine: Engine) -> bool {
    engine == Engine::Frontier
        && question.kind == TourKind::Open
        && matches!(question.shape(), Shape::Start(_))
        && no_tour_for(question).is_none()
        && frontier::meets_in_the_middle(question.board, FrontierMode::Total)
}

/// Refuses, before any store is touched, a question that the engine asked for cannot take
/// (unless a theorem answers it without one).
pub fn check_engines(questions: &[Question], settings: &Settings) -> Result<(), Error> {
    for question in questions {
        settings.engine.choose(question)?;
    }
    Ok(())
}

/// Refuses, before the starts of `board` are listed (a board past the engines may have
/// millions), a per-square table of open tours that the engine asked for cannot count: every
/// start goes to the same engine as the corner, which no theorem rules out unless it rules
/// out the whole board, and the total with them.
pub fn check_table(board: Board, settings: &Settings) -> Result<(), Error> {
    // The corner first: where both are refused, the table's message is about its starts.
    check_engines(
        &[
            Question::from_start(board, crate::board::Square::new(0, 0), TourKind::Open),
            Question::total(board, TourKind::Open),
        ],
        settings,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    /// Every engine's name is one the store's records may carry.
    #[test]
    fn engine_names_are_known() {
        for engine in [Engine::Memo, Engine::Frontier, Engine::Reference] {
            assert!(provenance::KNOWN_ENGINES.contains(&engine.name()));
        }
        assert!(Engine::Frontier.counts_open_totals());
        assert!(!Engine::Memo.counts_open_totals());
    }

    #[test]
    fn auto_chooses_and_falls_back() {
        let board = |rows, cols| Board::new(rows, cols).unwrap();
        let auto = EngineChoice::Auto;
        let corner = |r, c| Question::from_start(board(r, c), Square::new(0, 0), TourKind::Open);
        let total = |r, c| Question::total(board(r, c), TourKind::Open);
        let memo = Choice {
            engine: Engine::Memo,
            on_memory_budget: None,
        };
        let frontier = |fallback| Choice {
            engine: Engine::Frontier,
            on_memory_budget: fallback,
        };
        assert_eq!(auto.choose(&corner(5, 8)).unwrap(), memo);
        assert_eq!(
            auto.choose(&total(5, 8)).unwrap(),
            frontier(Some(Engine::Memo))
        );
        assert_eq!(auto.choose(&corner(6, 7)).unwrap(), frontier(None));
        assert!(matches!(
            auto.choose(&corner(8, 8)),
            Err(Error::BeyondOneMachine { total: false, .. })
        ));
        // The total of 8x8 (and of longer boards of width 8 or 9) outgrows one machine; 7x8's
        // total, 8x7's and 8x8's closed tours fit.
        for (rows, cols) in [(8, 8), (8, 9), (10, 8), (9, 9), (9, 12)] {
            assert!(matches!(
                auto.choose(&total(rows, cols)),
                Err(Error::BeyondOneMachine { total: true, .. })
            ));
        }
        assert_eq!(auto.choose(&total(7, 8)).unwrap(), frontier(None));
        assert_eq!(auto.choose(&total(8, 7)).unwrap(), frontier(None));
        let closed = Question::total(board(8, 8), TourKind::Closed);
        assert_eq!(auto.choose(&closed).unwrap(), frontier(None));
        let pair = Question::between(board(8, 8), Square::new(0, 0), Square::new(7, 6));
        assert_eq!(auto.choose(&pair).unwrap(), frontier(None));
        // Width 9 is the frontier engine's, its counts from one square beyond one machine.
        assert!(matches!(
            auto.choose(&corner(9, 9)),
            Err(Error::BeyondOneMachine { total: false, .. })
        ));
        assert!(matches!(
            auto.choose(&corner(10, 10)),
            Err(Error::BeyondEngines { .. })
        ));
        // A theorem's zero needs no engine.
        let none = Question::from_start(board(9, 9), Square::new(0, 1), TourKind::Open);
        assert!(auto.choose(&none).is_ok());
        assert!(beyond_every_engine(&corner(10, 10)).is_some());
        assert!(beyond_every_engine(&none).is_none());
        assert!(EngineChoice::Memo.choose(&total(6, 7)).is_ok());
        assert!(matches!(
            EngineChoice::Memo.choose(&total(8, 9)),
            Err(Error::BoardTooLarge { .. })
        ));
    }
}

#[cfg(test)]
mod series_plan_tests {
    use super::*;

    fn boards(rows: u32, cols: std::ops::RangeInclusive<u32>) -> Vec<Board> {
        cols.map(|n| Board::new(rows, n).unwrap()).collect()
    }

    fn cols(boards: &[Board]) -> Vec<u32> {
        boards.iter().map(Board::cols).collect()
    }

    /// Every board is counted once, and the decision is today's: narrow boards' short ones by
    /// the memo engine before the pass, near-square boards that meet in the middle on their own.
    #[test]
    fn a_series_splits_its_boards_between_the_pass_and_one_by_one() {
        for (rows, kind) in [
            (5, TourKind::Open),
            (7, TourKind::Open),
            (8, TourKind::Closed),
        ] {
            let missing = boards(rows, 1..=12);
            let plan = series_plan(EngineChoice::Auto, &missing, kind);
            let mut all = [cols(&plan.before), cols(&plan.pass), cols(&plan.after)].concat();
            all.sort();
            assert_eq!(all, (1..=12).collect::<Vec<_>>(), "{rows} {kind:?}");
        }
        let plan = series_plan(EngineChoice::Auto, &boards(7, 1..=12), TourKind::Open);
        assert_eq!(cols(&plan.before), [1, 2, 3, 4, 5, 6]);
        assert_eq!(cols(&plan.pass), [7, 8, 9, 10, 11, 12]);
        // 7x7 to 7x9 meet in the middle: alone, each is faster than a pass over all three.
        let plan = series_plan(EngineChoice::Auto, &boards(7, 7..=9), TourKind::Open);
        assert_eq!((plan.pass.len(), cols(&plan.after)), (0, vec![7, 8, 9]));
        // 8x8 to 8x12's closed tours all meet in the middle (8x9's and 8x11's cuts of 18
        // squares too): each on its own, where one pass over them outgrows the machine.
        let plan = series_plan(EngineChoice::Auto, &boards(8, 1..=12), TourKind::Closed);
        assert_eq!(cols(&plan.pass), Vec::<u32>::new());
        assert_eq!(cols(&plan.after), [8, 9, 10, 11, 12]);
        let plan = series_plan(EngineChoice::Memo, &boards(5, 1..=8), TourKind::Open);
        assert_eq!((plan.pass.len(), plan.before.len()), (0, 8));
    }
}
