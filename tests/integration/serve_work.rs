//! `knights serve`: no work outlives its client or its share. Puzzles and tours whose client
//! hung up stop, a job whose last waiting client hung up is cancelled, a tour between two
//! squares whose count is stored keeps the server's time limit, puzzles stay within the one
//! memory budget, quick questions are answered while long jobs hold the places, and a start's
//! ends beyond one machine are refused unless stored. Each client has its share: one client
//! (127.0.0.2, a loopback address of its own) holds at most its share of the places and of the
//! tour searches, and long work runs on threads of its own at a lower priority, so another
//! client's (127.0.0.3, 127.0.0.1) short work is served beside it. Each server runs on
//! 127.0.0.1, is killed by its PID when its test ends, and every request has a read timeout.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::TestStore;

/// A running `knights serve`, killed when dropped (whether the test passed or not).
struct Server {
    child: Child,
    address: String,
    store: TestStore,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        Server::start_on(TestStore::new(), extra)
    }

    fn start_on(store: TestStore, extra: &[&str]) -> Server {
        let mut child = store
            .process()
            .args(["serve", "--bind", "127.0.0.1:0"])
            .args(extra)
            .env("XDG_DATA_HOME", store.dir.path().join("xdg"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut line = Vec::new();
        let mut byte = [0u8; 1];
        while stdout.read(&mut byte).unwrap_or(0) == 1 && byte[0] != b'\n' {
            line.push(byte[0]);
        }
        let line = String::from_utf8_lossy(&line).to_string();
        let Some(address) = line.trim().strip_prefix("listening on http://") else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("knights serve printed {line:?}, not its address");
        };
        Server {
            address: address.trim_end_matches('/').to_string(),
            child,
            store,
        }
    }

    /// A connection from `source`, a loopback address (a client of its own), with `request`
    /// sent on it.
    fn send_from(&self, source: &str, method: &str, path: &str, body: &str) -> TcpStream {
        static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
        let runtime = RUNTIME.get_or_init(|| {
            tokio::runtime::Builder::new_current_thread()
                .enable_io()
                .build()
                .unwrap()
        });
        // std connects only from the address the system picks: tokio binds the source first.
        let mut stream = runtime
            .block_on(async {
                let socket = tokio::net::TcpSocket::new_v4()?;
                socket.bind(format!("{source}:0").parse().unwrap())?;
                socket
                    .connect(self.address.parse().unwrap())
                    .await?
                    .into_std()
            })
            .unwrap();
        stream.set_nonblocking(false).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{body}",
            self.address,
            body.len()
        )
        .unwrap();
        stream
    }

    /// The status and body of one request, within 20 seconds (a read timeout fails the test).
    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        self.request_from("127.0.0.1", method, path, body)
    }

    /// The status and body of one request from `source`, within 20 seconds.
    fn request_from(&self, source: &str, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut stream = self.send_from(source, method, path, body);
        let mut raw = Vec::new();
        stream
            .read_to_end(&mut raw)
            .unwrap_or_else(|e| panic!("{method} {path}: no answer within 20 s ({e})"));
        let text = String::from_utf8(raw).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        (status, body.to_string())
    }

    fn get(&self, path: &str) -> (u16, Value) {
        self.get_from("127.0.0.1", path)
    }

    fn get_from(&self, source: &str, path: &str) -> (u16, Value) {
        let (status, body) = self.request_from(source, "GET", path, "");
        let value = serde_json::from_str(&body)
            .unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {body:?}"));
        (status, value)
    }

    /// Sends a request, lets the server work on it for `after`, and hangs up.
    fn hang_up(&self, method: &str, path: &str, body: &str, after: Duration) {
        self.hang_up_from("127.0.0.1", method, path, body, after);
    }

    /// The same from `source`.
    fn hang_up_from(&self, source: &str, method: &str, path: &str, body: &str, after: Duration) {
        let stream = self.send_from(source, method, path, body);
        std::thread::sleep(after);
        drop(stream);
    }

    /// The niceness (`nice(1)`) of the server's threads named `name`, and of its main thread.
    fn niceness(&self, name: &str) -> (Vec<i64>, i64) {
        let pid = self.child.id();
        let nice = |task: &str| -> (String, i64) {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/task/{task}/stat"))
                .unwrap_or_default();
            let Some((head, rest)) = stat.rsplit_once(')') else {
                return (String::new(), 0);
            };
            let comm = head.split_once('(').map_or("", |(_, c)| c).to_string();
            // After the name: the state is field 3, the niceness field 19.
            let nice = rest
                .split_whitespace()
                .nth(16)
                .unwrap_or("0")
                .parse()
                .unwrap_or(0);
            (comm, nice)
        };
        let threads = std::fs::read_dir(format!("/proc/{pid}/task"))
            .unwrap()
            .filter_map(|entry| {
                let (comm, n) = nice(entry.ok()?.file_name().to_str()?);
                (comm == name).then_some(n)
            })
            .collect();
        (threads, nice(&pid.to_string()).1)
    }

    /// A line of the server's `/proc/PID/status`, in kB.
    fn status_kb(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("no {field} in {status}"))
    }

    /// The CPU seconds the server has used so far (user and system).
    fn cpu_seconds(&self) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap();
        // The fields after the command's name (in parentheses): utime and stime are 14 and 15.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .unwrap()
            .1
            .split_whitespace()
            .collect();
        let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        ticks as f64 / 100.0
    }

    /// True when the server rests: at most a tenth of a CPU second over the next two (work
    /// left running takes a core, or its share of a loaded machine, far more).
    fn rests(&self) -> bool {
        let before = self.cpu_seconds();
        std::thread::sleep(Duration::from_secs(2));
        self.cpu_seconds() - before <= 0.1
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// 7x7 with only the 1, in a corner: counting its completions takes minutes and fills the
/// memo engine's table up to its budget.
fn slow_puzzle() -> String {
    let mut rows = vec![[" ."; 7].join(" "); 7];
    rows[0] = format!(" 1 {}", [" ."; 6].join(" "));
    rows.join("\n") + "\n"
}

/// 3x40 from the corner to (1, 2): counted at once, but Warnsdorff's rule never finds one
/// (measured), so its search runs until its time is up.
const SLOW_PAIR: &str = "rows=3&cols=40&row=0&col=0&to_row=1&to_col=2";

#[test]
fn a_puzzle_whose_client_hangs_up_stops_and_gives_its_place_back() {
    let server = Server::start(&["--max-jobs", "1", "--memory", "64MB", "--wait", "5"]);
    server.hang_up(
        "POST",
        "/api/puzzle?count=1",
        &slow_puzzle(),
        Duration::from_millis(800),
    );
    // The one place is free again: the next puzzle is answered, and the server rests.
    let six = std::fs::read_to_string("examples/six.txt").unwrap();
    let (status, body) = server.request("POST", "/api/puzzle?count=1", &six);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"count\":\"1\""), "{body}");
    assert!(server.rests(), "the abandoned puzzle still runs");
}

