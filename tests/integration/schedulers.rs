//! Many machines under a scheduler: `shards run` takes its worker number from a Slurm job
//! array or a Kubernetes Indexed Job, says which it used, and refuses what it cannot know; the
//! Kubernetes Job of docs/many-machines.md, read as YAML, has the fields its text relies on.
//! (Its Slurm and GNU parallel blocks run on a real Slurm in `scripts/scheduler-check.sh`.)

use std::path::Path;

use predicates::str::contains;
use yaml_rust2::{Yaml, YamlLoader};

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
    let mut cmd = crate::util::knights();
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

/// The block of docs/many-machines.md marked `<!-- scheduler-check: NAME -->`, as the scheduler
/// check reads it.
fn readme_block(name: &str) -> String {
    let readme = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/many-machines.md"
    ))
    .unwrap();
    let mark = format!("<!-- scheduler-check: {name} -->");
    let after = readme
        .split_once(&mark)
        .unwrap_or_else(|| panic!("docs/many-machines.md has no {mark}"))
        .1;
    let body = after.trim_start().split_once('\n').unwrap().1;
    body[..body.find("\n```").unwrap()].to_string()
}

/// The Kubernetes Job of docs/many-machines.md (not run here: no cluster can be reached) is YAML
/// with the fields its text relies on: an Indexed Job whose `--workers` is its completions,
/// retried by index, whose pod runs `shards run` on the plan of the ConfigMap into a store per
/// index on the results volume.
#[test]
fn the_readme_kubernetes_job() {
    let docs = YamlLoader::load_from_str(&readme_block("kubernetes")).unwrap();
    assert_eq!(docs.len(), 1);
    let job = &docs[0];
    assert_eq!(job["apiVersion"].as_str(), Some("batch/v1"));
    assert_eq!(job["kind"].as_str(), Some("Job"));
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"].as_str(), Some("Indexed"));
    let completions = spec["completions"].as_i64().unwrap();
    assert!(spec["parallelism"].as_i64().unwrap() <= completions);
    assert!(spec["backoffLimitPerIndex"].as_i64().unwrap() >= 1);
    let pod = &spec["template"]["spec"];
    // backoffLimitPerIndex requires it.
    assert_eq!(pod["restartPolicy"].as_str(), Some("Never"));
    let containers = pod["containers"].as_vec().unwrap();
    assert_eq!(containers.len(), 1);
    let container = &containers[0];
    let command: Vec<&str> = container["command"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|part| part.as_str().unwrap())
        .collect();
    assert_eq!(command[..2], ["sh", "-c"]);
    let line: Vec<&str> = command[2].split_whitespace().collect();
    assert_eq!(line[..2], ["exec", "knights"]);
    let after = |flag: &str| line[line.iter().position(|w| *w == flag).unwrap() + 1];
    assert_eq!(after("--workers"), completions.to_string());
    assert!(
        !line.contains(&"--worker"),
        "the index comes from JOB_COMPLETION_INDEX"
    );
    let store = after("--db");
    assert!(
        store.contains("$JOB_COMPLETION_INDEX"),
        "a store per index: {store}"
    );
    let run = line.iter().position(|w| *w == "run").unwrap();
    assert_eq!(line[run - 1], "shards");
    let plan = line[run + 1];

    // The volumes: each mounted one is declared, the plan's is the ConfigMap the text
    // creates, the store's a claim that outlives the pods.
    let declared = pod["volumes"].as_vec().unwrap();
    let volume = |name: &str| -> &Yaml {
        declared
            .iter()
            .find(|v| v["name"].as_str() == Some(name))
            .unwrap_or_else(|| panic!("no volume {name}"))
    };
    let mounts = container["volumeMounts"].as_vec().unwrap();
    assert_eq!(mounts.len(), declared.len());
    let mount_of = |path: &str| -> &str {
        mounts
            .iter()
            .find(|m| path.starts_with(&format!("{}/", m["mountPath"].as_str().unwrap())))
            .unwrap_or_else(|| panic!("{path} is on no mounted volume"))["name"]
            .as_str()
            .unwrap()
    };
    let plan_volume = volume(mount_of(plan));
    assert_eq!(
        plan_volume["configMap"]["name"].as_str(),
        Some("knights-plan")
    );
    assert!(plan.ends_with("/plan.jsonl"), "the ConfigMap's key: {plan}");
    let results = volume(mount_of(store));
    assert!(
        results["persistentVolumeClaim"]["claimName"]
            .as_str()
            .is_some(),
        "{results:?}"
    );
    let readme = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/many-machines.md"
    ))
    .unwrap();
    assert!(readme.contains("kubectl create configmap knights-plan --from-file=plan.jsonl"));
}

/// The Slurm script of docs/many-machines.md: no --worker (the index comes from the array), a
/// store per task.
#[test]
fn the_readme_slurm_script() {
    let script = readme_block("slurm-script");
    assert!(script.starts_with("#!/bin/sh\n"), "{script}");
    assert!(script.contains("#SBATCH --array=0-3\n"), "{script}");
    let exec = script
        .lines()
        .find(|l| l.starts_with("exec knights"))
        .unwrap();
    assert!(exec.contains("--db \"results/w$SLURM_ARRAY_TASK_ID.db\" shards run plan.jsonl"));
    assert!(!exec.contains("--worker"), "{exec}");
}
