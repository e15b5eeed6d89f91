//! `knights puzzle`: complete a board with some step numbers given, count its completions, list
//! them, or make a puzzle with exactly one.

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use knights::Board;
use knights::output::{self, TourFormat, to_json};
use knights::puzzle::{self, CountRecord, MadeRecord, Puzzle};
use knights::tour::Method;

use crate::cli::exit::CliError;
use crate::cli::flags::NoStoreFlags;
use crate::cli::io::{StepsBar, open_input, print, write_file};
use crate::cli::session::Session;
use crate::cli::values::{TourFormatArg, parse_side};

#[derive(Debug, clap::Args)]
#[command(after_help = "\
A puzzle is one line a row, cells separated by spaces: a number 1..R*C for a given step, `.`
(or `0`, `_`) for an empty cell; `#` starts a comment, blank lines are skipped. For example:

   1  .  .  .  .
   .  .  .  .  .
   .  . 25  .  .
   .  .  .  .  .
   .  .  .  .  5

Prints one completion (the board with every step number, as `knights tour` prints a tour).
Exit codes: 0 solved; 3 no completion (the reason on standard error: a number outside 1..R*C or
given twice, two given steps too far apart or of the wrong colours for the moves between them,
a theorem, or an exhaustive search); 2 bad input (the line, row and column); 130 Ctrl-C.
Rows and columns in messages count from 1. Boards of at most 64 squares.

Examples:
  knights puzzle puzzle.txt
  knights puzzle puzzle.txt --count
  knights puzzle puzzle.txt --all --limit 10
  knights puzzle --make 6 6 --seed 7 > six.txt
  knights puzzle --make 8 8 --clues 24 --closed")]
pub struct Args {
    #[command(flatten)]
    unused: NoStoreFlags,
    /// The puzzle; `-` or none for standard input.
    #[arg(conflicts_with = "make")]
    file: Option<PathBuf>,
    /// The completion must be a closed tour (the last step a knight's move from the first).
    #[arg(long)]
    closed: bool,
    /// Print the exact number of completions (the memo engine with the givens as constraints).
    #[arg(long, conflicts_with_all = ["all", "make"])]
    count: bool,
    /// Print every completion (with --limit, at most N).
    #[arg(long, conflicts_with = "make")]
    all: bool,
    /// With --all: at most this many completions.
    #[arg(long, value_name = "N", requires = "all")]
    limit: Option<u64>,
    /// Make a puzzle of ROWS x COLS with exactly one completion (checked by the counter) and
    /// print it.
    #[arg(long, num_args = 2, value_names = ["ROWS", "COLS"], value_parser = parse_side, action = clap::ArgAction::Set)]
    make: Option<Vec<u32>>,
    /// With --make: stop at N given numbers (else as few as the seed reaches).
    #[arg(long, value_name = "N", requires = "make")]
    clues: Option<usize>,
    /// With --make: picks the tour and the order numbers are taken away; the same seed always
    /// makes the same puzzle (without it, a new seed each run, named on standard error).
    #[arg(long, requires = "make")]
    seed: Option<u64>,
    /// Output format (a made puzzle: `board`, its text, `json`, or `svg`, a blank worksheet;
    /// a completion's SVG rings the given numbers).
    #[arg(long, short, value_enum, default_value_t = TourFormatArg::Board)]
    format: TourFormatArg,
    /// With `--format svg`: an animated picture of the completion.
    #[arg(long)]
    animate: bool,
    /// Write to this file (replaced only once complete) instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Print the time taken on standard error.
    #[arg(long)]
    stats: bool,
}

pub fn run(args: Args, session: &Session) -> Result<()> {
    let format = args.format.with_animation(args.animate)?;
    let clock = Instant::now();
    let text = match &args.make {
        Some(sides) => make(&args, sides, format, session)?,
        None => {
            let path = args.file.clone().unwrap_or_else(|| PathBuf::from("-"));
            let (name, reader) = open_input(&path)?;
            let puzzle =
                Puzzle::read(reader, args.closed).map_err(|e| crate::cli::io::in_file(&name, e))?;
            if args.count {
                count(&puzzle, format, session)?
            } else if args.all && args.output.is_none() {
                // Each completion printed as it is found: memory stays flat, and an
                // interruption keeps every completion already printed.
                all(
                    &puzzle,
                    args.limit,
                    format,
                    session,
                    &mut io::stdout().lock(),
                )?;
                if args.stats {
                    eprintln!("{:.4} s", clock.elapsed().as_secs_f64());
                }
                return Ok(());
            } else if args.all {
                let mut text = Vec::new();
                all(&puzzle, args.limit, format, session, &mut text)?;
                String::from_utf8(text)?
            } else {
                solve(&puzzle, format, session)?
            }
        }
    };
    match &args.output {
        Some(path) => write_file(path, &text)?,
        None => print(&text)?,
    }
    if args.stats {
        eprintln!("{:.4} s", clock.elapsed().as_secs_f64());
    }
    Ok(())
}

fn solve(puzzle: &Puzzle, format: TourFormat, session: &Session) -> Result<String> {
    let given: Vec<bool> = puzzle.cells().iter().map(Option::is_some).collect();
    match puzzle::solve(puzzle, &session.cancel)? {
        Ok(tour) => Ok(match format {
            TourFormat::Svg => output::puzzle_tour_svg(&tour, &given, false),
            TourFormat::AnimatedSvg => output::puzzle_tour_svg(&tour, &given, true),
            _ => output::write_tour(&tour, Method::Memo, format),
        }),
        Err(reason) => Err(CliError::no_tour(reason.to_string()).into()),
    }
}

