//! `knights verify`: check the answers in the store.

use std::time::Duration;

use anyhow::Result;
use knights::input::plural;
use knights::verify::{self, DEFAULT_RECOUNT_BUDGET, VerifyOptions};

use crate::cli::exit::CliError;
use crate::cli::flags::FilterArgs;
use crate::cli::io::print;
use crate::cli::session::Session;
use crate::cli::values::EngineArg;

#[derive(Debug, clap::Args)]
#[command(
    allow_negative_numbers = true,
    after_help = "\
Checks the store file (SQLite's integrity_check) and every stored answer: a canonical question,
a known engine, no count that a theorem rules out, even directed totals and closed counts,
counts within the bound of the board's moves and within reach of an engine, open totals equal
to the sum of their starts, starts equal to the sum of their pairs (on boards with pairs in the
store), a real time and a believable number of seconds; a row that breaks the schema's rules
(planted past its CHECKs) is named by its rowid, and the other answers are still checked. With --recount the
engines count the answers again (without the store), cheapest boards first, for as long as
--seconds allows. Prints one line per problem (the question, the stored value and the expected
one), then a summary; exits with 1 if there is any problem, 0 if none.

Examples:
  knights verify
  knights verify --recount --max-squares 30
  knights verify --recount --seconds 60 --board 6x6"
)]
pub struct Args {
    #[command(flatten)]
    filter: FilterArgs,
    /// Recount the answers with the engines and report every difference.
    #[arg(long)]
    recount: bool,
    /// The time recounting may take, in seconds (what is left is reported, not recounted).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_RECOUNT_BUDGET.as_secs_f64(), requires = "recount", value_parser = parse_seconds)]
    seconds: f64,
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && (0.0..=1e9).contains(&seconds) => Ok(seconds),
        _ => Err(format!(
            "'{}' is not a number of seconds from 0 to 1000000000",
            knights::echo::echo(text)
        )),
    }
}

pub fn run(args: Args, session: &Session) -> Result<()> {
    // A store that is not there holds nothing to vouch for: a typo must not pass as "0
    // problems" (nor leave a new empty store behind).
    let path = session.store_path()?;
    if !session.no_cache && !path.exists() {
        return Err(CliError::bad_input(format!(
            "there is no answer store at {}: nothing to verify (is --db right?)",
            path.display()
        ))
        .into());
    }
    let store = session.store_as_found("verify")?;
    let options = VerifyOptions {
        filter: args.filter.filter()?,
        recount: args.recount,
        budget: Duration::from_secs_f64(args.seconds),
    };
    let report = verify::verify(&store, &options, &session.settings(EngineArg::Auto))?;
    let mut text = String::new();
    for problem in &report.problems {
        text.push_str(&format!("{problem}\n"));
    }
    let problems = report.problems.len();
    let summary = report.summary(store.path(), args.recount, args.seconds, "--seconds");
    text.push_str(&summary);
    text.push('\n');
    print(&text)?;
    if problems > 0 {
        return Err(CliError {
            code: 1,
            message: format!(
                "{problems} {} in {}",
                plural(problems, "problem", "problems"),
                store.path()
            ),
        }
        .into());
    }
    Ok(())
}
