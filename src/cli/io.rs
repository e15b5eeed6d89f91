//! Reading input, writing output files and standard output, progress bars.

use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

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
            "{spinner} {elapsed_precise} [{wide_bar}] {pos}/{len} answers computed, ETA {eta}{msg}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

/// Where a frontier pass stands, as a progress bar's message.
fn pass_message(pass: knights::cancel::PassProgress) -> String {
    if pass.recording {
        format!(
            "; frontier pass at square {}/{}, recording the period: {} states so far",
            pass.square, pass.squares, pass.states
        )
    } else {
        format!(
            "; frontier pass at square {}/{}, layer of {} states",
            pass.square, pass.squares, pass.states
        )
    }
}

/// Runs `work` while `bar` (when shown) also says where a frontier pass reporting on
/// `cancel` stands: a long pass finishes no answer for minutes.
pub fn with_pass_progress<R>(
    bar: &ProgressBar,
    cancel: &knights::CancelFlag,
    work: impl FnOnce() -> R,
) -> R {
    if bar.is_hidden() {
        return work();
    }
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if let Some(pass) = cancel.pass() {
                    bar.set_message(pass_message(pass));
                }
                std::thread::sleep(std::time::Duration::from_millis(200));
            }
        });
        let result = work();
        done.store(true, Ordering::Relaxed);
        result
    })
}

/// Progress of a count on standard error, for work that takes more than a moment: the tasks
/// done and where the frontier pass stands (its square and its layer's states). Shown on a
/// terminal only, from one second on; it stops when dropped.
pub struct WorkBar {
    bar: ProgressBar,
    updater: Option<std::thread::JoinHandle<()>>,
}

impl WorkBar {
    /// A bar that follows the work reporting on `cancel`; hidden when `quiet` or not a terminal.
    pub fn new(quiet: bool, cancel: &knights::CancelFlag) -> Self {
        let bar = ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::hidden());
        if quiet || !io::stderr().is_terminal() {
            return WorkBar { bar, updater: None };
        }
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed_precise} {pos}/{len} tasks done{msg}")
                .expect("a valid template"),
        );
        let (shown, cancel) = (bar.clone(), cancel.clone());
        let updater = std::thread::spawn(move || {
            let start = std::time::Instant::now();
            let mut visible = false;
            while !shown.is_finished() {
                if !visible && start.elapsed() >= std::time::Duration::from_secs(1) {
                    shown.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                    visible = true;
                }
                if let Some(pass) = cancel.pass() {
                    shown.set_message(pass_message(pass));
                }
                shown.tick();
                std::thread::sleep(std::time::Duration::from_millis(200));
            }
        });
        WorkBar {
            bar,
            updater: Some(updater),
        }
    }

    /// Follows the library's progress events.
    pub fn report(&self, event: Progress<'_>) {
        report_progress(&self.bar, event);
    }
}

impl Drop for WorkBar {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
        if let Some(updater) = self.updater.take() {
            let _ = updater.join();
        }
    }
}

/// Progress of work in steps (`done` of `all`) on standard error, for work that takes more
/// than a moment: shown on a terminal only, from one second on (a thread of its own ticks it,
/// so that a long step still shows the time going); it stops when dropped.
pub struct StepsBar {
    bar: ProgressBar,
    updater: Option<std::thread::JoinHandle<()>>,
}

impl StepsBar {
    /// A bar counting `what` (e.g. "searches done"), hidden when standard error is not a
    /// terminal.
    pub fn new(what: &str) -> Self {
        let bar = ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::hidden());
        if !io::stderr().is_terminal() {
            return StepsBar { bar, updater: None };
        }
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "{{spinner}} {{elapsed_precise}} {{pos}}/{{len}} {what}"
            ))
            .expect("a valid template"),
        );
        let shown = bar.clone();
        let updater = std::thread::spawn(move || {
            let start = std::time::Instant::now();
            let mut visible = false;
            while !shown.is_finished() {
                if !visible && start.elapsed() >= std::time::Duration::from_secs(1) {
                    shown.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                    visible = true;
                }
                shown.tick();
                std::thread::sleep(std::time::Duration::from_millis(200));
            }
        });
        StepsBar {
            bar,
            updater: Some(updater),
        }
    }

    /// `done` of `all` steps are done.
    pub fn set(&self, done: usize, all: usize) {
        self.bar.set_length(all as u64);
        self.bar.set_position(done as u64);
    }
}

