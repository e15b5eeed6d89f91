//! The routes: the page's files, `/api/count`, `/api/tour`, `/api/answers` and `/api/jobs`.
//!
//! Every answer is written with the library's record types and JSON writer, as the commands
//! write them, with the fields a client of a server needs added (`source`, `engine`,
//! `seconds`, and the heatmap's colours for tables).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Extension, Path, Query, State};
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Serialize;
use serde_json::value::RawValue;
use tokio::sync::Semaphore;

use super::jobs::{self, Asked, Job, JobState, JobWork, Jobs, Place, Places, Room};
use super::page;
use super::params::{AnswersRequest, CountRequest, TourRequest};
use super::reply::{ApiError, json, with_type};
use super::share::{Client, Shares};
use super::{Config, Limits};
use crate::cancel::CancelFlag;
use crate::count::CountTable;
use crate::existence::no_tour_for;
use crate::output::{
    BoardTotal, ClosedReport, Format, HeatScale, NUMBERS_UP_TO, PairCount, StartCount,
    TOUR_COLOURS, TableReport, TourFormat, legend_colours, to_json, write_tour,
};
use crate::question::{Question, TourKind};
use crate::resolve::{self, EngineChoice, Resolution, Settings};
use crate::store::Store;
use crate::tour::NoTourReason;
use crate::view::{Ends, View};

/// What every request shares.
#[derive(Clone)]
pub struct App(Arc<Shared>);

struct Shared {
    store: Option<PathBuf>,
    /// The whole budget: what a tour's arrays are checked against.
    memory: crate::MemoryBudget,
    limits: Limits,
    /// The places of the jobs and puzzles, which share the budget.
    places: Arc<Places>,
    jobs: Arc<Jobs>,
    /// Tour searches running at once (more wait their turn).
    tours: Semaphore,
    /// Each client's share of the tour searches (one more waits for one of its own to end).
    tour_shares: Arc<Shares>,
    /// Puzzles waiting for a place: at most as many at once as may hold one, so that the
    /// others wait their turn rather than being refused.
    puzzles: Semaphore,
    /// Set when the server stops: ends the tour searches and puzzles.
    stop: CancelFlag,
}

/// The longest any request's work may take on the server (a tour from one square, a puzzle):
/// past it the work is stopped and answered 503.
pub const WORK_SECONDS: u64 = 60;

/// The cancel flag of one request's work, set when this is dropped: the request's future is
/// dropped when its client hangs up (axum drops the handler's future when the connection
/// closes), so work no client waits for stops at its next look at the flag.
pub(super) struct RequestWork {
    flag: CancelFlag,
    limit: Option<Instant>,
}

impl RequestWork {
    /// The flag the work looks at.
    pub(super) fn flag(&self) -> CancelFlag {
        self.flag.clone()
    }

    /// True when the flag was set by its time limit (not by the server stopping).
    pub(super) fn out_of_time(&self) -> bool {
        self.limit.is_some_and(|limit| Instant::now() >= limit)
    }
}

impl Drop for RequestWork {
    fn drop(&mut self) {
        self.flag.cancel();
    }
}

impl App {
    /// The state of a server run with `config`, stopped by `stop`.
    pub fn new(config: &Config, stop: CancelFlag) -> Self {
        let jobs = config.limits.jobs.max(1);
        let places = Places::new(jobs, config.limits.client_jobs, config.memory);
        App(Arc::new(Shared {
            store: config.store.clone(),
            memory: config.memory,
            limits: config.limits,
            jobs: Jobs::new(places.clone()),
            places,
            tours: Semaphore::new(jobs),
            tour_shares: Shares::new(config.limits.client_jobs.clamp(1, jobs)),
            puzzles: Semaphore::new(jobs.saturating_sub(1).max(1)),
            stop,
        }))
    }

