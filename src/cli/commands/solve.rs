//! `knights solve`: the judge format, answered with bare counts.

use std::path::PathBuf;

use anyhow::Result;
use knights::{input, output};

use crate::cli::commands::batch::answer_batch;
use crate::cli::flags::{EngineArgs, KindFlag};
use crate::cli::io::{in_file, open_input, print};
use crate::cli::session::Session;
use crate::cli::values::EngineArg;

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
        EngineArg::Memo,
        true,
    )?;
    print(&output::bare_counts(&answers.counts))
}
