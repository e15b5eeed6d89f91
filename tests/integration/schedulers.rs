//! Many machines under a scheduler: `shards run` takes its worker number from a Slurm job
//! array or a Kubernetes Indexed Job, says which it used, and refuses what it cannot know.

use std::path::Path;

use predicates::str::contains;

use crate::util::TestStore;

/// Every variable a scheduler or the user could have set around the tests.
const SCHEDULER_VARS: [&str; 7] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP",
    "JOB_COMPLETION_INDEX",
    "KNIGHTS_WORKERS",
];

/// `knights --db DB shards run PLAN ARGS` with exactly the scheduler variables `vars`.
fn run(db: &Path, plan: &Path, args: &[&str], vars: &[(&str, &str)]) -> assert_cmd::assert::Assert {
    let mut cmd = assert_cmd::Command::new(env!("CARGO_BIN_EXE_knights"));
    for var in SCHEDULER_VARS {
        cmd.env_remove(var);
    }
    cmd.envs(vars.iter().copied())
        .arg("--db")
        .arg(db)
        .args(["shards", "run"])
        .arg(plan)
        .args(args)
        .arg("--quiet")
        .assert()
}

fn plan_6x6(test: &TestStore) -> std::path::PathBuf {
    let plan = test.dir.path().join("plan.jsonl");
    test.run(&["shards", "plan", "6", "6", "-o", plan.to_str().unwrap()]);
    plan
}

/// A Slurm array 0-3 runs the plan without --worker or --workers, each task saying where its
/// numbers came from, and the four stores merge into the table; a task resubmitted alone
/// (an array 2-2) refuses its array's size, and runs with KNIGHTS_WORKERS or --workers.
#[test]
fn slurm_array_tasks_take_their_numbers_from_slurm() {
    let test = TestStore::new();
    let plan = plan_6x6(&test);
    let mut stores = Vec::new();
    for task in 0..4 {
        let id = task.to_string();
        let db = test.dir.path().join(format!("w{task}.db"));
        run(
            &db,
            &plan,
            &[],
            &[
                ("SLURM_ARRAY_TASK_ID", &id),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
                ("SLURM_ARRAY_TASK_MIN", "0"),
                ("SLURM_ARRAY_TASK_MAX", "3"),
                ("SLURM_ARRAY_TASK_STEP", "1"),
            ],
        )
        .success()
        .stderr(contains(format!(
            "shards run: worker {task} of 4 (SLURM_ARRAY_TASK_ID={task}, SLURM_ARRAY_TASK_COUNT=4)\nworker {task} of 4: "
        )));
        stores.push(db);
    }
    let mut merge = test.knights();
    merge
        .args(["shards", "merge"])
        .arg(&plan)
        .arg("--from")
        .args(&stores);
    let merged = merge.assert().success();
    let table = String::from_utf8_lossy(&merged.get_output().stdout).into_owned();
    let count = test
        .knights()
        .args(["--no-cache", "count", "6", "6"])
        .output()
        .unwrap();
    assert_eq!(table, String::from_utf8_lossy(&count.stdout));

    // Resubmitted alone: an array 2-2 of one task.
    let alone = [
        ("SLURM_ARRAY_TASK_ID", "2"),
        ("SLURM_ARRAY_TASK_COUNT", "1"),
        ("SLURM_ARRAY_TASK_MIN", "2"),
        ("SLURM_ARRAY_TASK_MAX", "2"),
    ];
    let db = &stores[2];
    let refused = run(db, &plan, &[], &alone).code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert_eq!(
        stderr,
        "error: the Slurm job array is 2-2 (1 task), not 0-(N-1): its size is not the number of workers (a task resubmitted alone?); give --workers N (or set KNIGHTS_WORKERS)\n"
    );
    run(db, &plan, &[], &[&alone[..], &[("KNIGHTS_WORKERS", "4")]].concat())
        .success()
        .stderr(contains(
            "shards run: worker 2 of 4 (SLURM_ARRAY_TASK_ID=2, KNIGHTS_WORKERS=4)\nworker 2 of 4: 1 shard, 0 computed, 1 already stored",
        ));
    run(db, &plan, &["--workers", "4"], &alone)
        .success()
        .stderr(contains("(SLURM_ARRAY_TASK_ID=2, --workers 4)"));
    // --worker wins over the scheduler, and says nothing of it.
    run(db, &plan, &["--worker", "2", "--workers", "4"], &alone)
        .success()
        .stderr(predicates::str::starts_with("worker 2 of 4: "));
}

/// A Kubernetes pod's index with --workers or KNIGHTS_WORKERS; without either, one line and
/// exit 2; no index at all, exit 2; an index past the workers names where both came from.
#[test]
fn kubernetes_pods_and_refusals() {
    let test = TestStore::new();
    let plan = plan_6x6(&test);
    let db = test.dir.path().join("w3.db");
    run(&db, &plan, &["--workers", "4"], &[("JOB_COMPLETION_INDEX", "3")])
        .success()
        .stderr(contains(
            "shards run: worker 3 of 4 (JOB_COMPLETION_INDEX=3, --workers 4)\nworker 3 of 4: 1 shard, 1 computed",
        ));
    run(
        &db,
        &plan,
        &[],
        &[("JOB_COMPLETION_INDEX", "3"), ("KNIGHTS_WORKERS", "4")],
    )
    .success()
    .stderr(contains("(JOB_COMPLETION_INDEX=3, KNIGHTS_WORKERS=4)"));
    for (args, vars, expected) in [
        (
            &[][..],
            &[("JOB_COMPLETION_INDEX", "3")][..],
            "error: JOB_COMPLETION_INDEX gives this worker's number but not the number of workers; give --workers N (or set KNIGHTS_WORKERS)\n",
        ),
        (
            &[],
            &[],
            "error: no worker number: none was given, and no Slurm job array (SLURM_ARRAY_TASK_ID) or Kubernetes Indexed Job (JOB_COMPLETION_INDEX) set one; give --worker I --workers N\n",
        ),
        (
            &["--workers", "4"],
            &[],
            "error: no worker number: none was given, and no Slurm job array (SLURM_ARRAY_TASK_ID) or Kubernetes Indexed Job (JOB_COMPLETION_INDEX) set one; give --worker I --workers N\n",
        ),
        (
            &["--workers", "4"],
            &[("JOB_COMPLETION_INDEX", "4")],
            "error: worker 4 is not one of the 4 workers: they are numbered 0 to 3 (JOB_COMPLETION_INDEX=4, --workers 4)\n",
        ),
        (
            &[],
            &[("JOB_COMPLETION_INDEX", "two"), ("KNIGHTS_WORKERS", "4")],
            "error: JOB_COMPLETION_INDEX is 'two', not a number\n",
        ),
        (
            &[],
            &[("SLURM_ARRAY_TASK_ID", "1"), ("JOB_COMPLETION_INDEX", "1")],
            "error: both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set: which worker this is is unclear; give --worker I --workers N\n",
        ),
    ] {
        let refused = run(&db, &plan, args, vars).code(2);
        let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
        assert_eq!(stderr, expected, "{args:?} {vars:?}");
    }
}
