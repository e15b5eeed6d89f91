//! Long computations as jobs: one job per question however many clients ask for it, each with
//! its own cancel flag, progress that clients poll, and a limit on how many run at once.
//!
//! A job runs the blocking engines on tokio's blocking threads. Its result stays readable at
//! its address for a while after it ends; a question asked again after that is answered from
//! the store (or computed again with `--no-cache`).

use std::collections::{BTreeMap, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use tokio::sync::watch;

use super::reply::ApiError;
use crate::cancel::CancelFlag;
use crate::error::Error;
use crate::question::Question;
use crate::resolve::{Progress, Resolution};
use crate::view::View;

/// How long a finished job stays readable.
const KEEP_FINISHED: Duration = Duration::from_secs(600);

/// At most this many finished jobs are kept (the oldest go first).
const MAX_FINISHED: usize = 100;

/// Where a job is.
#[derive(Clone, Debug)]
pub enum JobState {
    /// Computing.
    Running,
    /// Finished: every answer of the question.
    Done(Arc<Resolution>),
    /// Failed, with the status and message a request gets.
    Failed(ApiError),
    /// Cancelled (`DELETE`, or the server stopping) before it finished.
    Cancelled,
}

impl JobState {
    /// The state's name in the API.
    pub fn name(&self) -> &'static str {
        match self {
            JobState::Running => "running",
            JobState::Done(_) => "done",
            JobState::Failed(_) => "failed",
            JobState::Cancelled => "cancelled",
        }
    }
}

/// One computation.
#[derive(Debug)]
pub struct Job {
    /// Its number, in its address `/api/jobs/ID`.
    pub id: u64,
    /// What the client that started it asked to see.
    pub view: View,
    /// The canonical questions it answers (its identity).
    questions: Vec<Question>,
    started: Instant,
    finished: Mutex<Option<Instant>>,
    cancel: CancelFlag,
    planned: AtomicUsize,
    computed: AtomicUsize,
    clients: AtomicUsize,
    state: watch::Sender<JobState>,
}

impl Job {
    /// Where it is now.
    pub fn state(&self) -> JobState {
        self.state.borrow().clone()
    }

    /// Waits until it ends or `timeout` passes, and says where it is then.
    pub async fn wait(&self, timeout: Duration) -> JobState {
        let mut receiver = self.state.subscribe();
        // A timeout is the normal way out for a long job: the state says which it was.
        let _ = tokio::time::timeout(
            timeout,
            receiver.wait_for(|state| !matches!(state, JobState::Running)),
        )
        .await;
        self.state()
    }

    /// Asks it to stop; finished answers are kept in the store.
    pub fn cancel(&self) {
        self.cancel.cancel();
    }

    /// Questions to compute (0 until the store was read) and computed so far.
    pub fn progress(&self) -> (usize, usize) {
        (
            self.planned.load(Ordering::Relaxed),
            self.computed.load(Ordering::Relaxed),
        )
    }

    /// Seconds from its start to its end, or to now.
    pub fn seconds(&self) -> f64 {
        let end = lock(&self.finished).unwrap_or_else(Instant::now);
        end.duration_since(self.started).as_secs_f64()
    }

    /// Requests that asked for it (the one that started it included).
    pub fn clients(&self) -> usize {
        self.clients.load(Ordering::Relaxed)
    }

    /// The question, in words.
    pub fn describe(&self) -> String {
        match self.view {
            View::Table(board) => format!("open tours from every square of {board}"),
            _ => self.questions[0].to_string(),
        }
    }
}

