//! `--checkpoint`: a pass stopped by SIGTERM saves at its square's end and the same command
//! goes on from there to the same answer; bad settings are refused in one line before any work.

use predicates::prelude::*;
use predicates::str::contains;

#[cfg(unix)]
use crate::util::output_within;
use crate::util::{knights, process};

/// SIGTERM (a scheduler's time limit) stops a pass that saves after every square at its
/// square's end, saved (exit 130, and where it is saved); the same command then goes on from
/// that square, says so, prints what a run without stops prints, and leaves no checkpoint.
#[cfg(unix)]
#[test]
fn a_pass_stopped_by_sigterm_goes_on_where_it_stopped() {
    use std::process::Stdio;

    let dir = tempfile::tempdir().unwrap();
    let saves = dir.path().join("ck");
    let args = [
        "--no-cache",
        "count",
        "6",
        "7",
        "--total",
        "--engine",
        "frontier",
    ];
    let with_saves = |cmd: &mut std::process::Command| {
        cmd.args(args)
            .arg("--checkpoint")
            .arg(&saves)
            .args(["--checkpoint-every", "0"]);
    };
    let mut cmd = process();
    with_saves(&mut cmd);
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first save is made after the first square: then the signal.
    let clock = std::time::Instant::now();
    while !std::fs::read_dir(&saves).is_ok_and(|mut d| {
        d.any(|f| f.is_ok_and(|f| f.path().extension().is_some_and(|e| e == "pass")))
    }) {
        assert!(clock.elapsed().as_secs() < 60, "no checkpoint within 60 s");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let stopped = output_within(
        child,
        std::time::Duration::from_secs(60),
        "the stopped run did not end",
    );
    let stderr = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("the pass is saved at square"), "{stderr}");
    assert!(stopped.stdout.is_empty());

    let mut cmd = process();
    with_saves(&mut cmd);
    let resumed = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{stderr}");
    assert!(
        stderr.contains("went on from the checkpoint at square"),
        "{stderr}"
    );
    let once = knights().args(args).output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&resumed.stdout),
        String::from_utf8_lossy(&once.stdout)
    );
    assert!(String::from_utf8_lossy(&once.stdout).contains("779938932"));
    assert_eq!(std::fs::read_dir(&saves).unwrap().count(), 0);
}

/// `--stats` counts the saves and their bytes.
#[test]
fn stats_count_the_checkpoints_saved() {
    let dir = tempfile::tempdir().unwrap();
    knights()
        .args([
            "--no-cache",
            "count",
            "6",
            "6",
            "--closed",
            "--stats",
            "--engine",
            "frontier",
        ])
        .arg("--checkpoint")
        .arg(dir.path().join("ck"))
        .args(["--checkpoint-every", "0"])
        .assert()
        .success()
        .stdout(contains("9862"))
        .stderr(contains("checkpoints saved").and(contains("MiB written")));
}

/// A checkpoint directory that is a file, or under one, and minutes that are no number, are
/// refused in one line (exit 2); minutes without a directory too.
#[test]
fn bad_checkpoint_settings_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "keep").unwrap();
    for (path, said) in [
        (file.clone(), "is not a directory"),
        (file.join("under"), "cannot be made"),
    ] {
        let output = knights()
            .args(["--no-cache", "count", "5", "5", "--closed"])
            .arg("--checkpoint")
            .arg(&path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(said), "{stderr}");
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep");
    for minutes in ["x", "-1", "inf", "NaN"] {
        let output = knights()
            .args(["count", "5", "5", "--closed", "--checkpoint"])
            .arg(dir.path())
            .args(["--checkpoint-every", minutes])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{minutes}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{minutes}: {stderr}");
    }
    knights()
        .args(["count", "5", "5", "--closed", "--checkpoint-every", "5"])
        .assert()
        .code(2)
        .stderr(contains("--checkpoint"));
}
