//! Tables of board totals, `ROWS × n` for a range of `n` (the OEIS kind): answered from the
//! store where it can, the rest computed — in one pass of the frontier engine over the tallest
//! board where it can — and saved as each board is known.

use crate::count::Limits;
use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::time::Instant;

use crate::board::Board;
use crate::count;
use crate::count::frontier::{self, FrontierStats};
use crate::error::Error;
use crate::existence::no_tour;
use crate::question::{Question, TourKind};
use crate::resolve::{self, Engine, Incoming, SeriesPlan, Settings};
use crate::store::{Answer, Store};

/// One board of a series.
#[derive(Clone, Debug, PartialEq)]
pub struct SeriesRow {
    /// The board, `rows × n` as asked.
    pub board: Board,
    /// Its answer (the directed total).
    pub answer: Answer,
    /// True when the store had it.
    pub from_store: bool,
}

/// How far a series can go: the boards from the first asked that an engine asked for can count
/// (the one frontier pass takes any length when `rows` is narrow enough; otherwise every board
/// must suit the engine chosen for it), and why the next one cannot be counted.
#[derive(Debug)]
pub struct Reach {
    /// The boards to count.
    pub cols: RangeInclusive<u32>,
    /// Why the series stops before the last board asked, if it does.
    pub stop: Option<Error>,
}

/// Finds, before any store is touched, how far a series can go: refused when not even its
/// first board can be counted. Boards only grow longer, so one that cannot be counted ends
/// the series (`series 8 --cols 1..9` counts 8x1 to 8x7 and says why 8x8 is beyond it).
pub fn reach(
    rows: u32,
    cols: RangeInclusive<u32>,
    kind: TourKind,
    settings: &Settings,
) -> Result<Reach, Error> {
    let (first, last) = (*cols.start(), *cols.end());
    for n in cols {
        let board = Board::new(rows, n)?;
        let question = Question::total(board, kind);
        let counted = if settings.engine.in_one_pass(board, &question) {
            settings.engine.check_total_reach(&question)
        } else {
            settings.engine.choose(&question).map(|_| ())
        };
        if let Err(e) = counted {
            if n == first {
                return Err(e);
            }
            return Ok(Reach {
                cols: first..=n - 1,
                stop: Some(e),
            });
        }
    }
    Ok(Reach {
        cols: first..=last,
        stop: None,
    })
}

