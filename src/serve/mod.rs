//! `knights serve`: a web page to explore boards and watch tours, and a JSON API over the
//! answer store, on axum and tokio.
//!
//! * `config`: how the server runs and what one client may ask of it;
//! * `page`: the page's files, compiled into the binary;
//! * `params`: reading query strings with the command line's messages;
//! * `reply`: errors as HTTP statuses with one-line messages;
//! * `jobs`: long computations as jobs, one per question, polled and cancellable;
//! * `app`: the state every handler shares, and the work it runs (stored answers, jobs);
//! * `routes`: the router, which path goes to which handler;
//! * `api`: the handlers, one file per route family (count, tour, answers, jobs, puzzle);
//! * `render`: answers as JSON replies;
//! * `gate`: what every request passes first (its host, its origin, its body in time);
//! * `share`: each client's share of the connections and of the tour searches;
//! * `threads`: each place's own threads, long work's at a lower priority.
//!
//! The engines are blocking and CPU-bound: they always run on tokio's blocking threads, each
//! with a store opened there (a `Store` is not `Sync`).

mod api;
mod app;
mod config;
mod gate;
mod jobs;
mod page;
mod params;
mod pressure;
mod render;
mod reply;
mod routes;
mod share;
mod threads;

pub use config::{Config, ServerLimits};
pub use gate::is_host_name;

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use crate::cancel::CancelFlag;

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

/// The descriptors kept for the store, the runtime, the engines and the refusals being
/// written: not for connections.
const DESCRIPTORS_KEPT: u64 = 64 + share::REFUSING as u64;

/// At most `asked` connections, and fewer than the open files this process may have (its
/// soft `RLIMIT_NOFILE`, less `DESCRIPTORS_KEPT`): past it, `accept` would fail and every
/// client wait.
pub fn connection_limit(asked: usize) -> usize {
    let files = rustix::process::getrlimit(rustix::process::Resource::Nofile)
        .current
        .unwrap_or(u64::MAX);
    let free = usize::try_from(files.saturating_sub(DESCRIPTORS_KEPT)).unwrap_or(usize::MAX);
    asked.min(free).max(1)
}

/// What the accept loop bounds.
struct Bounds {
    /// Connections at once.
    connections: usize,
    /// Connections of one client at once.
    client_connections: usize,
    header_timeout: Duration,
}

/// Accepts connections, at most `connections` at once (one waits in the listen queue until
/// another closes) and `client_connections` of one client (one more is answered 429), each
/// served by hyper with a header read timeout, until `stopping`; then stops accepting, lets
/// each connection finish its request, and returns when all are closed.
async fn accept(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    bounds: Bounds,
    pressure: std::sync::Arc<pressure::Pressure>,
    mut stopping: tokio::sync::watch::Receiver<bool>,
) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;

    let connections = bounds.connections;
    let open = std::sync::Arc::new(tokio::sync::Semaphore::new(connections));
    let shares = share::Shares::new(bounds.client_connections.min(connections));
    let refusal: std::sync::Arc<[u8]> = shares.refusal().to_http1().into();
    let refusing = std::sync::Arc::new(tokio::sync::Semaphore::new(share::REFUSING));
    loop {
        // Every connection taken: what only waits makes room (`pressure`) until one closes.
        let permit = match open.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                pressure.set_full(true);
                let permit = tokio::select! {
                    permit = open.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
                    _ = stopped(&mut stopping) => break,
                };
                pressure.set_full(false);
                permit
            }
        };
        let (socket, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of descriptors, or a connection reset before it was taken: try again
                // shortly, as hyper's and axum's loops do.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = stopped(&mut stopping) => break,
        };
        let Some(share) = shares.take(peer.ip()) else {
            // Past its share: the client is told, briefly, and takes none of the connections
            // (nor, when too many are being told, more than a closed socket).
            drop(permit);
            if let Ok(telling) = refusing.clone().try_acquire_owned() {
                let refusal = refusal.clone();
                tokio::spawn(async move {
                    let _telling = telling;
                    share::refuse(socket, refusal).await;
                });
            }
            continue;
        };
        // Each request says which client sent it: the client's share of the places.
        let client = share::Client::of(peer.ip());
        // What the connection is doing, for making room: its requests say when they are
        // answered (the gate, once a body is read).
        let activity = pressure::Activity::new();
        let service = TowerToHyperService::new(
            router
                .clone()
                .layer(axum::Extension(client))
                .layer(axum::Extension(activity.clone())),
        );
        let mut stopping = stopping.clone();
        let header_timeout = bounds.header_timeout;
        let pressure = pressure.clone();
        tokio::spawn(async move {
            let _held = (permit, share);
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            let connection = builder.serve_connection(TokioIo::new(socket), service);
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                // Dropped: the socket is closed.
                _ = activity.idle_under(&pressure) => {}
                _ = stopped(&mut stopping) => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
    }
    drop(listener);
    // Every connection holds a permit until it is closed.
    let all = u32::try_from(connections).unwrap_or(u32::MAX);
    let _ = open.acquire_many(all).await;
}

