//! Tours between two squares (`count ... --to`): every pair of every board of at most 25
//! squares against plain backtracking, through the engines, the resolver and the command line;
//! the theorems' zeros; canonical pairs in the store; bad input; a store of the previous schema
//! brought up to date without losing a row.

use knights::count::Limits;
use std::collections::HashMap;

use knights::count::frontier::{self, FrontierMode};
use knights::count::memo::MemoCounter;
use knights::count::reference;
use knights::existence::{NoTour, no_open_tour_between};
use knights::question::{AnswerKind, Question};
use knights::resolve::{self, EngineChoice, Settings};
use knights::store::{AnswerFilter, MIGRATIONS, Store};
use knights::{Board, CancelFlag, MemoryBudget, Square};
use num_bigint::BigUint;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

use crate::util::{TestStore, knights, long_tests};

/// Plain backtracking: for every end square, the number of open tours from `start` that end
/// there (row-major, the start's own entry 0 unless the board has one square).
fn ends_from(board: Board, start: Square) -> Vec<u128> {
    fn walk(board: Board, at: Square, seen: &mut [bool], left: usize, ends: &mut [u128]) {
        if left == 0 {
            ends[board.index(at)] += 1;
            return;
        }
        let moves: Vec<Square> = board.knight_moves(at).collect();
        for next in moves {
            let i = board.index(next);
            if !seen[i] {
                seen[i] = true;
                walk(board, next, seen, left - 1, ends);
                seen[i] = false;
            }
        }
    }
    let n = board.squares() as usize;
    let mut seen = vec![false; n];
    let mut ends = vec![0u128; n];
    seen[board.index(start)] = true;
    walk(board, start, &mut seen, n - 1, &mut ends);
    ends
}

/// Every pair count of `board` by backtracking: `counts[start][end]`.
fn backtracked(board: Board) -> Vec<Vec<u128>> {
    board.all_squares().map(|s| ends_from(board, s)).collect()
}

/// Every board of 2 to `most` squares, both orientations.
fn boards(most: u32) -> Vec<Board> {
    let mut boards = Vec::new();
    for rows in 1..=most {
        for cols in 1..=most / rows {
            if rows * cols >= 2 {
                boards.push(Board::new(rows, cols).unwrap());
            }
        }
    }
    boards
}

/// The memo engine (one counter per end, shared by the starts) and the frontier engine (where
/// it takes the board) agree with backtracking on every ordered pair; every pair a theorem
/// rules out has no tour; the pairs from a start add up to the start's count.
#[test]
fn every_pair_of_every_small_board_agrees_with_backtracking() {
    let cancel = CancelFlag::new();
    let mut rules_used: HashMap<&'static str, usize> = HashMap::new();
    // Up to 21 squares reaches every rule (3x7 is the smallest odd board with open tours past 1x1).
    for board in boards(if long_tests() { 25 } else { 21 }) {
        let counts = backtracked(board);
        let frontier_takes = frontier::check_board(board).is_ok();
        for end in board.all_squares() {
            let mut memo =
                MemoCounter::new(board, &Limits::new(MemoryBudget::DEFAULT, &cancel)).unwrap();
            for start in board.all_squares().filter(|&s| s != end) {
                let expected = counts[board.index(start)][board.index(end)];
                let memo_count = memo.count_between(start, end).unwrap();
                assert_eq!(memo_count, expected, "memo {board} {start} -> {end}");
                if frontier_takes {
                    let (count, _) = frontier::count(
                        board,
                        FrontierMode::Between(start, end),
                        &Limits::new(MemoryBudget::DEFAULT, &cancel),
                    )
                    .unwrap();
                    assert_eq!(
                        count,
                        BigUint::from(expected),
                        "frontier {board} {start} -> {end}"
                    );
                }
                if let Some(rule) = no_open_tour_between(board, start, end) {
                    assert_eq!(expected, 0, "{rule}");
                    *rules_used.entry(rule_name(rule)).or_default() += 1;
                }
            }
        }
        for start in board.all_squares() {
            let sum: u128 = counts[board.index(start)].iter().sum();
            let from =
                reference::count_open_tours(board, start, &Limits::stopped_by(&cancel)).unwrap();
            assert_eq!(sum, from, "{board} {start}");
        }
    }
    // Each rule was put to the test.
    for rule in [
        "board",
        "start colour",
        "start four rows",
        "end colour",
        "end four rows",
        "same colour",
    ] {
        assert!(rules_used.get(rule).copied().unwrap_or(0) > 0, "{rule}");
    }
}

