//! How the server runs, and the limits that keep any one client from taking it over.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

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
    pub limits: ServerLimits,
    /// Host names the server answers to besides its IP addresses and `localhost`
    /// (`--allow-host`): any other `Host` is refused, against DNS rebinding.
    pub hosts: Vec<String>,
}

/// What one client may ask of the server, so that none can take it over.
#[derive(Clone, Copy, Debug)]
pub struct ServerLimits {
    /// Counting jobs running at once (one more answers 429); also tour searches at once
    /// (more wait their turn).
    pub jobs: usize,
    /// Of those, what one client (one IP address, an IPv6 /64) may run at once: jobs and
    /// puzzles (one more answers 429, unless it is quick work and the quick place is free),
    /// and tour searches (one more waits for one of the client's own to end). From 1 to
    /// `jobs`; [`ServerLimits::client_share`] is the usual one.
    pub client_jobs: usize,
    /// The largest board, in squares, that a tour is found for (larger: 413).
    pub tour_squares: u64,
    /// The largest board, in squares, whose per-square table is counted (larger: 413; its
    /// total can still be asked for).
    pub table_squares: u64,
    /// How long a count waits for its job before answering 202 with the job's address, unless
    /// the request says (`wait=SECONDS`).
    pub wait: Duration,
    /// Connections served at once; more wait to be accepted. Bounded further by the open
    /// files this process may have ([`connection_limit`](super::connection_limit)).
    pub connections: usize,
    /// Connections one client (one IP address, an IPv6 /64) may hold at once, long polls
    /// included; one more is answered 429 and closed. At most `connections`.
    pub client_connections: usize,
    /// How long a running job goes on with no client asking for it (no poll, no request
    /// waiting); then it is cancelled, keeping what it finished.
    pub idle: Duration,
    /// How long a tour between two squares is searched for where no exact search decides.
    pub tour_time: Duration,
    /// How long a client has to send a request's head (its line and headers), from the
    /// connection or from the end of its last answer; then the connection is closed, so that
    /// sockets that never finish a request cannot hold the server.
    pub header_timeout: Duration,
    /// How long a client has to send a request's body, from the end of its head; then it is
    /// answered 408 and the connection closed.
    pub body_timeout: Duration,
}

impl Default for ServerLimits {
    fn default() -> Self {
        ServerLimits {
            jobs: 2,
            client_jobs: ServerLimits::client_share(2),
            tour_squares: 250_000,
            table_squares: 1_000,
            wait: Duration::from_secs(1),
            connections: 512,
            client_connections: 64,
            idle: Duration::from_secs(30),
            tour_time: crate::tour::BETWEEN_TIME_LIMIT,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
        }
    }
}

impl ServerLimits {
    /// A client's usual share of `jobs` places: half of them, at least one.
    pub fn client_share(jobs: usize) -> usize {
        (jobs / 2).max(1)
    }
}
