//! `knights.count` and `knights.series`, as `knights count` and `knights series` call the
//! library (src/cli/commands/count.rs, series.rs): a [`View`] answered by `resolve`, and
//! `series::reach` then `series::series`, each through the same store and gate.

use std::ops::RangeInclusive;
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;

use knights::count::CountTable;
use knights::question::TourKind;
use knights::resolve::{self, Progress as Step};
use knights::view::View;
use knights::{Board, CancelFlag};
use num_bigint::BigUint;
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyRange;

use crate::convert;
use crate::errors::{self, Class, Raise};
use crate::session::{self, Place, unsaved_warning};
use crate::work::{self, Event, Progress, Reporter};

/// The open tours from every square of a board, with its totals and how they were found.
#[pyclass(name = "Table", module = "knights", frozen)]
pub struct Table {
    /// Board rows.
    #[pyo3(get)]
    rows: u32,
    /// Board columns.
    #[pyo3(get)]
    cols: u32,
    /// The count from each square, row by row.
    #[pyo3(get)]
    table: Py<PyAny>,
    /// Every open tour of the board, each direction counted (the sum of the table).
    #[pyo3(get)]
    directed: Py<PyAny>,
    /// Every open tour once.
    #[pyo3(get)]
    undirected: Py<PyAny>,
    /// How the answer was found, in a few words.
    #[pyo3(get)]
    how: String,
}

#[pymethods]
impl Table {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Table(rows={}, cols={}, directed={}, undirected={}, how={:?})",
            self.rows,
            self.cols,
            self.directed.bind(py),
            self.undirected.bind(py),
            self.how
        )
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        self.table.bind(py).len()
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.table.bind(py).get_item(index)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.table.bind(py).try_iter()?.into_any())
    }
}

impl Table {
    fn new(py: Python<'_>, table: &CountTable, how: String) -> PyResult<Table> {
        let board = table.board();
        let rows: Vec<Vec<Py<PyAny>>> = table
            .rows()
            .map(|row| row.iter().map(|c| convert::int(py, c)).collect())
            .collect::<PyResult<_>>()?;
        Ok(Table {
            rows: board.rows(),
            cols: board.cols(),
            table: rows.into_pyobject(py)?.into_any().unbind(),
            directed: convert::int(py, &table.total_directed())?,
            undirected: convert::int(py, &table.total_undirected())?,
            how,
        })
    }
}

/// What a count's work hands back: the count shown, and the table for a table.
struct Counted {
    count: BigUint,
    table: Option<(CountTable, String)>,
}