#[test]
fn a_tour_whose_client_hangs_up_stops() {
    let server = Server::start(&["--max-jobs", "1", "--tour-seconds", "600"]);
    let (status, counted) = server.get(&format!("/api/count?{SLOW_PAIR}&wait=20"));
    assert_eq!(status, 200, "{counted}");
    server.hang_up(
        "GET",
        &format!("/api/tour?{SLOW_PAIR}"),
        "",
        Duration::from_millis(800),
    );
    // The one tour place is free again, and nothing runs.
    let (status, tour) = server.get("/api/tour?rows=5&cols=5&row=0&col=0");
    assert_eq!(status, 200, "{tour}");
    assert!(server.rests(), "the abandoned search still runs");
}

#[test]
fn a_tour_between_squares_whose_count_is_stored_keeps_the_time_limit() {
    let server = Server::start(&["--tour-seconds", "1"]);
    let (status, counted) = server.get(&format!("/api/count?{SLOW_PAIR}&wait=20"));
    assert_eq!(status, 200, "{counted}");
    assert_eq!(counted["source"], "computed");
    let clock = Instant::now();
    let (status, gave_up) = server.get(&format!("/api/tour?{SLOW_PAIR}"));
    assert_eq!(status, 422, "{gave_up}");
    assert_eq!(gave_up["kind"], "gave_up", "{gave_up}");
    assert!(
        gave_up["error"]
            .as_str()
            .unwrap()
            .contains("which does not mean there is none"),
        "{gave_up}"
    );
    assert!(clock.elapsed() >= Duration::from_secs(1), "{gave_up}");
}

