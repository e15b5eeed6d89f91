//! The counts the gate knows from elsewhere (`knights::trust::known`) and the floors it draws
//! from them: the paths of every block are what the engines count (the small blocks also what
//! plain backtracking counts), and every published closed count of a long board is at least
//! the floor the shorter ones give.

use knights::count::Limits;
use num_bigint::BigUint;

use knights::count::reference;
use knights::question::{Question, TourKind};
use knights::resolve::{self, EngineChoice, Settings};
use knights::store::{APPLICATION_ID, MIGRATIONS};
use knights::trust::floor::{self, BLOCKS};
use knights::{Board, CancelFlag};

use crate::util::{TestStore, long_tests as long, published_terms, set_count};

/// Blocks counted by plain backtracking too (a second, independent count).
const BACKTRACKED_SQUARES: u64 = 24;

#[test]
fn every_block_has_the_paths_the_engines_count() {
    for block in BLOCKS {
        let squares = u64::from(block.rows * block.cols);
        // 8x7's four pairs take about 20 s: the long tier's.
        if squares >= 56 && !long() {
            continue;
        }
        let pairs = block.pairs();
        let questions: Vec<Question> = pairs
            .iter()
            .map(|&(board, start, end)| Question::between(board, start, end))
            .collect();
        let settings = Settings {
            engine: EngineChoice::Auto,
            ..Settings::default()
        };
        let resolution = resolve::resolve(&questions, None, &settings, &mut |_| {}).unwrap();
        let counted: BigUint = questions.iter().map(|q| resolution.count(q)).sum();
        assert_eq!(counted, BigUint::from(block.paths), "{block:?}");
        if squares <= BACKTRACKED_SQUARES || (long() && squares <= 32) {
            let cancel = CancelFlag::new();
            let backtracked: u128 = pairs
                .iter()
                .map(|&(board, start, end)| {
                    reference::count_open_tours_between(
                        board,
                        start,
                        end,
                        &Limits::stopped_by(&cancel),
                    )
                    .unwrap()
                })
                .sum();
            assert_eq!(backtracked, u128::from(block.paths), "{block:?}");
        }
    }
}

/// Each published closed term of a long board (3x2n, 6xn, 8xn) is at least the floor the
/// shorter published ones give it, and the floor grows with the board.
#[test]
fn published_long_boards_are_above_their_floors() {
    let mut checked = 0;
    for term in published_terms("closed_undirected") {
        let board = Board::new(term.rows, term.cols).unwrap();
        let directed: BigUint = term.count.parse::<BigUint>().unwrap() * 2u32;
        if let Some((floor, from)) = floor::closed_floor(board) {
            assert!(
                !floor.above(&directed),
                "{board} from {from}: {floor} > {directed}"
            );
            checked += 1;
        }
    }
    assert!(checked > 40, "{checked}");
    let huge = Question::total(Board::new(8, 100_000).unwrap(), TourKind::Closed);
    let (floor, _) = floor::floor(&huge).unwrap();
    assert!(floor.above(&BigUint::from(24u32)));
}

const HEADER: &str = "rows,cols,kind,row,col,count,engine,version,seconds,computed_at\n";