fn rule_name(rule: NoTour) -> &'static str {
    match rule {
        NoTour::OpenBoard(_) => "board",
        NoTour::OpenMinorityColour(..) => "start colour",
        NoTour::OpenFourRowsInner(..) => "start four rows",
        NoTour::EndMinorityColour(..) => "end colour",
        NoTour::EndFourRowsInner(..) => "end four rows",
        NoTour::EndsSameColour(..) => "same colour",
        other => panic!("not a rule for open tours: {other:?}"),
    }
}

/// Every open tour of 4x5, 4x6 and 4x7 (either way round) has both ends on the two outer
/// lines: the rule `--explain` gives for such pairs, checked before it is relied on.
#[test]
fn four_row_tours_end_on_the_outer_lines() {
    let boards = if long_tests() {
        vec![(4, 5), (5, 4), (4, 6), (6, 4), (4, 7), (7, 4)]
    } else {
        vec![(4, 5), (5, 4), (4, 6)]
    };
    for (rows, cols) in boards {
        let board = Board::new(rows, cols).unwrap();
        let outer = |s: Square| {
            if rows == 4 {
                s.row == 0 || s.row == 3
            } else {
                s.col == 0 || s.col == 3
            }
        };
        let mut tours = 0u128;
        for start in board.all_squares() {
            for (i, &count) in ends_from(board, start).iter().enumerate() {
                let end = Square::new(i as u32 / cols, i as u32 % cols);
                if count > 0 {
                    assert!(outer(start) && outer(end), "{board} {start} -> {end}");
                    tours += count;
                }
                if end != start && no_open_tour_between(board, start, end).is_some() {
                    assert_eq!(count, 0, "{board} {start} -> {end}");
                }
            }
        }
        assert!(tours > 0, "{board} has open tours");
    }
}

/// Through the resolver (theorems, engines, canonical questions): every canonical pair of the
/// small boards equals backtracking on each of the ordered pairs it stands for, with the
/// memo, frontier and reference engines, and the weighted pairs add up to the board's total.
#[test]
fn the_resolver_answers_every_canonical_pair() {
    for board in boards(20) {
        let counts = backtracked(board);
        let pairs = Question::pairs_of_board(board);
        let questions: Vec<Question> = pairs.iter().map(|(q, _)| *q).collect();
        let weight: u64 = pairs.iter().map(|(_, w)| w).sum();
        let n = board.squares();
        assert_eq!(weight, n * (n - 1), "{board}");
        for engine in [
            EngineChoice::Auto,
            EngineChoice::Memo,
            EngineChoice::Frontier,
            EngineChoice::Reference,
        ] {
            let settings = Settings {
                engine,
                ..Settings::default()
            };
            if resolve::check_engines(&questions, &settings).is_err() {
                assert_eq!(engine, EngineChoice::Frontier, "{board}");
                continue;
            }
            let resolution = resolve::resolve(&questions, None, &settings, &mut |_| {}).unwrap();
            for start in board.all_squares() {
                for end in board.all_squares().filter(|&e| e != start) {
                    let q = Question::between(board, start, end);
                    assert_eq!(
                        *resolution.count(&q),
                        BigUint::from(counts[board.index(start)][board.index(end)]),
                        "{engine:?} {board} {start} -> {end}"
                    );
                    if no_open_tour_between(board, start, end).is_some() {
                        assert_eq!(
                            resolution.answers[&q].engine.as_str(),
                            knights::store::THEOREM
                        );
                    }
                }
            }
        }
    }
}