#[test]
fn a_job_whose_waiting_client_hangs_up_is_cancelled() {
    let server = Server::start(&["--job-idle", "600"]);
    server.hang_up(
        "GET",
        "/api/count?rows=6&cols=8&total&wait=60",
        "",
        Duration::from_millis(800),
    );
    let clock = Instant::now();
    let job = loop {
        let (_, jobs) = server.get("/api/jobs");
        let job = jobs[0].clone();
        if job["state"] != "running" {
            break job;
        }
        assert!(
            clock.elapsed() < Duration::from_secs(10),
            "still running: {job}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(job["state"], "cancelled", "{job}");
    assert!(
        job["error"].as_str().unwrap().contains("no page or client"),
        "{job}"
    );
}

#[test]
fn puzzles_share_the_one_memory_budget() {
    let server = Server::start(&["--memory", "40MB", "--wait", "1"]);
    let before = server.status_kb("VmHWM:");
    // Two puzzles that would each fill whatever they are given, at once.
    let puzzle = slow_puzzle();
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                server.hang_up(
                    "POST",
                    "/api/puzzle?count=1",
                    &puzzle,
                    Duration::from_secs(4),
                )
            });
        }
    });
    let grown = server.status_kb("VmHWM:") - before;
    assert!(
        grown < 40 * 1024,
        "the server's peak grew by {grown} kB, past its --memory of 40MB"
    );
}

#[test]
fn a_quick_question_is_answered_while_a_long_job_holds_every_place() {
    let server = Server::start(&["--max-jobs", "1", "--job-idle", "600"]);
    let (status, long) = server.get("/api/count?rows=7&cols=7&wait=0");
    assert_eq!(status, 202, "{long}");
    let (status, refused) = server.get("/api/count?rows=6&cols=8&total&wait=0");
    assert_eq!(status, 429, "{refused}");
    // 4x9's table: 36 squares, quick work, in the quick place.
    let (status, quick) = server.get("/api/count?rows=4&cols=9&wait=15");
    assert_eq!(status, 200, "{quick}");
    assert_eq!(quick["source"], "computed");
    let (_, jobs) = server.get("/api/jobs");
    assert_eq!(jobs[0]["state"], "running", "{jobs}");
}

#[test]
fn ends_beyond_one_machine_are_refused_unless_stored() {
    let server = Server::start(&[]);
    let ends = "/api/count?rows=8&cols=8&row=0&col=0&ends&wait=0";
    let (status, refused) = server.get(ends);
    assert_eq!(status, 413, "{refused}");
    assert_eq!(refused["kind"], "beyond_one_machine");
    let message = refused["error"].as_str().unwrap();
    assert!(message.contains("hours each"), "{message}");
    assert!(message.contains("holds 0 of them"), "{message}");
    let (_, jobs) = server.get("/api/jobs");
    assert_eq!(jobs, Value::Array(vec![]), "a job was started");
    drop(server);

    // The shipped pairs imported: the ends are shown from the store.
    let store = TestStore::new();
    store.run(&["import", "data/8x8-pairs.csv"]);
    let server = Server::start_on(store, &[]);
    let (status, served) = server.get(ends);
    assert_eq!(status, 200, "{served}");
    assert_eq!(served["source"], "store");
    assert_eq!(served["kind"], "ends");
    assert!(server.store.answers() > 0);
}

/// Waits until the job list shows a running job (a request that started one and answered 202).
fn running_jobs(server: &Server) -> usize {
    let (_, jobs) = server.get("/api/jobs");
    jobs.as_array()
        .unwrap()
        .iter()
        .filter(|job| job["state"] == "running")
        .count()
}

#[test]
fn one_client_holds_at_most_its_share_of_the_places() {
    // Two places: one client's share is one.
    let server = Server::start(&["--max-jobs", "2", "--job-idle", "600", "--no-cache"]);
    let (status, long) = server.get_from("127.0.0.2", "/api/count?rows=7&cols=7&wait=0");
    assert_eq!(status, 202, "{long}");
    let (status, refused) = server.get_from("127.0.0.2", "/api/count?rows=6&cols=8&total&wait=0");
    assert_eq!(status, 429, "{refused}");
    assert_eq!(refused["kind"], "client_share", "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("--max-client-jobs"),
        "{refused}"
    );
    // Another client's long question (4x10: 40 squares, not quick work) finds the other place.
    let (status, other) = server.get_from("127.0.0.3", "/api/count?rows=4&cols=10&wait=15");
    assert_eq!(status, 200, "{other}");
    assert_eq!(other["source"], "computed");
    assert_eq!(running_jobs(&server), 1);
}

