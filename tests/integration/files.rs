//! Output files: `--output` replaces a regular file only once the text is complete, and never
//! replaces what the user did not mean to touch (links, FIFOs, devices, permissions).

use std::fs;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;
use std::process::Command;

use crate::util::TestStore;

/// A store with a few answers, and its export as the command prints it.
fn store_with_answers() -> (TestStore, String) {
    let store = TestStore::new();
    store.knights().args(["count", "3", "4"]).assert().success();
    let out = store.knights().args(["export"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().count() > 2, "{text}");
    (store, text)
}

#[test]
fn export_follows_a_symlink_and_keeps_it() {
    let (store, expected) = store_with_answers();
    let target = store.dir.path().join("real.csv");
    fs::write(&target, "old").unwrap();
    let link = store.dir.path().join("link.csv");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    store
        .knights()
        .args(["export", "--output"])
        .arg(&link)
        .assert()
        .success();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_to_string(&target).unwrap(), expected);
}

#[test]
fn export_keeps_the_permissions_of_the_file_it_replaces() {
    let (store, expected) = store_with_answers();
    let path = store.dir.path().join("private.csv");
    fs::write(&path, "old").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    store
        .knights()
        .args(["export", "--output"])
        .arg(&path)
        .assert()
        .success();
    assert_eq!(fs::read_to_string(&path).unwrap(), expected);
    let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let leftovers: Vec<_> = fs::read_dir(store.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".partial"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn export_writes_through_a_fifo_and_a_device_without_replacing_them() {
    let (store, expected) = store_with_answers();
    let fifo = store.dir.path().join("pipe");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
    };
    store
        .knights()
        .args(["export", "--output"])
        .arg(&fifo)
        .assert()
        .success();
    assert_eq!(reader.join().unwrap(), expected);
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());

    // A null device of our own (making one needs root; elsewhere the FIFO above stands for it).
    let device = store.dir.path().join("null");
    let made = Command::new("mknod")
        .args(["-m", "666"])
        .arg(&device)
        .args(["c", "1", "3"])
        .status()
        .is_ok_and(|s| s.success());
    if made {
        store
            .knights()
            .args(["export", "--output"])
            .arg(&device)
            .assert()
            .success();
        assert!(fs::metadata(&device).unwrap().file_type().is_char_device());
    }
}

#[test]
fn two_exports_to_one_path_both_succeed_with_whole_contents() {
    let (store, expected) = store_with_answers();
    let path = store.dir.path().join("both.csv");
    let children: Vec<_> = (0..4)
        .map(|_| {
            crate::util::process()
                .arg("--db")
                .arg(store.path())
                .args(["export", "--output"])
                .arg(&path)
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    assert_eq!(fs::read_to_string(&path).unwrap(), expected);
}

#[test]
fn output_dash_is_standard_output() {
    let (store, expected) = store_with_answers();
    let out = store
        .knights()
        .args(["export", "--output", "-"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
    assert!(!Path::new("-").exists());
    let tour = store
        .knights()
        .args(["tour", "5", "5", "0", "0", "-o", "-"])
        .output()
        .unwrap();
    assert!(tour.status.success());
    assert_eq!(String::from_utf8(tour.stdout).unwrap().lines().count(), 5);
}

/// A path that reaches an open file through /proc (`/dev/stdout`, `/dev/fd/N`,
/// `/proc/self/fd/N`) is written through, in place: `-o /dev/stdout >> log` appends to the
/// log instead of replacing it, and a pipe gets the text with no hidden `.partial` file.
#[test]
fn output_to_an_open_file_through_proc_is_written_through() {
    let store = TestStore::new();
    let dir = store.dir.path();
    let log = dir.join("log");
    fs::write(&log, "earlier\n").unwrap();
    let status = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" --db \"$1\" tour 5 5 0 0 --output /dev/stdout >> \"$2\"")
        .arg(env!("CARGO_BIN_EXE_knights"))
        .env("KNIGHTS_NO_SHIPPED", "1")
        .arg(store.path())
        .arg(&log)
        .status()
        .unwrap();
    assert!(status.success());
    let text = fs::read_to_string(&log).unwrap();
    assert!(text.starts_with("earlier\n 1 16 21 10  7\n"), "{text}");
    for path in ["/dev/fd/1", "/proc/self/fd/1", "/dev/stdout"] {
        let out = store
            .knights()
            .args(["tour", "5", "5", "0", "0", "-o", path])
            .output()
            .unwrap();
        assert!(out.status.success(), "{path}: {out:?}");
        assert!(
            out.stdout.starts_with(b" 1 16 21 10  7\n"),
            "{path}: {out:?}"
        );
    }
    // A descriptor that is not open: the path given is named, not a hidden file.
    let out = store
        .knights()
        .args(["tour", "5", "5", "0", "0", "-o", "/dev/fd/97"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: cannot write /dev/fd/97: "),
        "{stderr}"
    );
    assert!(!stderr.contains(".partial"), "{stderr}");
}

/// The store's bytes and the answers it lists, to see that a refused output left it whole.
fn store_state(store: &TestStore) -> (Vec<u8>, i64) {
    (fs::read(store.path()).unwrap(), store.answers())
}

/// `knights --db STORE ARGS -o OUTPUT` is refused in one line (exit 2), and the store is left
/// as it was.
fn refused_over(store: &TestStore, args: &[&str], output: &Path, why: &str) {
    let before = store_state(store);
    let out = store
        .knights()
        .args(args)
        .arg("--output")
        .arg(output)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("will not write") && stderr.contains(why),
        "{stderr}"
    );
    assert_eq!(store_state(store), before, "{args:?}");
    store.run(&["verify"]);
}

#[test]
fn no_command_writes_its_output_over_the_store() {
    let (store, _) = store_with_answers();
    let db = store.path();
    for args in [
        &["export"][..],
        &["export", "--format", "json"],
        &["tour", "5", "5", "0", "0"],
        &["shards", "plan", "5", "5"],
        &["puzzle", "--make", "5", "5", "--seed", "1"],
    ] {
        refused_over(&store, args, &db, "the same file as the answer store");
    }
}

#[test]
fn an_output_that_reaches_the_store_another_way_is_refused() {
    let (store, _) = store_with_answers();
    let hard = store.dir.path().join("hard-link.csv");
    fs::hard_link(store.path(), &hard).unwrap();
    refused_over(
        &store,
        &["export"],
        &hard,
        "the same file as the answer store",
    );
    let soft = store.dir.path().join("soft-link.csv");
    std::os::unix::fs::symlink(store.path(), &soft).unwrap();
    refused_over(
        &store,
        &["export"],
        &soft,
        "the same file as the answer store",
    );
    // Another store than the one in use is a store all the same.
    let other = TestStore::new();
    other.run(&["count", "3", "4", "0", "0"]);
    let before = fs::read(other.path()).unwrap();
    refused_over(&store, &["export"], &other.path(), "a knights answer store");
    assert_eq!(fs::read(other.path()).unwrap(), before);
}

#[test]
fn an_output_through_a_loop_of_links_is_refused_and_the_links_stay() {
    let (store, _) = store_with_answers();
    let (a, b) = (store.dir.path().join("a"), store.dir.path().join("b"));
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    let out = store
        .knights()
        .args(["export", "--output"])
        .arg(&a)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("loop"), "{stderr}");
    for link in [&a, &b] {
        assert!(fs::symlink_metadata(link).unwrap().file_type().is_symlink());
    }
}