/// Pairs are not refused as "beyond one machine" (they are the way around it), but the
/// engines' own limits hold.
#[test]
fn the_engine_rule_takes_pairs() {
    let board = Board::new(8, 8).unwrap();
    let start = Square::new(0, 0);
    let pair = Question::between(board, start, Square::new(6, 6));
    let from = Question::from_start(board, start, knights::question::TourKind::Open);
    assert!(EngineChoice::Auto.choose(&from).is_err());
    assert_eq!(
        EngineChoice::Auto.choose(&pair).unwrap().engine,
        resolve::Engine::Frontier
    );
    let small = Question::between(Board::new(5, 8).unwrap(), start, Square::new(4, 6));
    assert_eq!(
        EngineChoice::Auto.choose(&small).unwrap().engine,
        resolve::Engine::Memo
    );
    // Ends of two colours on an even board: no theorem decides it (a theorem's zero needs no
    // engine). 10x10 is past both engines (a short side of 9 is the frontier's last).
    let wide = Question::between(Board::new(10, 10).unwrap(), start, Square::new(9, 6));
    assert!(EngineChoice::Auto.choose(&wide).is_err());
    assert!(EngineChoice::Memo.choose(&wide).is_err());
    assert!(EngineChoice::Frontier.choose(&wide).is_err());
}

/// A pair, its reverse and their images under the board's symmetries are one question.
#[test]
fn symmetric_and_reversed_pairs_share_one_question() {
    for board in boards(25) {
        for start in board.all_squares() {
            for end in board.all_squares().filter(|&e| e != start) {
                let q = Question::between(board, start, end);
                assert!(q.is_canonical(), "{q}");
                assert_eq!(q.answer_kind(), AnswerKind::Between);
                assert_eq!(Question::between(board, end, start), q);
                for sym in knights::Symmetry::ALL {
                    let image = sym.target(board);
                    let (s, e) = (sym.apply(board, start), sym.apply(board, end));
                    assert_eq!(Question::between(image, s, e), q, "{board} {sym:?}");
                }
            }
        }
    }
}

/// A handful of pairs through the command, against backtracking, both orientations.
#[test]
fn the_command_counts_pairs() {
    for (rows, cols, start, end) in [
        (5, 5, (0, 0), (4, 4)),
        (5, 5, (2, 2), (0, 0)),
        (3, 4, (0, 0), (2, 3)),
        (4, 3, (0, 0), (3, 2)),
        (4, 5, (0, 1), (3, 0)),
        (5, 4, (1, 0), (0, 3)),
        (3, 7, (0, 0), (2, 6)),
    ] {
        let board = Board::new(rows, cols).unwrap();
        let (s, e) = (Square::new(start.0, start.1), Square::new(end.0, end.1));
        let expected = ends_from(board, s)[board.index(e)];
        let args: Vec<String> = [rows, cols, start.0, start.1]
            .iter()
            .map(u32::to_string)
            .chain(["--to".to_string(), end.0.to_string(), end.1.to_string()])
            .collect();
        knights()
            .arg("count")
            .args(&args)
            .assert()
            .success()
            .stdout(format!("{expected}\n"));
        let json = knights()
            .arg("count")
            .args(&args)
            .args(["--format", "json", "--engine", "frontier"])
            .output()
            .unwrap();
        let record: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(record["count"], expected.to_string());
        assert_eq!(record["kind"], "between");
        assert_eq!(record["to_row"], end.0);
    }
}

/// The theorems answer at once, with the reason, and are recorded as `theorem`.
#[test]
fn theorem_zeros_are_explained() {
    let store = TestStore::new();
    for (args, why) in [
        (
            &["6", "6", "0", "0", "--to", "5", "5"][..],
            "a tour's two ends differ in colour",
        ),
        (
            &["5", "5", "0", "0", "--to", "0", "1"],
            "no open tour ends on (0, 1)",
        ),
        (
            &["5", "5", "1", "0", "--to", "2", "2"],
            "no open tour from (1, 0)",
        ),
        (&["4", "6", "0", "0", "--to", "1", "1"], "inner one"),
        (
            &["3", "5", "0", "0", "--to", "2", "4"],
            "no open tour on 3x5",
        ),
    ] {
        store
            .knights()
            .arg("count")
            .args(args)
            .args(["--explain", "--stats"])
            .assert()
            .success()
            .stdout(contains("0\nwhy: ").and(contains(why)))
            .stderr(contains("existence theorem"));
    }
    let engines: Vec<String> = store
        .sqlite()
        .prepare("SELECT DISTINCT engine FROM answers WHERE kind = 'between'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(engines, ["theorem"]);
}

/// Bad `--to`: one line, exit 2, no panic.
#[test]
fn bad_pairs_are_refused_in_one_line() {
    for (args, says) in [
        (&["5", "5", "--to", "1", "1"][..], "required"),
        (&["5", "5", "0", "0", "--to", "0", "0"], "the start itself"),
        (
            &["5", "5", "0", "0", "--to", "5", "0"],
            "--to 5 0 is outside the 5x5 board",
        ),
        (&["5", "5", "0", "0", "--to", "0", "-1"], "'-1'"),
        (
            &["5", "5", "0", "0", "--to", "1", "2", "--closed"],
            "--closed",
        ),
        (
            &["5", "5", "0", "0", "--to", "1", "2", "--total"],
            "--total",
        ),
        (&["5", "5", "0", "0", "--to", "1"], "2 values required"),
    ] {
        let output = knights().arg("count").args(args).output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty());
    }
}

