//! `knights.Store`: the answer store `knights` keeps, as `knights query`, `export`, `import`
//! and `verify` use it (src/cli/commands/): the same file, the same gate ([`resolve::admit`])
//! and the same checks, opened for each call as each command opens it.

use std::io::Write;
use std::path::{Path, PathBuf};

use knights::CancelFlag;
use knights::exchange::{self, ExchangeFormat};
use knights::input::plural;
use knights::output::Format;
use knights::output::stream::AnswerStream;
use knights::question::AnswerKind;
use knights::resolve::{self, Incoming};
use knights::store::{Answer, AnswerFilter, PageSpec, StoreError};
use knights::verify::{self, DEFAULT_RECOUNT_BUDGET, VerifyOptions};
use pyo3::prelude::*;

use crate::convert;
use crate::errors::{self, Class, Raise};
use crate::session::{self, Place, default_store_path, no_shipped_from_environment, path_arg};
use crate::work::{self, Progress, Reporter};

/// The answer store: an SQLite file that `knights` reads and writes too. `path=None` is the
/// command line's default ($KNIGHTS_DB, else knights/answers.db in the data directory). Pass
/// it as `store=` to `count`, `series`: a count saved from Python is served to `knights`, and
/// the other way round, through the same checks. The results that ship with knights (the 7x7,
/// 7x8 and 8x8 tables, 8x8's pairs) are added to it when it is opened, unless `no_shipped`
/// (default: $KNIGHTS_NO_SHIPPED).
///
/// >>> store = knights.Store("answers.db")
/// >>> knights.count(5, 4, (0, 0), store=store)
/// 32
/// >>> [(a.rows, a.cols, a.row, a.col, a.count) for a in store.query(board="4x5")][:1]
/// [(4, 5, 0, 0, 32)]
#[pyclass(name = "Store", module = "knights", frozen)]
pub struct PyStore {
    pub path: PathBuf,
    pub no_shipped: bool,
}

/// One stored answer, with the columns of `knights query` and `knights export`.
#[pyclass(name = "Answer", module = "knights", frozen, get_all)]
pub struct PyAnswer {
    /// Board rows (canonical: rows <= cols).
    rows: u32,
    /// Board columns.
    cols: u32,
    /// `open`, `closed` or `between`.
    kind: &'static str,
    /// Start row, or None for a board total.
    row: Option<u32>,
    /// Start column, or None for a board total.
    col: Option<u32>,
    /// End row of a `between` answer, else None.
    to_row: Option<u32>,
    /// End column of a `between` answer, else None.
    to_col: Option<u32>,
    /// The exact count (each direction counted).
    count: Py<PyAny>,
    /// The engine that computed it.
    engine: String,
    /// The knights version that computed it.
    version: String,
    /// Seconds of computation.
    seconds: f64,
    /// When it was computed (UTC), or "".
    computed_at: String,
    /// Where it came from.
    source: String,
}

#[pymethods]
impl PyAnswer {
    fn __repr__(&self, py: Python<'_>) -> String {
        let square = |row: Option<u32>, col: Option<u32>| match (row, col) {
            (Some(r), Some(c)) => format!("({r}, {c})"),
            _ => "None".into(),
        };
        format!(
            "Answer(rows={}, cols={}, kind={:?}, start={}, to={}, count={}, engine={:?})",
            self.rows,
            self.cols,
            self.kind,
            square(self.row, self.col),
            square(self.to_row, self.to_col),
            self.count.bind(py),
            self.engine
        )
    }
}

impl PyAnswer {
    fn new(py: Python<'_>, answer: &Answer) -> PyResult<Self> {
        let record = knights::output::AnswerRecord::from(answer);
        Ok(PyAnswer {
            rows: record.rows,
            cols: record.cols,
            kind: record.kind,
            row: record.row,
            col: record.col,
            to_row: record.to_row,
            to_col: record.to_col,
            count: convert::int(py, &answer.count)?,
            engine: record.engine,
            version: record.version,
            seconds: record.seconds,
            computed_at: record.computed_at,
            source: record.source,
        })
    }
}

