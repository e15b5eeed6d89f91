//! The command line: the global options, one file per command under [`commands`], and the
//! pieces they share (flag groups, value parsers, the session, exit codes, input and output).

pub mod commands;
pub mod exit;
pub mod flags;
pub mod io;
pub mod session;
pub mod values;

use std::path::PathBuf;

use anyhow::Result;
use clap::{Parser, Subcommand};
use knights::{CancelFlag, MemoryBudget};

use commands::{
    batch, completions, count, export, import, man, precompute, puzzle, query, series, serve,
    shards, solve, tour, verify,
};
use session::Session;

const EXAMPLES: &str = "\
Examples:
  knights count 5 4 0 0                     open tours from a corner of 5x4: 32
  knights count 6 6                         the per-square table of 6x6 and its totals
  printf '2\\n5 4 0 0\\n3 4 0 0\\n' | knights solve   the judge format: prints 32 and 2
  knights batch queries.txt --format csv    many queries, answered from the store where it can
  knights precompute --max-squares 30       fill the store with every board up to 30 squares
  knights query --board 5x5                 list what the store knows
  knights verify --recount                  check the stored answers, and count them again
  knights count 6 8 --total                 the open tours of 6x8, without the per-square table
  knights series 3 --cols 4..40 --closed    closed tours of every 3xn board, one line each
  knights tour 8 8 0 0                      one tour, printed as step numbers on the board
  knights puzzle --make 6 6 | knights puzzle   make a puzzle with one completion, and solve it
  knights serve                             a page to explore boards and watch tours, and a JSON API
  knights shards plan 7 7 -o plan.jsonl     split a board's count for many machines (see its help)
  knights series 5 --cols 1..40 --format bfile   the series as an OEIS b-file
  knights completions bash > FILE           tab completion (which FILE, and zsh, fish: its help)
  knights man > knights.1; man ./knights.1  the manual page

Every answer is kept in the answer store (an SQLite file): --db PATH, else $KNIGHTS_DB, else
knights/answers.db in your data directory (~/.local/share on Linux).";

/// The version, with the commit it was built from when build.rs could tell.
const VERSION: &str = env!("KNIGHTS_VERSION");

/// Count knight's tours on rectangular boards, exactly, and remember every answer.
#[derive(Debug, Parser)]
#[command(name = "knights", version = VERSION, after_help = EXAMPLES)]
pub struct Cli {
    /// The answer store (an SQLite file). Default: $KNIGHTS_DB, else knights/answers.db in the
    /// user's data directory.
    #[arg(long, global = true, value_name = "PATH", env = "KNIGHTS_DB")]
    db: Option<PathBuf>,

    /// Compute without reading or writing the answer store.
    #[arg(long, global = true)]
    no_cache: bool,

