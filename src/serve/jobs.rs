//! Long computations as jobs: one job per question however many clients ask for it, each with
//! its own cancel flag, progress that clients poll, and a limit on how many run at once.
//!
//! A job runs the blocking engines on tokio's blocking threads. Its result stays readable at
//! its address for a while after it ends; a question asked again after that is answered from
//! the store (or computed again with `--no-cache`).
//!
//! Every computation of the server (a job, a puzzle) holds a [`Place`] while it runs, and its
//! memory is its place's share of the server's one budget: together they never ask for more
//! than `--memory`.

use std::collections::{BTreeMap, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use tokio::sync::watch;

use super::pressure::Pressure;
use super::reply::ApiError;
use super::share::Client;
use super::threads::Lane;
use crate::cancel::CancelFlag;
use crate::error::Error;
use crate::memory::MemoryBudget;
use crate::question::Question;
use crate::resolve::{Progress, Resolution, estimated_work};
use crate::view::{Ends, View};

/// How long a finished job stays readable.
const KEEP_FINISHED: Duration = Duration::from_secs(600);

/// At most this many finished jobs are kept (the oldest go first).
const MAX_FINISHED: usize = 100;

/// What a job answers: a count request's view, or a start's ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// `/api/count` without `ends`.
    Count(View),
    /// `/api/count?…&ends`: the pairs from a start to every other square.
    Ends(Ends),
}

impl Asked {
    /// The canonical questions it needs.
    pub fn questions(self) -> Vec<Question> {
        match self {
            Asked::Count(view) => view.questions(),
            Asked::Ends(ends) => ends.questions(),
        }
    }
}

/// Where a job is.
#[derive(Clone, Debug)]
pub enum JobState {
    /// Computing.
    Running,
    /// Finished: every answer of the question.
    Done(Arc<Resolution>),
    /// Failed, with the status and message a request gets.
    Failed(ApiError),
    /// Cancelled (`DELETE`, its clients gone, or the server stopping) before it finished.
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
    pub asked: Asked,
    /// The canonical questions it answers (its identity).
    questions: Vec<Question>,
    started: Instant,
    finished: Mutex<Option<Instant>>,
    cancel: CancelFlag,
    planned: AtomicUsize,
    computed: AtomicUsize,
    /// The work planned and done, by [`estimated_work`].
    work_planned: AtomicU64,
    work_done: AtomicU64,
    clients: AtomicUsize,
    /// Requests waiting for it now: while one waits, the job has a client.
    waiting: AtomicUsize,
    /// When a client last asked for it (a poll, a request that joined or waited).
    last_seen: Mutex<Instant>,
    /// Cancelled because no client asked for it any more.
    abandoned: AtomicBool,
    state: watch::Sender<JobState>,
}

impl Job {
    /// Where it is now.
    pub fn state(&self) -> JobState {
        self.state.borrow().clone()
    }

