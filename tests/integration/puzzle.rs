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
            "step 1 at row 1, column 1 and step 3 at row 5, column 5 are 2 moves apart, but they are 4 knight's moves apart",
        ),
        (
            empty(6, 6, &[(0, 0, 1), (0, 2, 4)]),
            "are 3 moves apart, an odd number",
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
        &["--make", "5", "5", "--format", "svg"],
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
    assert!(body.contains("4 knight's moves apart"), "{body}");

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