impl Drop for StepsBar {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
        if let Some(updater) = self.updater.take() {
            let _ = updater.join();
        }
    }
}

/// Moves `bar` along with the library's progress events.
pub fn report_progress(bar: &ProgressBar, event: Progress<'_>) {
    match event {
        Progress::Planned { questions, .. } => bar.set_length(questions as u64),
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

/// Opens a file, or standard input for `-`, to be read as a stream; returns a name for
/// messages and the reader. Nothing is read into memory here but the first buffer, so that a
/// file that cannot be read at all (a directory) is reported as such; the library's readers
/// bound what they keep.
pub fn open_input(path: &Path) -> Result<(String, Box<dyn BufRead>)> {
    if path.as_os_str() == "-" {
        let mut stdin = WaitedOn(io::stdin().lock());
        first_buffer(&mut stdin).context("cannot read standard input")?;
        return Ok(("standard input".to_string(), Box::new(stdin)));
    }
    let name = escaped(path);
    let cannot_read = |e: io::Error| CliError::bad_input(format!("cannot read {name}: {e}"));
    // Opening a FIFO waits for its writer, and reading it for its lines: both are waits on
    // input, which a signal ends at once, as on standard input.
    let opened = waited_on(|| std::fs::File::open(path));
    let mut file = WaitedOn(BufReader::new(opened.map_err(cannot_read)?));
    first_buffer(&mut file).map_err(cannot_read)?;
    Ok((name, Box::new(file)))
}

/// Set by the signal handler once the work is asked to stop: a long read (an import of
/// millions of records) then ends at its next buffer, as the engines do at their next check.
static STOP_READING: AtomicBool = AtomicBool::new(false);

/// Asks every input opened by [`open_input`] to fail at its next read.
pub fn stop_reading() {
    STOP_READING.store(true, Ordering::SeqCst);
}

/// Whether a signal has asked the inputs to stop.
pub fn reading_stopped() -> bool {
    STOP_READING.load(Ordering::SeqCst)
}

/// The error a read gives once [`stop_reading`] was called.
fn stopped() -> io::Error {
    io::Error::other("interrupted")
}

/// True while the process waits for its input (a terminal, a pipe, a FIFO) or for a reader of
/// its output (a full pipe): nothing is being computed, what was finished is kept or written,
/// so the first Ctrl-C or SIGTERM ends it at once rather than asking work to stop.
static WAITING_ON_INPUT: AtomicBool = AtomicBool::new(false);

/// Whether the process is waiting for standard input now.
pub fn waiting_on_input() -> bool {
    WAITING_ON_INPUT.load(Ordering::SeqCst)
}

/// Runs `wait` (an open, a read, a write that may block) marked as a wait on input or output.
fn waited_on<T>(wait: impl FnOnce() -> T) -> T {
    WAITING_ON_INPUT.store(true, Ordering::SeqCst);
    let result = wait();
    WAITING_ON_INPUT.store(false, Ordering::SeqCst);
    result
}

/// An input or an output, marked as waited on while a read or a write blocks.
struct WaitedOn<R>(R);

impl<R> WaitedOn<R> {
    fn waiting<T>(&mut self, read: impl FnOnce(&mut R) -> T) -> T {
        waited_on(|| read(&mut self.0))
    }
}

/// A pipe or a FIFO that nobody reads blocks its writer: a wait like one on input, which a
/// signal ends at once (what was written stays written).
impl<W: Write> Write for WaitedOn<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.waiting(|inner| inner.write(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.waiting(|inner| inner.flush())
    }
}

impl<R: io::Read> io::Read for WaitedOn<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if STOP_READING.load(Ordering::SeqCst) {
            return Err(stopped());
        }
        self.waiting(|inner| inner.read(buf))
    }
}