    /// Do not add the results that ship with knights (the 7x7, 7x8 and 8x8 tables, 8x8's
    /// pairs) to the answer store: a store of only what was computed or imported here, e.g. to
    /// count them again independently.
    #[arg(
        long,
        global = true,
        env = "KNIGHTS_NO_SHIPPED",
        // `KNIGHTS_NO_SHIPPED=1` (or true, yes, on; 0, false, no, off say no).
        value_parser = clap::builder::BoolishValueParser::new(),
        hide_short_help = true
    )]
    no_shipped: bool,

    /// Memory the counting engines may use, e.g. 512M or 4G; by default three quarters of this
    /// machine's memory. When it is full, the memo engine goes on, slower, without keeping more
    /// states; the frontier engine stops with a message (under `--engine auto` the memo engine
    /// then takes over where it can).
    #[arg(
        long,
        global = true,
        value_name = "SIZE",
        env = "KNIGHTS_MEMORY",
        // `--memory -1` is a size to refuse as such, not an option clap does not know.
        allow_hyphen_values = true,
        default_value_t = MemoryBudget::for_this_machine()
    )]
    memory: MemoryBudget,

    /// A directory where tours between two squares keep the halves they meet in the middle
    /// with, for the other pairs of the board that share them: each half is computed once
    /// (8x8's take gigabytes each). Made if missing.
    // Only for counting 8x8's pairs: out of `-h`.
    #[arg(
        long,
        global = true,
        value_name = "DIR",
        env = "KNIGHTS_HALVES",
        hide_short_help = true
    )]
    halves: Option<PathBuf>,

    /// A directory where a frontier pass saves its layer every `--checkpoint-every` minutes
    /// (and when stopped by Ctrl-C or SIGTERM, at its square's end), so that the same command
    /// run again goes on from there: a killed run or a scheduler's time limit loses at most
    /// those minutes. Made if missing.
    #[arg(
        long,
        global = true,
        value_name = "DIR",
        env = "KNIGHTS_CHECKPOINT",
        hide_short_help = true
    )]
    checkpoint: Option<PathBuf>,

    /// How often a pass saves its layer into `--checkpoint`, in minutes (0: at every square).
    #[arg(
        long,
        global = true,
        value_name = "MINUTES",
        default_value = "10",
        value_parser = values::parse_minutes,
        requires = "checkpoint",
        hide_short_help = true
    )]
    checkpoint_every: std::time::Duration,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count open tours from one square, or from every square of a board.
    Count(count::Args),
    /// Answer the judge format: T, then T lines `ROWS COLS ROW COL`; prints one count per line.
    Solve(solve::Args),
    /// Answer a file of queries: the judge format, or one `ROWS COLS ROW COL` per line.
    Batch(batch::Args),
    /// Fill the answer store for a range of boards: every start square and the board totals.
    Precompute(precompute::Args),
    /// List the answers in the store.
    Query(query::Args),
    /// Write stored answers to a CSV or JSON file (for `knights import`).
    Export(export::Args),
    /// Add answers from a CSV or JSON export to the store, after checking every record.
    Import(import::Args),
    /// Print the totals of the boards ROWS x n for a range of n: one line per board.
    Series(series::Args),
    /// Find one tour and show it: open from a square, or closed.
    Tour(tour::Args),
    /// Complete a board with some step numbers given (a knight's tour puzzle), count its
    /// completions, or make a puzzle with exactly one.
    Puzzle(puzzle::Args),
    /// Check the stored answers (consistency, theorems, bounds, the file), and with --recount
    /// count them again; exits with 1 on any problem.
    Verify(verify::Args),
    /// Serve a web page to explore boards and watch tours, and a JSON API over the store.
    Serve(serve::Args),
    /// Count one board on many machines: plan its shards, run workers into stores of their
    /// own, merge them (plan, run, merge, status).
    Shards(shards::Args),
    /// Print a completion script for bash, zsh or fish (see its help to install it).
    Completions(completions::Args),
    /// Print the manual page (roff): `knights man > knights.1; man ./knights.1`.
    Man(man::Args),
}

/// Runs the command `cli` names.
pub fn run(cli: Cli, cancel: &CancelFlag) -> Result<()> {
    // No command's output may replace the store, whether or not the command opens it.
    if let Some(path) = cli.db.clone().or_else(knights::store::default_path) {
        io::guard_store(path);
    }
    if let Some(dir) = &cli.checkpoint {
        cancel.save_passes(knights::Checkpointing::new(dir, cli.checkpoint_every)?);
    }
    let session = Session {
        db: cli.db,
        no_cache: cli.no_cache,
        no_shipped: cli.no_shipped,
        memory: cli.memory,
        halves: cli.halves,
        cancel: cancel.clone(),
    };
    let result = match cli.command {
        Command::Count(args) => count::run(args, &session),
        Command::Solve(args) => solve::run(args, &session),
        Command::Batch(args) => batch::run(args, &session),
        Command::Precompute(args) => precompute::run(args, &session),
        Command::Query(args) => query::run(args, &session),
        Command::Export(args) => export::run(args, &session),
        Command::Import(args) => import::run(args, &session),
        Command::Series(args) => series::run(args, &session),
        Command::Tour(args) => tour::run(args, &session),
        Command::Puzzle(args) => puzzle::run(args, &session),
        Command::Verify(args) => verify::run(args, &session),
        Command::Serve(args) => serve::run(args, &session),
        Command::Shards(args) => shards::run(args, &session),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => man::run(args),
    };
    // Once a signal asked the work to stop, a read that failed on it (an input stops at its
    // next buffer) is that interruption, not bad input. (The cancel flag alone does not say:
    // the library also sets it to stop the other tasks when one fails.)
    match result {
        Err(e) if io::reading_stopped() && exit::exit_code(&e) != exit::INTERRUPTED => {
            Err(knights::Error::Interrupted.into())
        }
        other => other,
    }
}