    /// A cancel flag for one request's work: set when the returned guard is dropped (the
    /// request ended, or its client hung up), when the server stops, or after `limit`.
    pub(super) fn request_work(&self, limit: Option<Duration>) -> RequestWork {
        let work = RequestWork {
            flag: CancelFlag::new(),
            limit: limit.map(|limit| Instant::now() + limit),
        };
        let (watched, stop, deadline) = (work.flag.clone(), self.0.stop.clone(), work.limit);
        // Ends with the flag, however it is set.
        tokio::spawn(async move {
            while !watched.is_cancelled() {
                if stop.is_cancelled() || deadline.is_some_and(|d| Instant::now() >= d) {
                    watched.cancel();
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        });
        work
    }

    /// Cancels, now and then, the running jobs whose clients are gone (none has asked for
    /// one for the server's `idle` time); runs until the server stops.
    pub async fn cancel_abandoned_jobs(self) {
        let idle = self.0.limits.idle;
        let every = (idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(5));
        while !self.0.stop.is_cancelled() {
            tokio::time::sleep(every).await;
            self.0.jobs.cancel_idle(idle);
        }
    }

    /// A place for a puzzle of `client`, with its share of the memory: its turn among the
    /// puzzles waited for (a client that hangs up leaves the queue), then a place, both within
    /// the server's `--wait` (the work of a puzzle whose client left gives its place back once
    /// it has stopped), else 429, as a count is told when the jobs hold every place or the
    /// client its share of them.
    pub(super) async fn puzzle_place(
        &self,
        client: Client,
    ) -> Result<(tokio::sync::SemaphorePermit<'_>, Place), ApiError> {
        let until = tokio::time::Instant::now() + self.0.limits.wait;
        let turn = match tokio::time::timeout_at(until, self.0.puzzles.acquire()).await {
            Ok(Ok(turn)) => turn,
            Ok(Err(_)) => {
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server is stopping",
                ));
            }
            // The puzzles before it hold their places: the place's own refusal says so.
            Err(_) => return Err(self.0.places.refusal(jobs::Work::Puzzle, client)),
        };
        loop {
            match self.0.places.take(jobs::Work::Puzzle, client) {
                Ok(place) => return Ok((turn, place)),
                Err(refused) => {
                    if tokio::time::Instant::now() >= until || self.0.stop.is_cancelled() {
                        return Err(refused);
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Cancels the running jobs and refuses new ones.
    pub fn stop(&self) {
        self.0.stop.cancel();
        self.0.jobs.stop_all();
    }
}

/// Every route.
pub fn router(app: App) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/style.css", get(page::style))
        .route("/app.js", get(page::script))
        .route("/puzzle.js", get(page::puzzle_script))
        .route("/puzzle.css", get(page::puzzle_style))
        .route("/api/count", get(count))
        .route("/api/tour", get(tour))
        .route("/api/answers", get(answers))
        .route("/api/jobs", get(list_jobs))
        .route("/api/jobs/{id}", get(job_status).delete(cancel_job))
        .route("/api/jobs/{id}/leave", post(leave_job))
        .route("/api/puzzle", post(super::puzzle::solve))
        .route("/api/puzzle/new", get(super::puzzle::make))
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .with_state(app)
}

pub(super) type Pairs = Result<Query<Vec<(String, String)>>, QueryRejection>;

/// The query's pairs, or the reason it cannot be read.
pub(super) fn pairs(query: Pairs) -> Result<Vec<(String, String)>, ApiError> {
    query.map(|Query(pairs)| pairs).map_err(|e| {
        ApiError::bad(format!(
            "the query string cannot be read: {}",
            e.body_text()
        ))
    })
}

/// Runs blocking work (the store, the engines) off the server's threads.
pub(super) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| {
        Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error: the request failed (a bug: please report it)",
        ))
    })
}

pub(super) fn answer(result: Result<Response, ApiError>) -> Response {
    result.unwrap_or_else(IntoResponse::into_response)
}

async fn wrong_method(method: Method, uri: Uri) -> Response {
    let allowed = if uri.path().ends_with("/leave") {
        "POST"
    } else if uri.path().starts_with("/api/jobs/") {
        "GET and DELETE"
    } else if uri.path() == "/api/puzzle" {
        "POST"
    } else {
        "GET"
    };
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{} takes {allowed}, not {method}", uri.path()),
    )
    .into_response()
}

async fn not_found(uri: Uri) -> Response {
    ApiError::not_found(format!("nothing at {}", uri.path())).into_response()
}

// ---------------------------------------------------------------------------------------
// /api/count