/// The work of a job: given its cancel flag and a progress callback, the resolution.
pub type Work =
    Box<dyn FnOnce(&CancelFlag, &mut dyn FnMut(Progress<'_>)) -> Result<Resolution, Error> + Send>;

/// Every job of the server.
#[derive(Debug)]
pub struct Jobs {
    inner: Mutex<Inner>,
    limit: usize,
}

#[derive(Debug, Default)]
struct Inner {
    next: u64,
    jobs: BTreeMap<u64, Arc<Job>>,
    /// The running job of each question.
    running: HashMap<Vec<Question>, u64>,
    stopping: bool,
}

/// A poisoned lock only means that another request panicked; the data is still whole.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Jobs {
    /// No jobs yet; at most `limit` running at once.
    pub fn new(limit: usize) -> Arc<Self> {
        Arc::new(Jobs {
            inner: Mutex::new(Inner::default()),
            limit: limit.max(1),
        })
    }

    /// The running job that answers `view`'s questions, joined; or a new job that runs
    /// `work` — unless the server is stopping (503) or already runs its limit of jobs (429).
    pub fn join_or_start(self: &Arc<Self>, view: View, work: Work) -> Result<Arc<Job>, ApiError> {
        let mut questions = view.questions();
        questions.sort();
        questions.dedup();
        let mut inner = lock(&self.inner);
        if inner.stopping {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is stopping",
            ));
        }
        if let Some(job) = inner
            .running
            .get(&questions)
            .map(|id| inner.jobs[id].clone())
        {
            job.clients.fetch_add(1, Ordering::Relaxed);
            return Ok(job);
        }
        if inner.running.len() >= self.limit {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "the server is already computing {} question{} (its limit, --max-jobs); try again when one finishes (GET /api/jobs lists them)",
                    inner.running.len(),
                    if inner.running.len() == 1 { "" } else { "s" }
                ),
            ));
        }
        inner.prune();
        inner.next += 1;
        let (state, _) = watch::channel(JobState::Running);
        let job = Arc::new(Job {
            id: inner.next,
            view,
            questions: questions.clone(),
            started: Instant::now(),
            finished: Mutex::new(None),
            cancel: CancelFlag::new(),
            planned: AtomicUsize::new(0),
            computed: AtomicUsize::new(0),
            clients: AtomicUsize::new(1),
            state,
        });
        inner.jobs.insert(job.id, job.clone());
        inner.running.insert(questions, job.id);
        drop(inner);

        let jobs = self.clone();
        let running = job.clone();
        tokio::task::spawn_blocking(move || {
            let mut progress = |event: Progress<'_>| match event {
                Progress::Planned { questions } => {
                    running.planned.store(questions, Ordering::Relaxed)
                }
                Progress::Computed(_) => {
                    running.computed.fetch_add(1, Ordering::Relaxed);
                }
            };
            // A panic must still end the job, or its question would wait on it for ever.
            let outcome = catch_unwind(AssertUnwindSafe(|| work(&running.cancel, &mut progress)));
            let state = match outcome {
                Ok(Ok(resolution)) => JobState::Done(Arc::new(resolution)),
                Ok(Err(Error::Interrupted)) => JobState::Cancelled,
                Ok(Err(e)) => JobState::Failed(e.into()),
                Err(_) => JobState::Failed(ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal error: the computation failed (a bug: please report it)",
                )),
            };
            jobs.finish(&running, state);
        });
        Ok(job)
    }

    fn finish(&self, job: &Job, state: JobState) {
        let mut inner = lock(&self.inner);
        if inner.running.get(&job.questions) == Some(&job.id) {
            inner.running.remove(&job.questions);
        }
        *lock(&job.finished) = Some(Instant::now());
        job.state.send_replace(state);
    }

    /// The job numbered `id`, while it is kept.
    pub fn get(&self, id: u64) -> Option<Arc<Job>> {
        lock(&self.inner).jobs.get(&id).cloned()
    }

    /// Every job kept, oldest first.
    pub fn list(&self) -> Vec<Arc<Job>> {
        lock(&self.inner).jobs.values().cloned().collect()
    }

    /// Cancels every running job and refuses new ones: the server is stopping.
    pub fn stop_all(&self) {
        let mut inner = lock(&self.inner);
        inner.stopping = true;
        for id in inner.running.values() {
            inner.jobs[id].cancel();
        }
    }
}

impl Inner {
    /// Forgets finished jobs that are old, or too many.
    fn prune(&mut self) {
        let now = Instant::now();
        let finished_at = |job: &Job| *lock(&job.finished);
        self.jobs.retain(|_, job| {
            finished_at(job).is_none_or(|end| now.duration_since(end) < KEEP_FINISHED)
        });
        let finished: Vec<u64> = self
            .jobs
            .values()
            .filter(|job| finished_at(job).is_some())
            .map(|job| job.id)
            .collect();
        for id in finished
            .iter()
            .take(finished.len().saturating_sub(MAX_FINISHED))
        {
            self.jobs.remove(id);
        }
    }
}
