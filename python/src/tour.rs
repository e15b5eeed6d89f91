//! `knights.tour`, `knights.tour_svg` and `knights.puzzle`, as `knights tour` and `knights
//! puzzle` call the library (src/cli/commands/tour.rs, puzzle.rs).

use std::time::Duration;

use knights::output::{self, TourFormat};
use knights::puzzle::{self, Puzzle};
use knights::tour::{Method, Tour};
use knights::{Board, CancelFlag, Square};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

use crate::convert;
use crate::errors::{self, Class, Raise};
use crate::session;
use crate::work::{self, Progress};

/// The arguments of a tour, read as `knights tour` reads them.
struct TourAsk {
    board: Board,
    start: Square,
    closed: bool,
    end: Option<Square>,
    seed: u64,
    limit: Duration,
}

#[allow(clippy::too_many_arguments)]
fn tour_ask(
    rows: &Bound<'_, PyAny>,
    cols: &Bound<'_, PyAny>,
    start: &Bound<'_, PyAny>,
    closed: bool,
    to: Option<&Bound<'_, PyAny>>,
    seed: Option<u64>,
    time_limit: f64,
    memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<TourAsk> {
    let to = to.filter(|t| !t.is_none());
    if closed && to.is_some() {
        return Err(Raise::input("to= cannot be used with closed=True: a closed tour ends a knight's move from its start").into());
    }
    let board = convert::board(rows, cols)?;
    let start = convert::square(start, "start")?;
    board.check_square(start).map_err(Raise::from)?;
    let end = to.map(|t| convert::square(t, "to")).transpose()?;
    let memory = session::memory(memory)?;
    knights::tour::check_memory(board, memory).map_err(Raise::from)?;
    let limit = Duration::try_from_secs_f64(time_limit)
        .ok()
        .filter(|limit| !limit.is_zero())
        .ok_or_else(|| Raise::input("time_limit must be a number of seconds above 0"))?;
    Ok(TourAsk {
        board,
        start,
        closed,
        end,
        seed: seed.unwrap_or(0),
        limit,
    })
}

fn find(py: Python<'_>, ask: TourAsk) -> PyResult<(Tour, Method)> {
    let cancel = CancelFlag::new();
    work::run(py, &cancel, &mut Progress::none(), |_| {
        let found = match ask.end {
            Some(end) => knights::tour::find_tour_between(
                ask.board, ask.start, end, ask.seed, None, ask.limit, &cancel,
            )?,
            None => knights::tour::find_tour(ask.board, ask.start, ask.closed, ask.seed, &cancel)?,
        };
        found.map_err(|reason| Raise::new(Class::NoTour, reason.to_string()))
    })
}

/// One knight's tour of the board, as `knights tour` finds it: the squares `(row, col)` in the
/// order the knight visits them, from `start`. `closed=True`: the last square is a knight's
/// move from the first. `to=(row, col)`: an open tour that ends there (decided exactly on
/// boards of at most 36 squares; beyond them the search gives up after `time_limit` seconds
/// with `SearchGaveUpError`, which does not mean there is none). `seed` picks among equally
/// good moves: the same seed gives the same tour. Every tour is checked before it is returned.
/// Where no tour exists, `NoTourError` says why.
///
/// >>> knights.tour(5, 5, (0, 0))[:3]
/// [(0, 0), (2, 1), (4, 0)]
#[pyfunction]
#[pyo3(signature = (rows, cols, start, *, closed=false, to=None, seed=None, time_limit=10.0, memory=None))]
#[allow(clippy::too_many_arguments)]
pub fn tour(
    py: Python<'_>,
    rows: &Bound<'_, PyAny>,
    cols: &Bound<'_, PyAny>,
    start: &Bound<'_, PyAny>,
    closed: bool,
    to: Option<&Bound<'_, PyAny>>,
    seed: Option<u64>,
    time_limit: f64,
    memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<(u32, u32)>> {
    let ask = tour_ask(rows, cols, start, closed, to, seed, time_limit, memory)?;
    let (tour, _) = find(py, ask)?;
    Ok(tour.squares().iter().copied().map(convert::pair).collect())
}

/// The tour `tour()` finds, as the SVG picture `knights tour --format svg` draws (start: a
/// green disc, end: a red square); `animate=True`: the knight moves along the path. In a
/// notebook: `IPython.display.SVG(knights.tour_svg(8, 8, (0, 0)))`.
#[pyfunction]
#[pyo3(signature = (rows, cols, start, *, closed=false, to=None, seed=None, time_limit=10.0, animate=false, memory=None))]
#[allow(clippy::too_many_arguments)]
pub fn tour_svg(
    py: Python<'_>,
    rows: &Bound<'_, PyAny>,
    cols: &Bound<'_, PyAny>,
    start: &Bound<'_, PyAny>,
    closed: bool,
    to: Option<&Bound<'_, PyAny>>,
    seed: Option<u64>,
    time_limit: f64,
    animate: bool,
    memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let ask = tour_ask(rows, cols, start, closed, to, seed, time_limit, memory)?;
    let (tour, method) = find(py, ask)?;
    let format = if animate {
        TourFormat::AnimatedSvg
    } else {
        TourFormat::Svg
    };
    Ok(output::write_tour(&tour, method, format))
}

/// A puzzle from a list of rows (numbers, `None` or 0 for an empty cell) or from its text.
fn read_puzzle(board: &Bound<'_, PyAny>, closed: bool) -> PyResult<Puzzle> {
    if let Ok(text) = board.cast::<PyString>() {
        return Puzzle::parse(&text.extract::<String>()?, closed)
            .map_err(|e| Raise::from(knights::Error::from(e)).into());
    }
    let wrong = || {
        PyTypeError::new_err(
            "a puzzle is a list of rows, each a list of step numbers (None or 0 for an empty cell), or its text",
        )
    };
    let mut rows = Vec::new();
    for (r, row) in board.try_iter().map_err(|_| wrong())?.enumerate() {
        let row = row?;
        if row.is_instance_of::<PyString>() {
            return Err(wrong());
        }
        let mut cells = Vec::new();
        for (c, cell) in row.try_iter().map_err(|_| wrong())?.enumerate() {
            let cell = cell?;
            if cell.is_none() {
                cells.push(None);
                continue;
            }
            if !cell.is_instance_of::<PyInt>() {
                return Err(wrong());
            }
            let step: u64 = cell.extract().map_err(|_| {
                Raise::input(format!(
                    "row {}, column {}: {} is not a step number (1 to the number of squares, or 0 for an empty cell)",
                    r + 1,
                    c + 1,
                    cell.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?;
            cells.push(Some(step));
        }
        rows.push(cells);
    }
    Puzzle::from_cells(rows, closed).map_err(|e| Raise::from(knights::Error::from(e)).into())
}

/// The step numbers of `tour`, row by row.
fn step_rows(tour: &Tour) -> Vec<Vec<u64>> {
    tour.step_numbers()
        .chunks(tour.board().cols() as usize)
        .map(<[u64]>::to_vec)
        .collect()
}

/// `knights.puzzle.solve`: one completion of a knight's tour puzzle (a board with some step
/// numbers given), as `knights puzzle` prints it: every square's step number, row by row.
/// `board` is a list of rows (numbers from 1, `None` or 0 for an empty cell), or the puzzle's
/// text. Where no completion exists, `NoTourError` says why.
///
/// >>> knights.puzzle.solve([[1, None, None], [None, None, None], [None, None, None]])
/// Traceback (most recent call last):
/// knights.NoTourError: ...
#[pyfunction]
#[pyo3(signature = (board, *, closed=false))]
pub fn puzzle_solve(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    closed: bool,
) -> PyResult<Vec<Vec<u64>>> {
    let puzzle = read_puzzle(board, closed)?;
    let cancel = CancelFlag::new();
    let tour = work::run(py, &cancel, &mut Progress::none(), |_| {
        puzzle::solve(&puzzle, &cancel)?
            .map_err(|reason| Raise::new(Class::NoTour, reason.to_string()))
    })?;
    Ok(step_rows(&tour))
}

/// `knights.puzzle.count`: the exact number of completions of a puzzle, as `knights puzzle
/// --count` gives it (0 where a quick check rules them out). `progress(done, total)` follows
/// the engine's searches (a tqdm bar by default where tqdm is installed).
#[pyfunction]
#[pyo3(signature = (board, *, closed=false, memory=None, progress=None))]
pub fn puzzle_count(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    closed: bool,
    memory: Option<&Bound<'_, PyAny>>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<u128> {
    let puzzle = read_puzzle(board, closed)?;
    let memory = session::memory(memory)?;
    let mut progress = Progress::new(progress, "searches")?;
    let cancel = CancelFlag::new();
    work::run(py, &cancel, &mut progress, |reporter| {
        let mut shown = (0usize, 0usize);
        let counted = puzzle::count(&puzzle, memory, &cancel, &mut |done, all| {
            if all > shown.1 {
                reporter.send(work::Event::Planned((all - shown.1) as u64));
            }
            if done > shown.0 {
                reporter.send(work::Event::Done((done - shown.0) as u64));
            }
            shown = (done, all);
        })?;
        Ok(counted.unwrap_or(0))
    })
}

/// `knights.puzzle.make`: a puzzle of `rows × cols` (at most 64 squares) with exactly one
/// completion, as `knights puzzle --make` makes it: a list of rows, `None` for an empty cell.
/// `clues`: stop at that many given numbers (else as few as the seed reaches); the same
/// `seed` always makes the same puzzle (without one, a new seed each call).
#[pyfunction]
#[pyo3(signature = (rows, cols, *, closed=false, clues=None, seed=None, memory=None))]
#[allow(clippy::too_many_arguments)]
pub fn puzzle_make(
    py: Python<'_>,
    rows: &Bound<'_, PyAny>,
    cols: &Bound<'_, PyAny>,
    closed: bool,
    clues: Option<usize>,
    seed: Option<u64>,
    memory: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Vec<Option<u64>>>> {
    let board = convert::board(rows, cols)?;
    if let Some(clues) = clues
        && clues as u64 > board.squares()
    {
        return Err(Raise::input(format!(
            "clues={clues}: the {board} board has {} squares",
            board.squares()
        ))
        .into());
    }
    let memory = session::memory(memory)?;
    let seed = seed.unwrap_or_else(puzzle::fresh_seed);
    let cancel = CancelFlag::new();
    let made = work::run(
        py,
        &cancel,
        &mut Progress::none(),
        |_| -> errors::Result<_> {
            puzzle::make(board, closed, clues, seed, memory, &cancel)?.map_err(|reason| {
                Raise::new(
                    Class::NoTour,
                    format!("no {board} puzzle: {}", reason.reason()),
                )
            })
        },
    )?;
    let cols = board.cols() as usize;
    Ok(made
        .puzzle
        .cells()
        .chunks(cols)
        .map(<[Option<u64>]>::to_vec)
        .collect())
}
