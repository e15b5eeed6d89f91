//! `knights serve` against clients that would hold it: one client (127.0.0.2, a loopback
//! address of its own) that opens many connections and stalls them, past its share; bodies
//! that never arrive or are too large; requests naming another host or coming from another
//! site's page; and a server that cannot listen. Every server listens on 127.0.0.1 and is
//! killed when its test ends; every socket has a read timeout.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::Value;

use crate::util::TestStore;

/// How long a test waits for any one answer: far above every timeout the servers are given.
const PATIENCE: Duration = Duration::from_secs(15);

/// A running `knights serve --bind 127.0.0.1:0` on a store of its own, killed when dropped.
struct Server {
    child: Child,
    address: String,
    _store: TestStore,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let store = TestStore::new();
        let mut child = store
            .process()
            .args(["serve", "--bind", "127.0.0.1:0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let Some(address) = line.trim().strip_prefix("listening on http://") else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("knights serve printed {line:?}, not its address");
        };
        Server {
            address: address.trim_end_matches('/').to_string(),
            child,
            _store: store,
        }
    }

    fn port(&self) -> &str {
        self.address.rsplit_once(':').unwrap().1
    }

    /// A connection from `source`, a loopback address, with a read timeout.
    fn connect_from(&self, source: &str) -> TcpStream {
        static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
        let runtime = RUNTIME.get_or_init(|| {
            tokio::runtime::Builder::new_current_thread()
                .enable_io()
                .build()
                .unwrap()
        });
        // std connects only from the address the system picks: tokio binds the source first.
        let stream = runtime
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
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        stream
    }

    /// One request from 127.0.0.1 with `headers` (a `Host` among them, or none), and its
    /// answer.
    fn ask(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Reply {
        let mut stream = self.connect_from("127.0.0.1");
        let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body.as_bytes()).unwrap();
        Reply::read(&mut stream).expect("an answer")
    }

    /// `GET path` from 127.0.0.1, naming the server as it printed its address.
    fn get(&self, path: &str) -> Reply {
        self.ask("GET", path, &[("Host", &self.address.clone())], "")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Ends the server whatever happened in the test.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Debug)]
struct Reply {
    status: u16,
    head: String,
    body: String,
}

impl Reply {
    /// The answer on `stream`, read to its end; `None` when the server closed it without one.
    fn read(stream: &mut TcpStream) -> Option<Reply> {
        let mut raw = Vec::new();
        match stream.read_to_end(&mut raw) {
            Ok(_) => {}
            // Closed by the server with what it had not read: no answer.
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset && raw.is_empty() => {}
            Err(e) => panic!("the server neither answered nor closed the connection: {e}"),
        }
        if raw.is_empty() {
            return None;
        }
        let text = String::from_utf8(raw).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        Some(Reply {
            status,
            head: head.to_ascii_lowercase(),
            body: body.to_string(),
        })
    }

    /// The API's error shape: its one line and its kind.
    fn error(&self) -> (String, String) {
        let value: Value =
            serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {self:?}"));
        let message = value["error"].as_str().expect("a message").to_string();
        assert!(!message.contains('\n'), "{message}");
        (message, value["kind"].as_str().expect("a kind").to_string())
    }
}

/// A cached count, asked for once before the attacks and during each.
const CACHED: &str = "/api/count?rows=5&cols=4&row=0&col=0";

/// A question that takes the engines many seconds (the frontier engine's 6x8 total).
const LONG: &str = "/api/count?rows=6&cols=8&total";

