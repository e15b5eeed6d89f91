//! `knights puzzle` end to end: completions that pass the validator and keep the givens, counts
//! equal to `count` (a whole board, one start, a pair), made puzzles solved back, each bad
//! input one line with its exit code; and `/api/puzzle` on a server of 127.0.0.1.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::Duration;

use knights::tour::validate;
use knights::{Board, Square};
use serde_json::Value;

use crate::util::{TestStore, knights};

/// Runs `knights puzzle ARGS` with `input` on standard input: (exit code, stdout, stderr).
fn puzzle(args: &[&str], input: &str) -> (i32, String, String) {
    let output = knights()
        .arg("puzzle")
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// The step grid printed by `puzzle` (and `tour`), as numbers row by row.
fn grid(text: &str) -> Vec<Vec<u64>> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|t| t.parse().unwrap()).collect())
        .collect()
}

/// Checks that `steps` is a tour (by the validator) that keeps every number given in `text`.
fn assert_completes(text: &str, steps: &[Vec<u64>], closed: bool) {
    let rows = steps.len() as u32;
    let cols = steps[0].len() as u32;
    let board = Board::new(rows, cols).unwrap();
    let mut squares = vec![Square::new(0, 0); board.squares() as usize];
    for (r, row) in steps.iter().enumerate() {
        for (c, &step) in row.iter().enumerate() {
            squares[step as usize - 1] = Square::new(r as u32, c as u32);
        }
    }
    assert_eq!(validate(board, &squares, closed), Ok(()));
    let given = text
        .lines()
        .map(|l| l.split('#').next().unwrap())
        .filter(|l| !l.trim().is_empty());
    for (r, line) in given.enumerate() {
        for (c, token) in line.split_whitespace().enumerate() {
            if let Ok(n) = token.parse::<u64>()
                && n > 0
            {
                assert_eq!(steps[r][c], n, "row {r} col {c}");
            }
        }
    }
}

fn empty(rows: usize, cols: usize, given: &[(usize, usize, u64)]) -> String {
    let mut cells = vec![vec![".".to_string(); cols]; rows];
    for &(r, c, n) in given {
        cells[r][c] = n.to_string();
    }
    cells.iter().map(|row| row.join(" ") + "\n").collect()
}

#[test]
fn made_puzzles_are_solved_to_a_valid_completion() {
    for (rows, cols, closed) in [
        ("5", "5", false),
        ("6", "6", false),
        ("6", "6", true),
        ("3", "7", false),
    ] {
        for seed in ["0", "1", "2"] {
            let mut args = vec!["--make", rows, cols, "--seed", seed];
            if closed {
                args.push("--closed");
            }
            let (code, made, _) = puzzle(&args, "");
            assert_eq!(code, 0);
            assert!(made.starts_with("# a "), "{made}");
            let mut solve = vec![];
            if closed {
                solve.push("--closed");
            }
            let (code, solved, _) = puzzle(&solve, &made);
            assert_eq!(code, 0, "{made}");
            assert_completes(&made, &grid(&solved), closed);
            let mut count = solve.clone();
            count.push("--count");
            assert_eq!(puzzle(&count, &made).1, "1\n", "{made}");
        }
    }
}