    /// Waits until it ends or `timeout` passes, and says where it is then. A request that is
    /// dropped while it waits (its client hung up: axum drops the handler's future) leaves the
    /// job, as [`Job::leave`] does: the last client gone cancels it.
    ///
    /// Clients waiting to be accepted (`pressure`) end the wait early, past its grace: the
    /// client is told where the job is and polls again.
    pub async fn wait(&self, timeout: Duration, pressure: &Pressure) -> JobState {
        self.touch();
        self.waiting.fetch_add(1, Ordering::Relaxed);
        // Counted out however the request ends.
        struct Waiting<'a> {
            job: &'a Job,
            answered: bool,
        }
        impl Drop for Waiting<'_> {
            fn drop(&mut self) {
                self.job.waiting.fetch_sub(1, Ordering::Relaxed);
                self.job.touch();
                if !self.answered {
                    self.job.leave();
                }
            }
        }
        let mut waiting = Waiting {
            job: self,
            answered: false,
        };
        let mut receiver = self.state.subscribe();
        let began = tokio::time::Instant::now();
        // A timeout is the normal way out for a long job: the state says which it was.
        tokio::select! {
            _ = tokio::time::timeout(
                timeout,
                receiver.wait_for(|state| !matches!(state, JobState::Running)),
            ) => {}
            _ = pressure.make_room(began) => {}
        }
        waiting.answered = true;
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

    /// The work planned and done ([`estimated_work`]), so that a fraction done means the
    /// work done, not the answers (a theorem's zero is no work).
    pub fn work(&self) -> (u64, u64) {
        (
            self.work_planned.load(Ordering::Relaxed),
            self.work_done.load(Ordering::Relaxed),
        )
    }

    /// A client asked for it now.
    pub fn touch(&self) {
        *lock(&self.last_seen) = Instant::now();
    }

    /// A client says it no longer waits for it (the page closed: `navigator.sendBeacon`);
    /// the last one gone cancels it.
    pub fn leave(&self) {
        let left = self
            .clients
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                Some(n.saturating_sub(1))
            })
            .unwrap_or(0)
            .saturating_sub(1);
        if left == 0 && matches!(self.state(), JobState::Running) {
            self.abandoned.store(true, Ordering::Relaxed);
            self.cancel();
        }
    }

    /// True when it was cancelled because its clients were gone.
    pub fn abandoned(&self) -> bool {
        self.abandoned.load(Ordering::Relaxed)
    }

    /// Cancels it when it runs and no client has asked for it for `idle`.
    fn cancel_if_idle(&self, idle: Duration) {
        let unseen = lock(&self.last_seen).elapsed();
        if matches!(self.state(), JobState::Running)
            && self.waiting.load(Ordering::Relaxed) == 0
            && unseen >= idle
        {
            self.abandoned.store(true, Ordering::Relaxed);
            self.cancel();
        }
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
        match self.asked {
            Asked::Count(View::Table(board)) => format!("open tours from every square of {board}"),
            Asked::Ends(ends) => format!(
                "open tours of {} from {}, by the square they end on",
                ends.board, ends.start
            ),
            Asked::Count(_) => self.questions[0].to_string(),
        }
    }
}

/// What a job's place gives it: its memory and its threads.
pub struct Room {
    /// Its share of the server's budget.
    pub memory: MemoryBudget,
    /// Its place's threads (`None`: the engines' shared pool).
    pub threads: Option<Arc<rayon::ThreadPool>>,
}

