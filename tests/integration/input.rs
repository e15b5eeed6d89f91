//! Reading input: streamed within bounds (endless or huge input ends with one short line), the
//! judge format read alike by `solve` and `batch`, errors that name the query and show
//! invisible characters, and import counts bounded by their board.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use crate::util::{TestStore, knights};

/// The most bytes a test writes into an "endless" stream: far more than any bound, so a reader
/// that keeps reading is caught by the count of bytes it took, not by running out of memory.
const ENDLESS_CAP: usize = 64 << 20;

/// Runs `knights args` with `pattern` written to its standard input again and again (until it
/// stops reading, or [`ENDLESS_CAP`] bytes); returns its output and the bytes it took.
fn run_endless(args: &[&str], pattern: &[u8]) -> (Output, usize) {
    let store = tempfile::tempdir().unwrap();
    let mut child = crate::util::process()
        .args(args)
        .env("KNIGHTS_DB", store.path().join("answers.db"))
        .env("XDG_DATA_HOME", store.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let chunk: Vec<u8> = pattern.iter().copied().cycle().take(1 << 16).collect();
    let writer = std::thread::spawn(move || {
        let mut written = 0;
        while written < ENDLESS_CAP && stdin.write_all(&chunk).is_ok() {
            written += chunk.len();
        }
        written
    });
    let output = child.wait_with_output().unwrap();
    (output, writer.join().unwrap())
}

/// Bad input: exit code 2, nothing on standard output, one short line on standard error that
/// contains `message` (and no invisible characters).
fn assert_one_short_line(output: &Output, message: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(output.stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        output.stderr.len() < 300,
        "{} bytes: {stderr}",
        stderr.len()
    );
    assert!(stderr.contains(message), "{stderr}");
    assert!(
        !stderr.trim_end().chars().any(|c| c.is_control()),
        "{stderr:?}"
    );
}

#[test]
fn an_endless_stream_ends_with_one_short_line() {
    for (args, pattern, message) in [
        (
            &["solve"][..],
            &b"0"[..],
            "line 1: T is longer than 64 characters: '0000",
        ),
        (
            &["solve"],
            b"\0",
            "line 1: T is longer than 64 characters: '\\0\\0",
        ),
        (
            &["solve"],
            b" ",
            "line 1: the line is longer than 1048576 bytes",
        ),
        (
            &["solve"],
            b"1\n",
            "line 4: ROW is 1, outside the 1x1 board",
        ),
        (
            &["batch", "-"],
            b"\0",
            "line 1: T is longer than 64 characters",
        ),
        (
            &["batch", "-"],
            b"# a comment ",
            "line 1: the line is longer than 1048576 bytes",
        ),
        (
            &["import", "-"],
            b"0",
            "line 1: the line is longer than 1048576 bytes",
        ),
    ] {
        let (output, written) = run_endless(args, pattern);
        assert_one_short_line(&output, message);
        assert!(
            written < ENDLESS_CAP,
            "{args:?} {pattern:?}: read all {written} bytes"
        );
    }
}

/// A device that reads as endless zero bytes (like `/dev/zero`), made in a temporary directory:
/// only root may, so the test says so and passes elsewhere. The command runs with its virtual
/// memory limited, so that a reader that does not stop fails instead of exhausting the machine.
#[test]
fn an_endless_device_ends_with_one_short_line() {
    let dir = tempfile::tempdir().unwrap();
    let zero = dir.path().join("zero");
    let made = Command::new("mknod")
        .args(["-m", "666"])
        .arg(&zero)
        .args(["c", "1", "5"])
        .stderr(Stdio::null())
        .status();
    if !made.is_ok_and(|status| status.success()) {
        eprintln!("skipped: cannot make a device node here (needs root)");
        return;
    }
    for command in ["solve", "batch"] {
        let output = Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 4000000 && exec \"$0\" --no-cache \"$1\" \"$2\"")
            .arg(env!("CARGO_BIN_EXE_knights"))
            .env("KNIGHTS_NO_SHIPPED", "1")
            .arg(command)
            .arg(&zero)
            .output()
            .unwrap();
        assert_one_short_line(&output, "line 1: T is longer than 64 characters: '\\0\\0");
    }
}

