//! `knights serve`: the web page and the JSON API over the answer store.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use knights::serve::{self, Config, ServerLimits};

use crate::cli::exit::CliError;
use crate::cli::session::Session;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Serves a page to explore boards (per-square counts as a heatmap) and watch tours, and a JSON API:
  GET /api/count?rows=5&cols=5[&row=0&col=0[&to_row=4&to_col=4]][&kind=open|closed][&total]
  GET /api/count?rows=6&cols=6&row=0&col=0&ends (the pairs from a start, by end square)
  GET /api/tour?rows=5&cols=5&row=0&col=0[&to_row=4&to_col=4|&kind=closed][&seed=1][&format=svg]
  GET /api/answers?board=5x5&kind=open
  GET /api/jobs/ID (progress), DELETE /api/jobs/ID (cancel), POST /api/jobs/ID/leave (the page
  closed; the last client gone cancels it, as does no poll for --job-idle seconds)
Counts come from the same store as the other commands (--db, $KNIGHTS_DB, --no-cache, --memory).
Ctrl-C stops it: running computations are cancelled, what they finished is kept.

Examples:
  knights serve                            then open http://127.0.0.1:8080/
  knights serve --bind 127.0.0.1:0 --open  any free port, opened in the browser
  curl 'http://127.0.0.1:8080/api/count?rows=5&cols=4&row=0&col=0'")]
pub struct Args {
    /// The address to listen on. Another machine can reach the server only if this says so
    /// (e.g. 0.0.0.0:8080); port 0 takes any free port.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    bind: SocketAddr,
    /// Open the page in the browser (xdg-open or open); the address is printed anyway.
    #[arg(long)]
    open: bool,
    // The limits below tune a server that others use: out of `-h`, in `--help`.
    /// Computations running at once; one more is refused (429) until one finishes.
    #[arg(long, value_name = "N", default_value_t = ServerLimits::default().jobs, hide_short_help = true)]
    max_jobs: usize,
    /// Computations one client (one IP address; IPv6: one /64) may run at once, jobs and
    /// puzzles together (one more is refused, 429, unless quick work finds the quick place
    /// free), and tour searches (one more waits for one of its own). Default: half of
    /// --max-jobs, at least 1; at most --max-jobs.
    #[arg(long, value_name = "N", hide_short_help = true)]
    max_client_jobs: Option<usize>,
    /// The largest board, in squares, that the server finds tours for.
    #[arg(long, value_name = "N", default_value_t = ServerLimits::default().tour_squares, hide_short_help = true)]
    max_tour_squares: u64,
    /// Seconds a count waits for its computation before answering 202 with a job to poll.
    #[arg(long, value_name = "SECONDS", default_value_t = ServerLimits::default().wait.as_secs_f64(), hide_short_help = true)]
    wait: f64,
    /// Connections served at once (fewer when the open-file limit, `ulimit -n`, is lower);
    /// more wait to be accepted.
    #[arg(long, value_name = "N", default_value_t = ServerLimits::default().connections, hide_short_help = true)]
    max_connections: usize,
    /// Connections one client (one IP address; IPv6: one /64) may hold at once, long polls
    /// included; one more is answered 429. At most --max-connections.
    #[arg(long, value_name = "N", default_value_t = ServerLimits::default().client_connections, hide_short_help = true)]
    max_client_connections: usize,
    /// Seconds a client has to send a request's line and headers; then its connection is
    /// closed, so that half-sent requests cannot hold the server.
    #[arg(long, value_name = "SECONDS", default_value_t = ServerLimits::default().header_timeout.as_secs_f64(), hide_short_help = true)]
    header_timeout: f64,
    /// Seconds a client has to send a request's body once its headers are in; then it is
    /// answered 408 and its connection closed.
    #[arg(long, value_name = "SECONDS", default_value_t = ServerLimits::default().body_timeout.as_secs_f64(), hide_short_help = true)]
    body_timeout: f64,
    /// A host name the server answers to besides its IP addresses and localhost (repeat for
    /// more): a request naming another host is refused (421), so that no other site's page
    /// can reach the server through a name of its own (DNS rebinding).
    #[arg(long, value_name = "NAME", hide_short_help = true)]
    allow_host: Vec<String>,
    /// Seconds a computation goes on when no page or client asks for it (no poll, no request
    /// waiting); then it is cancelled, keeping what it finished.
    #[arg(long, value_name = "SECONDS", default_value_t = ServerLimits::default().idle.as_secs_f64(), hide_short_help = true)]
    job_idle: f64,
    /// Seconds a tour between two squares is searched for where no exact search decides.
    #[arg(long, value_name = "SECONDS", default_value_t = ServerLimits::default().tour_time.as_secs_f64(), hide_short_help = true)]
    tour_seconds: f64,
}