async fn count(
    State(app): State<App>,
    Extension(client): Extension<Client>,
    query: Pairs,
) -> Response {
    answer(count_answer(app, client, query).await)
}

async fn count_answer(app: App, client: Client, query: Pairs) -> Result<Response, ApiError> {
    let request = CountRequest::parse(pairs(query)?, app.0.limits.wait)?;
    // The engines' limits first, before a table's starts are listed.
    let limit = app.0.limits.table_squares;
    let too_large = |board: crate::Board, what: &str, instead: &str| {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the {board} board has {} squares; this server counts {what} of at most {limit} squares{instead}",
                board.squares()
            ),
        )
    };
    match request.asked {
        Asked::Count(view) => {
            if let Err(refused) = view.check_engines(&Settings::default()) {
                if !view.may_be_stored() {
                    return Err(refused.into());
                }
                // Beyond one machine, what the store holds (a merged plan's table) is served.
                let questions = view.questions();
                match (&refused, app.stored(&questions).await?) {
                    (crate::error::Error::BeyondOneMachine { .. }, Some(stored)) => {
                        return render_count(request.asked, request.format, &stored);
                    }
                    _ => return Err(refused.into()),
                }
            }
            if let View::Table(board) = view
                && board.squares() > limit
            {
                return Err(too_large(
                    board,
                    "per-square tables",
                    " (the board's total: add &total)",
                ));
            }
        }
        Asked::Ends(ends) => {
            if ends.board.squares() > limit {
                return Err(too_large(ends.board, "tables of ends", ""));
            }
            resolve::check_engines(&ends.questions(), &Settings::default())?;
            if resolve::beyond_one_machine(ends.board) {
                return served_ends_or_refusal(&app, request.asked, request.format, ends).await;
            }
        }
    }
    let asked = request.asked;
    let questions = asked.questions();
    if let Some(stored) = app.stored(&questions).await? {
        return render_count(asked, request.format, &stored);
    }
    if questions.iter().all(|q| no_tour_for(q).is_some()) {
        // Theorems answer at once: no job, and no place taken among the jobs.
        let work = app.work(questions);
        // Theorems fill no table: no share of the budget.
        let memory = crate::MemoryBudget::from_bytes(1 << 20);
        let room = Room {
            memory,
            threads: None,
        };
        let resolution = blocking(move || Ok(work(&CancelFlag::new(), room, &mut |_| {})?)).await?;
        return render_count(asked, request.format, &resolution);
    }
    let job = app
        .0
        .jobs
        .join_or_start(asked, client, app.work(questions))?;
    match job.wait(request.wait).await {
        JobState::Done(resolution) => render_count(asked, request.format, &resolution),
        JobState::Failed(error) => Err(error),
        JobState::Cancelled => Err(cancelled(&job)),
        JobState::Running => Ok(job_response(&job, StatusCode::ACCEPTED)),
    }
}

/// A start's ends on a board whose counts from one square are beyond one machine: their sum is
/// such a count, hours of work a pair, so they are shown only when the store holds every pair
/// (a merged plan's, or counted pair by pair with `count --to`); otherwise refused at once with
/// what it would cost, as the command refuses the count from the start.
async fn served_ends_or_refusal(
    app: &App,
    asked: Asked,
    format: &str,
    ends: Ends,
) -> Result<Response, ApiError> {
    let mut questions = ends.questions();
    questions.sort();
    questions.dedup();
    if let Some(stored) = app.stored(&questions).await? {
        return render_count(asked, format, &stored);
    }
    let held = app.stored_among(&questions).await?;
    let board = ends.board;
    Err(ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "the ends of {} on the {board} board are {} distinct pair counts of hours each (their sum is a count from one square, beyond one machine), and the answer store holds {held} of them; this server shows them once it holds them all: `knights count {} {} {} {} --to ROW COL` counts one pair, `knights shards plan` splits them for many machines",
            ends.start,
            questions.len(),
            board.rows(),
            board.cols(),
            ends.start.row,
            ends.start.col,
        ),
    )
    .of_kind("beyond_one_machine"))
}

