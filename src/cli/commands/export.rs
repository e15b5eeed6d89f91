//! `knights export`: write stored answers to a CSV or JSON file.

use std::path::PathBuf;

use anyhow::Result;
use knights::exchange::ExchangeFormat;
use knights::output::Format;
use knights::store::AnswerFilter;

use knights::input::plural;

use crate::cli::exit::CliError;
use crate::cli::flags::{FilterArgs, StoreOnlyFlags};
use crate::cli::io::{print, write_file};
use crate::cli::session::Session;
use crate::cli::values::ExchangeArg;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
A row of the store that breaks the schema's rules (planted past its CHECKs) is named, and
nothing is exported (exit 2): a filter that leaves it out exports the others.

Examples:
  knights export --output answers.csv
  knights export --max-squares 30 --format json --output small.json")]
pub struct Args {
    #[command(flatten)]
    unused: StoreOnlyFlags,
    #[command(flatten)]
    filter: FilterArgs,
    /// File format; by default JSON for a `.json` output file, CSV otherwise.
    #[arg(long, short, value_enum)]
    format: Option<ExchangeArg>,
    /// File to write (replaced only once complete); standard output when absent.
    #[arg(long, short)]
    output: Option<PathBuf>,
}

pub fn run(args: Args, session: &Session) -> Result<()> {
    let store = session.required_store("export", args.unused.no_cache)?;
    // A row planted past the schema's rules is no answer to pass on, and leaving it out
    // would make an export that looks complete: each is named, and nothing is written.
    let listing = store.list_rows(&AnswerFilter::from(&args.filter))?;
    if !listing.bad.is_empty() {
        for bad in &listing.bad {
            eprintln!("{}: {bad}", store.path());
        }
        let n = listing.bad.len();
        return Err(CliError {
            code: 2,
            message: format!(
                "{n} {} of {} {} the store's rules; nothing was exported (`knights verify` checks the rest; a filter that leaves {} out exports the others)",
                plural(n, "row", "rows"),
                store.path(),
                plural(n, "breaks", "break"),
                plural(n, "it", "them"),
            ),
        }
        .into());
    }
    let answers = listing.answers;
    let format = match (args.format, &args.output) {
        (Some(format), _) => format.into(),
        (None, Some(path)) => ExchangeFormat::from_file_name(&path.to_string_lossy()),
        (None, None) => ExchangeFormat::Csv,
    };
    let text = Format::from(format).exporter().answers(&answers)?;
    match args.output {
        Some(path) => {
            write_file(&path, &text)?;
            eprintln!("exported {} answers to {}", answers.len(), path.display());
            Ok(())
        }
        None => print(&text),
    }
}
