//! The `knights` command: parses arguments, calls the library, prints.
//!
//! Each command lives in its own file under `cli/commands/`; this file only parses, installs the
//! Ctrl-C handler, dispatches and turns an error into one line and an exit code.
// Printing the answers and the one line of an error is this binary's job (here and in cli/).
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod cli;

use std::process::ExitCode;

use clap::Parser;
use knights::CancelFlag;

fn main() -> ExitCode {
    knights::memory::return_freed_memory();
    // An empty KNIGHTS_DB is most likely a variable meant to be set (`KNIGHTS_DB=$DIR/a.db`
    // with DIR unset): using the home store instead would fill the wrong file, so it is
    // refused. An empty KNIGHTS_MEMORY means "not set", as for most tools.
    if std::env::var_os("KNIGHTS_DB").is_some_and(|value| value.is_empty()) {
        eprintln!(
            "error: KNIGHTS_DB is set but empty: give the store's path in it (or --db PATH), or unset it for the default store"
        );
        return ExitCode::from(2);
    }
    if let Some(value) = std::env::var_os("KNIGHTS_MEMORY") {
        let unused = match cli::values::memory_from_environment(&value) {
            _ if value.is_empty() => true,
            Ok(overridden) => overridden,
            Err(e) => {
                // clap would name `--memory`, which the user did not give.
                eprintln!("error: KNIGHTS_MEMORY: {e}");
                return ExitCode::from(2);
            }
        };
        if unused {
            // SAFETY: no other thread exists yet to read the environment.
            unsafe { std::env::remove_var("KNIGHTS_MEMORY") };
        }
    }
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(err) => return cli::exit::report_usage_error(err),
    };
    let cancel = CancelFlag::new();
    let handler_flag = cancel.clone();
    // The first Ctrl-C asks the work to stop cleanly (finished answers are saved, and shown);
    // a second one ends the process at once, and so does the first while it waits for its
    // input (a read of a terminal does not end on the signal, and there is nothing to save
    // yet). SIGTERM and SIGHUP are taken the same way: they are how a scheduler's time limit,
    // a pod's deletion or a closed terminal end a run.
    let _ = ctrlc::set_handler(move || {
        if cli::io::waiting_on_input() {
            eprintln!("error: interrupted");
            std::process::exit(130);
        }
        if handler_flag.is_cancelled() {
            std::process::exit(130);
        }
        // A pass that saves its layers saves at its square's end first (see --checkpoint).
        if handler_flag.stop() == knights::Stop::AfterSaving {
            eprintln!(
                "stopping: the pass saves its layer at the end of this square (of the recorded period, if one runs); Ctrl-C again stops at once"
            );
            return;
        }
        cli::io::stop_reading();
    });
    let result = cli::run(args, &cancel);
    if let Some(resumed) = cancel.resumed() {
        eprintln!(
            "note: went on from the checkpoint at square {} of {} ({})",
            resumed.square,
            resumed.squares,
            cli::io::escaped(&resumed.path)
        );
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            let code = cli::exit::report(&err);
            if let Some(saved) = cancel.last_saved().filter(|saved| saved.path.exists()) {
                eprintln!(
                    "note: the pass is saved at square {} of {} in {}: the same command goes on from there",
                    saved.square,
                    saved.squares,
                    cli::io::escaped(&saved.path)
                );
            }
            code
        }
    }
}