/// The boards `rows × n` for `n` in `cols`: their totals of `kind` tours, reported to `row` in
/// order of `n` as each is known, and saved to `store`. Returns the frontier engine's figures
/// for what it computed (all zero when every board was known or decided by a theorem).
pub fn series(
    rows: u32,
    cols: RangeInclusive<u32>,
    kind: TourKind,
    mut store: Option<&mut Store>,
    settings: &Settings,
    row: &mut dyn FnMut(&SeriesRow),
) -> Result<FrontierStats, Error> {
    let mut figures = FrontierStats::default();
    let boards: Vec<Board> = cols
        .clone()
        .map(|n| Board::new(rows, n))
        .collect::<Result<_, _>>()?;
    let question = |board: &Board| Question::total(*board, kind);
    let mut known: BTreeMap<u32, (Answer, bool)> = BTreeMap::new();
    if let Some(store) = store.as_deref() {
        let questions: Vec<Question> = boards.iter().map(question).collect();
        let stored = resolve::read(store, &questions)?;
        for board in &boards {
            if let Some(answer) = stored.get(&question(board)) {
                known.insert(board.cols(), (answer.clone(), true));
            }
        }
    }
    // Zeros that a theorem decides need no search.
    for board in &boards {
        if !known.contains_key(&board.cols()) && no_tour(*board, kind, None).is_some() {
            let answer = Answer::theorem(question(board));
            save(&mut store, &answer)?;
            known.insert(board.cols(), (answer, false));
        }
    }
    let mut next = *cols.start();
    let mut flush = |known: &BTreeMap<u32, (Answer, bool)>, next: &mut u32| {
        while let Some((answer, from_store)) = known.get(next) {
            row(&SeriesRow {
                board: Board::new(rows, *next).expect("checked above"),
                answer: answer.clone(),
                from_store: *from_store,
            });
            *next += 1;
        }
    };
    flush(&known, &mut next);
    let missing: Vec<Board> = boards
        .iter()
        .filter(|b| !known.contains_key(&b.cols()))
        .copied()
        .collect();
    if missing.is_empty() {
        return Ok(figures);
    }

    let SeriesPlan {
        pass: tall,
        before,
        after: alone,
    } = resolve::series_plan(settings.engine, &missing, kind);
    // One board at a time, through the answer resolver (which saves it).
    let alone_answer = |board: Board,
                        store: &mut Option<&mut Store>,
                        figures: &mut FrontierStats|
     -> Result<Answer, Error> {
        let mut resolution = resolve::resolve(
            &[question(&board)],
            store.as_deref_mut(),
            settings,
            &mut |_| {},
        )?;
        figures.add(&resolution.engine_stats.frontier);
        Ok(resolution
            .answers
            .remove(&question(&board))
            .expect("the question was asked"))
    };
    for board in before {
        let answer = alone_answer(board, &mut store, &mut figures)?;
        known.insert(board.cols(), (answer, false));
        flush(&known, &mut next);
    }
    if let (Some(low), Some(high)) = (tall.first(), tall.last()) {
        let wanted: Vec<u32> = tall.iter().map(Board::cols).collect();
        let clock = Instant::now();
        let mut failure = None;
        let pass = frontier::series(
            rows,
            low.cols()..=high.cols(),
            kind == TourKind::Closed,
            &Limits::new(settings.memory, &settings.cancel),
            &mut |n, count| {
                if failure.is_some() || !wanted.contains(&n) {
                    return;
                }
                let board = Board::new(rows, n).expect("checked above");
                let answer = Answer::computed(
                    question(&board),
                    count::directed(board, count),
                    Engine::Frontier.recorded(),
                    clock.elapsed().as_secs_f64(),
                );
                if let Err(e) = save(&mut store, &answer) {
                    failure = Some(e);
                    return;
                }
                known.insert(n, (answer, false));
                flush(&known, &mut next);
            },
        )?;
        if let Some(e) = failure {
            return Err(e);
        }
        figures.add(&pass);
    }
    for board in alone {
        let answer = alone_answer(board, &mut store, &mut figures)?;
        known.insert(board.cols(), (answer, false));
        flush(&known, &mut next);
    }
    Ok(figures)
}

fn save(store: &mut Option<&mut Store>, answer: &Answer) -> Result<(), Error> {
    if let Some(store) = store.as_deref_mut() {
        let computed = std::slice::from_ref(answer);
        resolve::admit(store, Incoming::Computed(computed), &Settings::default())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Width 8's open totals stop at 8x8 (beyond one machine): 8x1 to 8x7 are counted; a
    /// series from 8x8 on is refused; closed tours go on.
    #[test]
    fn a_series_stops_before_the_first_board_beyond_reach() {
        let settings = Settings::default();
        let open = reach(8, 1..=9, TourKind::Open, &settings).unwrap();
        assert_eq!(open.cols, 1..=7);
        assert!(
            matches!(open.stop, Some(Error::BeyondOneMachine { board, total: true }) if board == Board::new(8, 8).unwrap()),
            "{:?}",
            open.stop
        );
        assert!(reach(8, 8..=9, TourKind::Open, &settings).is_err());
        let closed = reach(8, 1..=9, TourKind::Closed, &settings).unwrap();
        assert_eq!(closed.cols, 1..=9);
        assert!(closed.stop.is_none());
        let seven = reach(7, 1..=10, TourKind::Open, &settings).unwrap();
        assert_eq!((seven.cols, seven.stop.is_none()), (1..=10, true));
    }
}
