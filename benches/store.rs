//! End-to-end speed of the answer store, through the `knights` binary (process start included):
//!
//! * a cached answer (target: under 5 ms);
//! * a batch file of 100,000 queries over boards already in the store (target: under 1 s);
//! * a judge-format file of 100,000 random queries on boards of at most 25 squares, with an
//!   empty store (target: under 5 s on 2 cores).
//!
//! Run with `cargo bench --bench store`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

const KNIGHTS: &str = env!("CARGO_BIN_EXE_knights");

fn knights(db: &Path, args: &[&str]) {
    let output = Command::new(KNIGHTS)
        .arg("--db")
        .arg(db)
        .args(args)
        .output()
        .expect("knights runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// 100,000 queries on random boards of at most 25 squares (a fixed pseudo-random sequence).
fn random_judge_file(dir: &Path) -> PathBuf {
    let boards: Vec<(u32, u32)> = (1..=25u32)
        .flat_map(|r| (1..=25u32).map(move |c| (r, c)))
        .filter(|(r, c)| r * c <= 25)
        .collect();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |n: u32| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as u32
    };
    let mut text = String::from("100000\n");
    for _ in 0..100_000 {
        let (r, c) = boards[next(boards.len() as u32) as usize];
        text.push_str(&format!("{r} {c} {} {}\n", next(r), next(c)));
    }
    let path = dir.join("judge-100k.txt");
    std::fs::write(&path, text).unwrap();
    path
}

fn store(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("answers.db");
    let queries = random_judge_file(dir.path());
    let queries = queries.to_str().unwrap();
    knights(&db, &["count", "6", "6", "0", "0"]);
    knights(&db, &["batch", queries, "--quiet"]);

    let mut group = c.benchmark_group("store");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("cached answer, process included (count 6 6 0 0)", |b| {
        b.iter(|| knights(&db, &["count", "6", "6", "0", "0"]))
    });
    group.bench_function("batch of 100k queries, all stored", |b| {
        b.iter(|| knights(&db, &["batch", queries, "--quiet"]))
    });
    group.bench_function(
        "judge file of 100k random queries (<= 25 squares), empty store",
        |b| {
            b.iter_batched(
                || {
                    let fresh = tempfile::tempdir().unwrap();
                    let path = fresh.path().join("answers.db");
                    (fresh, path)
                },
                |(_fresh, path)| knights(&path, &["solve", queries]),
                BatchSize::PerIteration,
            )
        },
    );
    group.finish();
}

criterion_group!(benches, store);
criterion_main!(benches);