/// What one client's sockets do to hold their connections.
/// The long polls come first, while their job still runs (it takes seconds).
const ATTACKS: [(&str, &str); 4] = [
    (
        "a long poll",
        "GET /api/count?rows=6&cols=8&total&wait=3 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    ),
    (
        "a body that never comes",
        "POST /api/puzzle HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n",
    ),
    ("nothing at all", ""),
    ("half a head", "GET /api/count?rows=5"),
];

/// Sockets each attack opens: five times the client's share, twice the server's connections.
const SOCKETS: usize = 20;

#[test]
fn one_client_holds_at_most_its_share_and_the_others_are_served() {
    let server = Server::start(&[
        "--max-connections",
        "10",
        "--max-client-connections",
        "4",
        "--header-timeout",
        "2",
        "--body-timeout",
        "1",
        "--wait",
        "60",
    ]);
    assert_eq!(server.get(CACHED).status, 200);
    // The long polls' job, started by another client.
    let job = server.get(&format!("{LONG}&wait=0"));
    assert_eq!(job.status, 202, "{}", job.body);
    for (attack, sent) in ATTACKS {
        let mut sockets: Vec<TcpStream> = (0..SOCKETS)
            .map(|_| {
                let mut socket = server.connect_from("127.0.0.2");
                socket.write_all(sent.as_bytes()).unwrap();
                socket
            })
            .collect();
        // Another client is answered while they hold what they can.
        let reply = server.get(CACHED);
        assert_eq!(reply.status, 200, "during {attack}: {}", reply.body);
        assert!(reply.body.contains("\"count\":\"32\""), "{}", reply.body);
        let mut refused = 0;
        for socket in &mut sockets {
            let Some(reply) = Reply::read(socket) else {
                // A head that never ended: closed after --header-timeout, with no answer.
                assert!(
                    matches!(attack, "nothing at all" | "half a head"),
                    "{attack}"
                );
                continue;
            };
            let (message, kind) = reply.error_or_job(attack);
            match reply.status {
                429 => {
                    refused += 1;
                    assert_eq!(kind, "connections", "{reply:?}");
                    assert!(message.contains("--max-client-connections"), "{message}");
                    assert!(reply.head.contains("retry-after: 5"), "{reply:?}");
                }
                408 => {
                    assert_eq!(attack, "a body that never comes");
                    assert_eq!(kind, "timeout", "{reply:?}");
                    assert!(message.contains("--body-timeout"), "{message}");
                }
                // Still running when the poll ran out (202), or finished (200).
                200 | 202 => assert_eq!(attack, "a long poll"),
                _ => panic!("during {attack}: {reply:?}"),
            }
        }
        // At most its share held at any moment: the rest were refused at once (a held
        // connection ends only after a second or more, long after the last socket opened).
        assert!(refused >= SOCKETS / 2, "{attack}: {refused} refused");
    }
    assert_eq!(server.get(CACHED).status, 200);
}

impl Reply {
    /// An error's message and kind, or for a job (202) its address as the message.
    fn error_or_job(&self, attack: &str) -> (String, String) {
        if self.status == 200 || self.status == 202 {
            let job: Value = serde_json::from_str(&self.body).unwrap();
            assert!(
                job["job"].is_string() || job["total_directed"].is_string(),
                "{attack}: {self:?}"
            );
            return (job["job"].to_string(), "job".into());
        }
        self.error()
    }
}

#[test]
fn a_body_too_large_or_too_slow_is_refused_in_the_apis_json() {
    // Too large: refused from its Content-Length, before any of it is read.
    let server = Server::start(&[]);
    let host = server.address.clone();
    let mut socket = server.connect_from("127.0.0.1");
    write!(
        socket,
        "POST /api/puzzle HTTP/1.1\r\nHost: {host}\r\nContent-Type: text/plain\r\nContent-Length: 3000000\r\n\r\n"
    )
    .unwrap();
    let reply = Reply::read(&mut socket).expect("an answer");
    assert_eq!(reply.status, 413, "{reply:?}");
    let (message, kind) = reply.error();
    assert_eq!(kind, "too_large");
    assert!(message.contains("2 MiB"), "{message}");
    assert!(reply.head.contains("application/json"), "{reply:?}");
    // Too slow: the head, then nothing.
    let server = Server::start(&["--body-timeout", "1"]);
    let host = server.address.clone();
    let mut socket = server.connect_from("127.0.0.1");
    write!(
        socket,
        "POST /api/puzzle HTTP/1.1\r\nHost: {host}\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n1 "
    )
    .unwrap();
    let reply = Reply::read(&mut socket).expect("an answer");
    assert_eq!(reply.status, 408, "{reply:?}");
    assert_eq!(reply.error().1, "timeout");
    assert!(reply.head.contains("connection: close"), "{reply:?}");
    // A body that arrives reaches its route (this one is a bad puzzle).
    let reply = server.ask(
        "POST",
        "/api/puzzle",
        &[("Host", &host), ("Content-Type", "text/plain")],
        "1 x\n",
    );
    assert_eq!(reply.status, 400, "{reply:?}");
    assert!(reply.error().0.contains("row 1, column 2"), "{reply:?}");
    for bad in ["0", "3601", "ten"] {
        let output = crate::util::knights()
            .args(["serve", "--bind", "127.0.0.1:0", "--body-timeout", bad])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("--body-timeout"), "{stderr}");
    }
}