/// Returns once `stopping` says so (or its sender is gone).
async fn stopped(stopping: &mut tokio::sync::watch::Receiver<bool>) {
    // The guard the wait returns is dropped here, before any await of the caller.
    let _ = stopping.wait_for(|stop| *stop).await;
}

/// A server that holds its address and does not serve yet: the address is taken first, so
/// that a server that cannot listen stops before anything else is done (its store opened,
/// the store's directory made).
pub struct Bound {
    runtime: tokio::runtime::Runtime,
    listener: tokio::net::TcpListener,
}

/// Listens on `addr` (port 0: a free port, which [`Bound::address`] says).
pub fn bind(addr: SocketAddr) -> Result<Bound, ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("knights-serve")
        .build()?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(addr))
        .map_err(|source| ServeError::Bind { addr, source })?;
    Ok(Bound { runtime, listener })
}

impl Bound {
    /// The address listened on.
    pub fn address(&self) -> Result<SocketAddr, ServeError> {
        Ok(self.listener.local_addr()?)
    }

    /// Serves until `stop` is set (`config.bind` is not looked at: the address is this one);
    /// then cancels the running jobs (what they finished is saved), answers the requests under
    /// way and returns.
    pub fn run(self, config: Config, stop: &CancelFlag) -> Result<(), ServeError> {
        let Bound { runtime, listener } = self;
        let result = runtime.block_on(async {
            let pressure = pressure::Pressure::new();
            let app = app::App::new(&config, CancelFlag::new(), pressure.clone());
            tokio::spawn(app.clone().cancel_abandoned_jobs());
            let (stopped, stopping) = tokio::sync::watch::channel(false);
            let gate = gate::Gate::new(&config.hosts, config.limits.body_timeout);
            let router = routes::router(app.clone())
                .layer(axum::middleware::from_fn_with_state(gate, gate::check));
            let bounds = Bounds {
                connections: connection_limit(config.limits.connections),
                client_connections: config.limits.client_connections,
                header_timeout: config.limits.header_timeout,
            };
            let serving = tokio::spawn(accept(listener, router, bounds, pressure, stopping));
            while !stop.is_cancelled() && !serving.is_finished() {
                tokio::time::sleep(STOP_POLL).await;
            }
            // Cancelled jobs end their requests; new connections are refused; a request that
            // still runs after the grace period is left behind rather than holding the stop.
            app.stop();
            let _ = stopped.send(true);
            match tokio::time::timeout(GRACE, serving).await {
                Ok(Ok(())) => Ok(()),
                Ok(Err(panicked)) => Err(ServeError::Io(io::Error::other(panicked))),
                Err(_) => Ok(()),
            }
        });
        // The jobs were cancelled and most stop within a second; one whose engine looks at its
        // flag rarely is not waited for long (the store's transactions keep the file whole).
        runtime.shutdown_timeout(Duration::from_secs(3));
        result
    }
}

/// Runs the server until `stop` is set: listens on `config.bind`, calls `ready` with the
/// address, serves ([`Bound::run`]).
pub fn run(
    config: Config,
    stop: &CancelFlag,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let bound = bind(config.bind)?;
    ready(bound.address()?);
    bound.run(config, stop)
}
