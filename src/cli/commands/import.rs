//! `knights import`: add answers from an export to the store, after checking every record.

use std::path::PathBuf;

use anyhow::Result;
use knights::exchange::{self, ExchangeFormat};
use knights::input::plural;
use knights::resolve::{self, Incoming, Settings};

use crate::cli::exit::CliError;
use crate::cli::flags::StoreOnlyFlags;
use crate::cli::io::{in_file, open_input};
use crate::cli::session::Session;
use crate::cli::values::{EngineArg, ExchangeArg};

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Every record is checked before anything is written: a canonical question, a known kind and
engine, an exact count that no theorem rules out, even where it counts tours both ways, within
the bound of the board's moves and within reach of an engine, a real time and a believable
number of seconds; the same count as the store's; totals equal to the sum of their starts (in
the file and the store together), and starts to the sum of their pairs (likewise, on boards with
pairs in the file); and on boards of at most 36 squares the engines' own count.
One bad record rejects the whole file, naming its line. The file is held whole while it is
checked: one whose answers need more than the memory budget is refused at the line where they
pass it. Each answer keeps where it came from:
its engine, and the source `imported from FILE` (shown by `knights query`).

Examples:
  knights import data/lookup.csv
  knights import answers.json")]
pub struct Args {
    #[command(flatten)]
    unused: StoreOnlyFlags,
    /// File to read, or `-` for standard input.
    file: PathBuf,
    /// File format; by default JSON for a `.json` file, CSV otherwise.
    #[arg(long, short, value_enum)]
    format: Option<ExchangeArg>,
}

pub fn run(args: Args, session: &Session) -> Result<()> {
    let (name, reader) = open_input(&args.file)?;
    let format = match args.format {
        Some(format) => format.into(),
        None => ExchangeFormat::from_file_name(&name),
    };
    // A signal stops the reading at its next buffer, the gate at its next record, the writing
    // at its next rows: in each case the transaction is dropped and nothing was written.
    let interrupted = |e: anyhow::Error| -> anyhow::Error {
        let stopped = crate::cli::io::reading_stopped()
            || matches!(e.downcast_ref(), Some(knights::Error::Interrupted));
        match (stopped, session.store_path()) {
            (true, Ok(path)) => CliError::stopped(format!(
                "interrupted: nothing of {name} was imported into {}",
                path.display()
            ))
            .into(),
            _ => e,
        }
    };
    // The file and the store's counts it is checked against, together, within the budget.
    let memory = args.unused.memory.unwrap_or(session.memory);
    let answers = exchange::read_answers_within(reader, format, memory)
        .map_err(|e| interrupted(in_file(&name, e)))?;
    session.cancel.check().map_err(|e| interrupted(e.into()))?;
    let mut store = session.writable_store("import", args.unused.no_cache)?;
    let incoming = Incoming::File {
        name: &name,
        records: &answers,
    };
    let report = resolve::admit(
        &mut store,
        incoming,
        &Settings {
            memory,
            ..session.settings(EngineArg::Auto)
        },
    )
    .map_err(|e| match e {
        knights::Error::Interrupted => interrupted(e.into()),
        e => in_file(&name, e),
    })?;
    eprintln!(
        "imported {} new {} from {name} ({} already stored) into {}",
        report.added,
        plural(report.added, "answer", "answers"),
        report.already_stored,
        store.path()
    );
    Ok(())
}
