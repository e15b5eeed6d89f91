//! When every connection is taken and another client waits to be accepted: what only waits
//! gives its place up after a short grace ([`GRACE`]), so that clients spread over many
//! addresses (each within its share, [`super::share`]) cannot hold the server with
//! connections that do nothing until their timeouts. A connection between requests or still
//! sending its head or its body is closed; a long poll is answered with its job's state at
//! once (the client polls again); a puzzle or a tour waiting for its turn is refused as at the
//! end of its wait. Work under way is never cut.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

/// How long a connection or a wait keeps its place, however full the server is: a client
/// that sends its request at once is never turned away for one that waits.
pub const GRACE: Duration = Duration::from_secs(1);

/// Whether a client waits to be accepted while every connection is taken.
#[derive(Debug)]
pub struct Pressure {
    full: watch::Sender<bool>,
}

impl Pressure {
    pub fn new() -> Arc<Pressure> {
        Arc::new(Pressure {
            full: watch::Sender::new(false),
        })
    }

    /// Every connection is taken and a client waits (`true`), or not any more.
    pub fn set_full(&self, full: bool) {
        self.full
            .send_if_modified(|was| std::mem::replace(was, full) != full);
    }

    /// Returns once the server is full and `since` lies at least [`GRACE`] back: the moment a
    /// wait that began at `since` should make room. Never, while the server is not full.
    pub async fn make_room(&self, since: Instant) {
        let mut full = self.full.subscribe();
        loop {
            if full.wait_for(|full| *full).await.is_err() {
                // The server has gone: nothing waits to be accepted any more.
                std::future::pending::<()>().await;
            }
            tokio::time::sleep_until(since + GRACE).await;
            if *full.borrow_and_update() {
                return;
            }
        }
    }
}

/// One connection's state, as far as making room goes: whether a request of it is being
/// answered (its body read, its handler running), and since when it is in that state.
#[derive(Debug)]
pub struct Activity {
    answering: AtomicBool,
    since: Mutex<Instant>,
}

impl Activity {
    pub fn new() -> Arc<Activity> {
        Arc::new(Activity {
            answering: AtomicBool::new(false),
            since: Mutex::new(Instant::now()),
        })
    }

    /// The request being answered until the guard is dropped.
    pub fn answering(self: &Arc<Self>) -> Answering {
        self.set(true);
        Answering(Arc::clone(self))
    }

    fn set(&self, answering: bool) {
        // Nothing panics while the lock is held: a poisoned instant is still right.
        *self.since.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
        self.answering.store(answering, Ordering::Relaxed);
    }

    fn waiting_since(&self) -> Option<Instant> {
        let since = *self.since.lock().unwrap_or_else(PoisonError::into_inner);
        (!self.answering.load(Ordering::Relaxed)).then_some(since)
    }

    /// Returns once the connection only waits (for its client's next request, or the rest of
    /// one) while the server is full, past the grace: the moment to close it.
    pub async fn idle_under(&self, pressure: &Pressure) {
        loop {
            match self.waiting_since() {
                Some(since) => {
                    pressure.make_room(since).await;
                    // A request may have begun meanwhile.
                    if self
                        .waiting_since()
                        .is_some_and(|now| now + GRACE <= Instant::now())
                    {
                        return;
                    }
                }
                // Answering: looked at again shortly, as answers are short.
                None => tokio::time::sleep(GRACE / 4).await,
            }
        }
    }
}

/// A request being answered; dropped when its answer is made.
pub struct Answering(Arc<Activity>);

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.set(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `test` on a runtime whose clock runs only when every task waits (no real waiting).
    fn paused(test: impl std::future::Future<Output = ()>) {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap()
            .block_on(test);
    }

    #[test]
    fn room_is_made_only_when_full_and_past_the_grace() {
        paused(async {
            let pressure = Pressure::new();
            let start = Instant::now();
            let waiting = {
                let pressure = Arc::clone(&pressure);
                tokio::spawn(async move { pressure.make_room(start).await })
            };
            tokio::time::sleep(GRACE * 3).await;
            assert!(!waiting.is_finished(), "not full: no room is made");
            pressure.set_full(true);
            tokio::time::sleep(Duration::from_millis(10)).await;
            assert!(waiting.is_finished());

            // Full at once, but within the grace of a wait that has just begun.
            let now = Instant::now();
            let young = {
                let pressure = Arc::clone(&pressure);
                tokio::spawn(async move { pressure.make_room(now).await })
            };
            tokio::time::sleep(GRACE / 2).await;
            assert!(!young.is_finished());
            tokio::time::sleep(GRACE).await;
            assert!(young.is_finished());
        });
    }

    #[test]
    fn a_connection_answering_is_never_closed() {
        paused(async {
            let pressure = Pressure::new();
            pressure.set_full(true);
            let activity = Activity::new();
            let answering = activity.answering();
            let closing = {
                let (pressure, activity) = (Arc::clone(&pressure), Arc::clone(&activity));
                tokio::spawn(async move { activity.idle_under(&pressure).await })
            };
            tokio::time::sleep(GRACE * 5).await;
            assert!(!closing.is_finished(), "closed while answering");
            drop(answering);
            tokio::time::sleep(GRACE / 2).await;
            assert!(
                !closing.is_finished(),
                "closed within the grace after its answer"
            );
            tokio::time::sleep(GRACE).await;
            assert!(closing.is_finished());
        });
    }
}