/// A pair's answer is saved, and the second run (of the pair, its reverse or its mirror
/// image) is answered from the store; `query --kind between` lists it with its end.
#[test]
fn pairs_are_saved_and_served_from_the_store() {
    let store = TestStore::new();
    store
        .knights()
        .args(["count", "5", "5", "0", "0", "--to", "4", "4", "--stats"])
        .assert()
        .success()
        .stdout("56\n")
        .stderr(contains("computed by the memo engine"));
    for args in [
        ["5", "5", "0", "0", "4", "4"],
        ["5", "5", "4", "4", "0", "0"],
        ["5", "5", "0", "4", "4", "0"],
    ] {
        store
            .knights()
            .args([
                "count", args[0], args[1], args[2], args[3], "--to", args[4], args[5],
            ])
            .arg("--stats")
            .assert()
            .success()
            .stdout("56\n")
            .stderr(contains("answered from the store"));
    }
    assert_eq!(store.answers(), 1);
    store
        .knights()
        .args(["query", "--kind", "between", "--format", "csv"])
        .assert()
        .success()
        .stdout(contains(",source,to_row,to_col\n").and(contains("5,5,between,0,0,56,memo,")))
        .stdout(contains(",computed,4,4\n"));
    store
        .knights()
        .args(["query", "--kind", "open"])
        .assert()
        .success()
        .stdout(contains("between").not());
    store.knights().arg("verify").assert().success();

    // Exported and imported into another store: the pair comes with its end.
    let file = store.dir.path().join("pairs.csv");
    store
        .knights()
        .args(["export", "--format", "csv", "--output"])
        .arg(&file)
        .assert()
        .success();
    let other = TestStore::new();
    other.knights().arg("import").arg(&file).assert().success();
    let mut pair = Store::open(&other.path())
        .unwrap()
        .list(&AnswerFilter {
            kind: Some(AnswerKind::Between),
            ..AnswerFilter::default()
        })
        .unwrap();
    assert_eq!(pair.len(), 1);
    let pair = pair.remove(0);
    assert_eq!(pair.question.end, Some(Square::new(4, 4)));
    assert_eq!(pair.count, BigUint::from(56u32));
}

