//! `knights shards`: a board's table counted by workers with stores of their own (one of them
//! killed and run again), merged, and compared with `knights count`; merges that must refuse
//! (a shard missing, two stores that disagree) and store nothing; status; bad plans. The same
//! by pair, and the plans of 8x8.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use predicates::str::contains;

use crate::util::{TestStore, set_count};

/// `knights --db DB ARGS` as a process of its own.
fn spawn(db: &Path, args: &[&str]) -> Child {
    crate::util::process()
        .env_remove("KNIGHTS_DB")
        .arg("--db")
        .arg(db)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for `child`; its standard error, after checking that it succeeded.
fn finish(child: Child) -> String {
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    stderr
}

/// A directory with a plan of `rows × cols` (by start, or split as asked), and a worker store
/// per worker.
struct Workers {
    test: TestStore,
    plan: PathBuf,
}

impl Workers {
    fn new(rows: u32, cols: u32) -> Self {
        Workers::by(rows, cols, &[])
    }

    /// With `by` given to `shards plan` (`["--by", "pair"]`).
    fn by(rows: u32, cols: u32, by: &[&str]) -> Self {
        let test = TestStore::new();
        let plan = test.dir.path().join("plan.jsonl");
        test.knights()
            .args(["shards", "plan", &rows.to_string(), &cols.to_string(), "-o"])
            .arg(&plan)
            .args(by)
            .assert()
            .success();
        Workers { test, plan }
    }

    fn store(&self, worker: usize) -> PathBuf {
        self.test.dir.path().join(format!("w{worker}.db"))
    }

    fn run(&self, worker: usize, workers: usize) -> Child {
        spawn(
            &self.store(worker),
            &[
                "shards",
                "run",
                self.plan.to_str().unwrap(),
                "--worker",
                &worker.to_string(),
                "--workers",
                &workers.to_string(),
            ],
        )
    }

    /// What `shards status` prints for `stores`: it exits with 0 when every shard is done,
    /// with 1 (and one line saying how many are not) otherwise, as a merge refuses them.
    fn status(&self, stores: &[PathBuf]) -> String {
        let output = self.with_stores("status", stores).output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let (done, shards) = stdout
            .split_once(" of ")
            .and_then(|(head, rest)| {
                let done: usize = head.rsplit(' ').next()?.parse().ok()?;
                let shards: usize = rest.split(' ').next()?.parse().ok()?;
                Some((done, shards))
            })
            .expect("status says how many shards are done");
        if done == shards {
            assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
        } else {
            assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
            assert_eq!(
                stderr,
                format!(
                    "error: {} of the plan's {shards} shards are not done\n",
                    shards - done
                )
            );
        }
        stdout
    }

    /// `shards status` for `stores` prints each of `says`.
    fn status_says(&self, stores: &[PathBuf], says: &[&str]) {
        let status = self.status(stores);
        for part in says {
            assert!(status.contains(part), "{part}\n{status}");
        }
    }

    /// `knights --db <the global store> shards SUBCOMMAND plan --from <the worker stores>`.
    fn with_stores(&self, subcommand: &str, stores: &[PathBuf]) -> assert_cmd::Command {
        let mut cmd = self.test.knights();
        cmd.args(["shards", subcommand])
            .arg(&self.plan)
            .arg("--from");
        cmd.args(stores);
        cmd
    }
}

/// The table `knights count ROWS COLS` prints, computed directly in a store of its own.
fn direct_table(rows: u32, cols: u32) -> String {
    let direct = TestStore::new();
    let output = direct
        .knights()
        .args(["count", &rows.to_string(), &cols.to_string()])
        .output()
        .unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

/// Three workers at once, each with its own store; one is killed with SIGKILL in the middle of
/// its shards and run again; the merge prints what `knights count` prints, and stores it.
#[cfg(unix)]
#[test]
fn three_workers_one_killed_merge_to_the_direct_table() {
    for (rows, cols) in [(6, 6), (5, 6)] {
        let workers = Workers::new(rows, cols);
        // Worker 1 dies mid-shard. Its shards take milliseconds, so a kill on a timer could come
        // after them: this test holds its store's write lock instead, so the worker computes
        // (reading is allowed) but cannot store a shard before it is killed.
        finish(spawn(&workers.store(1), &["count", "1", "1"]));
        let lock = rusqlite::Connection::open(workers.store(1)).unwrap();
        lock.execute_batch("BEGIN IMMEDIATE").unwrap();
        let mut children: Vec<Child> = (0..3).map(|w| workers.run(w, 3)).collect();
        let victim = &mut children[1];
        std::thread::sleep(Duration::from_millis(300));
        victim.kill().unwrap();
        let killed = victim.wait().unwrap();
        assert!(
            !killed.success(),
            "the worker finished before it was killed"
        );
        lock.execute_batch("ROLLBACK").unwrap();
        drop(lock);
        let mut children = children.into_iter();
        let (first, _, third) = (
            children.next().unwrap(),
            children.next(),
            children.next().unwrap(),
        );
        finish(first);
        finish(third);
        let rerun = finish(workers.run(1, 3));
        assert!(rerun.contains("worker 1 of 3: "), "{rerun}");
        // The kill came before the worker's shards were stored: the rerun computes them.
        assert!(!rerun.contains(" 0 computed"), "{rerun}");
        // A finished worker run again computes nothing.
        let again = finish(workers.run(0, 3));
        let shards = std::fs::read_to_string(&workers.plan)
            .unwrap()
            .lines()
            .count()
            - 1;
        let share = shards.div_ceil(3);
        assert!(
            again.contains(&format!(
                "{share} shards, 0 computed, {share} already stored"
            )),
            "{again}"
        );

        let stores: Vec<PathBuf> = (0..3).map(|w| workers.store(w)).collect();
        let merged = workers.with_stores("merge", &stores).output().unwrap();
        let stderr = String::from_utf8_lossy(&merged.stderr);
        assert!(merged.status.success(), "{stderr}");
        assert!(stderr.contains("from 3 stores"), "{stderr}");
        let table = String::from_utf8(merged.stdout).unwrap();
        assert_eq!(table, direct_table(rows, cols));
        // The merged answers are the store's now: `count` answers from it.
        let stored = workers
            .test
            .knights()
            .args(["count", &rows.to_string(), &cols.to_string(), "--stats"])
            .assert()
            .success()
            .stderr(contains("answered from the store"));
        assert_eq!(String::from_utf8_lossy(&stored.get_output().stdout), table);
        let sources: String = workers
            .test
            .sqlite()
            .query_row(
                "SELECT source FROM answers WHERE row = 0 AND col = 0",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert!(sources.starts_with("merged from "), "{sources}");
    }
}

/// A merge with a shard missing names it and stores nothing; a shard with two counts is
/// refused naming both stores; status counts what is done.
#[test]
fn merges_refuse_missing_and_conflicting_shards() {
    let workers = Workers::new(6, 6);
    finish(workers.run(0, 3));
    finish(workers.run(2, 3));

    let status = workers.status(&[workers.store(0), workers.store(2)]);
    assert!(
        status.starts_with("6x6 by start: 4 of 6 shards done (64.6% of the estimate), "),
        "{status}"
    );
    assert!(status.contains("missing: 6x6-s1, 6x6-s4\n"), "{status}");

    let partial = [workers.store(0), workers.store(2)];
    workers
        .with_stores("merge", &partial)
        .assert()
        .code(1)
        .stderr(contains(
            "2 of the plan's 6 shards are in none of the stores: 6x6-s1, 6x6-s4; nothing was stored",
        ));
    assert!(
        !workers.test.path().exists() || workers.test.answers() == 0,
        "a refused merge stored nothing"
    );

    // A copy of worker 0's store with one count changed (by 2, so that no parity check
    // notices): the merge names the shard and both files.
    finish(workers.run(1, 3));
    let bad = workers.test.dir.path().join("bad.db");
    std::fs::copy(workers.store(0), &bad).unwrap();
    edit(&bad, "rows = 6 AND cols = 6 AND row = 0 AND col = 0", 2);
    let stores = [
        workers.store(0),
        workers.store(1),
        workers.store(2),
        bad.clone(),
    ];
    // Two stores that disagree are bad input, as a conflict in an import is (exit 2).
    let refused = workers.with_stores("merge", &stores).assert().code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("shard 6x6-s0"), "{stderr}");
    assert!(stderr.contains("524486 in "), "{stderr}");
    assert!(stderr.contains("but 524488 in "), "{stderr}");
    assert!(
        stderr.contains(&workers.store(0).display().to_string()),
        "{stderr}"
    );
    assert!(stderr.contains(&bad.display().to_string()), "{stderr}");
    assert!(!workers.test.path().exists() || workers.test.answers() == 0);

    // Status reports the disagreement (a shard whose copies disagree is not done); without the
    // bad copy the merge goes through.
    workers.status_says(
        &stores,
        &[
            "5 of 6 shards done (",
            "conflicting counts (a merge will refuse them): 6x6-s0",
        ],
    );
    workers
        .with_stores("merge", &stores[..3])
        .assert()
        .success()
        .stdout(contains("total (directed):   6637920"));
    assert_eq!(workers.test.answers(), 7);
}

/// By pair, on a square board (all eight symmetries) and a board asked as rows > cols (the
/// plan's questions are on the board turned to rows <= cols): three workers at once, then a
/// merge that prints what `knights count` prints, stores the pairs, the starts (added up from
/// the pairs, engine `sum`) and the total, and passes `knights verify`.
#[test]
fn three_workers_merge_pairs_to_the_direct_table() {
    for (rows, cols) in [(6, 6), (6, 5)] {
        let workers = Workers::by(rows, cols, &["--by", "pair"]);
        let children: Vec<Child> = (0..3).map(|w| workers.run(w, 3)).collect();
        for child in children {
            finish(child);
        }
        let stores: Vec<PathBuf> = (0..3).map(|w| workers.store(w)).collect();
        let merged = workers.with_stores("merge", &stores).output().unwrap();
        let stderr = String::from_utf8_lossy(&merged.stderr);
        assert!(merged.status.success(), "{stderr}");
        assert!(stderr.contains(" by pair from 3 stores"), "{stderr}");
        let table = String::from_utf8(merged.stdout).unwrap();
        assert_eq!(table, direct_table(rows, cols), "{rows}x{cols}");
        let stored = workers
            .test
            .knights()
            .args(["count", &rows.to_string(), &cols.to_string(), "--stats"])
            .assert()
            .success()
            .stderr(contains("answered from the store"));
        assert_eq!(String::from_utf8_lossy(&stored.get_output().stdout), table);
        let (engine, source): (String, String) = workers
            .test
            .sqlite()
            .query_row(
                "SELECT engine, source FROM answers
                 WHERE kind = 'open' AND row = 0 AND col = 0",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(engine, "sum");
        assert!(
            source.starts_with("sum of pairs (memo, merged from "),
            "{source}"
        );
        workers
            .test
            .knights()
            .arg("verify")
            .assert()
            .success()
            .stdout(contains(": 0 problems"));
    }
}

/// `shards run --one-at-a-time` (one shard at a time, with the whole memory budget) computes
/// what the shards side by side compute: its store merges to the direct table.
#[test]
fn one_shard_at_a_time_merges_to_the_direct_table() {
    let workers = Workers::by(5, 6, &["--by", "pair"]);
    let store = workers.store(0);
    let plan = workers.plan.to_str().unwrap();
    let child = spawn(
        &store,
        &[
            "shards",
            "run",
            plan,
            "--worker",
            "0",
            "--workers",
            "1",
            "--one-at-a-time",
        ],
    );
    let stderr = finish(child);
    assert!(stderr.contains("computed"), "{stderr}");
    let merged = workers.with_stores("merge", &[store]).output().unwrap();
    assert!(
        merged.status.success(),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    assert_eq!(
        String::from_utf8(merged.stdout).unwrap(),
        direct_table(5, 6)
    );
}

/// By pair: a merge with shards missing names them and stores nothing; status counts what is
/// done; a pair with two counts is refused naming both stores.
#[test]
fn pair_merges_refuse_missing_and_conflicting_shards() {
    let workers = Workers::by(6, 6, &["--by", "pair"]);
    finish(workers.run(0, 3));
    finish(workers.run(2, 3));
    let partial = [workers.store(0), workers.store(2)];
    workers
        .with_stores("status", &partial)
        .assert()
        .code(1)
        .stdout(contains("6x6 by pair: 62 of 93 shards done ("))
        .stdout(contains(
            "missing: 6x6-p1, 6x6-p4, 6x6-p7, 6x6-p10, 6x6-p13 and 26 more\n",
        ));
    workers
        .with_stores("merge", &partial)
        .assert()
        .code(1)
        .stderr(contains(
            "31 of the plan's 93 shards are in none of the stores: 6x6-p1, 6x6-p4, 6x6-p7, 6x6-p10, 6x6-p13 and 26 more; nothing was stored",
        ));
    assert!(!workers.test.path().exists() || workers.test.answers() == 0);

    // Shard 6x6-p0, the corner to its neighbour, is worker 0's: a copy of its store with that
    // count changed.
    finish(workers.run(1, 3));
    let bad = workers.test.dir.path().join("bad.db");
    std::fs::copy(workers.store(0), &bad).unwrap();
    let pair = "kind = 'between' AND rows = 6 AND cols = 6 AND row = 0 AND col = 0
                AND to_row = 0 AND to_col = 1";
    let count = edit(&bad, pair, 2);
    let stores = [
        workers.store(0),
        workers.store(1),
        workers.store(2),
        bad.clone(),
    ];
    // Two stores that disagree are bad input, as a conflict in an import is (exit 2).
    let refused = workers.with_stores("merge", &stores).assert().code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let changed = count + 2;
    assert!(
        stderr.contains(&format!(
            "shard 6x6-p0 (open tours of 6x6 from (0, 0) to (0, 1)) is {count} in {}",
            workers.store(0).display()
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("but {changed} in {}", bad.display())),
        "{stderr}"
    );
    assert!(!workers.test.path().exists() || workers.test.answers() == 0);
    workers
        .with_stores("status", &stores)
        .assert()
        .code(1)
        .stdout(contains("92 of 93 shards done ("))
        .stdout(contains(
            "conflicting counts (a merge will refuse them): 6x6-p0",
        ));
    workers
        .with_stores("merge", &stores[..3])
        .assert()
        .success()
        .stdout(contains("total (directed):   6637920"));
}

/// Changes one count in the store `db` behind knights' back: the answer of `condition` goes
/// up by `by` (0 puts it back). Returns its count before.
fn edit(db: &Path, condition: &str, by: u64) -> u64 {
    let had: u64 = set_count(db, condition, "0").parse().unwrap();
    set_count(db, condition, &(had + by).to_string());
    had
}

/// The stores among `stores` that hold the answer of `condition`.
fn holding<'a>(stores: &'a [PathBuf], condition: &str) -> Vec<&'a PathBuf> {
    let holds = |db: &PathBuf| -> i64 {
        rusqlite::Connection::open(db)
            .unwrap()
            .query_row(
                &format!("SELECT count(*) FROM answers WHERE {condition}"),
                [],
                |r| r.get(0),
            )
            .unwrap()
    };
    stores.iter().filter(|db| holds(db) == 1).collect()
}

/// `knights --db <global> shards merge` is refused with exit `code` and one line containing
/// each of `says`, and nothing is stored.
fn merge_refused(workers: &Workers, stores: &[PathBuf], code: i32, says: &[&str]) {
    let existed = workers.test.path().exists();
    let refused = workers.with_stores("merge", stores).assert().code(code);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    for part in says {
        assert!(stderr.contains(part), "{part}\n{stderr}");
    }
    assert!(refused.get_output().stdout.is_empty());
    if existed {
        assert_eq!(workers.test.answers(), 0, "a refused merge stored nothing");
    } else {
        assert!(
            !workers.test.path().exists(),
            "a refused merge created no store"
        );
    }
}

/// The merge of `stores` prints the table of `knights count ROWS COLS`.
fn merges_to_the_direct_table(workers: &Workers, stores: &[PathBuf], rows: u32, cols: u32) {
    let merged = workers.with_stores("merge", stores).assert().success();
    assert_eq!(
        String::from_utf8_lossy(&merged.get_output().stdout),
        direct_table(rows, cols)
    );
}

/// The answer of `condition` edited by `by` in the one of `stores` that holds it: the merge is
/// refused with exit 2 and the message `says(holder, count before)`, nothing stored; put back,
/// the stores merge to the table of `knights count ROWS COLS`.
fn refused_until_put_back(
    workers: &Workers,
    stores: &[PathBuf],
    condition: &str,
    (rows, cols): (u32, u32),
    says: impl Fn(&Path, u64) -> String,
) {
    let holder = holding(stores, condition)[0];
    let was = edit(holder, condition, 2);
    merge_refused(workers, stores, 2, &[&says(holder, was)]);
    set_count(holder, condition, &was.to_string());
    merges_to_the_direct_table(workers, stores, rows, cols);
}

/// A worker's store comes from another machine: what it holds is an import, and passes the
/// gate every import passes (issue 20). A start of 5x5 edited to 306 (even, under the bound,
/// and the total added up from it agrees with it) is refused by the recount, naming the record
/// and the file, exit 2, nothing stored; by pair, one 5x6 pair edited by 2 likewise. Put back,
/// the stores merge to the table of `knights count`. (A total edited in a worker's store is
/// refused when it is read: `trust::every_reader_refuses_a_total_that_contradicts_its_starts`.)
#[test]
fn merges_refuse_an_edited_worker_store_naming_the_record_and_the_file() {
    let workers = Workers::new(5, 5);
    finish(workers.run(0, 1));
    let corner = "rows = 5 AND cols = 5 AND row = 0 AND col = 0";
    refused_until_put_back(&workers, &[workers.store(0)], corner, (5, 5), |db, was| {
        assert_eq!(was, 304);
        format!(
            "{}: open tours of 5x5 from (0, 0): count 306 cannot be right: expected 304 (known from the per-square table",
            db.display()
        )
    });

    let pairs = Workers::by(5, 6, &["--by", "pair"]);
    finish(pairs.run(0, 2));
    finish(pairs.run(1, 2));
    let pair = "kind = 'between' AND rows = 5 AND cols = 6 AND row = 0 AND col = 0
                AND to_row = 4 AND to_col = 5";
    let stores = [pairs.store(0), pairs.store(1)];
    refused_until_put_back(&pairs, &stores, pair, (5, 6), |db, was| {
        format!(
            "{}: open tours of 5x6 from (0, 0) to (4, 5): count {} cannot be right: expected {was} (recounted by the memo engine)",
            db.display(),
            was + 2
        )
    });
}

/// A merge that conflicts with the store it goes to exits 2, as an import's conflict does
/// (it exited 1 before issue 20), naming the question and both counts; nothing is stored.
#[test]
fn a_merge_that_conflicts_with_the_store_is_bad_input() {
    // 3x13: neither published nor recounted, so only the merge can see the conflict.
    let workers = Workers::new(3, 13);
    finish(workers.run(0, 1));
    workers.test.run(&["count", "3", "13"]);
    // The corner (four squares of the board) and the total changed together, so that the
    // store agrees with itself.
    let db = workers.test.path();
    set_count(
        &db,
        "rows = 3 AND cols = 13 AND row = 0 AND col = 0",
        "30494",
    );
    set_count(
        &db,
        "rows = 3 AND cols = 13 AND kind = 'open' AND row IS NULL",
        "257736",
    );
    workers.test.knights().arg("verify").assert().success();
    let before = workers.test.answers();
    let refused = workers
        .with_stores("merge", &[workers.store(0)])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    for part in [
        "conflicting answers for open tours of 3x13 from (0, 0): the store has 30494".to_string(),
        format!("{} has 30492", workers.store(0).display()),
    ] {
        assert!(stderr.contains(&part), "{part}\n{stderr}");
    }
    assert_eq!(workers.test.answers(), before);
}

/// `--replicas 2`: every shard goes to two different workers; status counts a shard done
/// once both copies are there and agree; with one copy edited, the merge names the shard and
/// both files (exit 2) and stores nothing, and one copy alone is refused as missing; with both
/// copies right, the table is `knights count`'s and each answer says where its copies were.
#[test]
fn replicas_are_merged_only_where_the_copies_agree() {
    let workers = Workers::by(5, 6, &["--replicas", "2"]);
    let text = std::fs::read_to_string(&workers.plan).unwrap();
    let header = text.lines().next().unwrap();
    assert!(
        header.ends_with(",\"shards\":9,\"weight\":30,\"replicas\":2}"),
        "{header}"
    );
    finish(workers.run(0, 3));
    let stdout = workers.status(&[workers.store(0)]);
    assert!(
        stdout.starts_with("5x6 by start: 0 of 9 shards done"),
        "{stdout}"
    );
    assert!(stdout.contains("in fewer than 2 stores: "), "{stdout}");
    finish(workers.run(1, 3));
    finish(workers.run(2, 3));
    let stores: Vec<PathBuf> = (0..3).map(|w| workers.store(w)).collect();
    workers
        .with_stores("status", &stores)
        .assert()
        .success()
        .stdout(contains("9 of 9 shards done (100.0% of the estimate)"));
    let corner = "rows = 5 AND cols = 6 AND row = 0 AND col = 0";
    let holders = holding(&stores, corner);
    assert_eq!(holders.len(), 2, "{holders:?}");
    let was = edit(holders[1], corner, 4);
    merge_refused(
        &workers,
        &stores,
        2,
        &[
            "shard 5x6-s0 (open tours of 5x6 from (0, 0))",
            &format!("is {was} in {}", holders[0].display()),
            &format!("but {} in {}", was + 4, holders[1].display()),
            "; nothing was stored",
        ],
    );
    workers.status_says(
        &stores,
        &[
            "8 of 9 shards done",
            "conflicting counts (a merge will refuse them): 5x6-s0",
        ],
    );
    merge_refused(
        &workers,
        &stores[..1],
        1,
        &["shards are not in 2 of the stores (each is computed by 2 workers)"],
    );
    set_count(holders[1], corner, &was.to_string());
    merges_to_the_direct_table(&workers, &stores, 5, 6);
    assert_eq!(
        workers.test.field("source", corner),
        format!(
            "merged from {} (computed; the same in {})",
            holders[0].display(),
            holders[1].display()
        )
    );
}

/// `--replicas 2` takes two different workers' stores: one store under a second name (a
/// symlink, a hard link) or a copy of one (the same computations, time and seconds, in every
/// shard both hold) is
/// refused naming both (exit 2), and the store of --db, not there before, is not created.
#[test]
fn replicas_must_be_two_workers_not_one_store_twice() {
    let workers = Workers::by(5, 6, &["--replicas", "2"]);
    for worker in 0..3 {
        finish(workers.run(worker, 3));
    }
    let first = workers.store(0);
    let dir = first.parent().unwrap();
    let (soft, hard, copy) = (
        dir.join("soft.db"),
        dir.join("hard.db"),
        dir.join("copy.db"),
    );
    std::os::unix::fs::symlink(&first, &soft).unwrap();
    std::fs::hard_link(&first, &hard).unwrap();
    std::fs::copy(&first, &copy).unwrap();
    assert!(!workers.test.path().exists());
    for other in [&soft, &hard] {
        merge_refused(
            &workers,
            &[first.clone(), other.clone()],
            2,
            &[
                &format!("{} and {} are one file", first.display(), other.display()),
                "each shard to 2 different workers",
                "; nothing was stored",
            ],
        );
    }
    merge_refused(
        &workers,
        &[first.clone(), copy.clone()],
        2,
        &[
            &format!(
                "{} and {} hold the same computations (shard 5x6-s0",
                first.display(),
                copy.display()
            ),
            "a copy of a store is not another worker's; nothing was stored",
        ],
    );
    // status counts a copy once: its shards are in fewer than 2 stores.
    workers.status_says(&[first.clone(), copy], &["0 of 9 shards done"]);
    let stores: Vec<PathBuf> = (0..3).map(|w| workers.store(w)).collect();
    merges_to_the_direct_table(&workers, &stores, 5, 6);
}

/// `--by both`: the shards by start and by pair of one board; the merge checks every start
/// against the sum of its pairs, two different computations, and names the start, its store
/// and the sum where they disagree (exit 2, nothing stored); agreeing, the table is `knights
/// count`'s, and the starts are stored as their engine counted them (not as sums).
#[test]
fn a_plan_by_both_checks_starts_against_their_pairs() {
    let workers = Workers::by(5, 6, &["--by", "both"]);
    let text = std::fs::read_to_string(&workers.plan).unwrap();
    assert!(
        text.starts_with(
            "{\"plan\":\"knights shards\",\"version\":1,\"rows\":5,\"cols\":6,\"by\":\"both\",\"shards\":132,\"weight\":900}\n"
        ),
        "{text}"
    );
    finish(workers.run(0, 2));
    finish(workers.run(1, 2));
    let stores = [workers.store(0), workers.store(1)];
    let corner = "kind = 'open' AND rows = 5 AND cols = 6 AND row = 0 AND col = 0";
    refused_until_put_back(&workers, &stores, corner, (5, 6), |db, was| {
        format!(
            "shard 5x6-s0 (open tours of 5x6 from (0, 0)) is {} in {}, but its pairs (the shards by pair) add up to {was}; nothing was stored",
            was + 2,
            db.display()
        )
    });
    assert_eq!(workers.test.field("engine", corner), "memo");
    let verified = workers.test.knights().arg("verify").output().unwrap();
    assert!(verified.status.success());
    assert!(String::from_utf8_lossy(&verified.stdout).contains(": 0 problems"));
}

/// 8x8: by pair unless told (its starts are beyond one machine), 278 shards of which 136 need
/// a search, and 10 by start; a pair shard runs where a start shard is refused (only a zero
/// that the colour rule decides is run here: the others take far longer).
#[test]
fn eight_by_eight_is_split_by_pair() {
    let workers = Workers::new(8, 8);
    let text = std::fs::read_to_string(&workers.plan).unwrap();
    assert!(
        text.starts_with(
            "{\"plan\":\"knights shards\",\"version\":1,\"rows\":8,\"cols\":8,\"by\":\"pair\",\"shards\":278,"
        ),
        "{text}"
    );
    assert_eq!(text.matches("\"estimate\":0}").count(), 142);
    assert_eq!(text.lines().count(), 1 + 278);
    workers
        .test
        .knights()
        .args(["shards", "run"])
        .arg(&workers.plan)
        .args(["--shard", "8x8-p1", "--quiet"])
        .assert()
        .success()
        .stderr(contains(
            "shard 8x8-p1: 1 shard, 1 computed, 0 already stored",
        ));
    let by_start = workers.test.dir.path().join("start.jsonl");
    workers
        .test
        .knights()
        .args(["shards", "plan", "8", "8", "--by", "start", "-o"])
        .arg(&by_start)
        .assert()
        .success()
        .stderr(contains("10 shards"));
    workers
        .test
        .knights()
        .args(["shards", "run"])
        .arg(&by_start)
        .args(["--shard", "8x8-s0"])
        .assert()
        .code(2)
        .stderr(contains("beyond one machine"));
    // A board of one square has no pairs.
    workers
        .test
        .knights()
        .args(["shards", "plan", "1", "1", "--by", "pair"])
        .assert()
        .code(2)
        .stderr(contains("1x1 cannot be split by pair"));
}

/// A bad plan file is one line naming its line, exit 2; so are bad worker numbers.
#[test]
fn bad_plans_and_workers_are_refused() {
    let workers = Workers::new(5, 5);
    let text = std::fs::read_to_string(&workers.plan).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let bad = |name: &str, text: String, expected: &str| {
        let path = workers.test.dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        for subcommand in ["run", "status", "merge"] {
            let refused = workers
                .test
                .knights()
                .args(["shards", subcommand])
                .arg(&path)
                .assert()
                .code(2);
            let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(stderr.contains(expected), "{name}: {stderr}");
        }
    };
    bad(
        "truncated.jsonl",
        lines[..4].join("\n"),
        "line 5: the plan ends with 3 of its 6 shards (truncated?); missing 5x5-s3, 5x5-s4, 5x5-s5",
    );
    bad(
        "cut.jsonl",
        text[..text.len() - 20].to_string(),
        "line 7: not a shard",
    );
    bad(
        "weight.jsonl",
        text.replacen("\"weight\":8", "\"weight\":7", 1),
        "line 3: shard 5x5-s1 has weight 7, but it stands for 8 squares",
    );
    bad(
        "twice.jsonl",
        format!("{text}{}\n", lines[3]),
        "line 8: shard 5x5-s2 appears twice (also on line 4)",
    );
    bad("empty.jsonl", String::new(), "the plan is empty");

    for (worker, workers_n, expected) in [
        ("3", "3", "--worker 3 is not below --workers 3"),
        ("0", "0", "--workers must be at least 1"),
    ] {
        workers
            .test
            .knights()
            .args(["shards", "run"])
            .arg(&workers.plan)
            .args(["--worker", worker, "--workers", workers_n])
            .assert()
            .code(2)
            .stderr(contains(expected));
    }
    workers
        .test
        .knights()
        .args(["shards", "run"])
        .arg(&workers.plan)
        .args(["--shard", "5x5-s9"])
        .assert()
        .code(2)
        .stderr(contains("5x5-s9 is not a shard of the plan"));
}

/// One shard alone, and CSV plans read back the same.
#[test]
fn one_shard_and_csv_plans() {
    let test = TestStore::new();
    let plan = test.dir.path().join("plan.csv");
    test.knights()
        .args(["shards", "plan", "5", "6", "--format", "csv", "-o"])
        .arg(&plan)
        .assert()
        .success();
    let text = std::fs::read_to_string(&plan).unwrap();
    assert!(text.starts_with(
        "# knights shards plan version=1 rows=5 cols=6 by=start shards=9 weight=30\n\
         id,rows,cols,row,col,to_row,to_col,weight,estimate\n5x6-s0,5,6,0,0,,,4,11\n"
    ));
    test.knights()
        .args(["shards", "run"])
        .arg(&plan)
        .args(["--shard", "5x6-s0"])
        .assert()
        .success()
        .stderr(contains(
            "shard 5x6-s0: 1 shard, 1 computed, 0 already stored",
        ));
    test.knights()
        .args(["shards", "status"])
        .arg(&plan)
        .assert()
        .code(1)
        .stdout(contains("1 of 9 shards done"));
}

/// The 6x7 table by start, merged from three workers, against `knights count 6 7`: minutes
/// of computing (its starts take 5 to 40 seconds each). Not part of `cargo test`.
#[test]
#[ignore = "minutes: cargo test --release -- --ignored"]
fn three_workers_merge_the_6x7_table() {
    let workers = Workers::new(6, 7);
    let children: Vec<Child> = (0..3).map(|w| workers.run(w, 3)).collect();
    for child in children {
        finish(child);
    }
    let stores: Vec<PathBuf> = (0..3).map(|w| workers.store(w)).collect();
    let merged = workers.with_stores("merge", &stores).output().unwrap();
    assert!(merged.status.success());
    assert_eq!(
        String::from_utf8(merged.stdout).unwrap(),
        direct_table(6, 7)
    );
}

/// `knights ARGS` under an address-space limit of 1 GiB, as a shell's `ulimit -v` sets it:
/// a plan that is built before it is checked fails here with an allocation error.
fn bounded_knights(test: &TestStore, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -v 1048576; exec \"$@\"")
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_knights"))
        .env("KNIGHTS_NO_SHIPPED", "1")
        .arg("--db")
        .arg(test.path())
        .args(args)
        .timeout(Duration::from_secs(30));
    cmd
}

/// Plans whose header claims a board no engine counts, or more shards than a plan holds, and
/// plan requests of the same, are refused from their first line, with one line and exit 2,
/// before anything is listed.
#[test]
fn plans_past_the_engines_or_the_size_are_refused_at_once() {
    let test = TestStore::new();
    let dir = test.dir.path();
    for (name, header, says) in [
        (
            "evil.jsonl",
            r#"{"plan":"knights shards","version":1,"rows":100000,"cols":100000,"by":"start","shards":1,"weight":1}"#,
            "100000x100000 board is beyond every engine",
        ),
        (
            "evil.csv",
            "# knights shards plan version=1 rows=100000 cols=100000 by=start shards=1 weight=1",
            "100000x100000 board is beyond every engine",
        ),
        (
            "pairs.jsonl",
            r#"{"plan":"knights shards","version":1,"rows":300,"cols":300,"by":"pair","shards":1,"weight":1}"#,
            "300x300 board is beyond every engine",
        ),
        (
            "long.jsonl",
            r#"{"plan":"knights shards","version":1,"rows":8,"cols":100000,"by":"pair","shards":1,"weight":1}"#,
            "a plan holds at most 100000",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, format!("{header}\n")).unwrap();
        for subcommand in ["status", "run", "merge"] {
            let refused = bounded_knights(&test, &["shards", subcommand, path.to_str().unwrap()])
                .assert()
                .code(2);
            let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
            assert_eq!(stderr.lines().count(), 1, "{name} {subcommand}: {stderr}");
            assert!(
                stderr.contains("line 1: ") && stderr.contains(says),
                "{stderr}"
            );
        }
    }
    let out = dir.join("plan.jsonl");
    for (args, says) in [
        (&["100000", "100000"][..], "beyond every engine"),
        (&["100", "100", "--by", "pair"], "beyond every engine"),
        (&["10", "10"], "the 10x10 board is beyond every engine"),
        (&["1000", "1000"], "beyond every engine"),
        (
            &["8", "100000", "--by", "pair"],
            "a plan holds at most 100000",
        ),
    ] {
        let mut all = vec!["shards", "plan"];
        all.extend(args);
        all.extend(["-o", out.to_str().unwrap()]);
        bounded_knights(&test, &all)
            .assert()
            .code(2)
            .stderr(contains(says));
        assert!(!out.exists(), "{args:?}");
    }
}

/// A plan line is read within its bound: an endless line (a device node of our own that
/// reads zeros, as /dev/zero does) is refused after 4 KiB, not read to the end of memory.
#[test]
fn an_endless_plan_line_is_refused_after_its_bound() {
    let test = TestStore::new();
    let zero = test.dir.path().join("zero");
    let made = Command::new("mknod")
        .arg(&zero)
        .args(["c", "1", "5"])
        .status()
        .is_ok_and(|status| status.success());
    // Without the right to make a device node, a FIFO of our own fed with zeros does.
    let _feeder = (!made).then(|| {
        Command::new("mkfifo").arg(&zero).status().unwrap();
        let fifo = zero.clone();
        std::thread::spawn(move || {
            use std::io::Write;
            let mut writer = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
            let block = vec![0u8; 1 << 16];
            while writer.write_all(&block).is_ok() {}
        })
    });
    bounded_knights(&test, &["shards", "status", zero.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(contains(
            "line 1: the line is longer than 4096 bytes: not a plan's line",
        ));
}

/// Issue 45's planted merge: a worker's 8x8 pair (0, 0) to (0, 3) raised by 2 would have made
/// the merge store a total of 19591828170979936 (OEIS A165134 is 19591828170979904). The
/// worker's store is the 8x8 pairs knights ships, imported, then edited behind its back: the
/// merge is refused in one line naming the file and the record, and no store is made; put
/// back, the same merge goes through.
#[test]
fn an_eight_by_eight_merge_with_a_raised_pair_is_refused() {
    let test = TestStore::new();
    let plan = test.dir.path().join("plan.txt");
    test.knights()
        .args(["shards", "plan", "8", "8", "--by", "pair", "-o"])
        .arg(&plan)
        .assert()
        .success();
    let worker = test.dir.path().join("worker.db");
    let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/8x8-pairs.csv");
    crate::util::knights()
        .arg("--db")
        .arg(&worker)
        .arg("import")
        .arg(&shipped)
        .assert()
        .success();
    let pair = "kind = 'between' AND rows = 8 AND cols = 8 AND row = 0 AND col = 0
                AND to_row = 0 AND to_col = 3";
    let was = set_count(&worker, pair, "53513623917028");
    assert_eq!(was, "53513623917026");
    let merge = || {
        test.knights()
            .args(["shards", "merge"])
            .arg(&plan)
            .arg("--from")
            .arg(&worker)
            .output()
            .unwrap()
    };
    let refused = merge();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{}: open tours of 8x8 from (0, 0) to (0, 3): count 53513623917028 cannot be right: expected 53513623917026",
            worker.display()
        )),
        "{stderr}"
    );
    assert!(!test.path().exists(), "the refused merge made a store");
    set_count(&worker, pair, &was);
    let merged = merge();
    assert!(merged.status.success(), "{merged:?}");
    let total = test
        .knights()
        .args(["count", "8", "8", "--total"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&total.stdout);
    assert!(stdout.contains("19591828170979904"), "{stdout}");
}

/// A plan whose header claims more shards than its board has (100,000 for 5x5 by start) is
/// refused from the header alone, in one line naming both, before any shard line is read.
#[test]
fn a_plan_header_that_miscounts_its_shards_is_refused() {
    let test = TestStore::new();
    let plan = test.dir.path().join("plan.txt");
    test.knights()
        .args(["shards", "plan", "5", "5", "-o"])
        .arg(&plan)
        .assert()
        .success();
    let text = std::fs::read_to_string(&plan).unwrap();
    let (header, rest) = text.split_once('\n').unwrap();
    let claims: serde_json::Value = serde_json::from_str(header).unwrap();
    let shards = claims["shards"].as_u64().unwrap();
    let forged = header.replace(&format!("\"shards\":{shards}"), "\"shards\":100000");
    assert_ne!(forged, header);
    std::fs::write(&plan, format!("{forged}\n{rest}")).unwrap();
    for command in ["status", "merge"] {
        let output = test
            .knights()
            .args(["shards", command])
            .arg(&plan)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{command}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("the header says 100000 shards of weight"),
            "{stderr}"
        );
        assert!(stderr.contains(&format!("has {shards} shards")), "{stderr}");
    }
}