#[test]
fn a_huge_line_or_field_is_refused_with_a_short_quote() {
    let huge_field = format!("1\n5 4 0 {}\n", "9".repeat(5_000_000));
    let huge_line = format!("1\n5 4 0 0{}\n", " ".repeat(5_000_000));
    for args in [&["solve"][..], &["batch", "-"]] {
        let output = knights()
            .args(args)
            .write_stdin(huge_field.as_str())
            .output()
            .unwrap();
        assert_one_short_line(
            &output,
            "line 2: COL is longer than 64 characters: '9999999999999999999999999999999999999999…'",
        );
        let output = knights()
            .args(args)
            .write_stdin(huge_line.as_str())
            .output()
            .unwrap();
        assert_one_short_line(&output, "line 2: the line is longer than 1048576 bytes");
    }
    // A long word that is not a number is cut too.
    let output = knights()
        .args(["batch", "-"])
        .write_stdin(format!("5 4 0 0\n5 4 {} 0\n", "x".repeat(60)))
        .output()
        .unwrap();
    assert_one_short_line(
        &output,
        &format!("line 2: ROW '{}…' is not a whole number", "x".repeat(40)),
    );
}

#[test]
fn solve_and_batch_read_old_mac_and_one_line_judge_input_alike() {
    for input in [
        "2\r5 4 0 0\r3 4 0 0\r",
        "2\r5 4 0 0\r3 4 0 0",
        "2 5 4 0 0 3 4 0 0\n",
        "2 5 4 0 0\n3 4 0 0\n",
        "2\r\n5 4 0 0\r\n3 4 0 0\r\n",
    ] {
        knights()
            .arg("solve")
            .write_stdin(input)
            .assert()
            .success()
            .stdout("32\n2\n");
        knights()
            .args(["batch", "-", "--quiet"])
            .write_stdin(input)
            .assert()
            .success()
            .stdout("32\n2\n");
    }
    for args in [&["solve"][..], &["batch", "-", "--quiet"]] {
        knights()
            .args(args)
            .write_stdin("1 5 4 0 0")
            .assert()
            .success()
            .stdout("32\n");
    }
    // Line numbers count old Mac line breaks too.
    for args in [&["solve"][..], &["batch", "-"]] {
        let output = knights()
            .args(args)
            .write_stdin("2\r5 4 0 0\r3 x 0 0\r")
            .output()
            .unwrap();
        assert_one_short_line(&output, "line 3: COLS 'x' is not a whole number (query 2)");
    }
}

#[test]
fn an_error_in_a_query_over_two_lines_names_the_query_and_its_field() {
    for args in [&["solve"][..], &["batch", "-"]] {
        let output = knights()
            .args(args)
            .write_stdin("2\n5 4 0\nx 3 4 0 0\n")
            .output()
            .unwrap();
        assert_one_short_line(
            &output,
            "line 3: COL 'x' is not a whole number (query 1, which starts on line 2)",
        );
    }
}

#[test]
fn invisible_characters_are_shown_and_a_leading_bom_is_skipped() {
    for args in [&["solve"][..], &["batch", "-"]] {
        for (input, message) in [
            ("1\n5 4 0 \0\n", "line 2: COL '\\0' is not a whole number"),
            (
                "1\n5 4\u{feff} 0 0\n",
                "line 2: COLS '4<U+FEFF>' is not a whole number",
            ),
            (
                "1\n5 4 0 \u{1b}[0m\n",
                "line 2: COL '<U+001B>[0m' is not a whole number",
            ),
            (
                "\u{200b}1\n5 4 0 0\n",
                "line 1: T '<U+200B>1' is not a whole number",
            ),
        ] {
            let output = knights().args(args).write_stdin(input).output().unwrap();
            assert_one_short_line(&output, message);
        }
    }
    for args in [&["solve"][..], &["batch", "-", "--quiet"]] {
        knights()
            .args(args)
            .write_stdin("\u{feff}2\n5 4 0 0\n3 4 0 0\n")
            .assert()
            .success()
            .stdout("32\n2\n");
    }
}

