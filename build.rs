//! Sets `KNIGHTS_VERSION` for `knights --version`: the package's version and, when the crate is
//! built from a git checkout, the commit (`0.1.0 (commit 3ae8f14a1b2c)`). Without git or a
//! `.git` of this crate's own (a crates.io tarball, a copy) it is the version alone, and so it
//! is in test and debug builds (see `main`).

// Cargo reads a build script's directives from its standard output.
#![allow(clippy::print_stdout)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    // Only what names the commit reruns this script: without any rerun-if-changed line, cargo
    // would rerun it (and rebuild the crate) whenever any file of the package changes.
    println!("cargo:rerun-if-changed=build.rs");
    let version = env!("CARGO_PKG_VERSION");
    // Only optimised builds for use (`release`, and `profiling` which inherits it) name the
    // commit: a commit reruns this script and so rebuilds the whole package, which a
    // contributor's test build (profile `debug`) would pay after every commit.
    if std::env::var("PROFILE").as_deref() != Ok("release") {
        println!("cargo:rustc-env=KNIGHTS_VERSION={version}");
        return;
    }
    let full = match commit() {
        Some(commit) => format!("{version} (commit {commit})"),
        None => version.to_string(),
    };
    println!("cargo:rustc-env=KNIGHTS_VERSION={full}");
}

/// The checked-out commit, shortened, after declaring the files that change with it.
fn commit() -> Option<String> {
    // A `.git` right here, not a repository around a copy of the crate (a vendored tarball
    // inside some other project would otherwise get that project's commit).
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?);
    if !manifest.join(".git").exists() {
        return None;
    }
    let git = |args: &[&str]| -> Option<String> {
        let output = Command::new("git")
            .args(args)
            .current_dir(&manifest)
            .output()
            .ok()?;
        let text = String::from_utf8(output.stdout).ok()?;
        (output.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
    };
    // Asked of git rather than assumed under .git/, so that a worktree (whose .git is a file)
    // and packed refs are followed too.
    let head = git(&["rev-parse", "--git-path", "HEAD"])?;
    watch(&manifest.join(head));
    let branch = git(&["rev-parse", "--symbolic-full-name", "HEAD"])?;
    if branch.starts_with("refs/") {
        let loose = manifest.join(git(&["rev-parse", "--git-path", &branch])?);
        if loose.exists() {
            watch(&loose);
        } else {
            // A packed ref: a commit writes it loose, into a directory that exists by then.
            let packed = git(&["rev-parse", "--git-path", "packed-refs"])?;
            watch(&manifest.join(packed));
            if let Some(dir) = loose.parent() {
                watch(dir);
            }
        }
    }
    git(&["rev-parse", "--short=12", "HEAD"])
}

/// Reruns this script when `path` changes; a path that does not exist is left out, since cargo
/// would take it as changed on every build.
fn watch(path: &Path) {
    if path.exists() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
