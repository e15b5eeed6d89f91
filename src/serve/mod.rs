//! `knights serve`: a web page to explore boards and watch tours, and a JSON API over the
//! answer store, on axum and tokio.
//!
//! * `page`: the page's files, compiled into the binary;
//! * `params`: reading query strings with the command line's messages;
//! * `reply`: errors as HTTP statuses with one-line messages;
//! * `jobs`: long computations as jobs, one per question, polled and cancellable;
//! * `api`: the routes.
//!
//! The engines are blocking and CPU-bound: they always run on tokio's blocking threads, each
//! with a store opened there (a `Store` is not `Sync`).

mod api;
mod jobs;
mod page;
mod params;
mod reply;

use std::future::IntoFuture;
use std::io;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use crate::cancel::CancelFlag;
use crate::memory::MemoryBudget;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on (port 0: a free port, said to `ready`).
    pub bind: SocketAddr,
    /// The answer store; `None` computes without one (`--no-cache`).
    pub store: Option<PathBuf>,
    /// Memory for the engines, shared by the jobs that may run at once.
    pub memory: MemoryBudget,
    /// What the server refuses to do.
    pub limits: Limits,
}

/// What one client may ask of the server, so that none can take it over.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Counting jobs running at once (one more answers 429); also tour searches at once
    /// (more wait their turn).
    pub jobs: usize,
    /// The largest board, in squares, that a tour is found for (larger: 413).
    pub tour_squares: u64,
    /// The largest board, in squares, whose per-square table is counted (larger: 413; its
    /// total can still be asked for).
    pub table_squares: u64,
    /// How long a count waits for its job before answering 202 with the job's address, unless
    /// the request says (`wait=SECONDS`).
    pub wait: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            jobs: 2,
            tour_squares: 250_000,
            table_squares: 1_000,
            wait: Duration::from_secs(1),
        }
    }
}

/// What can stop the server from serving.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address cannot be listened on (taken, or not this machine's).
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: io::Error,
    },
    /// The runtime or the listening socket failed.
    #[error("the server failed: {0}")]
    Io(#[from] io::Error),
}

/// How often the server looks at the stop flag (set by Ctrl-C).
const STOP_POLL: Duration = Duration::from_millis(100);

/// How long the requests under way have, once the server stops, to be answered.
const GRACE: Duration = Duration::from_secs(5);

/// Runs the server until `stop` is set: listens on `config.bind`, calls `ready` with the
/// address, serves; then cancels the running jobs (what they finished is saved), answers the
/// requests under way and returns.
pub fn run(
    config: Config,
    stop: &CancelFlag,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("knights-serve")
        .build()?;
    let result = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(config.bind)
            .await
            .map_err(|source| ServeError::Bind {
                addr: config.bind,
                source,
            })?;
        ready(listener.local_addr()?);
        let app = api::App::new(&config, CancelFlag::new());
        let (stopped, mut stopping) = tokio::sync::watch::channel(false);
        let serving = tokio::spawn(
            axum::serve(listener, api::router(app.clone()))
                .with_graceful_shutdown(async move {
                    let _ = stopping.wait_for(|stop| *stop).await;
                })
                .into_future(),
        );
        while !stop.is_cancelled() && !serving.is_finished() {
            tokio::time::sleep(STOP_POLL).await;
        }
        // Cancelled jobs end their requests; new connections are refused; a request that
        // still runs after the grace period is left behind rather than holding the stop.
        app.stop();
        let _ = stopped.send(true);
        match tokio::time::timeout(GRACE, serving).await {
            Ok(Ok(served)) => served.map_err(ServeError::from),
            Ok(Err(panicked)) => Err(ServeError::Io(io::Error::other(panicked))),
            Err(_) => Ok(()),
        }
    });
    // The jobs were cancelled and most stop within a second; one whose engine looks at its
    // flag rarely is not waited for long (the store's transactions keep the file whole).
    runtime.shutdown_timeout(Duration::from_secs(3));
    result
}
