//! `knights query`: list the answers in the store.

use std::path::Path;

use anyhow::Result;
use knights::output::Format;
use knights::output::stream::AnswerStream;
use knights::store::{PageSpec, StoreError};

use crate::cli::flags::{FilterArgs, StoreOnlyFlags};
use crate::cli::io::write_output;
use crate::cli::session::Session;
use crate::cli::values::FormatArg;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Each stored answer is a canonical question: boards with rows <= cols, the least square of each
symmetry class, and board totals (start `total`).

Examples:
  knights query --board 5x5
  knights query --max-squares 20 --format csv")]
pub struct Args {
    #[command(flatten)]
    unused: StoreOnlyFlags,
    #[command(flatten)]
    filter: FilterArgs,
    /// Output format.
    #[arg(long, short, value_enum, default_value_t = FormatArg::Table)]
    format: FormatArg,
}

pub fn run(args: Args, session: &Session) -> Result<()> {
    let store = session.required_store("query", args.unused.no_cache)?;
    // A signal stops a query SQLite is still sorting, not only between rows (it only reads).
    session.cancel.on_cancel(store.interrupter());
    let filter = args.filter.filter()?;
    let cancel = &session.cancel;
    let mut stream = AnswerStream::new(Format::from(args.format));
    // A first pass keeps only a table's widths and the rows that break the schema's rules (an
    // error before anything is printed, as `Store::list` gives it); the second prints.
    let (mut first_bad, mut more_bad) = (None, 0usize);
    store.each_row(&filter, &PageSpec::default(), |listed| {
        cancel.check()?;
        match listed.row {
            Ok(answer) => stream.measure(&answer),
            Err(row) if first_bad.is_none() => first_bad = Some(row),
            Err(_) => more_bad += 1,
        }
        Ok::<(), anyhow::Error>(())
    })?;
    if let Some(first) = first_bad {
        let more = match more_bad {
            0 => String::new(),
            1 => ", and 1 more such row".to_string(),
            n => format!(", and {n} more such rows"),
        };
        return Err(knights::Error::from(StoreError::Damaged {
            path: store.path().to_string(),
            detail: format!("{first}{more}; run `knights verify`"),
        })
        .into());
    }
    write_output(Path::new("-"), |out| {
        stream.begin(out)?;
        store.each_row(&filter, &PageSpec::default(), |listed| {
            cancel.check()?;
            match listed.row {
                Ok(answer) => Ok(stream.answer(out, &answer)?),
                Err(row) => Err(anyhow::Error::from(knights::Error::from(
                    StoreError::Damaged {
                        path: store.path().to_string(),
                        detail: format!("{row}; run `knights verify`"),
                    },
                ))),
            }
        })?;
        Ok(stream.end(out)?)
    })
}