fn cancelled(job: &Job) -> ApiError {
    let why = if job.abandoned() {
        "no page or client was waiting for it any more".to_string()
    } else {
        format!("DELETE /api/jobs/{}, or the server stopping", job.id)
    };
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        format!(
            "the computation was cancelled before it finished ({why}); what it finished is kept"
        ),
    )
    .of_kind("cancelled")
}

impl App {
    /// The answers to every one of `questions` when the store has them all.
    async fn stored(&self, questions: &[Question]) -> Result<Option<Resolution>, ApiError> {
        let Some(path) = self.0.store.clone() else {
            return Ok(None);
        };
        let questions = questions.to_vec();
        blocking(move || {
            let store = Store::open(&path)?;
            let answers = resolve::read(&store, &questions)?;
            if questions.iter().all(|q| answers.contains_key(q)) {
                Ok(Some(Resolution {
                    from_store: answers.keys().copied().collect(),
                    answers,
                    ..Resolution::default()
                }))
            } else {
                Ok(None)
            }
        })
        .await
    }

    /// How many of `questions` the store holds.
    async fn stored_among(&self, questions: &[Question]) -> Result<usize, ApiError> {
        let Some(path) = self.0.store.clone() else {
            return Ok(0);
        };
        let questions = questions.to_vec();
        blocking(move || {
            let store = Store::open(&path)?;
            Ok(resolve::read(&store, &questions)?.len())
        })
        .await
    }

    /// A job's work: the store opened on its own thread (a `Store` is not `Sync`), then the
    /// questions resolved as the command does within the job's memory, saving every answer.
    fn work(&self, questions: Vec<Question>) -> JobWork {
        let store = self.0.store.clone();
        Box::new(move |cancel, room, progress| {
            let mut store = store.as_deref().map(Store::open).transpose()?;
            let settings = Settings {
                engine: EngineChoice::Auto,
                memory: room.memory,
                halves: None,
                one_at_a_time: false,
                cancel: cancel.clone(),
                threads: room.threads,
            };
            resolve::resolve(&questions, store.as_mut(), &settings, progress)
        })
    }
}

/// A count with where it came from: the command's JSON record, its fields first and in their
/// order, then the fields a client of a server needs.
#[derive(Serialize)]
struct CountReply<T: Serialize> {
    #[serde(flatten)]
    record: T,
    /// `store` when every answer was stored, `computed` otherwise.
    source: &'static str,
    /// The engine of the answer shown (`theorem` for a zero a theorem decides).
    engine: String,
    /// Seconds the engine took for it (when it was computed, for a stored one).
    seconds: f64,
    /// How it was found, in words for a person ([`Resolution::how`]): a client names no
    /// engine itself.
    how: String,
    /// The heatmap's colours, row by row, for tables.
    #[serde(skip_serializing_if = "Option::is_none")]
    heat: Option<Heat>,
}

/// The colours of `count --format svg`, for the page.
#[derive(Serialize)]
struct Heat {
    /// Each square's colour.
    fill: Vec<Vec<String>>,
    /// The colour of each square's number.
    ink: Vec<Vec<&'static str>>,
    /// The scale from the smallest count above zero to the largest.
    legend: Vec<String>,
}

impl Heat {
    fn of(table: &CountTable) -> Self {
        let scale = HeatScale::of(table.counts());
        Heat {
            fill: table
                .rows()
                .map(|row| row.iter().map(|c| scale.fill(c)).collect())
                .collect(),
            ink: table
                .rows()
                .map(|row| row.iter().map(|c| scale.ink(c)).collect())
                .collect(),
            legend: legend_colours(),
        }
    }
}

