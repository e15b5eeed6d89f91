//! Small refusals from the hostile run of issue 22, each one line and an exit code: a repeated
//! option, a missing store, an unfinished plan's status, an edited estimate, a board one
//! engine takes, negative numbers, an empty worker's store.

use predicates::str::contains;

use crate::util::TestStore;

/// One line on standard error containing `says`, exit `code`, nothing on standard output.
fn refused(test: &TestStore, args: &[&str], code: i32, says: &str) {
    let output = test.knights().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(code), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?}: {output:?}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.contains(says), "{args:?}: {stderr}");
}

#[test]
fn a_second_end_is_refused_not_dropped() {
    refused(
        &TestStore::new(),
        &[
            "count", "5", "5", "0", "0", "--to", "3", "3", "--to", "4", "4",
        ],
        2,
        "the argument '--to <ROW2> <COL2>' cannot be used multiple times",
    );
}

#[test]
fn verify_refuses_a_store_that_is_not_there() {
    let test = TestStore::new();
    let typo = test.dir.path().join("typo.db");
    let output = crate::util::knights()
        .arg("--db")
        .arg(&typo)
        .arg("verify")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "there is no answer store at {}: nothing to verify",
            typo.display()
        )),
        "{stderr}"
    );
    assert!(
        !typo.exists(),
        "verify created the store it was asked to check"
    );
}