/// The exact number of knight's tours, as `knights count` gives it.
///
/// * `count(5, 4, (0, 0))`: open tours from a square (`closed=True`: closed tours through it).
/// * `count(5, 5, (0, 0), to=(4, 4))`: open tours from one square to another.
/// * `count(6, 6, total=True)`: the board's open tours (`closed=True`: its closed tours),
///   each direction counted (`undirected=True`: each tour once).
/// * `count(5, 5)`: a `Table` of the count from every square, with the totals.
///
/// Answers come from the answer store where it has them, and what is computed is saved there:
/// `store=None` is the store `knights` uses ($KNIGHTS_DB, else knights/answers.db in the data
/// directory), a path or a `Store` another, `False` none. `memory` bounds the engines (bytes,
/// or "512M", "4G"; default $KNIGHTS_MEMORY, else three quarters of this machine's memory).
/// `progress` is called as `progress(done, total)` in answers computed; by default a tqdm bar
/// where tqdm is installed, none with `progress=False`. The GIL is released while counting;
/// KeyboardInterrupt stops it, keeping the answers that were finished.
///
/// >>> knights.count(5, 4, (0, 0))
/// 32
/// >>> knights.count(5, 5, (2, 2))
/// 64
/// >>> knights.count(5, 5, total=True)
/// 1728
/// >>> knights.count(5, 5).table[0]
/// [304, 0, 56, 0, 304]
#[pyfunction]
#[pyo3(signature = (rows, cols, start=None, *, to=None, closed=false, total=false, undirected=false, store=None, memory=None, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn count(
    py: Python<'_>,
    rows: &Bound<'_, PyAny>,
    cols: &Bound<'_, PyAny>,
    start: Option<&Bound<'_, PyAny>>,
    to: Option<&Bound<'_, PyAny>>,
    closed: bool,
    total: bool,
    undirected: bool,
    store: Option<&Bound<'_, PyAny>>,
    memory: Option<&Bound<'_, PyAny>>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let start = start.filter(|s| !s.is_none());
    let to = to.filter(|t| !t.is_none());
    // The command line's conflicts (clap's), in this API's names.
    if to.is_some() && start.is_none() {
        return Err(Raise::input(
            "to= needs a start square: count(rows, cols, (row, col), to=(row2, col2))",
        )
        .into());
    }
    if to.is_some() && (closed || total) {
        return Err(Raise::input(format!(
            "to= cannot be used with {}: it counts open tours between two squares",
            if closed { "closed=True" } else { "total=True" }
        ))
        .into());
    }
    if total && start.is_some() {
        return Err(Raise::input("total=True counts the whole board: give no start square").into());
    }
    let board = convert::board(rows, cols)?;
    let start = start.map(|s| convert::square(s, "start")).transpose()?;
    if let Some(square) = start {
        board.check_square(square).map_err(Raise::from)?;
    }
    let end = to.map(|t| convert::square(t, "to")).transpose()?;
    let kind = if closed {
        TourKind::Closed
    } else {
        TourKind::Open
    };
    let view = match (start, end) {
        (Some(start), Some(end)) => View::between(board, start, end).map_err(|e| {
            Raise::input(format!(
                "to=({}, {}) is {}",
                end.row,
                end.col,
                e.predicate()
            ))
        })?,
        (Some(square), None) => View::Start(board, square, kind),
        (None, _) => match kind {
            TourKind::Closed => View::Closed(board),
            TourKind::Open if total => View::Total(board),
            TourKind::Open => View::Table(board),
        },
    };
    if undirected && !matches!(view, View::Closed(_) | View::Total(_)) {
        return Err(Raise::input(
            "undirected=True applies to a board's totals (total=True or closed=True without a start); a table has .undirected",
        )
        .into());
    }
    let place = Place::from_arg(store)?;
    let memory = session::memory(memory)?;
    let mut progress = Progress::new(progress, "answers")?;
    let cancel = CancelFlag::new();
    let counted = work::run(py, &cancel, &mut progress, |reporter| {
        count_view(view, &place, &session::settings(memory, &cancel), reporter)
    })?;
    match counted.table {
        Some((table, how)) => Ok(Py::new(py, Table::new(py, &table, how)?)?.into_any()),
        None if undirected => convert::int(py, &knights::count::undirected(board, &counted.count)),
        None => convert::int(py, &counted.count),
    }
}

/// `knights count`'s `run` from the view on, without printing.
fn count_view(
    view: View,
    place: &Place,
    settings: &resolve::Settings,
    reporter: &Reporter,
) -> errors::Result<Counted> {
    let board = view.board();
    let refused = match view.check_engines(settings) {
        Err(refused) if !view.may_be_stored() => return Err(refused.into()),
        checked => checked.err(),
    };
    let questions = view.questions();
    let mut store = place.open(settings, reporter)?;
    if let Some(refused) = refused
        && !resolve::served_past_one_machine(&refused, store.as_ref(), &questions)?
    {
        return Err(refused.into());
    }
    let mut computed = 0usize;
    let resolution = resolve::resolve(
        &questions,
        store.as_mut(),
        settings,
        &mut |event| match event {
            Step::Planned { questions, .. } => reporter.send(Event::Planned(questions as u64)),
            Step::Computed(_) => {
                computed += 1;
                reporter.send(Event::Done(1));
            }
        },
    );
    if let Some(store) = &store {
        unsaved_warning(store, reporter);
    }
    let resolution = match (resolution, &store) {
        (Err(knights::Error::Interrupted), Some(store)) if computed > 0 => {
            return Err(Raise::new(
                Class::Interrupted,
                format!(
                    "interrupted: {computed} {} finished before it {} saved in {}; call it again to go on",
                    knights::input::plural(computed, "answer", "answers"),
                    if computed == 1 { "is" } else { "are" },
                    store.path()
                ),
            ));
        }
        // A refusal names the board as it was asked, not as an engine turned it.
        (resolution, _) => resolution.map_err(|e| e.on_board(board))?,
    };
    for note in &resolution.notes {
        reporter.warn(format!("note: {note}"));
    }
    let count = view.count(&resolution).clone();
    let table = match view {
        View::Table(_) => Some((view.table(&resolution), resolution.how(&view.shown()))),
        _ => None,
    };
    Ok(Counted { count, table })
}

/// What the series' thread sends.
enum SeriesItem {
    /// A board known: its columns and its directed count.
    Board(u32, BigUint),
    /// The end: why the series stopped early, or an error.
    End(Option<Raise>),
}

struct SeriesState {
    rx: Option<Receiver<Event<SeriesItem>>>,
    worker: Option<JoinHandle<()>>,
    progress: Progress,
    finished: bool,
}