impl<R: BufRead> BufRead for WaitedOn<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if STOP_READING.load(Ordering::SeqCst) {
            return Err(stopped());
        }
        waited_on(|| self.0.fill_buf())
    }

    fn consume(&mut self, amount: usize) {
        self.0.consume(amount);
    }
}

/// Fills the reader's buffer once (retrying an interrupted read).
fn first_buffer(reader: &mut impl BufRead) -> io::Result<()> {
    loop {
        match reader.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            other => return other.map(|_| ()),
        }
    }
}

/// Writes `text` to `path`, or to standard output for `-`.
///
/// A regular file (or a new one) is replaced only once the text is complete: it is written to a
/// temporary file of its own in the same directory, given the old file's permissions and owner,
/// then renamed over it, so that a failure never leaves a partial file and two writers never share
/// a temporary name. A symbolic link is followed and its target replaced the same way. Anything
/// else that exists at the path (a FIFO, a device, a socket) is written through, never replaced,
/// and so is a file that a process holds open, reached through `/proc` (`/dev/stdout`,
/// `/dev/fd/N`): appended to, as the shell's `>>` would.
pub fn write_file(path: &Path, text: &str) -> Result<()> {
    write_output(path, |out| Ok(out.write_all(text.as_bytes())?))
}

/// Writes to `path` (or to standard output for `-`) what `write` writes, as it writes it: as
/// [`write_file`], without holding the text (a listing of millions of answers). On an error of
/// `write` a regular file is left as it was; standard output has what was written, and a
/// closed pipe (`| head`) ends the writing without an error.
pub fn write_output(path: &Path, write: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
    if path.as_os_str() == "-" {
        let mut out = io::BufWriter::with_capacity(1 << 16, WaitedOn(io::stdout().lock()));
        let written = write(&mut out).and_then(|()| Ok(out.flush()?));
        return match written {
            Err(e) if is_broken_pipe(&e) => Ok(()),
            Err(e) if e.downcast_ref::<io::Error>().is_some() => {
                Err(e.context("cannot write to standard output"))
            }
            other => other,
        };
    }
    let shown = escaped(path);
    check_output(path)?;
    // A file already open in this or another process, reached through /proc (/dev/stdout,
    // /dev/fd/N, a shell's `>(cmd)`): written through, in place and after what it holds,
    // never replaced (`-o /dev/stdout >> log` must not lose the log).
    if reaches_an_open_file(path) {
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("cannot write {shown}"))?;
        let mut out = io::BufWriter::with_capacity(1 << 16, WaitedOn(file));
        return write(&mut out)
            .and_then(|()| Ok(out.flush()?))
            .map_err(|e| on_writing(e, &shown));
    }
    // Follow links to the file they name; a dangling link gets its target created.
    let target = link_target(path)?;
    let existing = std::fs::metadata(&target).ok();
    if let Some(meta) = &existing
        && !meta.is_file()
    {
        if meta.is_dir() {
            return Err(
                CliError::bad_input(format!("cannot write {shown}: it is a directory")).into(),
            );
        }
        // A FIFO's open waits for its reader: a wait that a signal ends at once.
        let file = waited_on(|| std::fs::OpenOptions::new().write(true).open(&target))
            .with_context(|| format!("cannot write {shown}"))?;
        let mut out = io::BufWriter::with_capacity(1 << 16, WaitedOn(file));
        return write(&mut out)
            .and_then(|()| Ok(out.flush()?))
            .map_err(|e| on_writing(e, &shown));
    }
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .map_or("output".into(), |n| n.to_string_lossy());
    let mut temporary = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".partial")
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)
        .with_context(|| {
            format!(
                "cannot write {shown}: cannot create a file in {}",
                dir.display()
            )
        })?;
    if let Some(meta) = &existing {
        let file = temporary.as_file();
        file.set_permissions(meta.permissions())
            .with_context(|| format!("cannot write {shown}"))?;
        // Keeping the owner needs the right to give files away; without it the file is ours.
        let _ = std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid()));
    }
    {
        let mut out = io::BufWriter::with_capacity(1 << 16, temporary.as_file_mut());
        write(&mut out)
            .and_then(|()| Ok(out.flush()?))
            .map_err(|e| on_writing(e, &shown))?;
    }
    temporary
        .as_file()
        .sync_all()
        .with_context(|| format!("cannot write {shown}"))?;
    temporary
        .persist(&target)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot write {shown}"))?;
    Ok(())
}