/// What `Store.import_` did.
#[pyclass(name = "ImportReport", module = "knights", frozen, get_all)]
pub struct PyImportReport {
    /// New answers the store took.
    added: usize,
    /// Answers of the file it held already.
    already_stored: usize,
    /// The line `knights import` prints.
    summary: String,
}

#[pymethods]
impl PyImportReport {
    fn __repr__(&self) -> String {
        format!(
            "ImportReport(added={}, already_stored={})",
            self.added, self.already_stored
        )
    }
}

/// What `Store.verify` found.
#[pyclass(name = "VerifyReport", module = "knights", frozen, get_all)]
pub struct PyVerifyReport {
    /// Answers checked.
    answers: usize,
    /// Answers an engine counted again.
    recounted: usize,
    /// Answers that could have been recounted but were not (time, or an engine's limit).
    not_recounted: usize,
    /// Answers a theorem decides (zeros: no recount needed).
    decided: usize,
    /// One line per problem, as `knights verify` prints them.
    problems: Vec<String>,
    /// The summary line `knights verify` ends with.
    summary: String,
}

#[pymethods]
impl PyVerifyReport {
    /// True when no problem was found (`knights verify` exits 0).
    #[getter]
    fn ok(&self) -> bool {
        self.problems.is_empty()
    }

    fn __bool__(&self) -> bool {
        self.ok()
    }

    fn __repr__(&self) -> String {
        format!(
            "VerifyReport(answers={}, problems={}, recounted={})",
            self.answers,
            self.problems.len(),
            self.recounted
        )
    }
}

/// The filter of `knights query --board --kind --min-squares --max-squares`.
fn filter(
    board: Option<&Bound<'_, PyAny>>,
    kind: Option<&str>,
    min_squares: Option<u64>,
    max_squares: Option<u64>,
) -> PyResult<AnswerFilter> {
    let board = board
        .filter(|b| !b.is_none())
        .map(convert::board_filter)
        .transpose()?;
    let kind = match kind {
        None => None,
        Some(name) => Some(
            AnswerKind::ALL
                .into_iter()
                .find(|k| k.name() == name)
                .ok_or_else(|| {
                    Raise::input(format!(
                        "invalid value '{}' for kind: one of 'open', 'closed', 'between'",
                        knights::echo::echo(name)
                    ))
                })?,
        ),
    };
    let filter = AnswerFilter {
        board,
        kind,
        min_squares,
        max_squares,
    };
    filter.check().map_err(|e| {
        Raise::input(format!(
            "min_squares={} and max_squares={}: {e}",
            e.min, e.max
        ))
    })?;
    Ok(filter)
}

/// `json` or `csv`, else from the file's name (`.json`: JSON), as `--format` and its default.
fn exchange_format(format: Option<&str>, name: Option<&str>) -> PyResult<ExchangeFormat> {
    match format {
        Some("csv") => Ok(ExchangeFormat::Csv),
        Some("json") => Ok(ExchangeFormat::Json),
        Some(other) => Err(Raise::input(format!(
            "invalid value '{}' for format: 'csv' or 'json'",
            knights::echo::echo(other)
        ))
        .into()),
        None => Ok(name.map_or(ExchangeFormat::Csv, ExchangeFormat::from_file_name)),
    }
}

/// A damaged row, as `knights query` words it.
fn damaged(path: &str, detail: String) -> Raise {
    Raise::from(knights::Error::from(StoreError::Damaged {
        path: path.to_string(),
        detail,
    }))
}

#[pymethods]
impl PyStore {
    #[new]
    #[pyo3(signature = (path=None, *, no_shipped=None))]
    fn new(path: Option<&Bound<'_, PyAny>>, no_shipped: Option<bool>) -> PyResult<Self> {
        let path = match path.filter(|p| !p.is_none()) {
            Some(path) => path_arg(path, "path")?,
            None => default_store_path()?,
        };
        let no_shipped = match no_shipped {
            Some(no) => no,
            None => no_shipped_from_environment()?,
        };
        Ok(PyStore { path, no_shipped })
    }