/// Every command takes the boards some engine counts: 3x23 (69 squares) is the frontier
/// engine's, for `precompute` as for `count`.
#[test]
fn precompute_takes_what_count_takes() {
    let test = TestStore::new();
    test.run(&["precompute", "--boards", "3x23..3x23", "--quiet"]);
    let output = test
        .knights()
        .args(["count", "3", "23", "0", "0", "--stats"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("answered from the store"),
        "{output:?}"
    );
}

#[test]
fn negative_numbers_are_refused_as_values() {
    let test = TestStore::new();
    refused(
        &test,
        &["--memory", "-1", "count", "5", "5", "0", "0"],
        2,
        "invalid value '-1' for '--memory <SIZE>': invalid memory size '-1'",
    );
    let plan = plan_5x5(&test);
    for flag in ["--worker", "--workers"] {
        refused(
            &test,
            &["shards", "run", plan.to_str().unwrap(), flag, "-1"],
            2,
            &format!("invalid value '-1' for '{flag} <"),
        );
    }
}

/// `shards status` exits with 1 while shards are missing (as `merge` refuses them), with 0
/// once every shard is done; an estimate edited to 2^64 - 1 is summed without wrapping.
#[test]
fn status_exits_with_one_until_the_plan_is_done() {
    let test = TestStore::new();
    let plan = plan_5x5(&test);
    test.run(&["shards", "run", plan.to_str().unwrap(), "--shard", "5x5-s0"]);
    test.knights()
        .args(["shards", "status"])
        .arg(&plan)
        .assert()
        .code(1)
        .stdout(contains("1 of 6 shards done"))
        .stderr("error: 5 of the plan's 6 shards are not done\n");
    // The done shard's estimate is nearly all of the plan's: nearly 100%, not a wrapped sum.
    let text = std::fs::read_to_string(&plan).unwrap();
    let line = text.lines().nth(1).unwrap();
    let (head, _) = line.rsplit_once("\"estimate\":").unwrap();
    let edited = text.replacen(line, &format!("{head}\"estimate\":{}}}", u64::MAX), 1);
    let huge = test.dir.path().join("huge.jsonl");
    std::fs::write(&huge, edited).unwrap();
    test.knights()
        .args(["shards", "status"])
        .arg(&huge)
        .assert()
        .code(1)
        .stdout(contains("1 of 6 shards done (100.0% of the estimate)"));
    test.run(&["shards", "run", plan.to_str().unwrap(), "--worker", "0"]);
    test.knights()
        .args(["shards", "status"])
        .arg(&plan)
        .assert()
        .success()
        .stdout(contains("6 of 6 shards done"));
}

/// A worker's store given by `--from` is opened to be read, so an empty file there is said to
/// be empty, not read-only.
#[test]
fn an_empty_worker_store_is_called_empty() {
    let test = TestStore::new();
    let plan = plan_5x5(&test);
    let empty = test.dir.path().join("empty.db");
    std::fs::write(&empty, "").unwrap();
    refused(
        &test,
        &[
            "shards",
            "status",
            plan.to_str().unwrap(),
            "--from",
            empty.to_str().unwrap(),
        ],
        2,
        &format!("{} is an empty file, not an answer store", empty.display()),
    );
}

/// The plan of 5x5 by start (6 shards), written in the test's directory.
fn plan_5x5(test: &TestStore) -> std::path::PathBuf {
    let plan = test.dir.path().join("plan.jsonl");
    test.knights()
        .args(["shards", "plan", "5", "5", "-o"])
        .arg(&plan)
        .assert()
        .success();
    plan
}

/// Issue 45's wording: sizes that leave no board are refused, not listed as an empty store; a
/// memory size past 64 bits says it is too large and what the largest is; a bad
/// KNIGHTS_MEMORY names the variable, not the option the user did not give.
#[test]
fn empty_filters_huge_sizes_and_the_variable_are_said_as_such() {
    let test = TestStore::new();
    test.run(&["count", "3", "4", "0", "0"]);
    for command in ["query", "export", "verify"] {
        refused(
            &test,
            &[command, "--min-squares", "10", "--max-squares", "5"],
            2,
            "--min-squares 10 and --max-squares 5: no board has at least 10 and at most 5 squares",
        );
    }
    refused(
        &test,
        &["count", "3", "4", "0", "0", "--memory", "99999999T"],
        2,
        "memory size '99999999T' is too large: the largest is 16777215T",
    );
    let output = test
        .knights()
        .env("KNIGHTS_MEMORY", "lots")
        .args(["count", "3", "4", "0", "0"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: KNIGHTS_MEMORY: invalid memory size 'lots'"),
        "{stderr}"
    );
    assert!(!stderr.contains("--memory"), "{stderr}");
    // Given with --memory, the option wins and the variable is not read.
    test.knights()
        .env("KNIGHTS_MEMORY", "lots")
        .args(["count", "3", "4", "0", "0", "--memory", "1G"])
        .assert()
        .success()
        .stdout("2\n");
}

/// An export of one answer says "1 answer"; a file name with a newline or an escape is
/// printed escaped, so that it cannot forge a line or drive the terminal.
#[test]
fn export_says_its_count_and_the_file_name_escaped() {
    let test = TestStore::new();
    test.run(&["count", "3", "4", "--total", "--closed"]);
    let listed = test.knights().args(["query"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&listed.stdout).lines().count(), 2);
    let name = test.dir.path().join("two\nlines\u{1b}[31m.csv");
    let output = test
        .knights()
        .args(["export", "--output"])
        .arg(&name)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("exported 1 answer to "), "{stderr}");
    assert!(stderr.contains("two\\nlines\\u{1b}[31m.csv"), "{stderr}");
    assert!(std::fs::read_to_string(&name).unwrap().lines().count() == 2);
}

/// Blank lines before the records are skipped, however many: they are no quoted field
/// that does not end.
#[test]
fn import_skips_a_megabyte_of_blank_lines() {
    let test = TestStore::new();
    test.run(&["count", "3", "4"]);
    let exported = test.knights().arg("export").output().unwrap();
    assert!(exported.status.success());
    let mut text = "\n".repeat(1_100_000).into_bytes();
    text.extend_from_slice(&exported.stdout);
    let file = test.dir.path().join("blank-lines.csv");
    std::fs::write(&file, text).unwrap();
    let other = TestStore::new();
    other
        .knights()
        .arg("import")
        .arg(&file)
        .assert()
        .success()
        .stderr(contains("imported"));
    assert_eq!(other.answers(), test.answers());
}
