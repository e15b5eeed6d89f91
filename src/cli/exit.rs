//! Exit codes and the one line an error is shown as.
//!
//! | code | meaning |
//! | --- | --- |
//! | 0 | done |
//! | 1 | the work failed (a store or file problem, an engine's limit, a tour search that gave up at its time limit, an internal error) |
//! | 2 | bad input: arguments, files or queries that are wrong |
//! | 3 | no tour exists (`tour`) |
//! | 130 | interrupted (Ctrl-C); what was finished is kept |

use std::process::ExitCode;

use knights::echo::echo;
use knights::error::{Failure, Remedy};
use knights::shards::ShardError;
use knights::store::StoreError;

/// An error found by the command line itself, with its exit code.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct CliError {
    /// The process's exit code.
    pub code: u8,
    /// What is wrong, one line.
    pub message: String,
}

impl CliError {
    /// Bad input the command found itself, e.g. an unreadable file (exit 2).
    pub fn bad_input(message: impl Into<String>) -> Self {
        CliError {
            code: 2,
            message: message.into(),
        }
    }

    /// No tour exists (exit 3); printed without the `error:` prefix.
    pub fn no_tour(message: impl Into<String>) -> Self {
        CliError {
            code: NO_TOUR,
            message: message.into(),
        }
    }

    /// An interruption, with what was kept (exit 130).
    pub fn stopped(message: impl Into<String>) -> Self {
        CliError {
            code: INTERRUPTED,
            message: message.into(),
        }
    }
}

const NO_TOUR: u8 = 3;
pub const INTERRUPTED: u8 = 130;

/// Prints `err` as one line on standard error and gives its exit code; where the library's
/// error says what to change, the option that changes it ends the line.
pub fn report(err: &anyhow::Error) -> ExitCode {
    let code = exit_code(err);
    if code == NO_TOUR {
        eprintln!("{err}");
    } else {
        let said = said_once(err);
        match library_error(err).and_then(knights::Error::remedy) {
            Some(remedy) => eprintln!("error: {said}; {}", remedy_words(remedy)),
            None => eprintln!("error: {said}"),
        }
    }
    ExitCode::from(code)
}

/// `err` and its causes in one line, each cause once: an error whose message already quotes
/// its source (`cannot listen on ADDR: Address already in use`) does not say it twice.
fn said_once(err: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        // SQLite's own error under rusqlite's says the same words after its code:
        // `database or disk is full` then `Error code 13: database or disk is full`.
        let words = text
            .strip_prefix("Error code ")
            .and_then(|rest| rest.split_once(": "))
            .filter(|(code, _)| code.bytes().all(|b| b.is_ascii_digit()))
            .map_or(text.as_str(), |(_, words)| words);
        if line.contains(words) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

/// The command line's words for what to change: the options to use.
pub fn remedy_words(remedy: Remedy) -> String {
    match remedy {
        Remedy::MoreMemory => "allow more with --memory".into(),
        Remedy::MoreTime => "allow it longer with --time-limit SECONDS".into(),
        Remedy::OtherQuestions(board) => format!(
            "what it can count on this board: its closed tours (--closed), and tours between two squares (--to ROW2 COL2), which `knights shards plan {} {}` lists as shards for many machines (their merge gives the board's open total and its per-square table)",
            board.rows(),
            board.cols()
        ),
    }
}

/// A query's failure in the command line's words.
pub fn failure_words(failure: &Failure) -> String {
    match failure.remedy {
        Some(remedy) => format!("{}; {}", failure.why, remedy_words(remedy)),
        None => failure.why.clone(),
    }
}

/// The library's error in `err`'s chain, if there is one.
fn library_error(err: &anyhow::Error) -> Option<&knights::Error> {
    err.chain().find_map(|cause| {
        cause.downcast_ref::<knights::Error>().or_else(|| {
            cause
                .downcast_ref::<ShardError>()
                .and_then(ShardError::library)
        })
    })
}

/// 2 for bad input, 3 when no tour exists, 130 for an interrupted run, 1 for anything else.
/// The first error of the chain that says (as ripgrep's `main` walks `err.chain()`): an upper
/// module's error, such as [`ShardError`], may wrap the library's and keep its code.
pub fn exit_code(err: &anyhow::Error) -> u8 {
    for cause in err.chain() {
        if let Some(cli) = cause.downcast_ref::<CliError>() {
            return cli.code;
        }
        if cause.downcast_ref::<knights::board::BoardError>().is_some() {
            return 2;
        }
        if let Some(e) = cause.downcast_ref::<knights::Error>() {
            return library_code(e);
        }
        // A store's error that reached the command without the library's around it (a
        // listing's callback returns the command's own error type).
        if let Some(e) = cause.downcast_ref::<StoreError>() {
            return match e {
                StoreError::Stopped => INTERRUPTED,
                e if e.is_bad_input() => 2,
                _ => 1,
            };
        }
        if let Some(e) = cause.downcast_ref::<ShardError>() {
            return match e {
                ShardError::Library(e) => library_code(e),
                e if e.is_bad_input() => 2,
                _ => 1,
            };
        }
    }
    1
}

/// The code of the library's error.
fn library_code(e: &knights::Error) -> u8 {
    match e {
        knights::Error::Interrupted => INTERRUPTED,
        e if e.is_bad_input() => 2,
        _ => 1,
    }
}

/// Prints a command-line error as one line (help and version go to stdout as usual).
pub fn report_usage_error(err: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = err.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            ExitCode::from(2)
        }
        _ => {
            eprintln!("{}", one_line(&shorten_quotes(err).render().to_string()));
            ExitCode::from(2)
        }
    }
}

/// The error with every piece of the command line it quotes (a value, an argument, a
/// subcommand) shortened as the library's own messages quote input ([`echo`]): a value of
/// 50,000 characters is quoted in at most a line.
fn shorten_quotes(mut err: clap::Error) -> clap::Error {
    use clap::error::ContextValue;
    let quoted: Vec<_> = err
        .context()
        .map(|(kind, value)| (kind, value.clone()))
        .collect();
    for (kind, value) in quoted {
        let short = match value {
            ContextValue::String(text) => ContextValue::String(echo(&text)),
            ContextValue::Strings(texts) => {
                ContextValue::Strings(texts.iter().map(|t| echo(t)).collect())
            }
            _ => continue,
        };
        err.insert(kind, short);
    }
    err
}

/// Folds clap's message (error, details, usage, hint) into one line that names what is wrong
/// and where to read more: the help of the command being used.
fn one_line(rendered: &str) -> String {
    let message: Vec<&str> = rendered
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect();
    let command = command_in_use().map_or("knights".to_string(), |name| format!("knights {name}"));
    format!("{} (see '{command} --help')", message.join(" "))
}

/// The command named on the command line, if any.
fn command_in_use() -> Option<String> {
    use clap::CommandFactory;
    let cli = super::Cli::command();
    let names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
    std::env::args()
        .skip(1)
        .find(|arg| names.contains(&arg.as_str()))
}
