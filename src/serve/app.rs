//! What every request shares: the server's state ([`App`]: the store, the budget, the places
//! of the jobs and puzzles, the shares of the clients), and the helpers every route uses: the
//! query string's pairs, blocking work off the server's threads, the store's answers.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

use crate::cancel::CancelFlag;
use crate::count::frontier::Rows;
use crate::question::Question;
use crate::resolve::{self, EngineChoice, Resolution, Settings};
use crate::serve::config::{Config, ServerLimits};
use crate::serve::jobs::{self, JobWork, Jobs, Place, Places};
use crate::serve::pressure::Pressure;
use crate::serve::reply::ApiError;
use crate::serve::share::{Client, Shares};
use crate::store::Store;

/// What every request shares.
#[derive(Clone)]
pub struct App(pub(super) Arc<Shared>);

pub(super) struct Shared {
    pub(super) store: Option<PathBuf>,
    /// The whole budget: what a tour's arrays are checked against.
    pub(super) memory: crate::MemoryBudget,
    pub(super) limits: ServerLimits,
    /// The places of the jobs and puzzles, which share the budget.
    pub(super) places: Arc<Places>,
    pub(super) jobs: Arc<Jobs>,
    /// Tour searches running at once (more wait their turn).
    pub(super) tours: Semaphore,
    /// Each client's share of the tour searches (one more waits for one of its own to end).
    pub(super) tour_shares: Arc<Shares>,
    /// Puzzles waiting for a place: at most as many at once as may hold one, so that the
    /// others wait their turn rather than being refused.
    pub(super) puzzles: Semaphore,
    /// Set when the server stops: ends the tour searches and puzzles.
    pub(super) stop: CancelFlag,
    /// Whether clients wait to be accepted: long polls and waits for a turn make room.
    pub(super) pressure: Arc<Pressure>,
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
    pub fn new(config: &Config, stop: CancelFlag, pressure: Arc<Pressure>) -> Self {
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
            pressure,
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
        let began = tokio::time::Instant::now();
        let until = began + self.0.limits.wait;
        // A wait ends at `until`, or sooner when clients wait to be accepted.
        let turn = tokio::select! {
            turn = tokio::time::timeout_at(until, self.0.puzzles.acquire()) => turn,
            _ = self.0.pressure.make_room(began) => {
                return Err(self.0.places.refusal(jobs::Work::Puzzle, client));
            }
        };
        let turn = match turn {
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

pub(super) type QueryPairs = Result<Query<Vec<(String, String)>>, QueryRejection>;

/// The query's pairs, or the reason it cannot be read.
pub(super) fn query_pairs(query: QueryPairs) -> Result<Vec<(String, String)>, ApiError> {
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

impl App {
    /// The answers to every one of `questions` when the store has them all.
    pub(super) async fn stored(
        &self,
        questions: &[Question],
    ) -> Result<Option<Resolution>, ApiError> {
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
    pub(super) async fn stored_among(&self, questions: &[Question]) -> Result<usize, ApiError> {
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
    pub(super) fn work(&self, questions: Vec<Question>) -> JobWork {
        let store = self.0.store.clone();
        Box::new(move |cancel, room, progress| {
            let mut store = store.as_deref().map(Store::open).transpose()?;
            let settings = Settings {
                engine: EngineChoice::Auto,
                memory: room.memory,
                halves: None,
                rows: Rows::Short,
                one_at_a_time: false,
                cancel: cancel.clone(),
                threads: room.threads,
            };
            resolve::resolve(&questions, store.as_mut(), &settings, progress)
        })
    }
}

impl App {
    /// The stored count of `question`, if the store has it.
    pub(super) async fn stored_count(
        &self,
        question: Question,
    ) -> Result<Option<num_bigint::BigUint>, ApiError> {
        Ok(self
            .stored(&[question])
            .await?
            .map(|resolution| resolution.count(&question).clone()))
    }
}