#[test]
fn counts_equal_the_count_command() {
    // An empty puzzle: every tour of the board.
    let total = knights()
        .args(["count", "5", "5", "--total", "--format", "json"])
        .output()
        .unwrap();
    let total: Value = serde_json::from_slice(&total.stdout).unwrap();
    let directed = total.as_array().map_or(&total, |a| &a[0])["total_directed"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(puzzle(&["--count"], &empty(5, 5, &[])).1.trim(), directed);
    // A given 1: the tours from its square; 1 and 36: the tours between the two squares.
    let count = |args: &[&str]| {
        String::from_utf8(knights().arg("count").args(args).output().unwrap().stdout).unwrap()
    };
    assert_eq!(
        puzzle(&["--count"], &empty(5, 5, &[(2, 2, 1)])).1,
        count(&["5", "5", "2", "2"])
    );
    assert_eq!(
        puzzle(&["--count"], &empty(6, 6, &[(0, 0, 1), (5, 4, 36)])).1,
        count(&["6", "6", "0", "0", "--to", "5", "4"])
    );
    // The listing lists as many as the count, each a valid completion keeping the givens.
    let text = empty(5, 5, &[(0, 0, 1), (2, 2, 13)]);
    let n: usize = puzzle(&["--count"], &text).1.trim().parse().unwrap();
    let (code, listed, _) = puzzle(&["--all"], &text);
    assert_eq!(code, 0);
    let boards: Vec<&str> = listed.split("\n\n").collect();
    assert_eq!(boards.len(), n);
    for board in &boards {
        assert_completes(&text, &grid(board), false);
    }
    let (_, limited, _) = puzzle(&["--all", "--limit", "2", "--format", "json"], &text);
    assert_eq!(limited.lines().count(), 2);
}

#[test]
fn no_completion_says_why_and_exits_3() {
    let cases = [
        (
            empty(5, 5, &[(0, 0, 26)]),
            "26 at row 1, column 1 is outside 1..25",
        ),
        (empty(5, 5, &[(0, 0, 3), (4, 4, 3)]), "3 is given twice"),
        (
            empty(5, 5, &[(0, 0, 1), (4, 4, 3)]),
            "step 3 at row 5, column 5 comes 2 moves after step 1 at row 1, column 1, but the two squares are 4 knight's moves apart",
        ),
        (
            empty(6, 6, &[(0, 0, 1), (0, 2, 4)]),
            "step 4 at row 1, column 3 comes 3 moves after step 1 at row 1, column 1, an odd number",
        ),
        (empty(4, 4, &[]), "Conrad et al. 1994"),
        (
            empty(3, 4, &[(0, 0, 1), (0, 3, 12)]),
            "an exhaustive search found no open tour",
        ),
    ];
    for (text, reason) in cases {
        let (code, out, err) = puzzle(&[], &text);
        assert_eq!(code, 3, "{text}");
        assert_eq!(out, "");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(reason), "{err}");
    }
    // A count of such a puzzle is 0, with the reason.
    let (code, out, err) = puzzle(&["--count"], &empty(5, 5, &[(0, 0, 26)]));
    assert_eq!((code, out.as_str()), (0, "0\n"));
    assert!(err.contains("outside"));
}