/// The answer to `asked` from `resolution`, as JSON or CSV.
fn render_count(asked: Asked, format: &str, resolution: &Resolution) -> Result<Response, ApiError> {
    if format != "csv" {
        return Ok(json(StatusCode::OK, asked_json(asked, resolution)?));
    }
    let (csv, name) = match asked {
        Asked::Count(view) => (count_csv(view, resolution)?, file_name(view)),
        Asked::Ends(ends) => (
            ends_csv(ends, resolution)?,
            format!(
                "knights-{}-ends-{}-{}",
                ends.board, ends.start.row, ends.start.col
            ),
        ),
    };
    let mut response = with_type(StatusCode::OK, "text/csv; charset=utf-8", csv);
    let name = format!("attachment; filename=\"{name}.csv\"");
    if let Ok(value) = HeaderValue::from_str(&name) {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

/// The JSON answer to `asked`.
fn asked_json(asked: Asked, resolution: &Resolution) -> Result<String, ApiError> {
    match asked {
        Asked::Count(view) => count_json(view, resolution),
        Asked::Ends(ends) => Ok(ends_json(ends, resolution)),
    }
}

/// A start's ends: the count of open tours from it that end on each square, and their sum
/// (the count from the start).
#[derive(Serialize)]
struct EndsReply {
    rows: u32,
    cols: u32,
    row: u32,
    col: u32,
    /// Always `ends`.
    kind: &'static str,
    /// The sum of the table: every open tour from the start.
    count: String,
    /// Row by row, the tours that end on each square (0 on the start).
    counts: Vec<Vec<String>>,
    source: &'static str,
    how: String,
    heat: Heat,
}

fn ends_json(ends: Ends, resolution: &Resolution) -> String {
    let table = ends.table(resolution);
    let mut questions = ends.questions();
    questions.sort();
    questions.dedup();
    let stored = questions.iter().all(|q| resolution.from_store.contains(q));
    let computed: Vec<&crate::store::Answer> = questions
        .iter()
        .filter(|q| !resolution.from_store.contains(q))
        .map(|q| &resolution.answers[q])
        .collect();
    let how = if stored {
        format!(
            "from the answer store: its {} distinct pairs counted before",
            questions.len()
        )
    } else {
        let seconds: f64 = computed.iter().map(|a| a.seconds).sum();
        format!(
            "{} distinct pairs counted in {} of engine time, {} read from the answer store",
            computed.len(),
            resolve::seconds_in_words(seconds),
            questions.len() - computed.len()
        )
    };
    to_json(&EndsReply {
        rows: ends.board.rows(),
        cols: ends.board.cols(),
        row: ends.start.row,
        col: ends.start.col,
        kind: "ends",
        count: table.total_directed().to_string(),
        counts: table
            .rows()
            .map(|row| row.iter().map(ToString::to_string).collect())
            .collect(),
        source: if stored { "store" } else { "computed" },
        how,
        heat: Heat::of(&table),
    })
}

/// A start's ends as CSV: one pair a line, as `count --to --format csv` writes each.
fn ends_csv(ends: Ends, resolution: &Resolution) -> Result<String, ApiError> {
    let csv = Format::Csv.exporter();
    let table = ends.table(resolution);
    let mut out = String::new();
    for end in ends.board.all_squares().filter(|&end| end != ends.start) {
        let pair = PairCount::new(ends.board, ends.start, end, table.get(end).clone());
        let text = csv.pair_count(&pair)?;
        // Each record comes with its header: keep the first.
        let lines = if out.is_empty() {
            text
        } else {
            text.lines().skip(1).map(|l| format!("{l}\n")).collect()
        };
        out.push_str(&lines);
    }
    Ok(out)
}

/// The command's JSON record for `view` (as `count --format json` writes it), with the
/// server's fields.
fn count_json(view: View, resolution: &Resolution) -> Result<String, ApiError> {
    let questions = view.questions();
    let shown = &resolution.answers[&view.shown()];
    let count = shown.count.clone();
    let source = if questions.iter().all(|q| resolution.from_store.contains(q)) {
        "store"
    } else {
        "computed"
    };
    let how = resolution.how(&view.shown());
    let reply = |record: &dyn records::Record, heat: Option<Heat>| {
        record.reply(
            source,
            shown.engine.clone(),
            shown.seconds,
            how.clone(),
            heat,
        )
    };
    Ok(match view {
        View::Start(board, square, kind) => {
            reply(&StartCount::new(board, square, kind, count), None)
        }
        View::Table(_) => {
            let table = view.table(resolution);
            reply(&TableReport::open(&table)?, Some(Heat::of(&table)))
        }
        // A closed tour passes through every square: one count, the same on each, and no
        // heatmap to read.
        View::Closed(board) => reply(&ClosedReport::new(board, &count), None),
        View::Total(board) => reply(&BoardTotal::new(board, TourKind::Open, &count), None),
        View::Pair(board, start, end) => reply(&PairCount::new(board, start, end, count), None),
    })
}

/// The records of different types written through one closure.
mod records {
    use super::{CountReply, Heat};
    use crate::output::to_json;

    /// A record of the exporters.
    pub trait Record {
        /// The record with the server's fields, as one line of JSON.
        fn reply(
            &self,
            source: &'static str,
            engine: String,
            seconds: f64,
            how: String,
            heat: Option<Heat>,
        ) -> String;
    }

    impl<T: serde::Serialize> Record for T {
        fn reply(
            &self,
            source: &'static str,
            engine: String,
            seconds: f64,
            how: String,
            heat: Option<Heat>,
        ) -> String {
            to_json(&CountReply {
                record: self,
                source,
                engine,
                seconds,
                how,
                heat,
            })
        }
    }
}

/// The command's CSV for `view` (as `count --format csv` writes it).
fn count_csv(view: View, resolution: &Resolution) -> Result<String, ApiError> {
    let csv = Format::Csv.exporter();
    let count = view.count(resolution).clone();
    Ok(match view {
        View::Start(board, square, kind) => {
            csv.start_count(&StartCount::new(board, square, kind, count))?
        }
        View::Table(_) => csv.table(&view.table(resolution))?,
        View::Closed(board) => csv.closed_board(&ClosedReport::new(board, &count))?,
        View::Total(board) => {
            csv.board_totals(&[BoardTotal::new(board, TourKind::Open, &count)])?
        }
        View::Pair(board, start, end) => {
            csv.pair_count(&PairCount::new(board, start, end, count))?
        }
    })
}

fn file_name(view: View) -> String {
    match view {
        View::Start(board, square, kind) => {
            format!("knights-{board}-{kind}-{}-{}", square.row, square.col)
        }
        View::Table(board) => format!("knights-{board}-open"),
        View::Closed(board) => format!("knights-{board}-closed"),
        View::Total(board) => format!("knights-{board}-open-total"),
        View::Pair(board, start, end) => format!(
            "knights-{board}-between-{}-{}-{}-{}",
            start.row, start.col, end.row, end.col
        ),
    }
}

// ---------------------------------------------------------------------------------------
// /api/jobs

/// A job as the API shows it.
#[derive(Serialize)]
struct JobReply {
    job: String,
    question: String,
    state: &'static str,
    /// Questions the store lacked, to compute (0 until the store was read).
    planned: usize,
    computed: usize,
    /// The work planned and done, in the same units: their ratio is the fraction done (a
    /// theorem's zero is no work, a long pass much).
    work_planned: u64,
    work_done: u64,
    seconds: f64,
    clients: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// What sort of failure, as an error's `kind`.
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    /// The answer of a finished job, as `/api/count` gives it.
    #[serde(skip_serializing_if = "Option::is_none")]
    answer: Option<Box<RawValue>>,
}

fn job_reply(job: &Job) -> JobReply {
    let state = job.state();
    let (planned, computed) = job.progress();
    let (work_planned, work_done) = job.work();
    let failed = |e: &ApiError| {
        (
            Some(e.status.as_u16()),
            Some(e.message.clone()),
            Some(e.kind),
        )
    };
    let ((status, error, kind), answer) = match &state {
        JobState::Done(resolution) => match asked_json(job.asked, resolution) {
            Ok(answer) => (
                (Some(200), None, None),
                RawValue::from_string(answer.trim_end().to_string()).ok(),
            ),
            Err(e) => (failed(&e), None),
        },
        JobState::Failed(e) => (failed(e), None),
        JobState::Cancelled => (failed(&cancelled(job)), None),
        JobState::Running => ((None, None, None), None),
    };
    JobReply {
        job: format!("/api/jobs/{}", job.id),
        question: job.describe(),
        state: state.name(),
        planned,
        computed,
        work_planned,
        work_done,
        seconds: job.seconds(),
        clients: job.clients(),
        status,
        error,
        kind,
        answer,
    }
}

fn job_response(job: &Job, status: StatusCode) -> Response {
    let mut response = json(status, to_json(&job_reply(job)));
    if let Ok(location) = HeaderValue::from_str(&format!("/api/jobs/{}", job.id)) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    response
}

fn find_job(app: &App, id: &str) -> Result<Arc<Job>, ApiError> {
    id.parse::<u64>()
        .ok()
        .and_then(|id| app.0.jobs.get(id))
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "no job {id} (finished jobs are kept for ten minutes)"
            ))
        })
}

