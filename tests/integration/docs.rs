//! Every `console` example of README.md and docs/*.md is run and its output compared with the
//! text under it (trycmd, by clap's authors), so that the documentation cannot drift from the
//! binary. A file's examples run in order, on an answer store of their own that starts empty
//! (but for the results shipped with knights) and a fixed memory budget, from the repository's
//! root; `[..]` and `...` in the text stand for what varies (times, paths, the commit).

use std::path::{Path, PathBuf};

/// README.md and every docs/*.md, in name order.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    files.sort();
    files.insert(0, root.join("README.md"));
    files
}

/// trycmd takes the text under a command, up to the next command or the end of the block, as
/// its whole output less the last line break: `knights` is run through this script, which
/// prints what `knights` prints (standard error with standard output, in order) without its
/// final line breaks, and exits as it did, so that a document need not end every output with a
/// blank line.
const UNTERMINATED: &str = r#"#!/bin/sh
out=$("$KNIGHTS_UNDER_TEST" "$@" 2>&1)
status=$?
printf '%s' "$out"
exit $status
"#;

/// The script, written once for the test process. A file just written cannot be run while a
/// process forked meanwhile (any test's) still holds it open for writing (`ETXTBSY`, "Text file
/// busy"): it is run once here, until it runs, before any document uses it.
fn script() -> &'static Path {
    use std::os::unix::fs::PermissionsExt;
    use std::sync::OnceLock;

    static SCRIPT: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, script) = SCRIPT.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("knights");
        std::fs::write(&script, UNTERMINATED).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        for _ in 0..100 {
            match std::process::Command::new(&script)
                .env("KNIGHTS_UNDER_TEST", "true")
                .status()
            {
                Err(e) if e.raw_os_error() == Some(26) => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                ran => {
                    assert!(ran.unwrap().success());
                    break;
                }
            }
        }
        (dir, script)
    });
    script
}

/// Runs one document's examples on a store of their own.
fn run_examples(document: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let script = script();
    trycmd::TestCases::new()
        .register_bin("knights", script)
        .env("KNIGHTS_UNDER_TEST", env!("CARGO_BIN_EXE_knights"))
        .env(
            "KNIGHTS_DB",
            dir.path().join("answers.db").display().to_string(),
        )
        .env("KNIGHTS_MEMORY", "4GiB")
        .env(
            "XDG_DATA_HOME",
            dir.path().join("xdg").display().to_string(),
        )
        .case(document)
        .run();
}

#[test]
fn console_examples_in_the_docs_print_what_they_show() {
    let documents = documents();
    assert!(documents.len() >= 2, "{documents:?}");
    // One thread a document: each has its own store, so they may run side by side.
    std::thread::scope(|scope| {
        let runs: Vec<_> = documents
            .iter()
            .map(|document| (document, scope.spawn(|| run_examples(document))))
            .collect();
        let failed: Vec<String> = runs
            .into_iter()
            .filter_map(|(document, run)| run.join().err().map(|_| document.display().to_string()))
            .collect();
        assert!(failed.is_empty(), "examples that differ: {failed:?}");
    });
}

/// The examples are examples: a document without a single `console` block here would pass
/// the test above by having nothing to compare.
#[test]
fn the_readme_has_console_examples() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(readme.matches("```console").count() >= 3);
}