#[test]
fn bad_input_is_one_line_naming_the_row_and_column_and_exits_2() {
    let cases = [
        (
            "1 . .\n. . x\n",
            "line 2: row 2, column 3: \"x\" is not a step number",
        ),
        (
            "1 . .\n\n. .\n",
            "line 3: row 2, column 3: the row ends after 2 cells; row 1 has 3",
        ),
        (
            "1 . .\n. . . .\n",
            "line 2: row 2, column 4: the row has 4 cells; row 1 has 3",
        ),
        (
            &". . . . . . . . . .\n".repeat(7),
            "line 7: row 7, column 5: the puzzle has more than 64 squares",
        ),
        ("# only a comment\n", "the puzzle has no rows"),
        ("1 -2\n", "row 1, column 2: \"-2\" is not a step number"),
    ];
    for (text, message) in cases {
        let (code, out, err) = puzzle(&[], text);
        assert_eq!(code, 2, "{text}");
        assert_eq!(out, "");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(message), "{err}");
    }
    for args in [
        &["--make", "9", "8"][..],
        &["--make", "5", "5", "--clues", "26"],
        &["--make", "5", "5", "--format", "svg", "--animate"],
        &["--count", "--format", "svg"],
        &["--animate"],
    ] {
        let (code, _, err) = puzzle(args, &empty(5, 5, &[]));
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn svg_and_json_completions_are_written_like_tours() {
    let text = empty(5, 5, &[(0, 0, 1)]);
    let (code, svg, _) = puzzle(&["--format", "svg", "--animate"], &text);
    assert_eq!(code, 0);
    assert!(svg.starts_with("<svg") && svg.contains("<animate"), "{svg}");
    let (_, json, _) = puzzle(&["--format", "json"], &text);
    let tour: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(tour["start"], serde_json::json!([0, 0]));
    assert_eq!(tour["squares"].as_array().unwrap().len(), 25);
}

/// A `knights serve` on an ephemeral port of 127.0.0.1, killed when dropped.
struct Server {
    child: Child,
    address: String,
    _store: TestStore,
}

impl Server {
    fn start() -> Server {
        let store = TestStore::new();
        let mut child = crate::util::process()
            .args(["serve", "--bind", "127.0.0.1:0", "--db"])
            .arg(store.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap()
            .trim_end_matches('/')
            .to_string();
        Server {
            child,
            address,
            _store: store,
        }
    }

    /// One request: (status, body).
    fn request(&self, method: &str, path: &str, content_type: &str, body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n{body}",
            self.address,
            body.len()
        )
        .unwrap();
        let mut raw = String::new();
        stream.read_to_string(&mut raw).unwrap();
        let (head, body) = raw.split_once("\r\n\r\n").unwrap();
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        (status, body.to_string())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn api_puzzle_completes_counts_makes_and_says_why() {
    let server = Server::start();
    let text = empty(5, 5, &[(0, 0, 1), (2, 2, 13)]);
    let (status, body) = server.request("POST", "/api/puzzle", "text/plain", &text);
    assert_eq!(status, 200, "{body}");
    let reply: Value = serde_json::from_str(&body).unwrap();
    let steps: Vec<Vec<u64>> = serde_json::from_value(reply["steps"].clone()).unwrap();
    assert_completes(&text, &steps, false);

    let (status, body) = server.request("POST", "/api/puzzle?count=1", "text/plain", &text);
    assert_eq!(status, 200, "{body}");
    let count: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        count["count"].as_str().unwrap(),
        puzzle(&["--count"], &text).1.trim()
    );

    let cells = r#"{"cells": [[1, null, null, null, null], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 3]]}"#;
    let (status, body) = server.request("POST", "/api/puzzle", "application/json", cells);
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("comes 2 moves after step 1 at row 1, column 1, but the two squares are 4 knight's moves apart"), "{body}");

    let (status, body) = server.request("POST", "/api/puzzle", "text/plain", "1 x\n");
    assert_eq!(status, 400);
    assert!(body.contains("row 1, column 2"), "{body}");

    let (status, body) = server.request(
        "GET",
        "/api/puzzle/new?rows=5&cols=6&seed=4",
        "text/plain",
        "",
    );
    assert_eq!(status, 200, "{body}");
    let made: Value = serde_json::from_str(&body).unwrap();
    let made_text = made["text"].as_str().unwrap();
    assert_eq!(puzzle(&["--count"], made_text).1, "1\n");
    assert_eq!(
        made_text,
        puzzle(&["--make", "5", "6", "--seed", "4"], "")
            .1
            .split_once('\n')
            .unwrap()
            .1
    );
}

/// A process killed by its PID when dropped, so that a failed test leaves nothing running.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `--all` prints each completion as it is found: the first is there long before the search
/// ends, and SIGTERM keeps every completion printed (exit 130, the number said on standard
/// error). Before, they were kept in memory and printed at the end: nothing came, and a
/// SIGTERM left the output empty.
#[cfg(unix)]
#[test]
fn all_streams_completions_and_sigterm_keeps_them() {
    let store = TestStore::new();
    let file = store.dir.path().join("seven.txt");
    // 7x7 from the corner: millions of completions, minutes of work at least.
    std::fs::write(&file, empty(7, 7, &[(0, 0, 1)])).unwrap();
    let mut child = Running(
        store
            .process()
            .args(["puzzle", "--all"])
            .arg(&file)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let stdout = child.0.stdout.take().unwrap();
    let (lines, seen) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if lines.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    // The first completion (7 lines), and the blank line after it, while the search goes on.
    let mut printed = Vec::new();
    while printed.len() < 8 {
        let line = seen
            .recv_timeout(Duration::from_secs(30))
            .expect("no completion printed within 30 s while the search runs");
        printed.push(line);
    }
    let status = std::process::Command::new("kill")
        .args(["-TERM", &child.0.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let clock = std::time::Instant::now();
    let code = loop {
        if let Some(status) = child.0.try_wait().unwrap() {
            break status.code();
        }
        assert!(
            clock.elapsed() < Duration::from_secs(20),
            "SIGTERM did not stop --all within 20 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(code, Some(130));
    while let Ok(line) = seen.recv_timeout(Duration::from_secs(5)) {
        printed.push(line);
    }
    let mut err = String::new();
    child
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let text = printed.join("\n") + "\n";
    let boards: Vec<&str> = text
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .collect();
    let complete: Vec<&&str> = boards.iter().filter(|b| b.lines().count() == 7).collect();
    assert!(!complete.is_empty());
    for board in &complete {
        assert_completes(&empty(7, 7, &[(0, 0, 1)]), &grid(board), false);
    }
    // Every completion written is a whole board: the interruption came between two.
    assert_eq!(complete.len(), boards.len(), "{text}");
    assert!(
        err.contains(&format!(
            "interrupted: the {} completions found so far are written",
            complete.len()
        )) || err.contains("interrupted: the 1 completion found so far is written"),
        "{err}"
    );
}

/// `--make` without `--seed` makes a new puzzle each run, and names its seed on standard
/// error, which makes the same puzzle again. Before, every run made seed 0's puzzle.
#[test]
fn make_without_a_seed_names_a_fresh_one_that_makes_it_again() {
    let mut seeds = Vec::new();
    for _ in 0..3 {
        let (code, out, err) = puzzle(&["--make", "5", "5"], "");
        assert_eq!(code, 0, "{err}");
        let seed = err
            .strip_prefix("note: made from seed ")
            .and_then(|rest| rest.split(';').next())
            .unwrap_or_else(|| panic!("no seed named: {err}"))
            .to_string();
        assert_eq!(err.lines().count(), 1, "{err}");
        let (_, again, again_err) = puzzle(&["--make", "5", "5", "--seed", &seed], "");
        assert_eq!(again, out);
        assert_eq!(again_err, "", "--seed given: nothing to name");
        seeds.push(seed);
    }
    seeds.dedup();
    assert!(seeds.len() > 1, "the same seed three times: {seeds:?}");
}

/// A board with no tour has no puzzle to make: said as such, not as a puzzle with no completion.
#[test]
fn make_on_a_board_without_tours_says_there_is_no_puzzle() {
    let (code, out, err) = puzzle(&["--make", "3", "3", "--seed", "1"], "");
    assert_eq!(code, 3);
    assert_eq!(out, "");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("no 3x3 puzzle: "), "{err}");
    assert!(!err.contains("no completion"), "{err}");
}

/// A worksheet: `--make --format svg` draws the board with the given numbers only, and the
/// completion's SVG rings the given numbers (bold), the others plain.
#[test]
fn svg_worksheets_show_the_given_numbers() {
    let (code, text, err) = puzzle(&["--make", "5", "5", "--seed", "3"], "");
    assert_eq!(code, 0, "{err}");
    let givens: Vec<u64> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(|l| l.split_whitespace().filter_map(|t| t.parse().ok()))
        .collect();
    let (code, svg, err) = puzzle(&["--make", "5", "5", "--seed", "3", "--format", "svg"], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    let mut written: Vec<u64> = svg
        .split("font-weight=\"700\"")
        .skip(1)
        .map(|rest| {
            let number = rest.split('>').nth(1).unwrap().split('<').next().unwrap();
            number.parse().unwrap()
        })
        .collect();
    let mut expected = givens.clone();
    written.sort_unstable();
    expected.sort_unstable();
    assert_eq!(written, expected, "{svg}");
    assert!(
        svg.contains("--seed 3"),
        "the title says how to make it again"
    );
    assert_eq!(svg.matches("<rect").count(), 25 + 1);

    let (code, solved, err) = puzzle(&["--format", "svg"], &text);
    assert_eq!(code, 0, "{err}");
    assert_eq!(solved.matches("<title>given</title>").count(), givens.len());
    assert_eq!(solved.matches("font-weight=\"700\"").count(), givens.len());
    let (code, _, err) = puzzle(&["--make", "5", "5", "--format", "svg", "--animate"], "");
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A JSON puzzle of 400,000 rows is refused at its 65th square, where the reading stops,
/// rather than read whole first (it named the 400000x1 board it had read into memory).
#[test]
fn api_refuses_a_huge_json_puzzle_where_it_stops() {
    let server = Server::start();
    let body = format!("{{\"cells\": [{}[1]]}}", "[1],".repeat(399_999));
    let (status, reply) = server.request("POST", "/api/puzzle", "application/json", &body);
    assert_eq!(status, 400, "{reply}");
    assert!(
        reply.contains("row 65, column 1: the puzzle has more than 64 squares"),
        "{reply}"
    );
    let rows = format!("{{\"cells\": [{}[]]}}", "[],".repeat(399_999));
    let (status, reply) = server.request("POST", "/api/puzzle", "application/json", &rows);
    assert_eq!(status, 400, "{reply}");
    assert!(reply.contains("row 65, column 1"), "{reply}");
    let wide = format!("{{\"cells\": [[{}1]]}}", "1,".repeat(99_999));
    let (status, reply) = server.request("POST", "/api/puzzle", "application/json", &wide);
    assert_eq!(status, 400, "{reply}");
    assert!(reply.contains("row 1, column 65"), "{reply}");
}