/// A store of schema 3 (built from migrations 0001 to 0003 by hand) is brought up to date:
/// every row is kept with its source, and pairs can be saved beside them.
#[test]
fn a_store_of_the_previous_schema_keeps_its_rows() {
    let test = TestStore::new();
    {
        let db = test.sqlite();
        for migration in MIGRATIONS.iter().filter(|m| m.version <= 3) {
            db.execute_batch(migration.sql).unwrap();
        }
        db.pragma_update(None, "user_version", 3).unwrap();
        db.pragma_update(None, "application_id", knights::store::APPLICATION_ID)
            .unwrap();
        db.execute_batch(
            "INSERT INTO answers (rows, cols, kind, row, col, count, engine, version, seconds,
                                  computed_at, source) VALUES
                 (5, 5, 'open', 0, 0, '304', 'memo', '0.1.0', 0.5, '2026-01-01T00:00:00Z', 'computed'),
                 (5, 5, 'open', NULL, NULL, '1728', 'sum', '0.1.0', 1, '2026-01-01T00:00:00Z',
                  'sum of starts (memo, computed)'),
                 (6, 6, 'closed', NULL, NULL, '19724', 'frontier', '0.1.0', 2,
                  '2026-01-01T00:00:00Z', 'imported from old.csv');",
        )
        .unwrap();
    }
    store_rows_survive(&test);
    test.knights()
        .args(["count", "5", "5", "0", "0", "--to", "4", "4"])
        .assert()
        .success()
        .stdout("56\n");
    test.knights()
        .args(["count", "5", "5", "0", "0", "--stats"])
        .assert()
        .success()
        .stdout("304\n")
        .stderr(contains("answered from the store"));
    let db = test.sqlite();
    let version: i64 = db
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, knights::store::SCHEMA_VERSION);
    assert_eq!(test.answers(), 4);
    // The new CHECKs hold: an end only for `between`, never the start itself.
    for bad in [
        "INSERT INTO answers (rows, cols, kind, row, col, count, engine, version, seconds,
             computed_at, to_row, to_col) VALUES (5, 5, 'open', 0, 0, '1', 'memo', 'x', 0, 'x', 1, 1)",
        "INSERT INTO answers (rows, cols, kind, row, col, count, engine, version, seconds,
             computed_at) VALUES (5, 5, 'between', 0, 0, '1', 'memo', 'x', 0, 'x')",
        "INSERT INTO answers (rows, cols, kind, row, col, count, engine, version, seconds,
             computed_at, to_row, to_col) VALUES (5, 5, 'between', 1, 1, '1', 'memo', 'x', 0, 'x', 1, 1)",
        "INSERT INTO answers (rows, cols, kind, row, col, count, engine, version, seconds,
             computed_at, to_row, to_col) VALUES (5, 5, 'between', 0, 0, '1', 'memo', 'x', 0, 'x', 5, 1)",
    ] {
        assert!(db.execute(bad, []).is_err(), "{bad}");
    }
}

fn store_rows_survive(test: &TestStore) {
    let store = Store::open(&test.path()).unwrap();
    let answers = store.list(&AnswerFilter::default()).unwrap();
    let rows: Vec<(String, String, String)> = answers
        .iter()
        .map(|a| {
            (
                a.question.to_string(),
                a.count.to_string(),
                a.source.clone(),
            )
        })
        .collect();
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(rows.contains(&(
        "open tours of 5x5 from (0, 0)".to_string(),
        "304".to_string(),
        "computed".to_string()
    )));
    assert!(rows.iter().any(|(_, count, source)| count == "1728"
        && source == "sum of starts (memo, computed)"));
    assert!(
        rows.iter()
            .any(|(_, count, source)| count == "19724" && source == "imported from old.csv")
    );
}

/// `--halves DIR`: a pair that meets in the middle computes its half and saves it; its mirror
/// image reads it back (`--stats` says so) and gives the same count; a path that is a file is
/// refused in one line (exit 2); a saved half changed on disk is refused with its name (exit 2)
/// and left as it was.
#[test]
fn halves_are_saved_shared_and_refused_when_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let halves = dir.path().join("halves");
    let count = |row: &str, col: &str, to_row: &str, to_col: &str| {
        let mut cmd = knights();
        cmd.arg("--halves")
            .arg(&halves)
            .args(["--no-cache", "count", "7", "6"]);
        cmd.args([row, col, "--to", to_row, to_col, "--stats"]);
        cmd
    };
    count("0", "0", "6", "5")
        .assert()
        .success()
        .stdout("8107945\n")
        .stderr(contains("halves: 0 read, 1 computed and saved"));
    count("0", "5", "6", "0")
        .assert()
        .success()
        .stdout("8107945\n")
        .stderr(contains("from saved halves (1 read)"));

    let file = dir.path().join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    let out = knights()
        .arg("--halves")
        .arg(&file)
        .args(["--no-cache", "count", "7", "6", "0", "0", "--to", "6", "5"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("the directory for halves"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a directory");

    let saved: Vec<_> = std::fs::read_dir(&halves)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let mut bytes = std::fs::read(&saved[0]).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&saved[0], &bytes).unwrap();
    let out = count("0", "0", "6", "5")
        .assert()
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(&*saved[0].to_string_lossy()), "{stderr}");
    assert!(stderr.contains("checksum"), "{stderr}");
    assert_eq!(std::fs::read(&saved[0]).unwrap(), bytes, "left as it was");
}