/// The boards of a series as each is known: an iterator of `(n, count)`.
#[pyclass(name = "Series", module = "knights")]
pub struct Series {
    rows: u32,
    undirected: bool,
    cancel: CancelFlag,
    store: Option<String>,
    state: Mutex<SeriesState>,
}

/// The totals of the boards `rows × n` for `n` in `cols`, as `knights series` gives them: an
/// iterator of `(n, count)`, each board as soon as it is known (from the store at once, the
/// rest in one pass of the frontier engine where `rows` is its short side), each saved to the
/// store as it is known. Counts are directed (each tour in both directions), or each tour once
/// with `undirected=True` (the OEIS convention). `cols` is a `range` of step 1 or one int.
///
/// The work starts at once on a thread of its own; iterating waits for it without the GIL.
/// Where a board is beyond every engine here, the boards before it come and then the error.
/// KeyboardInterrupt stops the work, keeping every board known before it.
///
/// >>> dict(knights.series(3, range(4, 9)))
/// {4: 16, 5: 0, 6: 0, 7: 104, 8: 792}
/// >>> for n, total in knights.series(5, range(1, 51)): ...
#[pyfunction]
#[pyo3(signature = (rows, cols=None, *, closed=false, undirected=false, store=None, memory=None, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn series(
    py: Python<'_>,
    rows: &Bound<'_, PyAny>,
    cols: Option<&Bound<'_, PyAny>>,
    closed: bool,
    undirected: bool,
    store: Option<&Bound<'_, PyAny>>,
    memory: Option<&Bound<'_, PyAny>>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Series> {
    let rows = convert::side(rows, "rows")?;
    let cols = match cols.filter(|c| !c.is_none()) {
        Some(cols) => cols_range(cols)?,
        None => 1..=50,
    };
    let kind = if closed {
        TourKind::Closed
    } else {
        TourKind::Open
    };
    let place = Place::from_arg(store)?;
    let memory = session::memory(memory)?;
    let cancel = CancelFlag::new();
    let settings = session::settings(memory, &cancel);
    // Refused before any store is touched when not even the first board can be counted.
    let reach = knights::series::reach(rows, cols, kind, &settings).map_err(Raise::from)?;
    let boards = reach.cols.clone().count() as u64;
    let mut progress = Progress::new(progress, "boards")?;
    progress_planned(py, &mut progress, boards)?;
    let (tx, rx) = mpsc::channel();
    let store_name = place.path.as_ref().map(|p| p.display().to_string());
    let worker = std::thread::spawn(move || {
        let reporter = Reporter::new(tx);
        let end = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            series_work(rows, reach, kind, &place, &settings, &reporter)
        }))
        .unwrap_or_else(|payload| Err(errors::panicked(payload)));
        reporter.send(Event::Item(SeriesItem::End(end.err())));
    });
    Ok(Series {
        rows,
        undirected,
        cancel,
        store: store_name,
        state: Mutex::new(SeriesState {
            rx: Some(rx),
            worker: Some(worker),
            progress,
            finished: false,
        }),
    })
}

fn progress_planned(py: Python<'_>, progress: &mut Progress, boards: u64) -> PyResult<()> {
    work::handle::<()>(py, Event::Planned(boards), progress, &mut |()| {})
}

/// `knights series`'s `run`: the boards reach allows, then why the rest cannot be counted.
fn series_work(
    rows: u32,
    reach: knights::series::Reach,
    kind: TourKind,
    place: &Place,
    settings: &resolve::Settings,
    reporter: &Reporter<SeriesItem>,
) -> errors::Result<()> {
    let mut store = place.open(settings, reporter)?;
    let result = knights::series::series(
        rows,
        reach.cols,
        kind,
        store.as_mut(),
        settings,
        &mut |row| {
            reporter.send(Event::Item(SeriesItem::Board(
                row.board.cols(),
                row.answer.count.clone(),
            )));
        },
    );
    if let Some(store) = &store {
        unsaved_warning(store, reporter);
    }
    // A refusal names the board as it was asked (ROWS rows), not as an engine turned it.
    result.map_err(|e| match &e {
        knights::Error::MemoryBudget { board, .. } if board.rows() != rows => {
            let asked = board.transposed();
            e.on_board(asked)
        }
        _ => e,
    })?;
    match reach.stop {
        Some(why) => Err(why.into()),
        None => Ok(()),
    }
}