/// The work of a job: given its cancel flag, its room and a progress callback, the
/// resolution.
pub type JobWork = Box<
    dyn FnOnce(&CancelFlag, Room, &mut dyn FnMut(Progress<'_>)) -> Result<Resolution, Error> + Send,
>;

/// Boards of at most this many squares are quick work (the memo engine counts any question of
/// them within a second or so): a job of such questions only may take the quick place when
/// every other place is taken, so that long jobs never make short ones wait or be refused.
pub const QUICK_SQUARES: u64 = 36;

/// The quick place's memory at most: quick work needs little.
const QUICK_MEMORY: u64 = 64 << 20;

/// What a place is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// A job whose every question is on a board of at most [`QUICK_SQUARES`] squares.
    Quick,
    /// Any other job.
    Long,
    /// A puzzle completed, counted or made: at most all places but one at a time, so that
    /// puzzles never hold every place.
    Puzzle,
}

/// The server's places of computation: `general` places for any work and one more for quick
/// work only, each with its share of the one memory budget (the quick place a small one) and
/// its own threads ([`Lane`]). One client holds at most `per_client` of the general places, so
/// that another client's computation still finds one.
#[derive(Debug)]
pub struct Places {
    general: usize,
    per_client: usize,
    share: MemoryBudget,
    quick_share: MemoryBudget,
    /// The general places' threads, then the quick place's.
    lanes: Vec<Lane>,
    taken: Mutex<Taken>,
}

#[derive(Debug, Default)]
struct Taken {
    /// Which general places are taken.
    general: Vec<bool>,
    puzzles: usize,
    quick: bool,
    /// The general places each client holds (only clients that hold one).
    clients: HashMap<Client, usize>,
}

/// A place held by one computation, given back when dropped.
#[derive(Debug)]
pub struct Place {
    places: Arc<Places>,
    work: Work,
    /// Its number: a general place's, or `general` for the quick place.
    index: usize,
    client: Client,
    budget: MemoryBudget,
}

impl Place {
    /// The memory this computation may use: its share of the server's budget.
    pub fn budget(&self) -> MemoryBudget {
        self.budget
    }

    /// The threads this computation runs on: its place's, at a lower priority for long work.
    pub fn threads(&self) -> Option<Arc<rayon::ThreadPool>> {
        self.places.lanes[self.index].pool(self.work != Work::Quick)
    }

    /// Runs `work` on this place's threads (on the calling thread when there are none).
    pub fn run<T: Send>(&self, work: impl FnOnce() -> T + Send) -> T {
        match self.threads() {
            Some(pool) => pool.install(work),
            None => work(),
        }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut taken = lock(&self.places.taken);
        if self.index == self.places.general {
            taken.quick = false;
        } else {
            taken.general[self.index] = false;
            if let Some(held) = taken.clients.get_mut(&self.client) {
                *held -= 1;
                if *held == 0 {
                    taken.clients.remove(&self.client);
                }
            }
        }
        if self.work == Work::Puzzle {
            taken.puzzles -= 1;
        }
    }
}

impl Places {
    /// `general` places (at least 1) and the quick one, sharing `memory`; one client holds at
    /// most `per_client` general places (from 1 to `general`).
    pub fn new(general: usize, per_client: usize, memory: MemoryBudget) -> Arc<Self> {
        let general = general.max(1);
        let quick = (memory.bytes() / (general as u64 + 1)).min(QUICK_MEMORY);
        Arc::new(Places {
            general,
            per_client: per_client.clamp(1, general),
            share: MemoryBudget::from_bytes((memory.bytes() - quick) / general as u64),
            quick_share: MemoryBudget::from_bytes(quick),
            lanes: (0..=general).map(|_| Lane::default()).collect(),
            taken: Mutex::new(Taken {
                general: vec![false; general],
                ..Taken::default()
            }),
        })
    }

    /// A place for `work` of `client` if one is free now; else why not: every place taken
    /// (429, `busy`), or the client holds its share (429, `client_share`).
    pub fn take(self: &Arc<Self>, work: Work, client: Client) -> Result<Place, ApiError> {
        let mut taken = lock(&self.taken);
        let index = self.choose(&taken, work, client)?;
        let budget = if index == self.general {
            taken.quick = true;
            self.quick_share
        } else {
            taken.general[index] = true;
            *taken.clients.entry(client).or_insert(0) += 1;
            self.share
        };
        if work == Work::Puzzle {
            taken.puzzles += 1;
        }
        Ok(Place {
            places: self.clone(),
            work,
            index,
            client,
            budget,
        })
    }

    /// Why `work` of `client` would be refused now, or a busy server's refusal if it would not.
    pub fn refusal(&self, work: Work, client: Client) -> ApiError {
        let taken = lock(&self.taken);
        self.choose(&taken, work, client)
            .err()
            .unwrap_or_else(|| busy(self, &taken))
    }

    /// The place `work` of `client` would take (`general`: the quick one), or the refusal.
    fn choose(&self, taken: &Taken, work: Work, client: Client) -> Result<usize, ApiError> {
        let puzzles_allowed = self.general.saturating_sub(1).max(1);
        let held = taken.clients.get(&client).copied().unwrap_or(0);
        let free = taken.general.iter().position(|t| !t);
        let allowed = work != Work::Puzzle || taken.puzzles < puzzles_allowed;
        match free {
            Some(index) if allowed && held < self.per_client => Ok(index),
            _ if work == Work::Quick && !taken.quick => Ok(self.general),
            // A place is free, but not for this client.
            Some(_) if held >= self.per_client => Err(self.client_refusal(held)),
            _ => Err(busy(self, taken)),
        }
    }

    /// The one line of a client refused because it holds its share of the places.
    fn client_refusal(&self, held: usize) -> ApiError {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "this client already runs {held} of the server's {} computations, its share (knights serve --max-client-jobs); try again when one finishes (GET /api/jobs lists them)",
                self.general
            ),
        )
        .of_kind("client_share")
    }
}

/// The work of a job is quick when every one of `questions` is on a small board.
pub fn kind_of(questions: &[Question]) -> Work {
    if questions.iter().all(|q| q.board.squares() <= QUICK_SQUARES) {
        Work::Quick
    } else {
        Work::Long
    }
}

/// The one line of a request refused because every place is taken.
fn busy(places: &Places, taken: &Taken) -> ApiError {
    let busy = taken.general.iter().filter(|t| **t).count();
    let puzzles = if busy < places.general {
        format!(
            " (puzzles take at most {} of the {} places)",
            places.general.saturating_sub(1).max(1),
            places.general
        )
    } else {
        String::new()
    };
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        format!(
            "the server is already computing {busy} question{}{puzzles} (its limit, --max-jobs); try again when one finishes (GET /api/jobs lists them)",
            if busy == 1 { "" } else { "s" }
        ),
    )
}

