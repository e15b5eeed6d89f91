//! `knights batch`: a file of queries, answered in order.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use knights::batch::{self, BatchAnswers};
use knights::input::{self, BatchFormat, plural};
use knights::output::{self, Format, StartCount};
use knights::question::TourKind;

use crate::cli::flags::{EngineArgs, KindFlag};
use crate::cli::io::{in_file, open_input, print, progress_bar, report_progress};
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
    )?;
    let format = Format::from(args.format);
    let text = if parsed.format == BatchFormat::Judge && format == Format::Table {
        output::bare_counts(&answers.counts)
    } else {
        let records: Vec<StartCount> = parsed
            .queries
            .iter()
            .zip(&answers.counts)
            .map(|(q, count)| StartCount::new(q.board, q.start, kind, count.clone()))
            .collect();
        format.exporter().start_counts(&records)?
    };
    print(&text)?;
    if !args.quiet {
        eprintln!(
            "{} {}: {} from the store, {} computed ({} distinct {} computed) in {:.2} s",
            answers.counts.len(),
            plural(answers.counts.len(), "answer", "answers"),
            answers.from_store,
            answers.computed,
            answers.distinct_computed,
            plural(answers.distinct_computed, "question", "questions"),
            clock.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// Answers queries through the store, with a progress bar unless `quiet`.
pub fn answer_batch(
    queries: &[input::Query],
    kind: TourKind,
    name: &str,
    session: &Session,
    engine: EngineArg,
    quiet: bool,
) -> Result<BatchAnswers> {
    batch::check_queries(queries, kind).map_err(|e| in_file(name, e))?;
    let mut store = session.store()?;
    let bar = progress_bar(quiet);
    let result = batch::answer_queries(
        queries,
        kind,
        store.as_mut(),
        &session.settings(engine),
        &mut |event| report_progress(&bar, event),
    );
    bar.finish_and_clear();
    Ok(result?)
}