fn count(puzzle: &Puzzle, format: TourFormat, session: &Session) -> Result<String> {
    let bar = StepsBar::new("searches done");
    let counted = puzzle::count(puzzle, session.memory, &session.cancel, &mut |done, all| {
        bar.set(done, all)
    })?;
    drop(bar);
    let (count, reason) = match counted {
        Ok(count) => (count, None),
        Err(reason) => (0, Some(reason)),
    };
    match format {
        TourFormat::Board => {
            if let Some(reason) = &reason {
                eprintln!("{reason}");
            }
            Ok(format!("{count}\n"))
        }
        TourFormat::Json => Ok(to_json(&CountRecord::new(puzzle, count, reason.as_ref()))),
        TourFormat::Svg | TourFormat::AnimatedSvg => Err(CliError::bad_input(
            "--count prints a number: give it with --format board or json",
        )
        .into()),
    }
}

/// Writes every completion (at most `limit`) to `out` as it is found, flushed each time, so that
/// a reader of a pipe sees them at once and an interruption loses none already written.
fn all(
    puzzle: &Puzzle,
    limit: Option<u64>,
    format: TourFormat,
    session: &Session,
    out: &mut dyn Write,
) -> Result<()> {
    if matches!(format, TourFormat::Svg | TourFormat::AnimatedSvg) {
        return Err(CliError::bad_input(
            "--all lists completions as boards or JSON lines: give it with --format board or json",
        )
        .into());
    }
    let mut listed = 0u64;
    let mut failed: Option<io::Error> = None;
    let limit = limit.unwrap_or(u64::MAX);
    let result = if limit == 0 {
        Ok(Ok(()))
    } else {
        puzzle::each_completion(puzzle, session.memory, &session.cancel, &mut |tour| {
            let mut text = String::new();
            if format == TourFormat::Board && listed > 0 {
                text.push('\n');
            }
            text.push_str(&output::write_tour(&tour, Method::Memo, format));
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                failed = Some(e);
                return false;
            }
            listed += 1;
            listed < limit
        })
    };
    match failed {
        // A reader that closed the pipe (`| head`) has what it wanted.
        Some(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
        Some(e) => return Err(anyhow::Error::new(e).context("cannot write the completions")),
        None => {}
    }
    match result {
        Err(knights::Error::Interrupted) => Err(CliError::stopped(format!(
            "interrupted: the {listed} {} found so far {} written",
            knights::input::plural(listed as usize, "completion", "completions"),
            if listed == 1 { "is" } else { "are" }
        ))
        .into()),
        Err(e) => Err(e.into()),
        Ok(Err(reason)) => Err(CliError::no_tour(reason.to_string()).into()),
        Ok(Ok(())) if listed == 0 && limit > 0 => Err(CliError::no_tour(
            knights::puzzle::NoCompletion::Search {
                board: puzzle.board(),
                closed: puzzle.is_closed(),
            }
            .to_string(),
        )
        .into()),
        Ok(Ok(())) => Ok(()),
    }
}

fn make(args: &Args, sides: &[u32], format: TourFormat, session: &Session) -> Result<String> {
    let board = Board::new(sides[0], sides[1])?;
    if let Some(clues) = args.clues
        && clues as u64 > board.squares()
    {
        return Err(CliError::bad_input(format!(
            "--clues {clues}: the {board} board has {} squares",
            board.squares()
        ))
        .into());
    }
    if format == TourFormat::AnimatedSvg {
        return Err(CliError::bad_input(
            "--make draws a blank puzzle, which has nothing to animate: give --format svg without --animate",
        )
        .into());
    }
    let seed = args.seed.unwrap_or_else(puzzle::fresh_seed);
    let made = match puzzle::make(
        board,
        args.closed,
        args.clues,
        seed,
        session.memory,
        &session.cancel,
    )? {
        Ok(made) => made,
        // There is no puzzle to complete yet: the board has no such tour to make one from.
        Err(reason) => {
            return Err(
                CliError::no_tour(format!("no {board} puzzle: {}", reason.reason())).into(),
            );
        }
    };
    if args.seed.is_none() {
        eprintln!("note: made from seed {seed}; --seed {seed} makes this puzzle again");
    }
    if let Some(wanted) = args.clues
        && made.clues > wanted
    {
        eprintln!(
            "note: {} given numbers is the fewest seed {seed} reaches (each one is needed for the completion to be the only one); not {wanted}",
            made.clues
        );
    }
    let about = format!(
        "a {board} knight's tour puzzle with one {} completion: {} given numbers (knights puzzle --make {} {}{} --seed {seed})",
        if args.closed { "closed" } else { "open" },
        made.clues,
        board.rows(),
        board.cols(),
        if args.closed { " --closed" } else { "" },
    );
    Ok(match format {
        TourFormat::Json => to_json(&MadeRecord::new(&made, seed)),
        TourFormat::Svg | TourFormat::AnimatedSvg => {
            output::puzzle_svg(board, made.puzzle.cells(), &about)
        }
        TourFormat::Board => format!("# {about}\n{}", made.puzzle.to_text()),
    })
}