    /// The store's file.
    #[getter]
    fn path(&self) -> String {
        self.path.display().to_string()
    }

    /// Whether the results shipped with knights are left out.
    #[getter]
    fn no_shipped(&self) -> bool {
        self.no_shipped
    }

    fn __fspath__(&self) -> String {
        self.path()
    }

    fn __repr__(&self) -> String {
        format!("Store({:?})", self.path())
    }

    /// The stored answers, as `knights query` lists them (smallest boards first): a list of
    /// `Answer`. `board` is `(rows, cols)` or `"5x5"` (either orientation), `kind` `"open"`,
    /// `"closed"` or `"between"`. A row that breaks the store's rules raises `StoreError`.
    #[pyo3(signature = (*, board=None, kind=None, min_squares=None, max_squares=None))]
    fn query(
        &self,
        py: Python<'_>,
        board: Option<&Bound<'_, PyAny>>,
        kind: Option<&str>,
        min_squares: Option<u64>,
        max_squares: Option<u64>,
    ) -> PyResult<Vec<PyAnswer>> {
        let filter = filter(board, kind, min_squares, max_squares)?;
        let place = self.place();
        let cancel = CancelFlag::new();
        let memory = session::memory(None)?;
        let answers = work::run(py, &cancel, &mut Progress::none(), |reporter| {
            let settings = session::settings(memory, &cancel);
            let store = place.open(&settings, reporter)?.expect("a store");
            cancel.on_cancel(store.interrupter());
            let mut answers = Vec::new();
            let mut bad = (None, 0usize);
            store.each_row(&filter, &PageSpec::default(), |listed| {
                cancel.check().map_err(Raise::from)?;
                match listed.row {
                    Ok(answer) => answers.push(answer),
                    Err(row) if bad.0.is_none() => bad.0 = Some(row),
                    Err(_) => bad.1 += 1,
                }
                Ok::<(), Raise>(())
            })?;
            if let (Some(first), more) = bad {
                let more = match more {
                    0 => String::new(),
                    1 => ", and 1 more such row".to_string(),
                    n => format!(", and {n} more such rows"),
                };
                return Err(damaged(
                    store.path(),
                    format!("{first}{more}; run `knights verify`"),
                ));
            }
            Ok(answers)
        })?;
        answers.iter().map(|a| PyAnswer::new(py, a)).collect()
    }

    /// The stored answers as `knights export` writes them (CSV, or JSON with
    /// `format="json"` or a `.json` file): written to `file` (replaced only once complete),
    /// returning how many; or, without a file, returned as a string. Nothing is exported when
    /// a row breaks the store's rules.
    #[pyo3(signature = (file=None, *, format=None, board=None, kind=None, min_squares=None, max_squares=None))]
    #[allow(clippy::too_many_arguments)]
    fn export(
        &self,
        py: Python<'_>,
        file: Option<&Bound<'_, PyAny>>,
        format: Option<&str>,
        board: Option<&Bound<'_, PyAny>>,
        kind: Option<&str>,
        min_squares: Option<u64>,
        max_squares: Option<u64>,
    ) -> PyResult<Py<PyAny>> {
        let file = file
            .filter(|f| !f.is_none())
            .map(|f| path_arg(f, "file"))
            .transpose()?;
        let shown = file.as_ref().map(|f| f.display().to_string());
        let format = exchange_format(format, shown.as_deref())?;
        let filter = filter(board, kind, min_squares, max_squares)?;
        if let (Some(file), Some(shown)) = (&file, &shown) {
            knights::output::target::check_output(file, shown, Some(&self.path))
                .map_err(|e| Raise::input(e.to_string()))?;
        }
        let place = self.place();
        let cancel = CancelFlag::new();
        let memory = session::memory(None)?;
        let (text, written) = work::run(py, &cancel, &mut Progress::none(), |reporter| {
            export_work(
                &place,
                &filter,
                format,
                file.as_deref(),
                memory,
                &cancel,
                reporter,
            )
        })?;
        match text {
            Some(text) => Ok(text.into_pyobject(py)?.into_any().unbind()),
            None => Ok(written.into_pyobject(py)?.into_any().unbind()),
        }
    }

