//! `knights export`: write stored answers to a CSV or JSON file.

use std::path::PathBuf;

use anyhow::Result;
use knights::exchange::ExchangeFormat;
use knights::input::plural;
use knights::output::Format;
use knights::output::stream::AnswerStream;
use knights::store::{PageSpec, StoreError};

use crate::cli::exit::CliError;
use crate::cli::flags::{FilterArgs, StoreOnlyFlags};
use crate::cli::io::{check_output, escaped, write_output};
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
    // An output that would replace the store is refused before the store is read.
    if let Some(path) = &args.output {
        check_output(path)?;
    }
    let store = session.required_store("export", args.unused.no_cache)?;
    // A signal stops a query SQLite is still sorting, not only between rows (it only reads).
    session.cancel.on_cancel(store.interrupter());
    let filter = args.filter.filter()?;
    let cancel = &session.cancel;
    // A row planted past the schema's rules is no answer to pass on, and leaving it out
    // would make an export that looks complete: each is named, and nothing is written. A
    // first pass finds them keeping nothing else, so that the export streams in a second.
    let mut bad = Vec::new();
    store.each_row(&filter, &PageSpec::default(), |listed| {
        cancel.check()?;
        if let Err(row) = listed.row {
            bad.push(row);
        }
        Ok::<(), anyhow::Error>(())
    })?;
    if !bad.is_empty() {
        for row in &bad {
            eprintln!("{}: {row}", store.path());
        }
        let n = bad.len();
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
    let format = match (args.format, &args.output) {
        (Some(format), _) => format.into(),
        (None, Some(path)) => ExchangeFormat::from_file_name(&path.to_string_lossy()),
        (None, None) => ExchangeFormat::Csv,
    };
    let mut stream = AnswerStream::new(Format::from(format));
    let path = args.output.clone().unwrap_or_else(|| PathBuf::from("-"));
    write_output(&path, |out| {
        stream.begin(out)?;
        store.each_row(&filter, &PageSpec::default(), |listed| {
            cancel.check()?;
            match listed.row {
                Ok(answer) => Ok(stream.answer(out, &answer)?),
                // Planted since the first pass: the file is left as it was.
                Err(row) => Err(anyhow::Error::from(knights::Error::from(
                    StoreError::Damaged {
                        path: store.path().to_string(),
                        detail: format!("{row}; nothing was exported"),
                    },
                ))),
            }
        })?;
        Ok(stream.end(out)?)
    })?;
    if let Some(path) = &args.output
        && path.as_os_str() != "-"
    {
        let n = stream.written();
        eprintln!(
            "exported {n} {} to {}",
            plural(n as usize, "answer", "answers"),
            escaped(path)
        );
    }
    Ok(())
}
