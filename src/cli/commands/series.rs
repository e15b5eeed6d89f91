//! `knights series`: the totals of the boards `ROWS x n` for a range of `n`.

use std::io::IsTerminal;
use std::ops::RangeInclusive;

use anyhow::Result;
use knights::output::{self, BoardTotal, Format};

use crate::cli::flags::{EngineArgs, KindFlag};
use crate::cli::io::{print, progress_bar, with_pass_progress};
use crate::cli::session::Session;
use crate::cli::values::{SeriesFormatArg, parse_cols, parse_side};

#[derive(Debug, clap::Args)]
#[command(after_help = "\
The OEIS-style table: every board ROWS x n for n in the range, with its number of tours (open,
or closed with --closed), both directed (each direction counted) and undirected (each tour
once). Boards the store has are known at once; the rest are computed (in one pass of the
frontier engine where the short side is ROWS) and saved as each is known. On a terminal the
lines come as boards are known; piped, the table comes at the end, aligned. Where a board is
beyond every engine here (8x8's open total), the boards before it are shown and then why the
series stops there, with a non-zero exit.

--format bfile writes an OEIS b-file: one line `n a(n)` per board, n its number of columns and
a(n) its count undirected, as OEIS lists the sequences of a fixed number of rows: open paths
counted once (3xn A169696, 4xn A079137, 5xn A083386, 6xn A306281, 7xn A306283), closed tours
counted once as cycles (3x2n A070030, 5x2n A175855, 6xn A175881, 8xn A193055). No header, no
comments, every digit. The sequences of even widths only (3x2n, 5x2n) number a term by half its
width and skip the odd widths (no closed tour there): `awk '$1 % 2 == 0 {print $1 / 2, $2}'`.

Examples:
  knights series 3 --cols 4..20
  knights series 5 --cols 5..12 --closed --format csv
  knights series 6 --cols 1..40 --closed --format bfile > b175881.txt")]
pub struct Args {
    /// The fixed side of the boards.
    #[arg(value_parser = parse_side)]
    rows: u32,
    /// The range of the other side, A..B (or a single n).
    #[arg(long, value_name = "A..B", value_parser = parse_cols)]
    cols: RangeInclusive<u32>,
    #[command(flatten)]
    kind: KindFlag,
    /// Output format (`bfile`: OEIS's `n a(n)` lines, see below).
    #[arg(long, short, value_enum, default_value_t = SeriesFormatArg::Table)]
    format: SeriesFormatArg,
    #[command(flatten)]
    engine: EngineArgs,
    /// No progress bar on standard error.
    #[arg(long, short)]
    quiet: bool,
    /// Print the frontier engine's figures for what it computed (its work, largest layer,
    /// count type, period) and the time taken on standard error.
    #[arg(long, hide_short_help = true)]
    stats: bool,
}

pub fn run(args: Args, session: &Session) -> Result<()> {
    let kind = args.kind.kind();
    let settings = session.settings(args.engine.engine);
    let reach = knights::series::reach(args.rows, args.cols.clone(), kind, &settings)?;
    let cols = reach.cols;
    let mut store = session.store()?;
    let bar = progress_bar(args.quiet);
    bar.set_length(cols.clone().count() as u64);
    // On a terminal, text comes line by line as boards are known; elsewhere (and for JSON and
    // CSV) all at once at the end, in columns as wide as the widest count.
    let stream = args.format == SeriesFormatArg::Table && std::io::stdout().is_terminal();
    let mut widths = None;
    let mut rows: Vec<BoardTotal> = Vec::new();
    let mut printed = Ok(());
    let clock = std::time::Instant::now();
    let result = with_pass_progress(&bar, &settings.cancel, || {
        knights::series::series(
            args.rows,
            cols,
            kind,
            store.as_deref_mut(),
            &settings,
            &mut |row| {
                bar.inc(1);
                let total = BoardTotal::new(row.board, kind, &row.answer.count);
                if stream && printed.is_ok() {
                    let line = output::TextExporter::series_line(&total, &mut widths);
                    bar.suspend(|| printed = print(&line));
                }
                rows.push(total);
            },
        )
    });
    bar.finish_and_clear();
    printed?;
    // The boards known before an error or an interruption are shown all the same (a b-file
    // too: each line stands alone).
    match args.format {
        SeriesFormatArg::Table if !stream => print(&output::TextExporter::series_table(&rows))?,
        SeriesFormatArg::Bfile => print(&output::bfile(&rows))?,
        _ => {}
    }
    // A refusal names the board as it was asked (ROWS rows), not as an engine turned it.
    let figures = result.map_err(|e| match &e {
        knights::Error::MemoryBudget { board, .. } if board.rows() != args.rows => {
            let asked = board.transposed();
            e.on_board(asked)
        }
        _ => e,
    })?;
    if args.stats {
        let work = if figures.transitions == 0 {
            "no frontier search (every board known, decided by a theorem or counted by the memo engine)".to_string()
        } else {
            format!("computed by the frontier engine ({})", figures.figures())
        };
        eprintln!(
            "{work}; {:.3} s; memory budget {}",
            clock.elapsed().as_secs_f64(),
            session.memory
        );
    }
    let exported = match args.format {
        SeriesFormatArg::Json => Some(Format::Json),
        SeriesFormatArg::Csv => Some(Format::Csv),
        SeriesFormatArg::Table | SeriesFormatArg::Bfile => None,
    };
    if let Some(format) = exported {
        print(&format.exporter().board_totals(&rows)?)?;
    }
    // The boards that could be counted are shown; then why the rest cannot be.
    match reach.stop {
        Some(why) => Err(why.into()),
        None => Ok(()),
    }
}