const HEADER: &str = "rows,cols,kind,row,col,count,engine,version,seconds,computed_at\n";

/// Imports `records` (after the CSV header) into a fresh store.
fn import(records: &str) -> (Output, TestStore) {
    let test = TestStore::new();
    let file = test.dir.path().join("answers.csv");
    std::fs::write(&file, format!("{HEADER}{records}")).unwrap();
    let output = test
        .knights()
        .arg("import")
        .arg(&file)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    (output, test)
}

#[test]
fn an_imported_count_longer_than_its_board_allows_is_refused_before_it_is_read() {
    let record = |board: &str, count: &str| {
        format!("{board},open,,,{count},memo,0.1.0,0.001,2026-11-29T14:28:00Z\n")
    };
    let (output, test) = import(&record("5,5", &"7".repeat(30)));
    assert_one_short_line(
        &output,
        "line 2: count '777777777777777777777777777777' has 30 digits; no count of tours on the 5x5 board has more than 23",
    );
    assert!(!test.path().exists() || test.answers() == 0);
    // 900,000 digits on 1000x1000 (at most 845,105): refused without reading the number.
    let (output, _) = import(&record("1000,1000", &"7".repeat(900_000)));
    assert_one_short_line(
        &output,
        "count '7777777777777777777777777777777777777777…' has 900000 digits; no count of tours on the 1000x1000 board has more than 845105",
    );
    // A count longer than a line may be.
    let (output, _) = import(&record("1000,1000", &"7".repeat(2_000_000)));
    assert_one_short_line(&output, "line 2: the line is longer than 1048576 bytes");
    // Other fields are short.
    let (output, _) = import(&format!(
        "3,4,open,0,0,2,memo,{},0.001,2026-11-29T14:28:00Z\n",
        "1".repeat(100)
    ));
    assert_one_short_line(
        &output,
        "line 2: version is longer than 64 characters: '1111",
    );
    // A quoted field that never ends is bounded as a record.
    let (output, _) = import(&format!("3,4,open,0,0,\"2{}", "\n".repeat(2_000_000)));
    assert_one_short_line(&output, "the record is longer than 1048576 bytes");
}

#[test]
fn a_total_of_a_huge_board_is_checked_at_once() {
    // The file cannot hold the starts of a 10^10-square board: nothing to add up, and listing
    // its starts (to look for them) would take hours. The file is read at once; the count is
    // then refused by the import's checks, as no engine could recount it.
    let (output, test) = import(
        "3,4,open,0,0,2,memo,0.1.0,0.001,2026-11-29T14:28:00Z\n\
         100000,100000,open,,,4,memo,0.1.0,0.001,2026-11-29T14:28:00Z\n",
    );
    assert_one_short_line(
        &output,
        "line 3: open tours of 100000x100000 (directed board total): count 4 cannot be checked",
    );
    assert_eq!(test.answers(), 0);
}

#[test]
fn an_import_with_a_byte_order_mark_or_old_mac_line_breaks_is_read() {
    let test = TestStore::new();
    let file = test.dir.path().join("answers.csv");
    let records = "3,4,open,0,0,2,memo,0.1.0,0.001,2026-11-29T14:28:00Z\r\
                   3,4,open,1,0,4,memo,0.1.0,0.001,2026-11-29T14:28:00Z\rx\r";
    std::fs::write(&file, format!("\u{feff}{}\r{records}", HEADER.trim_end())).unwrap();
    let output = test.knights().arg("import").arg(&file).output().unwrap();
    // The third record is wrong, and named by its line.
    assert_one_short_line(&output, "line 4: malformed CSV");
    std::fs::write(
        &file,
        format!(
            "\u{feff}{}\r{}",
            HEADER.trim_end(),
            &records[..records.len() - 2]
        ),
    )
    .unwrap();
    test.knights().arg("import").arg(&file).assert().success();
    assert_eq!(test.answers(), 2);
}

