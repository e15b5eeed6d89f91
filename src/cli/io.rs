//! Reading input, writing output files and standard output, progress bars.

use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use knights::resolve::Progress;

use super::exit::CliError;

/// A progress bar on standard error, hidden when it is not a terminal or when `quiet`.
pub fn progress_bar(quiet: bool) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {elapsed_precise} [{wide_bar}] {pos}/{len} answers computed, ETA {eta}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

/// Moves `bar` along with the library's progress events.
pub fn report_progress(bar: &ProgressBar, event: Progress<'_>) {
    match event {
        Progress::Planned { questions } => bar.set_length(questions as u64),
        Progress::Computed(_) => bar.inc(1),
    }
}

/// Names the file an error belongs to (standard input needs no name).
pub fn in_file(name: &str, e: impl Into<knights::Error>) -> anyhow::Error {
    let e: knights::Error = e.into();
    if name == "standard input" {
        e.into()
    } else {
        anyhow::Error::new(e).context(name.to_string())
    }
}

/// Reads a file, or standard input for `-`; returns a name for messages and the text.
pub fn read_input(path: &Path) -> Result<(String, String)> {
    let mut bytes = Vec::new();
    let name = if path.as_os_str() == "-" {
        io::stdin()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
        "standard input".to_string()
    } else {
        let name = path.display().to_string();
        bytes = std::fs::read(path)
            .map_err(|e| CliError::bad_input(format!("cannot read {name}: {e}")))?;
        name
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        CliError::bad_input(format!(
            "{name} is not text: invalid UTF-8 at byte {}",
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok((name, text))
}

/// Writes `text` to `path` through a temporary file, so that a failure never leaves a partial
/// file in place of a good one.
pub fn write_file(path: &Path, text: &str) -> Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let temporary = dir.join(format!(
        ".{}.partial",
        path.file_name()
            .map_or("export".into(), |n| n.to_string_lossy())
    ));
    std::fs::write(&temporary, text)
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    std::fs::rename(&temporary, path).with_context(|| format!("cannot write {}", path.display()))
}

/// Writes to standard output; a closed pipe (e.g. `| head`) is not an error.
pub fn print(text: &str) -> Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to standard output"),
    }
}