async fn job_status(State(app): State<App>, Path(id): Path<String>) -> Response {
    answer(find_job(&app, &id).map(|job| {
        job.touch();
        job_response(&job, StatusCode::OK)
    }))
}

/// `POST /api/jobs/ID/leave`: a client no longer waits for it (the page's beacon when it
/// closes); the last one gone cancels it, keeping what it finished.
async fn leave_job(State(app): State<App>, Path(id): Path<String>) -> Response {
    answer(find_job(&app, &id).map(|job| {
        job.leave();
        job_response(&job, StatusCode::OK)
    }))
}

async fn cancel_job(State(app): State<App>, Path(id): Path<String>) -> Response {
    answer(find_job(&app, &id).map(|job| {
        if matches!(job.state(), JobState::Running) {
            job.cancel();
            job_response(&job, StatusCode::ACCEPTED)
        } else {
            job_response(&job, StatusCode::OK)
        }
    }))
}

async fn list_jobs(State(app): State<App>) -> Response {
    let jobs: Vec<JobReply> = app.0.jobs.list().iter().map(|job| job_reply(job)).collect();
    json(StatusCode::OK, to_json(&jobs))
}

// ---------------------------------------------------------------------------------------
// /api/tour

async fn tour(
    State(app): State<App>,
    Extension(client): Extension<Client>,
    query: Pairs,
) -> Response {
    answer(tour_answer(app, client, query).await)
}