/// A small deterministic generator, for reproducible random queries.
fn next_random(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn a_large_judge_file_is_answered_alike_by_solve_and_batch() {
    const QUERIES: usize = 200_000;
    let mut state = 0x2545_f491_4f6c_dd1d;
    let mut text = format!("{QUERIES}\n");
    let mut expected = String::new();
    let mut memo = std::collections::HashMap::new();
    for _ in 0..QUERIES {
        let rows = 1 + next_random(&mut state) % 5;
        let cols = 1 + next_random(&mut state) % 5;
        let row = next_random(&mut state) % rows;
        let col = next_random(&mut state) % cols;
        text.push_str(&format!("{rows} {cols} {row} {col}\n"));
        let count = *memo.entry((rows, cols, row, col)).or_insert_with(|| {
            crate::util::memo(rows as u32, cols as u32)
                .count_from(knights::Square::new(row as u32, col as u32))
                .unwrap()
        });
        expected.push_str(&format!("{count}\n"));
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("judge.txt");
    std::fs::write(&file, &text).unwrap();
    let solve = TestStore::new()
        .knights()
        .arg("solve")
        .arg(&file)
        .output()
        .unwrap();
    assert!(solve.status.success(), "{solve:?}");
    assert!(String::from_utf8(solve.stdout).unwrap() == expected);
    let batch = TestStore::new()
        .knights()
        .args(["batch", "--quiet"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(batch.status.success(), "{batch:?}");
    assert!(String::from_utf8(batch.stdout).unwrap() == expected);
}

/// A value of 50,000 characters, wherever it is given, is quoted in at most a line (40
/// characters and "…"): a query line of `solve` and `batch`, a field of an imported CSV or
/// JSON file, a plan's line, and every kind of value on the command line (a board range, a
/// side, a square, a memory size, a number of seconds, an unknown option or command).
#[test]
fn a_value_of_50000_characters_is_quoted_in_at_most_a_line() {
    let test = TestStore::new();
    let dir = test.dir.path();
    let x = "x".repeat(50_000);
    let nines = "9".repeat(50_000);
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let judge = write("judge.txt", format!("1\n5 4 0 {x}\n"));
    let queries = write("queries.txt", format!("5 4 {x} 0\n"));
    let csv = write(
        "answers.csv",
        format!("{HEADER}3,4,{x},,,16,memo,0.1.0,0.1,2026-01-01T00:00:00Z\n"),
    );
    let json = write("answers.json", format!("[{{\"rows\": 3, \"{x}\": 4}}]"));
    let plan = write(
        "plan.jsonl",
        format!("# knights shards plan {x}\nid,rows,cols,row,col,to_row,to_col,weight,estimate\n"),
    );
    let range = format!("3x3..{x}");
    let cols = format!("9..{nines}");
    let budget = format!("--memory={x}");
    let unknown = format!("--{x}");
    let cases: [&[&str]; 15] = [
        &["solve", &judge],
        &["batch", &queries],
        &["import", &csv],
        &["import", &json],
        &["shards", "status", &plan],
        &["precompute", "--boards", &x],
        &["precompute", "--boards", &range],
        &["count", &nines, "4"],
        &["count", "5", "4", "0", "0", "--to", "1", &nines],
        &["series", "5", "--cols", &cols],
        &["query", "--board", &x],
        &["verify", "--recount", "--seconds", &x],
        &[&budget, "count", "3", "4"],
        &["count", "3", "4", &unknown],
        &[&x],
    ];
    for args in cases {
        let output = test.knights().args(args).output().unwrap();
        let shown: Vec<String> = args.iter().map(|a| a.chars().take(30).collect()).collect();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{shown:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{shown:?}");
        assert_eq!(stderr.lines().count(), 1, "{shown:?}: {stderr}");
        assert!(
            stderr.chars().count() < 400,
            "{shown:?}: {} characters: {}…",
            stderr.chars().count(),
            stderr.chars().take(400).collect::<String>()
        );
    }
}