/// `import` of one record is refused with exit 2, one line containing `message`, and the
/// store keeps what it had.
fn import_refused(test: &TestStore, record: &str, message: &str) {
    let before = test.answers();
    let file = test.dir.path().join("in.csv");
    std::fs::write(
        &file,
        format!("{HEADER}{record},0.1.0,0.5,2026-11-29T14:28:00Z\n"),
    )
    .unwrap();
    let output = test.knights().arg("import").arg(&file).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{record}: {stderr}");
    assert!(stderr.contains(message), "{record}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_eq!(test.answers(), before, "{record}: something was imported");
}

/// Issue 45's wrong imports: a 6x6 corner two off (36 squares: recounted), a 7x7 corner two
/// off (the table knights ships, which adds up to the published total), 12 closed tours of
/// 8x100000 (a floor from 8xn's published counts), each refused naming what it should be.
#[test]
fn imports_that_known_counts_or_floors_contradict_are_refused() {
    let test = TestStore::new();
    test.run(&["count", "3", "4", "0", "0"]);
    import_refused(
        &test,
        "6,6,open,0,0,524488,memo",
        "count 524488 cannot be right: expected 524486 (recounted by the memo engine)",
    );
    import_refused(
        &test,
        "7,7,open,0,0,19023006778,frontier",
        "expected 19023006776 (known from the table knights ships (data/7x7-open.csv), whose starts add up to OEIS A165134's total)",
    );
    import_refused(
        &test,
        "8,100000,closed,,,24,frontier",
        "closed tours of 8x100000 (directed board total): count 24 cannot be right: expected at least 2^",
    );
    // A published total, and open tours from a start below the closed tours through it.
    import_refused(
        &test,
        "6,6,open,,,6637922,frontier",
        "expected 6637920 (known from OEIS A306281)",
    );
    import_refused(&test, "8,40,open,0,0,2,frontier", "expected at least ");
}

/// Counts planted in the store behind knights' back are never served and `verify` (no flags)
/// names each: a 5x5 corner (published), a 6x6 corner and a 5x6 pair (recounted: boards of at
/// most 36 squares), a 5x8 start whose board's stored starts no longer add up to the
/// published total (the total not stored).
#[test]
fn planted_counts_are_refused_by_every_reader_and_named_by_verify() {
    let test = TestStore::new();
    test.run(&["count", "5", "5"]);
    test.run(&["count", "6", "6", "0", "0"]);
    test.run(&["count", "5", "6", "0", "0", "--to", "4", "5"]);
    test.run(&["count", "5", "8"]);
    let db = test.path();
    set_count(
        &db,
        "rows = 5 AND cols = 5 AND row = 0 AND col = 0 AND kind = 'open'",
        "306",
    );
    set_count(
        &db,
        "rows = 6 AND cols = 6 AND row = 0 AND col = 0 AND kind = 'open'",
        "999998",
    );
    set_count(&db, "rows = 5 AND cols = 6 AND kind = 'between'", "1066");
    let had = set_count(
        &db,
        "rows = 5 AND cols = 8 AND row = 2 AND col = 3 AND kind = 'open'",
        "2",
    );
    assert_ne!(had, "2");
    test.sqlite()
        .execute(
            "DELETE FROM answers WHERE rows = 5 AND cols = 8 AND row IS NULL",
            [],
        )
        .unwrap();
    let refused = |args: &[&str], message: &str| {
        let output = test.knights().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    };
    refused(
        &["count", "5", "5", "4", "4"],
        "holds 306 for open tours of 5x5 from (0, 0), but expected 304 (known from the per-square table",
    );
    refused(&["count", "5", "5", "--total"], "holds 306");
    refused(
        &["count", "6", "6", "5", "0"],
        "holds 999998 for open tours of 6x6 from (0, 0), but expected 524486 (recounted by the memo engine)",
    );
    refused(&["precompute", "--boards", "6x6..6x6"], "holds 999998");
    refused(
        &["count", "5", "6", "4", "5", "--to", "0", "0"],
        "holds 1066",
    );
    refused(
        &["count", "5", "8", "0", "0"],
        "5x8's total is 36122108 (known from OEIS A083386",
    );
    let output = test.knights().arg("verify").output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&output.stdout);
    for expected in [
        "open tours of 5x5 from (0, 0): stored 306, expected 304",
        "open tours of 6x6 from (0, 0): stored 999998, expected 524486 (recounted by the memo engine)",
        "open tours of 5x6 from (0, 0) to (4, 5): stored 1066, expected 1064",
        "open tours of 5x8 (directed board total): not stored, but its starts here add up to",
    ] {
        assert!(stdout.contains(expected), "{expected}: {stdout}");
    }
}

/// A store of the first schema whose 5x5 centre is wrong is migrated (the schema moves on,
/// the counts stay as they are), but the centre is never served and `verify` names it.
#[test]
fn a_wrong_count_in_an_old_store_is_not_served_after_its_migration() {
    let test = TestStore::new();
    {
        let db = test.sqlite();
        db.execute_batch(MIGRATIONS[0].sql).unwrap();
        db.execute_batch(
            "INSERT INTO answers (rows, cols, kind, row, col, count, engine, version, seconds, computed_at) VALUES
                 (5, 5, 'open', 2, 2, '66', 'memo', '0.1.0', 0.01, '2026-11-29T14:28:00Z');",
        )
        .unwrap();
        db.pragma_update(None, "user_version", 1).unwrap();
        db.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
    }
    let output = test
        .knights()
        .args(["count", "5", "5", "2", "2"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("holds 66 for open tours of 5x5 from (2, 2), but expected 64")
    );
    let output = test.knights().arg("verify").output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stdout).contains("stored 66, expected 64"));
}
