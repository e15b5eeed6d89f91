//! `knights query`: list the answers in the store.

use anyhow::Result;
use knights::output::Format;
use knights::store::AnswerFilter;

use crate::cli::flags::{FilterArgs, StoreOnlyFlags};
use crate::cli::io::print;
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
    let answers = store.list(&AnswerFilter::from(&args.filter))?;
    print(&Format::from(args.format).exporter().answers(&answers)?)
}