/// Every job of the server.
#[derive(Debug)]
pub struct Jobs {
    inner: Mutex<Inner>,
    places: Arc<Places>,
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
    /// No jobs yet; each runs in one of `places`.
    pub fn new(places: Arc<Places>) -> Arc<Self> {
        Arc::new(Jobs {
            inner: Mutex::new(Inner::default()),
            places,
        })
    }

    /// The running job that answers `view`'s questions, joined; or a new job that runs
    /// `work` — unless the server is stopping (503) or has no place for it (429: every place
    /// taken, the quick one too for quick work).
    pub fn join_or_start(
        self: &Arc<Self>,
        asked: Asked,
        client: Client,
        work: JobWork,
    ) -> Result<Arc<Job>, ApiError> {
        let mut questions = asked.questions();
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
            job.touch();
            return Ok(job);
        }
        let place = self.places.take(kind_of(&questions), client)?;
        inner.prune();
        inner.next += 1;
        let (state, _) = watch::channel(JobState::Running);
        let job = Arc::new(Job {
            id: inner.next,
            asked,
            questions: questions.clone(),
            started: Instant::now(),
            finished: Mutex::new(None),
            cancel: CancelFlag::new(),
            planned: AtomicUsize::new(0),
            computed: AtomicUsize::new(0),
            work_planned: AtomicU64::new(0),
            work_done: AtomicU64::new(0),
            clients: AtomicUsize::new(1),
            waiting: AtomicUsize::new(0),
            last_seen: Mutex::new(Instant::now()),
            abandoned: AtomicBool::new(false),
            state,
        });
        inner.jobs.insert(job.id, job.clone());
        inner.running.insert(questions, job.id);
        drop(inner);

        let jobs = self.clone();
        let running = job.clone();
        tokio::task::spawn_blocking(move || {
            let mut progress = |event: Progress<'_>| match event {
                Progress::Planned { questions, work } => {
                    running.planned.store(questions, Ordering::Relaxed);
                    running.work_planned.store(work, Ordering::Relaxed);
                }
                Progress::Computed(answer) => {
                    running.computed.fetch_add(1, Ordering::Relaxed);
                    running
                        .work_done
                        .fetch_add(estimated_work(&answer.question), Ordering::Relaxed);
                }
            };
            let room = Room {
                memory: place.budget(),
                threads: place.threads(),
            };
            // A panic must still end the job, or its question would wait on it for ever.
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                work(&running.cancel, room, &mut progress)
            }));
            // The place is free before the job is said to end: a client told it ended may
            // start another at once.
            drop(place);
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

    /// Cancels the running jobs that no client has asked for for `idle`.
    pub fn cancel_idle(&self, idle: Duration) {
        let inner = lock(&self.inner);
        for id in inner.running.values() {
            inner.jobs[id].cancel_if_idle(idle);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn client(address: &str) -> Client {
        Client::of(address.parse().unwrap())
    }

    #[test]
    fn a_client_holds_at_most_its_share_of_the_general_places() {
        let places = Places::new(2, 1, MemoryBudget::from_bytes(300 << 20));
        let (one, other) = (client("127.0.0.2"), client("127.0.0.3"));
        let first = places.take(Work::Long, one).unwrap();
        let refused = places.take(Work::Long, one).unwrap_err();
        assert_eq!(refused.kind, "client_share");
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
        // Quick work of the same client still finds the quick place, with its small share.
        let quick = places.take(Work::Quick, one).unwrap();
        assert_eq!(quick.budget(), MemoryBudget::from_bytes(QUICK_MEMORY));
        // Another client finds the other place; then every place is taken.
        let second = places.take(Work::Long, other).unwrap();
        assert_eq!(
            places
                .take(Work::Long, client("127.0.0.4"))
                .unwrap_err()
                .kind,
            "busy"
        );
        drop(first);
        assert!(places.take(Work::Puzzle, one).is_ok());
        drop((second, quick));
    }

    #[test]
    fn puzzles_never_hold_every_place_and_say_so() {
        let places = Places::new(2, 2, MemoryBudget::from_bytes(300 << 20));
        let one = client("127.0.0.2");
        let _puzzle = places.take(Work::Puzzle, one).unwrap();
        let refused = places.take(Work::Puzzle, one).unwrap_err();
        assert_eq!(refused.kind, "busy");
        assert!(
            refused.message.contains("puzzles take at most 1"),
            "{}",
            refused.message
        );
        assert!(places.take(Work::Long, one).is_ok());
    }
}