/// The answer store of this run, set once the arguments are read: no output may replace it.
static STORE_PATH: OnceLock<PathBuf> = OnceLock::new();

/// Records where this run's answer store is, for [`write_file`] to refuse it as an output.
pub fn guard_store(path: PathBuf) {
    let _ = STORE_PATH.set(path);
}

/// Refuses an output path that is the answer store, a file beside it or any SQLite database
/// (exit 2), before anything is written: the check every `--output` goes through.
pub fn check_output(path: &Path) -> Result<()> {
    let shown = escaped(path);
    knights::output::target::check_output(path, &shown, STORE_PATH.get().map(PathBuf::as_path))
        .map_err(|e| CliError::bad_input(e.to_string()).into())
}

/// The path as it is shown in messages: control characters (a newline, an escape that a
/// terminal would obey) written as escapes, so that a file's name cannot forge or hide a line.
pub fn escaped(path: &Path) -> String {
    let text = path.to_string_lossy();
    if !text.chars().any(char::is_control) {
        return text.into_owned();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The file `path` names once its symbolic links are followed: the file itself, or for a
/// dangling link the path its last link names (to be created). A chain of links that loops is
/// refused, never replaced by a file.
fn link_target(path: &Path) -> Result<PathBuf> {
    match std::fs::canonicalize(path) {
        Ok(target) => return Ok(target),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(CliError::bad_input(format!(
                "cannot write {}: its symbolic links go round in a loop",
                escaped(path)
            ))
            .into());
        }
        Err(_) => {}
    }
    let mut current = path.to_path_buf();
    // As many links as the kernel follows (ELOOP beyond).
    for _ in 0..40 {
        match std::fs::read_link(&current) {
            Ok(link) => current = current.parent().unwrap_or(Path::new(".")).join(link),
            Err(_) => return Ok(current),
        }
    }
    Err(CliError::bad_input(format!(
        "cannot write {}: its symbolic links go round in a loop",
        escaped(path)
    ))
    .into())
}

/// True when `path`, followed link by link, names an entry of a process's open files
/// (`/proc/PID/fd/N`, which `/dev/stdout` and `/dev/fd/N` lead to): a pipe, a terminal or a
/// file that a process holds open, not a file to replace by name.
fn reaches_an_open_file(path: &Path) -> bool {
    let mut current = path.to_path_buf();
    // As many links as the kernel follows (ELOOP beyond).
    for _ in 0..40 {
        let Some(name) = current.file_name().map(ToOwned::to_owned) else {
            return false;
        };
        let dir = match current.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let Ok(dir) = std::fs::canonicalize(dir) else {
            return false;
        };
        if is_open_files_dir(&dir) {
            return true;
        }
        match std::fs::read_link(dir.join(&name)) {
            Ok(link) => current = dir.join(link),
            Err(_) => return false,
        }
    }
    false
}

/// `/proc/PID/fd` or `/proc/PID/task/TID/fd`.
fn is_open_files_dir(dir: &Path) -> bool {
    let parts: Vec<&str> = dir
        .components()
        .skip(1)
        .map(|part| part.as_os_str().to_str().unwrap_or(""))
        .collect();
    let number = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    match parts[..] {
        ["proc", pid, "fd"] => number(pid),
        ["proc", pid, "task", tid, "fd"] => number(pid) && number(tid),
        _ => false,
    }
}

/// An error met while writing `shown`: a failed write names the file; anything else (the
/// listing's own error, an interruption) is passed on as it is.
fn on_writing(e: anyhow::Error, shown: &str) -> anyhow::Error {
    if e.downcast_ref::<io::Error>().is_some() {
        e.context(format!("cannot write {shown}"))
    } else {
        e
    }
}

/// Whether `e` is, or was caused by, a write to a closed pipe.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Writes to standard output; a closed pipe (e.g. `| head`) is not an error.
pub fn print(text: &str) -> Result<()> {
    let mut out = WaitedOn(io::stdout().lock());
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to standard output"),
    }
}
