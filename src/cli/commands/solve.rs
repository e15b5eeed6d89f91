//! `knights solve`: the judge format, answered with bare counts.

use std::path::PathBuf;

use anyhow::Result;
use knights::input::{self, InputError};
use knights::output;

use crate::cli::commands::batch::answer_batch;
use crate::cli::exit::failure_words;
use crate::cli::flags::{EngineArgs, KindFlag};
use crate::cli::io::{in_file, open_input, print};
use crate::cli::session::Session;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Reads T, then T queries of four numbers ROWS COLS ROW COL (0-based start square), separated by
any whitespace. Prints the number of open tours of each query, one per line, and nothing else.
The whole input is checked before anything is printed.

Examples:
  printf '2\\n5 4 0 0\\n3 4 0 0\\n' | knights solve     prints 32 and 2
  knights solve queries.txt")]
pub struct Args {
    /// File to read; standard input when absent or `-`.
    file: Option<PathBuf>,
    #[command(flatten)]
    kind: KindFlag,
    #[command(flatten)]
    engine: EngineArgs,
}

pub fn run(args: Args, session: &Session) -> Result<()> {
    let path = args.file.unwrap_or_else(|| PathBuf::from("-"));
    let (name, reader) = open_input(&path)?;
    let queries = input::read_judge(reader).map_err(|e| in_file(&name, e))?;
    let answers = answer_batch(
        &queries,
        args.kind.kind(),
        &name,
        session,
        args.engine.engine,
        false,
        true,
    )?;
    // The judge's output is all the counts or none: a query that got no count (its engine
    // stopped) is an error, and the answers found are in the store for the next run.
    let counts: Vec<_> = queries
        .iter()
        .zip(&answers.counts)
        .map(|(query, count)| {
            count.as_ref().map_err(|why| {
                in_file(
                    &name,
                    InputError::at(query.line, format!("no count: {}", failure_words(why))),
                )
            })
        })
        .collect::<Result<_>>()?;
    print(&output::bare_counts(counts.into_iter().map(Some)))
}