#[test]
fn another_host_name_or_another_sites_page_is_refused() {
    let server = Server::start(&[]);
    let port = server.port().to_string();
    let on = |host: &str| format!("{host}:{port}");
    // DNS rebinding: a name of another site that resolves here.
    for host in [
        on("evil.example"),
        "evil.example".into(),
        on("127.0.0.1.evil.example"),
    ] {
        let reply = server.ask("GET", CACHED, &[("Host", &host)], "");
        assert_eq!(reply.status, 421, "{host}: {reply:?}");
        let (message, kind) = reply.error();
        assert_eq!(kind, "bad_host");
        assert!(message.contains("--allow-host"), "{message}");
    }
    // The server's own names: its addresses, localhost, and no Host at all (not a browser).
    for host in [
        on("127.0.0.1"),
        on("localhost"),
        on("[::1]"),
        "LOCALHOST".into(),
    ] {
        let reply = server.ask("GET", CACHED, &[("Host", &host)], "");
        assert_eq!(reply.status, 200, "{host}: {reply:?}");
    }
    assert_eq!(server.ask("GET", CACHED, &[], "").status, 200);
    // A POST from another site's page (a form, or fetch with text/plain), by Origin or by what
    // the browser says of it; from the server's own page; from a client that is no browser.
    let own = on("127.0.0.1");
    let puzzle = |headers: &[(&str, &str)]| {
        let mut all = vec![("Content-Type", "text/plain")];
        all.extend_from_slice(headers);
        server.ask("POST", "/api/puzzle", &all, "1 x\n")
    };
    for origin in [
        "http://evil.example".to_string(),
        "null".into(),
        format!("http://localhost:{port}"),
        format!("http://127.0.0.1:{}", port.parse::<u32>().unwrap() + 1),
    ] {
        let reply = puzzle(&[("Host", own.as_str()), ("Origin", origin.as_str())]);
        assert_eq!(reply.status, 403, "{origin:?}: {reply:?}");
        let (message, kind) = reply.error();
        assert_eq!(kind, "cross_site");
        assert!(message.contains("its own page"), "{message}");
    }
    let reply = puzzle(&[("Host", &own), ("Sec-Fetch-Site", "cross-site")]);
    assert_eq!(reply.status, 403, "{reply:?}");
    let reply = server.ask(
        "DELETE",
        "/api/jobs/1",
        &[("Host", &own), ("Origin", "http://evil.example")],
        "",
    );
    assert_eq!(reply.status, 403, "{reply:?}");
    let origin = format!("http://{own}");
    for served in [
        puzzle(&[("Host", own.as_str()), ("Origin", origin.as_str())]),
        puzzle(&[("Host", &own), ("Sec-Fetch-Site", "same-origin")]),
        puzzle(&[("Host", &own)]),
    ] {
        assert_eq!(served.status, 400, "{served:?}");
        assert!(served.error().0.contains("row 1, column 2"), "{served:?}");
    }
    // Another name, allowed by the operator.
    let named = Server::start(&["--allow-host", "knights.lan"]);
    let host = format!("knights.lan:{}", named.port());
    let reply = named.ask("GET", CACHED, &[("Host", &host)], "");
    assert_eq!(reply.status, 200, "{reply:?}");
    let origin = format!("http://{host}");
    let reply = named.ask(
        "POST",
        "/api/puzzle",
        &[("Host", &host), ("Origin", &origin)],
        "1 x\n",
    );
    assert_eq!(reply.status, 400, "{reply:?}");
    let reply = named.ask("GET", CACHED, &[("Host", "other.lan")], "");
    assert_eq!(reply.status, 421, "{reply:?}");
    let output = crate::util::knights()
        .args([
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--allow-host",
            "evil.example:80",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--allow-host takes a host name"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn a_server_that_cannot_listen_makes_no_store_directory() {
    let holder = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let taken = holder.local_addr().unwrap().to_string();
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data");
    // The default store: no --db, no $KNIGHTS_DB, a data directory of the test's own.
    let output = crate::util::process()
        .args(["serve", "--bind", &taken])
        .env_remove("KNIGHTS_DB")
        .env("XDG_DATA_HOME", &data)
        .env("HOME", home.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!("cannot listen on {taken}")),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!data.exists(), "the store's directory was made: {data:?}");
}

/// Clients spread over several addresses, each within its share, take every connection with
/// sockets that only wait (long polls, bodies that never come, nothing, half a head) and
/// timeouts far longer than anyone's patience: what only waits makes room after a second, so
/// that another client is answered; a long poll is told where its job is, not cut.
#[test]
fn clients_that_only_wait_make_room_when_every_connection_is_taken() {
    let server = Server::start(&[
        "--max-connections",
        "8",
        "--max-client-connections",
        "4",
        "--header-timeout",
        "120",
        "--body-timeout",
        "120",
        "--wait",
        "60",
    ]);
    assert_eq!(server.get(CACHED).status, 200);
    // The long polls' job, started by yet another client.
    let mut starter = server.connect_from("127.0.0.4");
    starter
        .write_all(
            format!(
                "GET {LONG}&wait=0 HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                server.address
            )
            .as_bytes(),
        )
        .unwrap();
    let job = Reply::read(&mut starter).expect("the job");
    assert_eq!(job.status, 202, "{}", job.body);
    drop(starter);
    for (attack, sent) in ATTACKS {
        // A long poll that is answered ends its connection, so that its answer can be read.
        let sent = sent.replace("wait=3", "wait=60").replace(
            "Host: 127.0.0.1\r\n",
            "Host: 127.0.0.1\r\nConnection: close\r\n",
        );
        // Two clients, each at its share: every connection the server has.
        let mut sockets: Vec<TcpStream> = ["127.0.0.2", "127.0.0.3"]
            .iter()
            .flat_map(|source| std::iter::repeat_n(*source, 4))
            .map(|source| {
                let mut socket = server.connect_from(source);
                socket.write_all(sent.as_bytes()).unwrap();
                socket
            })
            .collect();
        // Answered, though every connection was taken by sockets whose timeouts are two
        // minutes away (the reply is read with 15 s of patience).
        let reply = server.get(CACHED);
        assert_eq!(reply.status, 200, "during {attack}: {}", reply.body);
        assert!(reply.body.contains("\"count\":\"32\""), "{}", reply.body);
        if attack == "a long poll" {
            // The polls that made room were told where the job is (202), or its total (200):
            // answered, not cut. Any still waiting is not waited for here.
            let told = sockets
                .iter_mut()
                .filter(|socket| {
                    let mut socket: &TcpStream = socket;
                    socket
                        .set_read_timeout(Some(Duration::from_secs(3)))
                        .unwrap();
                    let mut raw = Vec::new();
                    let _ = socket.read_to_end(&mut raw);
                    let text = String::from_utf8_lossy(&raw);
                    text.starts_with("HTTP/1.1 202") || text.starts_with("HTTP/1.1 200")
                })
                .count();
            assert!(told >= 1, "no long poll was told where its job is");
        }
    }
}
