//! `knights tour`: find one tour and show it.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;
use knights::output;
use knights::{Board, Square};

use crate::cli::exit::CliError;
use crate::cli::flags::NoStoreFlags;
use crate::cli::io::{print, write_file};
use crate::cli::session::Session;
use crate::cli::values::{TourFormatArg, parse_coordinate, parse_side};

#[derive(Debug, clap::Args)]
#[command(
    allow_negative_numbers = true,
    after_help = "\
Prints the board with the step number of every square (1 at the start), or the squares in order
as JSON, or an SVG picture of the path (start: green disc, end: red square). Any board size:
small boards by search, large ones by a construction that cannot fail. Every tour is checked
before it is printed. When no tour exists, says why and exits with code 3.

With --to ROW2 COL2 the tour ends on that square: decided exactly where a theorem or the memo
engine's exhaustive search can (boards of at most 36 squares, with no time limit); on larger
boards the search stops after --time-limit seconds and says that it gave up (exit 1), which does
not mean that there is no such tour.

Examples:
  knights tour 8 8 0 0
  knights tour 6 6 0 0 --closed --format svg --output tour.svg
  knights tour 8 8 0 0 --format svg --animate --output tour.svg
  knights tour 6 6 0 0 --to 5 4
  knights tour 1000 1000 0 0 --format json --output big.json"
)]
pub struct Args {
    #[command(flatten)]
    unused: NoStoreFlags,
    /// Number of rows (at least 1).
    #[arg(value_parser = parse_side)]
    rows: u32,
    /// Number of columns (at least 1).
    #[arg(value_parser = parse_side)]
    cols: u32,
    /// Start row, 0-based.
    #[arg(value_parser = parse_coordinate)]
    row: u32,
    /// Start column, 0-based.
    #[arg(value_parser = parse_coordinate)]
    col: u32,
    /// A closed tour (the last square a knight's move from the first).
    #[arg(long, conflicts_with = "to")]
    closed: bool,
    /// An open tour that ends on this square (row and column, 0-based).
    #[arg(long, num_args = 2, value_names = ["ROW2", "COL2"], value_parser = parse_coordinate)]
    to: Option<Vec<u32>>,
    /// With --to on a board of more than 36 squares: seconds to search before giving up.
    #[arg(long, value_name = "SECONDS", requires = "to", default_value_t = knights::tour::BETWEEN_TIME_LIMIT.as_secs_f64())]
    time_limit: f64,
    /// Output format.
    #[arg(long, short, value_enum, default_value_t = TourFormatArg::Board)]
    format: TourFormatArg,
    /// With `--format svg`: an animated picture (the knight moves along the path, the step
    /// numbers appear as it goes; plays in a browser with no script).
    #[arg(long)]
    animate: bool,
    /// Write to this file (replaced only once complete) instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Picks among equally good moves: the same seed always gives the same tour.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print how the tour was found and the time taken on standard error.
    #[arg(long)]
    stats: bool,
}

pub fn run(args: Args, session: &Session) -> Result<()> {
    let format = args.format.with_animation(args.animate)?;
    let board = Board::new(args.rows, args.cols)?;
    let start = Square::new(args.row, args.col);
    board.check_square(start)?;
    knights::tour::check_memory(board, session.memory)?;
    let limit = Duration::try_from_secs_f64(args.time_limit)
        .ok()
        .filter(|limit| !limit.is_zero())
        .ok_or_else(|| CliError::bad_input("--time-limit must be a number of seconds above 0"))?;
    let clock = Instant::now();
    let found = match args.to.as_deref() {
        Some(&[row, col]) => knights::tour::find_tour_between(
            board,
            start,
            Square::new(row, col),
            args.seed,
            None,
            limit,
            &session.cancel,
        )?,
        _ => knights::tour::find_tour(board, start, args.closed, args.seed, &session.cancel)?,
    };
    match found {
        Ok((tour, method)) => {
            let seconds = clock.elapsed().as_secs_f64();
            let text = output::write_tour(&tour, method, format);
            match &args.output {
                Some(path) => write_file(path, &text)?,
                None => print(&text)?,
            }
            if args.stats {
                eprintln!("found by {method} in {seconds:.4} s");
            }
            Ok(())
        }
        Err(reason) => Err(CliError::no_tour(reason.to_string()).into()),
    }
}