async fn tour_answer(app: App, client: Client, query: Pairs) -> Result<Response, ApiError> {
    let request = TourRequest::parse(pairs(query)?)?;
    let board = request.board;
    let limit = app.0.limits.tour_squares;
    if board.squares() > limit {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the {board} board has {} squares; this server finds tours of at most {limit} squares (knights tour has no such limit)",
                board.squares()
            ),
        ));
    }
    crate::tour::check_memory(board, app.0.memory)?;
    // A pair's count in the store decides the search: none, or one that must be found.
    let known = match request.end {
        Some(end) => {
            app.stored_count(Question::between(board, request.start, end))
                .await?
        }
        None => None,
    };
    let limit = app.0.limits.tour_time;
    // The client's share first (one more waits for one of its own to end; hanging up leaves),
    // so that one client's searches never hold every turn.
    let _share = loop {
        if let Some(share) = app.0.tour_shares.take_for(client) {
            break share;
        }
        if app.0.stop.is_cancelled() {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is stopping",
            ));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let _turn =
        app.0.tours.acquire().await.map_err(|_| {
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping")
        })?;
    // Between two squares the search keeps its own time (`--tour-seconds`); any other tour
    // has the server's longest. Either way it stops when its client goes.
    let work = app.request_work(
        request
            .end
            .is_none()
            .then_some(Duration::from_secs(WORK_SECONDS)),
    );
    let stop = work.flag();
    let svg = request.format == "svg";
    // Finding and writing a large tour both take time: off the server's threads.
    let text = blocking(move || {
        let found = match request.end {
            Some(end) => crate::tour::find_tour_between(
                board,
                request.start,
                end,
                request.seed,
                known.as_ref(),
                limit,
                &stop,
            )?,
            None => {
                crate::tour::find_tour(board, request.start, request.closed, request.seed, &stop)?
            }
        };
        let (tour, method) = found.map_err(|reason| no_tour(&reason))?;
        if svg {
            return Ok(write_tour(&tour, method, TourFormat::AnimatedSvg));
        }
        // The command's record, its fields first and in their order, then the server's.
        let record = write_tour(&tour, method, TourFormat::Json);
        let extra = to_json(&TourExtra {
            how: format!("found by {method}"),
            colours: TOUR_COLOURS,
            numbers_up_to: NUMBERS_UP_TO,
        });
        let record = record.trim_end().strip_suffix('}').unwrap_or(&record);
        Ok(format!("{record},{}", extra.trim_start_matches('{')))
    })
    .await
    .map_err(|e| {
        if e.kind == "interrupted" && work.out_of_time() {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the tour search was stopped: this server gives a tour at most {WORK_SECONDS} s; `knights tour` has no such limit"
                ),
            )
        } else {
            e
        }
    })?;
    if !svg {
        return Ok(json(StatusCode::OK, text));
    }
    let mut response = with_type(StatusCode::OK, "image/svg+xml", text);
    let name = format!(
        "attachment; filename=\"knights-tour-{board}-{}-{}{}.svg\"",
        request.start.row,
        request.start.col,
        if request.closed { "-closed" } else { "" }
    );
    if let Ok(value) = HeaderValue::from_str(&name) {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

/// No tour: the reason, and whether a theorem said it.
fn no_tour(reason: &NoTourReason) -> ApiError {
    ApiError::no_tour(reason.to_string())
}

/// What the server adds to a tour as `tour --format json` writes it: how it was found and the
/// colours of its picture (the server's SVG's, so that the page draws with the same).
#[derive(Serialize)]
struct TourExtra {
    how: String,
    colours: crate::output::TourColours,
    numbers_up_to: u32,
}

impl App {
    /// The stored count of `question`, if the store has it.
    async fn stored_count(
        &self,
        question: Question,
    ) -> Result<Option<num_bigint::BigUint>, ApiError> {
        Ok(self
            .stored(&[question])
            .await?
            .map(|resolution| resolution.count(&question).clone()))
    }
}

// ---------------------------------------------------------------------------------------
// /api/answers

async fn answers(State(app): State<App>, query: Pairs) -> Response {
    answer(answers_answer(app, query).await)
}

async fn answers_answer(app: App, query: Pairs) -> Result<Response, ApiError> {
    let given = pairs(query)?;
    let request = AnswersRequest::parse(given.clone())?;
    let Some(path) = app.0.store.clone() else {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "this server runs with --no-cache: it keeps no answer store",
        ));
    };
    let (filter, mut page) = (request.filter, request.page);
    filter.check().map_err(|e| ApiError::bad(e.to_string()))?;
    let limit = page.limit.unwrap_or(super::params::ANSWERS_PAGE);
    // One row past the page says whether another page follows; the page is all that is held.
    page.limit = Some(limit + 1);
    let (answers, next) = blocking(move || {
        let store = Store::open(&path)?;
        let mut answers = Vec::new();
        let mut last = None;
        let mut more = false;
        store.each_row(&filter, &page, |listed| {
            if answers.len() as u64 == limit {
                more = true;
                return Ok(());
            }
            match listed.row {
                Ok(answer) => answers.push(answer),
                // As `knights query`: a planted row is the store's damage, not a page's gap.
                Err(bad) => {
                    return Err(ApiError::from(crate::store::StoreError::Damaged {
                        path: store.path().to_string(),
                        detail: format!("{bad}; run `knights verify`"),
                    }));
                }
            }
            last = listed.cursor;
            Ok(())
        })?;
        Ok((answers, last.filter(|_| more)))
    })
    .await?;
    let mut response = if request.format == "csv" {
        with_type(
            StatusCode::OK,
            "text/csv; charset=utf-8",
            Format::Csv.exporter().answers(&answers)?,
        )
    } else {
        json(StatusCode::OK, Format::Json.exporter().answers(&answers)?)
    };
    // The next page, as GitHub's API links it: the same query, resuming after this page.
    if let Some(next) = next {
        let mut query: Vec<String> = given
            .iter()
            .filter(|(name, _)| name != "after")
            .map(|(name, value)| format!("{}={}", url_encoded(name), url_encoded(value)))
            .collect();
        query.push(format!("after={next}"));
        let link = format!("</api/answers?{}>; rel=\"next\"", query.join("&"));
        if let Ok(value) = HeaderValue::from_str(&link) {
            response.headers_mut().insert(header::LINK, value);
        }
    }
    Ok(response)
}

/// `text` with every byte but the URL's unreserved ones percent-encoded.
fn url_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