pub fn run(args: Args, session: &Session) -> Result<()> {
    if args.max_jobs == 0 {
        return Err(CliError::bad_input("--max-jobs must be at least 1").into());
    }
    let client_jobs = args
        .max_client_jobs
        .unwrap_or_else(|| ServerLimits::client_share(args.max_jobs));
    if client_jobs == 0 || client_jobs > args.max_jobs {
        return Err(CliError::bad_input(format!(
            "--max-client-jobs must be from 1 to --max-jobs ({})",
            args.max_jobs
        ))
        .into());
    }
    let wait = Duration::try_from_secs_f64(args.wait)
        .ok()
        .filter(|w| *w <= Duration::from_secs(60))
        .ok_or_else(|| CliError::bad_input("--wait must be from 0 to 60 seconds"))?;
    if args.max_connections == 0 {
        return Err(CliError::bad_input("--max-connections must be at least 1").into());
    }
    if args.max_client_connections == 0 {
        return Err(CliError::bad_input("--max-client-connections must be at least 1").into());
    }
    let timeout = |value: f64, name: &str| {
        Duration::try_from_secs_f64(value)
            .ok()
            .filter(|t| !t.is_zero() && *t <= Duration::from_secs(3600))
            .ok_or_else(|| {
                CliError::bad_input(format!("{name} must be above 0 and at most 3600 seconds"))
            })
    };
    let header_timeout = timeout(args.header_timeout, "--header-timeout")?;
    let body_timeout = timeout(args.body_timeout, "--body-timeout")?;
    for name in &args.allow_host {
        if !knights::serve::is_host_name(name) {
            return Err(CliError::bad_input(format!(
                "--allow-host takes a host name (letters, digits, '-' and '.'), not {}",
                knights::echo::echo(name)
            ))
            .into());
        }
    }
    let seconds = |value: f64, name: &str| {
        Duration::try_from_secs_f64(value)
            .ok()
            .filter(|t| !t.is_zero() && *t <= Duration::from_secs(86_400))
            .ok_or_else(|| {
                CliError::bad_input(format!("{name} must be above 0 and at most 86400 seconds"))
            })
    };
    let idle = seconds(args.job_idle, "--job-idle")?;
    let tour_time = seconds(args.tour_seconds, "--tour-seconds")?;
    // The address first: a server that cannot listen leaves no store (nor its directory).
    let bound = serve::bind(args.bind)?;
    // Open the store once now: a file that is not a knights store stops the command here,
    // with the command's message, rather than in every request.
    let opened = session.kept_store()?;
    // Said once, here, as `count` says it: every answer computed will be computed again.
    if let Some(store) = opened.as_ref().filter(|store| store.is_read_only()) {
        let why = match store.is_on_a_full_disk() {
            true => "is on a full disk: it is only read",
            false => "is read-only",
        };
        eprintln!(
            "warning: the answer store {} {why}; what the server computes is not saved, and is computed again when asked again",
            store.path()
        );
    }
    let store = opened.map(|store| PathBuf::from(store.path()));
    let config = Config {
        bind: args.bind,
        store: store.clone(),
        memory: session.memory,
        limits: ServerLimits {
            jobs: args.max_jobs,
            client_jobs,
            tour_squares: args.max_tour_squares,
            wait,
            connections: args.max_connections,
            client_connections: args.max_client_connections,
            header_timeout,
            body_timeout,
            idle,
            tour_time,
            ..ServerLimits::default()
        },
        hosts: args.allow_host,
    };
    let url = format!("http://{}/", bound.address()?);
    let answers = store
        .as_ref()
        .map_or("no answer store (--no-cache)".to_string(), |p| {
            format!("answers in {}", p.display())
        });
    println!("listening on {url}");
    eprintln!("knights serve: {answers}; Ctrl-C stops it");
    if args.open {
        open_browser(&url);
    }
    bound.run(config, &session.cancel)?;
    eprintln!("knights serve: stopped");
    Ok(())
}

/// Tries the desktop's opener; the address is printed either way.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let started = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = started {
        eprintln!("knights serve: could not open a browser ({opener}: {e}); open {url} yourself");
    }
}
