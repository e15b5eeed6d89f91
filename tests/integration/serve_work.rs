//! `knights serve`: no work outlives its client or its share. Puzzles and tours whose client
//! hung up stop, a job whose last waiting client hung up is cancelled, a tour between two
//! squares whose count is stored keeps the server's time limit, puzzles stay within the one
//! memory budget, quick questions are answered while long jobs hold the places, and a start's
//! ends beyond one machine are refused unless stored. Each server runs on 127.0.0.1, is killed
//! by its PID when its test ends, and every request has a read timeout.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
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

    /// A connection with `request` sent on it.
    fn send(&self, method: &str, path: &str, body: &str) -> TcpStream {
        let mut stream = TcpStream::connect(&self.address).unwrap();
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
        let mut stream = self.send(method, path, body);
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
        let (status, body) = self.request("GET", path, "");
        let value = serde_json::from_str(&body)
            .unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {body:?}"));
        (status, value)
    }

    /// Sends a request, lets the server work on it for `after`, and hangs up.
    fn hang_up(&self, method: &str, path: &str, body: &str, after: Duration) {
        let stream = self.send(method, path, body);
        std::thread::sleep(after);
        drop(stream);
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
