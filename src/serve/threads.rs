//! The threads of the server's computations: every place has its own thread pools, so that a
//! computation's tasks never queue behind another's (in one shared pool a short job waited
//! until a long one's running tasks ended), and the system shares the cores between them.
//! Long work's threads run at a lower priority ([`LONG_NICENESS`]): short work started beside
//! it takes the cores it needs and ends in about its own time.

use std::sync::{Arc, OnceLock};

/// How much nicer (`nice(1)`) long work's threads are than the server: enough that the
/// system gives short work nine tenths of the cores it shares with long work.
pub const LONG_NICENESS: i32 = 10;

/// A place's pools, each made when first needed: one at the server's priority for quick work,
/// one at a lower one for long work and puzzles.
#[derive(Debug, Default)]
pub struct Lane {
    quick: OnceLock<Option<Arc<rayon::ThreadPool>>>,
    long: OnceLock<Option<Arc<rayon::ThreadPool>>>,
}

impl Lane {
    /// The pool for quick work (`long` false) or long work; `None` when the system gives no
    /// threads (the work then runs on the engines' shared pool, as the commands do).
    pub fn pool(&self, long: bool) -> Option<Arc<rayon::ThreadPool>> {
        let (cell, niceness) = if long {
            (&self.long, LONG_NICENESS)
        } else {
            (&self.quick, 0)
        };
        cell.get_or_init(|| make_pool(if long { "long" } else { "quick" }, niceness))
            .clone()
    }
}

/// A pool of as many threads as the engines' shared pool (every core, or `RAYON_NUM_THREADS`),
/// each `niceness` nicer than the server, named `knights-{kind}` (as `ps -L` shows them).
fn make_pool(kind: &'static str, niceness: i32) -> Option<Arc<rayon::ThreadPool>> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(rayon::current_num_threads())
        .thread_name(move |_| format!("knights-{kind}"))
        .start_handler(move |_| lower_priority(niceness))
        .build()
        .ok()
        .map(Arc::new)
}

/// Makes the calling thread `niceness` nicer. On Linux priority is a thread's own (other
/// systems set the whole process's: there, nothing is done); a thread that cannot be made
/// nicer runs at the server's priority, which is only less fair.
fn lower_priority(niceness: i32) {
    #[cfg(target_os = "linux")]
    if niceness > 0
        && let Ok(now) = rustix::process::getpriority_process(None)
    {
        let _ = rustix::process::setpriority_process(None, (now + niceness).min(19));
    }
    #[cfg(not(target_os = "linux"))]
    let _ = niceness;
}

/// This thread's priority, for tests (Linux only).
#[cfg(all(test, target_os = "linux"))]
fn priority() -> i32 {
    rustix::process::getpriority_process(None).unwrap()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn long_work_runs_nicer_than_quick_work_each_on_its_own_threads() {
        let lane = Lane::default();
        let server = priority();
        let quick = lane.pool(false).unwrap();
        let long = lane.pool(true).unwrap();
        assert_eq!(quick.install(priority), server);
        assert_eq!(long.install(priority), (server + LONG_NICENESS).min(19));
        // The same pools each time: threads are made once per place.
        assert!(Arc::ptr_eq(&long, &lane.pool(true).unwrap()));
        // Neither is the shared pool.
        assert!(quick.install(rayon::current_thread_index).is_some());
        assert_eq!(rayon::current_thread_index(), None);
    }
}