#[test]
fn long_work_runs_on_threads_of_its_own_at_a_lower_priority() {
    let server = Server::start(&["--max-jobs", "1", "--job-idle", "600", "--no-cache"]);
    // 4x9 alone, then beside a long job: about as fast (before, its tasks queued behind the
    // long job's in one pool, for seconds).
    let alone = Instant::now();
    let (status, quick) = server.get("/api/count?rows=4&cols=9&wait=15");
    assert_eq!(status, 200, "{quick}");
    let alone = alone.elapsed();
    let (status, long) = server.get_from("127.0.0.2", "/api/count?rows=7&cols=7&wait=0");
    assert_eq!(status, 202, "{long}");
    std::thread::sleep(Duration::from_millis(500));
    let beside = Instant::now();
    let (status, quick) = server.get("/api/count?rows=4&cols=9&wait=15");
    assert_eq!(status, 200, "{quick}");
    let beside = beside.elapsed();
    assert_eq!(quick["source"], "computed");
    assert!(
        beside < alone * 4 + Duration::from_secs(1),
        "4x9 took {beside:?} beside the long job, {alone:?} alone"
    );
    assert_eq!(running_jobs(&server), 1, "the long job ended");
    if cfg!(target_os = "linux") {
        let (long, main) = server.niceness("knights-long");
        assert!(!long.is_empty(), "no long-work threads");
        assert!(
            long.iter().all(|&n| n == (main + 10).min(19)),
            "{long:?}, {main}"
        );
        let (quick, _) = server.niceness("knights-quick");
        assert!(quick.iter().all(|&n| n == main), "{quick:?}, {main}");
    }
}

#[test]
fn short_work_of_others_is_served_while_two_puzzles_run() {
    // Three places: puzzles take at most two, one client one.
    let server = Server::start(&["--max-jobs", "3", "--wait", "1", "--no-cache"]);
    let puzzle = slow_puzzle();
    std::thread::scope(|scope| {
        for source in ["127.0.0.2", "127.0.0.3"] {
            let (server, puzzle) = (&server, &puzzle);
            scope.spawn(move || {
                server.hang_up_from(
                    source,
                    "POST",
                    "/api/puzzle?count=1",
                    puzzle,
                    Duration::from_secs(6),
                )
            });
        }
        std::thread::sleep(Duration::from_secs(1));
        // One client's second puzzle is refused at once, not queued behind its first.
        let clock = Instant::now();
        let (status, refused) =
            server.request_from("127.0.0.2", "POST", "/api/puzzle?count=1", &puzzle);
        assert_eq!(status, 429, "{refused}");
        assert!(refused.contains("client_share"), "{refused}");
        assert!(
            clock.elapsed() < Duration::from_secs(5),
            "{:?}",
            clock.elapsed()
        );
        // Another client's tour and long count are served.
        let (status, tour) = server.get("/api/tour?rows=5&cols=5&row=0&col=0");
        assert_eq!(status, 200, "{tour}");
        let (status, count) = server.get("/api/count?rows=4&cols=10&wait=15");
        assert_eq!(status, 200, "{count}");
    });
}

#[test]
fn one_clients_tour_searches_leave_turns_to_others() {
    let server = Server::start(&["--max-jobs", "2", "--tour-seconds", "600"]);
    let (status, counted) = server.get(&format!("/api/count?{SLOW_PAIR}&wait=20"));
    assert_eq!(status, 200, "{counted}");
    std::thread::scope(|scope| {
        for _ in 0..2 {
            let server = &server;
            scope.spawn(move || {
                server.hang_up_from(
                    "127.0.0.2",
                    "GET",
                    &format!("/api/tour?{SLOW_PAIR}"),
                    "",
                    Duration::from_secs(5),
                )
            });
        }
        std::thread::sleep(Duration::from_millis(800));
        // The client's second search waits for its first: the other turn is free.
        let clock = Instant::now();
        let (status, tour) = server.get_from("127.0.0.3", "/api/tour?rows=5&cols=5&row=0&col=0");
        assert_eq!(status, 200, "{tour}");
        assert!(
            clock.elapsed() < Duration::from_secs(3),
            "{:?}",
            clock.elapsed()
        );
    });
}
