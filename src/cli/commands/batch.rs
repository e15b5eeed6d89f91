//! `knights batch`: a file of queries, answered in order.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use knights::batch::{self, BatchAnswers};
use knights::input::{self, BatchFormat, plural};
use knights::output::{self, Format, StartCount};
use knights::question::TourKind;

use crate::cli::exit::{CliError, failure_words};
use crate::cli::flags::{EngineArgs, KindFlag};
use crate::cli::io::{WorkBar, in_file, open_input, print};
use crate::cli::session::Session;
use crate::cli::values::{EngineArg, FormatArg};

#[derive(Debug, clap::Args)]
#[command(after_help = "\
The file is either the judge format (T, then T queries) or a list with one query
`ROWS COLS ROW COL` per line; blank lines and # comments are allowed in both. Each distinct
question is computed once (in parallel), answers already in the store are not recomputed, and
new answers are saved as they finish. The judge format prints bare counts; a list prints a table
(or JSON, CSV). A summary goes to standard error.

Examples:
  knights batch queries.txt
  knights batch - --format csv < queries.txt")]
pub struct Args {
    /// File to read, or `-` for standard input.
    file: PathBuf,
    #[command(flatten)]
    kind: KindFlag,
    /// Output format (the judge format always prints bare counts as `table`).
    #[arg(long, short, value_enum, default_value_t = FormatArg::Table)]
    format: FormatArg,
    #[command(flatten)]
    engine: EngineArgs,
    /// No summary or progress bar on standard error.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args, session: &Session) -> Result<()> {
    let (name, reader) = open_input(&args.file)?;
    let parsed = input::read_batch(reader).map_err(|e| in_file(&name, e))?;
    let clock = Instant::now();
    let kind = args.kind.kind();
    let answers = answer_batch(
        &parsed.queries,
        kind,
        &name,
        session,
        args.engine.engine,
        args.quiet,
        false,
    )?;
    let format = Format::from(args.format);
    let text = if parsed.format == BatchFormat::Judge && format == Format::Table {
        output::bare_counts(answers.counts.iter().map(|c| c.as_ref().ok()))
    } else {
        let records: Vec<StartCount> = parsed
            .queries
            .iter()
            .zip(&answers.counts)
            .map(|(q, count)| match count {
                Ok(count) => StartCount::new(q.board, q.start, kind, count.clone()),
                Err(why) => StartCount::failed(q.board, q.start, kind, &failure_words(why)),
            })
            .collect();
        format.exporter().start_counts(&records)?
    };
    print(&text)?;
    if !args.quiet {
        eprintln!(
            "{} {}: {} from the store, {} computed ({} distinct {} computed){} in {:.2} s",
            answers.counts.len(),
            plural(answers.counts.len(), "answer", "answers"),
            answers.from_store,
            answers.computed,
            answers.distinct_computed,
            plural(answers.distinct_computed, "question", "questions"),
            if answers.failed > 0 {
                format!(", {} not counted", answers.failed)
            } else {
                String::new()
            },
            clock.elapsed().as_secs_f64()
        );
    }
    not_counted(&parsed.queries, &answers)
}

/// The error for queries that got no count (after the others were answered), naming the first.
fn not_counted(queries: &[input::Query], answers: &BatchAnswers) -> Result<()> {
    let mut failures = queries
        .iter()
        .zip(&answers.counts)
        .filter_map(|(q, count)| count.as_ref().err().map(|why| (q.line, failure_words(why))));
    match failures.next() {
        None => Ok(()),
        Some((line, why)) => Err(CliError {
            code: 1,
            message: format!(
                "{} of {} {} not counted; the first, line {line}: {why}",
                answers.failed,
                answers.counts.len(),
                plural(answers.counts.len(), "query", "queries"),
            ),
        }
        .into()),
    }
}

/// Answers queries through the store, with a progress bar unless `quiet`. With `check_first`,
/// every query's board must suit an engine before anything is computed; otherwise a query no
/// engine takes gets its reason in place of a count.
pub fn answer_batch(
    queries: &[input::Query],
    kind: TourKind,
    name: &str,
    session: &Session,
    engine: EngineArg,
    quiet: bool,
    check_first: bool,
) -> Result<BatchAnswers> {
    let settings = session.settings(engine);
    let mut store = session.store()?;
    if check_first {
        batch::check_queries(queries, kind, &settings, store.as_deref())
            .map_err(|e| in_file(name, e))?;
    }
    let bar = WorkBar::new(quiet, &session.cancel);
    let result = batch::answer_queries(
        queries,
        kind,
        store.as_deref_mut(),
        &settings,
        &mut |event| bar.report(event),
    );
    drop(bar);
    let answers = result?;
    for note in &answers.notes {
        eprintln!("note: {note}");
    }
    Ok(answers)
}