/// `cols`: a range of step 1, or one int.
fn cols_range(cols: &Bound<'_, PyAny>) -> PyResult<RangeInclusive<u32>> {
    if let Ok(range) = cols.cast::<PyRange>() {
        let (start, stop, step): (i64, i64, i64) = (
            range.getattr("start")?.extract()?,
            range.getattr("stop")?.extract()?,
            range.getattr("step")?.extract()?,
        );
        if step != 1 {
            return Err(Raise::input(format!(
                "cols={}: a series takes every n of a range of step 1",
                cols.repr()?
            ))
            .into());
        }
        if start >= stop {
            return Err(Raise::input(format!(
                "cols={} is empty: {start} is not less than {stop}",
                cols.repr()?
            ))
            .into());
        }
        let low = convert::side(&range.getattr("start")?, "cols' first n")?;
        let high = convert::side(
            &(stop - 1).into_pyobject(cols.py())?.into_any(),
            "cols' last n",
        )?;
        return Ok(low..=high);
    }
    if cols.is_instance_of::<pyo3::types::PyInt>() {
        let n = convert::side(cols, "cols")?;
        return Ok(n..=n);
    }
    Err(PyTypeError::new_err(format!(
        "cols must be a range such as range(1, 51) or one int, not {}",
        cols.get_type().name()?
    )))
}

impl Drop for Series {
    /// A series let go of before its end stops its work (what was known is saved).
    fn drop(&mut self) {
        self.cancel.cancel();
        if let Ok(state) = self.state.get_mut()
            && let Some(worker) = state.worker.take()
        {
            let _ = worker.join();
        }
    }
}

#[pymethods]
impl Series {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<(u32, Py<PyAny>)>> {
        let Ok(mut state) = self.state.try_lock() else {
            return Err(PyRuntimeError::new_err(
                "this series is being read by another thread: read one series from one thread",
            ));
        };
        let state = &mut *state;
        if state.finished {
            return Ok(None);
        }
        let mut interrupted: Option<PyErr> = None;
        loop {
            let Some(rx) = state.rx.take() else {
                return Ok(None);
            };
            let (got, rx) = work::next_event(py, rx);
            state.rx = Some(rx);
            let mut item = None;
            match got {
                Ok(event) => {
                    if let Err(e) =
                        work::handle(py, event, &mut state.progress, &mut |i| item = Some(i))
                        && interrupted.is_none()
                    {
                        self.cancel.cancel();
                        interrupted = Some(e);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    item = Some(SeriesItem::End(Some(Raise::new(
                        Class::Internal,
                        "internal error: the series' work ended without a word",
                    ))))
                }
            }
            match item {
                Some(SeriesItem::Board(n, count)) if interrupted.is_none() => {
                    let _ =
                        work::handle::<()>(py, Event::Done(1), &mut state.progress, &mut |()| {});
                    let board = Board::new(self.rows, n).expect("a board of the series");
                    let count = if self.undirected {
                        knights::count::undirected(board, &count)
                    } else {
                        count
                    };
                    return Ok(Some((n, convert::int(py, &count)?)));
                }
                Some(SeriesItem::Board(..)) => {}
                Some(SeriesItem::End(end)) => {
                    state.finished = true;
                    state.progress.close(py);
                    if let Some(worker) = state.worker.take() {
                        let _ = py.detach(move || worker.join());
                    }
                    let end = end.map(|e| match (&interrupted, e.class) {
                        (Some(_), Class::Interrupted) => Raise::new(
                            Class::Interrupted,
                            match &self.store {
                                Some(path) => format!(
                                    "interrupted: the boards known before it are saved in {path}"
                                ),
                                None => "interrupted".to_string(),
                            },
                        ),
                        _ => e,
                    });
                    return match (interrupted, end) {
                        (Some(e), Some(stopped))
                            if e.is_instance_of::<PyKeyboardInterrupt>(py)
                                && stopped.class == Class::Interrupted =>
                        {
                            Err(stopped.into_pyerr(py))
                        }
                        (Some(e), _) => Err(e),
                        (None, Some(e)) => Err(e.into_pyerr(py)),
                        (None, None) => Ok(None),
                    };
                }
                None => {}
            }
            if interrupted.is_none()
                && let Err(e) = py.check_signals()
            {
                self.cancel.cancel();
                interrupted = Some(e);
            }
        }
    }

    /// Stops the work (what was known is kept) and waits for it.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        self.cancel.cancel();
        let Ok(mut state) = self.state.try_lock() else {
            return Ok(());
        };
        state.finished = true;
        state.progress.close(py);
        if let Some(worker) = state.worker.take() {
            let _ = py.detach(move || worker.join());
        }
        Ok(())
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &self,
        py: Python<'_>,
        _kind: Option<&Bound<'_, PyAny>>,
        _value: Option<&Bound<'_, PyAny>>,
        _traceback: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        self.close(py)?;
        Ok(false)
    }
}
