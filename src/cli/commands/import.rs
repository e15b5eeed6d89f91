//! `knights import`: add answers from an export to the store, after checking every record.

use std::path::PathBuf;

use anyhow::Result;
use knights::exchange::{self, ExchangeFormat};

use crate::cli::io::{in_file, open_input};
use crate::cli::session::Session;
use crate::cli::values::ExchangeArg;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Every record is checked (canonical question, known kind and engine, exact count, totals equal to
the sum of their starts, no conflict with the store) before anything is written: one bad record
rejects the whole file, naming its line.

Examples:
  knights import data/lookup.csv
  knights import answers.json")]
pub struct Args {
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
    let answers = exchange::read_answers_from(reader, format).map_err(|e| in_file(&name, e))?;
    let mut store = session.required_store("import")?;
    let report = exchange::import(&mut store, &answers).map_err(|e| in_file(&name, e))?;
    eprintln!(
        "imported {} new answers from {name} ({} already stored) into {}",
        report.added,
        report.already_stored,
        store.path()
    );
    Ok(())
}