    /// Adds the answers of an export file (CSV, or JSON for a `.json` file or
    /// `format="json"`) to the store, as `knights import` does: every record is checked first
    /// (and on small boards counted again), and one bad record refuses the whole file, naming
    /// its line (`InputError`); nothing is written then. Returns an `ImportReport`.
    #[pyo3(signature = (file, *, format=None, memory=None))]
    fn import_(
        &self,
        py: Python<'_>,
        file: &Bound<'_, PyAny>,
        format: Option<&str>,
        memory: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyImportReport> {
        let file = path_arg(file, "file")?;
        let name = file.display().to_string();
        let format = exchange_format(format, Some(&name))?;
        let memory = session::memory(memory)?;
        let place = self.place();
        let cancel = CancelFlag::new();
        let store_path = self.path();
        work::run(py, &cancel, &mut Progress::none(), |reporter| {
            let interrupted = |e: Raise| match e.class {
                Class::Interrupted => Raise::new(
                    Class::Interrupted,
                    format!("interrupted: nothing of {name} was imported into {store_path}"),
                ),
                _ => e,
            };
            let reader = std::fs::File::open(&file)
                .map_err(|e| Raise::input(format!("cannot read {name}: {e}")))?;
            let answers =
                exchange::read_answers_within(std::io::BufReader::new(reader), format, memory)
                    .map_err(|e| Raise::in_file(&name, e))?;
            cancel.check().map_err(|e| interrupted(e.into()))?;
            let settings = session::settings(memory, &cancel);
            let mut store = place.open(&settings, reporter)?.expect("a store");
            if store.is_read_only() {
                return Err(Raise::from(StoreError::ReadOnly {
                    path: store.path().to_string(),
                    detail: match store.is_on_a_full_disk() {
                        true => "its disk is full, and import needs to write to it".into(),
                        false => "import needs to write to it".into(),
                    },
                }));
            }
            let incoming = Incoming::File {
                name: &name,
                records: &answers,
            };
            let report = resolve::admit(&mut store, incoming, &settings).map_err(|e| match e {
                knights::Error::Interrupted => interrupted(e.into()),
                e => Raise::in_file(&name, e),
            })?;
            Ok(PyImportReport {
                added: report.added,
                already_stored: report.already_stored,
                summary: format!(
                    "imported {} new {} from {name} ({} already stored) into {}",
                    report.added,
                    plural(report.added, "answer", "answers"),
                    report.already_stored,
                    store.path()
                ),
            })
        })
    }

    /// Checks the stored answers as `knights verify` does (the file, the theorems, parity,
    /// bounds, totals against their starts; with `recount=True` the engines count them again
    /// for up to `seconds`). Returns a `VerifyReport`, true when no problem was found; its
    /// `problems` are the lines `knights verify` prints.
    #[pyo3(signature = (*, recount=false, seconds=None, board=None, kind=None, min_squares=None, max_squares=None))]
    #[allow(clippy::too_many_arguments)]
    fn verify(
        &self,
        py: Python<'_>,
        recount: bool,
        seconds: Option<f64>,
        board: Option<&Bound<'_, PyAny>>,
        kind: Option<&str>,
        min_squares: Option<u64>,
        max_squares: Option<u64>,
    ) -> PyResult<PyVerifyReport> {
        let seconds = seconds.unwrap_or(DEFAULT_RECOUNT_BUDGET.as_secs_f64());
        if !(seconds.is_finite() && (0.0..=1e9).contains(&seconds)) {
            return Err(Raise::input(format!(
                "seconds={seconds} is not a number of seconds from 0 to 1000000000"
            ))
            .into());
        }
        let filter = filter(board, kind, min_squares, max_squares)?;
        if !self.path.exists() {
            return Err(Raise::input(format!(
                "there is no answer store at {}: nothing to verify (is the path right?)",
                self.path.display()
            ))
            .into());
        }
        let place = self.place();
        let cancel = CancelFlag::new();
        let memory = session::memory(None)?;
        work::run(py, &cancel, &mut Progress::none(), |_| {
            let store = place.open_as_found()?;
            let options = VerifyOptions {
                filter,
                recount,
                budget: std::time::Duration::from_secs_f64(seconds),
            };
            let report = verify::verify(&store, &options, &session::settings(memory, &cancel))?;
            let summary = report.summary(store.path(), recount, seconds, "seconds=");
            Ok(PyVerifyReport {
                answers: report.answers,
                recounted: report.recounted,
                not_recounted: report.not_recounted,
                decided: report.decided,
                problems: report.problems.iter().map(ToString::to_string).collect(),
                summary,
            })
        })
    }
}

impl PyStore {
    fn place(&self) -> Place {
        Place {
            path: Some(self.path.clone()),
            no_shipped: self.no_shipped,
        }
    }
}

/// `knights export`'s `run`: a first pass that finds rows breaking the store's rules, then
/// the answers streamed to a file beside `file` that replaces it once complete, or to a string.
fn export_work(
    place: &Place,
    filter: &AnswerFilter,
    format: ExchangeFormat,
    file: Option<&Path>,
    memory: knights::MemoryBudget,
    cancel: &CancelFlag,
    reporter: &Reporter,
) -> errors::Result<(Option<String>, u64)> {
    let settings = session::settings(memory, cancel);
    let store = place.open(&settings, reporter)?.expect("a store");
    cancel.on_cancel(store.interrupter());
    let mut bad = Vec::new();
    store.each_row(filter, &PageSpec::default(), |listed| {
        cancel.check().map_err(Raise::from)?;
        if let Err(row) = listed.row {
            bad.push(row);
        }
        Ok::<(), Raise>(())
    })?;
    if !bad.is_empty() {
        let n = bad.len();
        let rows: Vec<String> = bad.iter().map(ToString::to_string).collect();
        return Err(Raise::new(
            Class::Store,
            format!(
                "{n} {} of {} {} the store's rules ({}); nothing was exported (`knights verify` checks the rest; a filter that leaves {} out exports the others)",
                plural(n, "row", "rows"),
                store.path(),
                plural(n, "breaks", "break"),
                rows.join("; "),
                plural(n, "it", "them"),
            ),
        ));
    }
    let mut stream = AnswerStream::new(Format::from(format));
    let mut out: Vec<u8> = Vec::new();
    let writing = |e: std::io::Error| Raise::new(Class::Store, format!("cannot write: {e}"));
    stream.begin(&mut out).map_err(writing)?;
    store.each_row(filter, &PageSpec::default(), |listed| {
        cancel.check().map_err(Raise::from)?;
        match listed.row {
            Ok(answer) => stream.answer(&mut out, &answer).map_err(writing),
            Err(row) => Err(damaged(
                store.path(),
                format!("{row}; nothing was exported"),
            )),
        }
    })?;
    stream.end(&mut out).map_err(writing)?;
    let written = stream.written();
    let Some(file) = file else {
        return Ok((Some(String::from_utf8_lossy(&out).into_owned()), written));
    };
    let shown = file.display().to_string();
    let cannot = |e: std::io::Error| Raise::new(Class::Store, format!("cannot write {shown}: {e}"));
    let dir = match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut temporary = tempfile::NamedTempFile::new_in(&dir).map_err(cannot)?;
    temporary.write_all(&out).map_err(cannot)?;
    temporary.as_file().sync_all().map_err(cannot)?;
    temporary.persist(file).map_err(|e| cannot(e.error))?;
    Ok((None, written))
}
