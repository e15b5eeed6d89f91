//! `knights shards plan|run|merge|status`: one board's open-tour table, counted as independent
//! shards by many workers (each with a store file of its own), then merged. The work is the
//! library's ([`knights::shards`]); this file parses, dispatches and prints.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;
use clap::{Subcommand, ValueEnum};
use knights::Board;
use knights::input::plural;
use knights::resolve::Settings;
use knights::shards::worker::{self, Assignment, Source, WorkerError};
use knights::shards::{self, Plan, PlanFormat, ShardError, Split, StoreAnswers};
use knights::store::Store;

use crate::cli::exit::CliError;
use crate::cli::flags::EngineArgs;
use crate::cli::io::{WorkBar, in_file, open_input, print, write_file};
use crate::cli::session::Session;
use crate::cli::values::{CountFormatArg, EngineArg, parse_side};

#[derive(Debug, clap::Args)]
#[command(after_help = "\
A board's per-square table of open tours is a weighted sum of independent questions: one per
symmetry class of start squares (--by start), or of (start, end) pairs (--by pair, the default
on boards whose counts from one square are beyond one machine, such as 8x8), or both
(--by both: the merge checks every start against the sum of its pairs). A plan lists them as
shards; each worker computes its share into its own store file (--db), on any machine and under
any scheduler (with --replicas 2, every shard is computed by two different workers); a merge
checks every shard as an import is checked, the copies against each other, and adds them up.

Examples:
  knights shards plan 6 6 -o plan.jsonl
  knights --db w0.db shards run plan.jsonl --worker 0 --workers 3     (and 1, 2 elsewhere)
  knights shards status plan.jsonl --from w0.db w1.db w2.db
  knights shards merge plan.jsonl --from w0.db w1.db w2.db            the table of 6x6")]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Write the plan of a board: its shards, with ids, questions, weights and estimates.
    Plan(PlanArgs),
    /// Compute one worker's shards into the store (--db); repeat it after an interruption.
    Run(RunArgs),
    /// Check the workers' stores, add the shards up, store the table and print it.
    Merge(MergeArgs),
    /// How many shards are done, which are missing, and the time spent so far.
    Status(StatusArgs),
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum SplitArg {
    /// One shard per symmetry class of start squares.
    Start,
    /// One shard per class of ordered (start, end) pairs (the count of a pair equals its
    /// reverse's).
    Pair,
    /// The shards by start and the shards by pair: the merge checks every start against the
    /// sum of its pairs, two different computations of one count.
    Both,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum PlanFormatArg {
    /// One JSON object per line.
    Jsonl,
    /// CSV after a `#` header line.
    Csv,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "\
The plan (JSON lines by default) starts with a header that describes the board, the split and
the plan's version (and \"replicas\":N at its end when each shard goes to N > 1 workers):
  {\"plan\":\"knights shards\",\"version\":1,\"rows\":6,\"cols\":7,\"by\":\"start\",\"shards\":12,\"weight\":42}
then one line per shard:
  {\"id\":\"6x7-s0\",\"rows\":6,\"cols\":7,\"row\":0,\"col\":0,\"weight\":4,\"estimate\":42}
  - id: BOARD-sN (by start) or BOARD-pN (by pair) on the board turned to rows <= cols; N is the
    shard's place among the shards of its split (by both: the shards by start, then by pair,
    with the ids of their own plans). Ids never change for a board and split within a plan
    version.
  - rows, cols, row, col (and to_row, to_col by pair): the canonical question.
  - weight: how many squares (by start) or ordered pairs of distinct squares (by pair) of the
    board the question stands for. Weights add up to the squares, or squares x (squares - 1),
    or by both to squares x squares.
  - estimate: a relative cost, not a time (only ratios within one plan mean anything): where the
    frontier engine meets in the middle, one join plus the squares its pass takes before each
    fixed end above the cut (measured: earlier ends cost more); elsewhere the board's squares
    for every shard; 0 for a zero that a theorem decides (by pair: the colour rule, the two ends
    of an open tour differ in colour on an even board and are both of the corners' colour on an
    odd one). These zeros are in the plan, so that the weights account for every pair; they cost
    nothing to run.
CSV has the header as a comment line `# knights shards plan version=1 rows=... by=...` (and
` replicas=N`), then
`id,rows,cols,row,col,to_row,to_col,weight,estimate` (to_row, to_col empty by start).

Reading a plan checks it against the plan of its board and split; a changed, repeated, missing
or truncated line is refused with its line number (exit 2).

Examples:
  knights shards plan 6 6 -o plan.jsonl
  knights shards plan 8 8 --by pair --format csv -o plan.csv
  knights shards plan 7 7 --replicas 2 -o plan.jsonl       every shard for two workers
  knights shards plan 6 6 --by both -o plan.jsonl          starts checked against their pairs")]
struct PlanArgs {
    /// Number of rows.
    #[arg(value_parser = parse_side)]
    rows: u32,
    /// Number of columns.
    #[arg(value_parser = parse_side)]
    cols: u32,
    /// One shard per class of start squares, or per class of (start, end) pairs, or both. By
    /// default `start`, except on boards whose counts from one square are beyond one machine
    /// (8x8, and 7xn from n = 9 on): `pair` there.
    #[arg(long, value_enum)]
    by: Option<SplitArg>,
    /// How many different workers compute each shard (1 to 9): the merge takes a shard only
    /// where its copies agree, and names the shard and both stores where they do not.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=9))]
    replicas: u32,
    /// The plan's format.
    #[arg(long, value_enum, default_value_t = PlanFormatArg::Jsonl)]
    format: PlanFormatArg,
    /// The file to write (replaced only once complete), or `-` for standard output.
    #[arg(long, short, value_name = "FILE", default_value = "-")]
    output: PathBuf,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Worker I of N computes the shards whose place in the plan is I modulo N, into the store given by
--db (or $KNIGHTS_DB): give every worker a store file of its own. Without --worker, I comes from
the scheduler: a Slurm job array's $SLURM_ARRAY_TASK_ID, or a Kubernetes Indexed Job's
$JOB_COMPLETION_INDEX; N from --workers, else $KNIGHTS_WORKERS, else (Slurm only) the array's
size $SLURM_ARRAY_TASK_COUNT when the array is 0-(N-1) (a task resubmitted alone, --array=2, is
an array of one: give --workers there). The line it starts with says which it used. With neither
--worker nor a scheduler's index: exit 2. A plan with replicas R gives
copy c of the shard at place P to worker (P + c x floor(N / R)) modulo N, so N must be at least R
and the copies go to different workers. What the store already has is skipped and every answer
is saved as it is finished, so a worker that was stopped (Ctrl-C, a kill, a lost machine) is
simply run again.

Examples:
  knights --db w1.db shards run plan.jsonl --worker 1 --workers 4
  knights --db \"w$SLURM_ARRAY_TASK_ID.db\" shards run plan.jsonl --workers 4     in sbatch --array=0-3
  knights --db w1.db shards run plan.jsonl --shard 6x6-s3")]
struct RunArgs {
    /// The plan file (`-` for standard input).
    plan: PathBuf,
    /// This worker's number, from 0 to N-1 [default: the scheduler's index].
    #[arg(long, value_name = "I", allow_negative_numbers = true)]
    worker: Option<u64>,
    /// The number of workers N [default: $KNIGHTS_WORKERS, a Slurm array's size, or 1 with
    /// --worker].
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    workers: Option<u64>,
    /// Only this shard (instead of a worker's share).
    #[arg(long, value_name = "ID", conflicts_with_all = ["worker", "workers"])]
    shard: Option<String>,
    #[command(flatten)]
    engine: EngineArgs,
    /// One shard at a time, with the whole memory budget (every core still works inside it):
    /// for shards that each need most of the memory, as 8x8's pairs do. By default shards run
    /// side by side, sharing the budget.
    #[arg(long, hide_short_help = true)]
    one_at_a_time: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Every store is read, never written; every shard must be in one of them (in as many different
stores as the plan's replicas), with the same count in every store that has it (else the shard
and both stores are named, exit 2). Replicas come from different workers: one file under two
names (a link) or a copy of a store (the same computations, at the same time in the same
seconds) is refused naming both (exit 2). A worker's store is checked as an import is: a count that
no theorem, parity or bound allows, that a recount refutes (boards of at most 36 squares), or
that differs from the store of --db is refused naming the record and its store (exit 2). Then
the per-square table and the board's open total are stored in the store of --db (or
$KNIGHTS_DB) as ordinary answers (source `merged from FILE`), all or nothing, and the table is
printed as `knights count` prints it. By pair, the pairs are stored too, and each start's count
is the sum of its pairs (every tour from it ends on another square): engine `sum`, source `sum
of pairs`. By both, every start must be the sum of its pairs (else the start, its store and the
sum are named, exit 2). Shards not all computed yet: exit 1. A refused merge into a store not
yet created leaves no file.

Examples:
  knights shards merge plan.jsonl --from w0.db w1.db w2.db
  knights shards merge plan.jsonl --from results/*.db --format json")]
struct MergeArgs {
    /// The plan file (`-` for standard input).
    plan: PathBuf,
    /// The workers' stores; by default the store of --db (or $KNIGHTS_DB) alone.
    #[arg(long, value_name = "STORE", num_args = 1..)]
    from: Vec<PathBuf>,
    /// Output format.
    #[arg(long, short, value_enum, default_value_t = CountFormatArg::Table)]
    format: CountFormatArg,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "\
A shard is done when it is in as many different stores as the plan's replicas (one, unless the
plan says) and its copies agree; the others are listed as missing, in fewer stores than the
replicas, or conflicting.

Example:
  knights shards status plan.jsonl --from w0.db w1.db w2.db")]
struct StatusArgs {
    /// The plan file (`-` for standard input).
    plan: PathBuf,
    /// The workers' stores; by default the store of --db (or $KNIGHTS_DB) alone.
    #[arg(long, value_name = "STORE", num_args = 1..)]
    from: Vec<PathBuf>,
}

pub fn run(args: Args, session: &Session) -> Result<()> {
    match args.command {
        Command::Plan(args) => plan(args),
        Command::Run(args) => run_worker(args, session),
        Command::Merge(args) => merge(args, session),
        Command::Status(args) => status(args, session),
    }
}

fn plan(args: PlanArgs) -> Result<()> {
    let board = Board::new(args.rows, args.cols)?;
    let split = match args.by {
        Some(SplitArg::Start) => Split::Start,
        Some(SplitArg::Pair) => Split::Pair,
        Some(SplitArg::Both) => Split::Both,
        None => Split::default_for(board),
    };
    let format = match args.format {
        PlanFormatArg::Jsonl => PlanFormat::Jsonl,
        PlanFormatArg::Csv => PlanFormat::Csv,
    };
    let plan = Plan::new(board, split)
        .and_then(|plan| plan.with_replicas(args.replicas))
        .map_err(with_flags)?;
    write_file(&args.output, &shards::write_plan(&plan, format))?;
    if args.output.as_os_str() != "-" {
        let copies = match plan.replicas {
            1 => String::new(),
            n => format!(", each for {n} workers"),
        };
        eprintln!(
            "wrote the plan of {board} by {split}: {} shards{copies}, to {}",
            plan.shards.len(),
            args.output.display()
        );
    }
    Ok(())
}

/// A refusal of the shards' library, with the names of this command's options where it
/// speaks of what they set.
fn with_flags(e: ShardError) -> anyhow::Error {
    let message = match &e {
        ShardError::NoPairs(_) => format!("{e}; use --by start"),
        ShardError::Workers {
            worker,
            workers,
            replicas,
        } => {
            if *workers == 0 {
                "--workers must be at least 1".to_string()
            } else if *workers < u64::from(*replicas) {
                format!(
                    "--workers {workers} is too few: the plan gives each shard to {replicas} different workers"
                )
            } else {
                format!(
                    "--worker {worker} is not below --workers {workers}: workers are numbered 0 to {}",
                    workers - 1
                )
            }
        }
        _ => return e.into(),
    };
    CliError::bad_input(message).into()
}

fn read_plan(path: &Path) -> Result<Plan> {
    let (name, reader) = open_input(path)?;
    shards::read_plan(reader).map_err(|e| in_file(&name, e))
}

fn run_worker(args: RunArgs, session: &Session) -> Result<()> {
    let plan = read_plan(&args.plan)?;
    let mut who = String::new();
    let mine = match &args.shard {
        Some(id) => vec![plan.shard(id).ok_or_else(|| {
            CliError::bad_input(format!(
                "{id} is not a shard of the plan {} ({} by {}: ids {} to {})",
                args.plan.display(),
                plan.board,
                plan.split,
                plan.shards[0].id,
                plan.shards[plan.shards.len() - 1].id
            ))
        })?],
        None => {
            let me = assignment(&args)?;
            let mine = plan
                .for_worker(me.worker, me.workers)
                .map_err(|e| scheduled(e, &me))?;
            if me.from_scheduler() {
                eprintln!(
                    "shards run: worker {} of {} ({})",
                    me.worker,
                    me.workers,
                    sources(&me)
                );
            }
            who = format!("worker {} of {}", me.worker, me.workers);
            mine
        }
    };
    let mut store = session.writable_store("shards run", false)?;
    let settings = Settings {
        one_at_a_time: args.one_at_a_time,
        ..session.settings(args.engine.engine)
    };
    let clock = Instant::now();
    let bar = WorkBar::new(args.quiet, &session.cancel);
    let report = shards::run(&mine, &mut store, &settings, &mut |event| bar.report(event));
    drop(bar);
    let report = report?;
    if let Some(id) = &args.shard {
        who = format!("shard {id}");
    }
    eprintln!(
        "{who}: {} {}, {} computed, {} already stored, {:.3} s; store {}",
        mine.len(),
        plural(mine.len(), "shard", "shards"),
        report.computed,
        report.skipped,
        clock.elapsed().as_secs_f64(),
        store.path()
    );
    Ok(())
}

/// This worker's number and the number of workers: the options, else the scheduler's
/// environment ([`worker::assign`]).
fn assignment(args: &RunArgs) -> Result<Assignment> {
    let var = |name: &str| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned());
    worker::assign(args.worker, args.workers, var).map_err(|e| {
        let remedy = match e {
            WorkerError::NoIndex | WorkerError::TwoSchedulers => "; give --worker I --workers N",
            WorkerError::NoCount { .. } | WorkerError::PartialArray { .. } => {
                "; give --workers N (or set KNIGHTS_WORKERS)"
            }
            WorkerError::NotANumber { .. } => "",
        };
        CliError::bad_input(format!("{e}{remedy}")).into()
    })
}

/// Where the worker's numbers came from, in the options' and variables' names:
/// `SLURM_ARRAY_TASK_ID=2, --workers 4`.
fn sources(me: &Assignment) -> String {
    let name = |source: Source, value: u64, option: &str| match source {
        Source::Given => format!("{option} {value}"),
        Source::Var(var) => format!("{var}={value}"),
        Source::SlurmMax => format!("{}={}", worker::SLURM_MAX, value - 1),
        Source::One => "one worker".to_string(),
    };
    format!(
        "{}, {}",
        name(me.worker_from, me.worker, "--worker"),
        name(me.workers_from, me.workers, "--workers")
    )
}

/// A refusal of the worker's numbers, named as they were given: the options, or the
/// scheduler's variables.
fn scheduled(e: ShardError, me: &Assignment) -> anyhow::Error {
    match e {
        ShardError::Workers { .. } if me.from_scheduler() || me.workers_from != Source::Given => {
            CliError::bad_input(format!("{e} ({})", sources(me))).into()
        }
        e => with_flags(e),
    }
}

/// The stores named by --from, else the session's store, each read for the plan's shards.
fn read_stores(plan: &Plan, from: &[PathBuf], session: &Session) -> Result<Vec<StoreAnswers>> {
    let paths = if from.is_empty() {
        vec![session.store_path()?]
    } else {
        from.to_vec()
    };
    paths
        .iter()
        .map(|path| {
            let store = Store::open_read_only(path).map_err(knights::Error::from)?;
            Ok(StoreAnswers::read(&store, plan)?)
        })
        .collect()
}

fn merge(args: MergeArgs, session: &Session) -> Result<()> {
    let plan = read_plan(&args.plan)?;
    let stores = read_stores(&plan, &args.from, session)?;
    let settings = session.settings(EngineArg::Auto);
    // A merge refused into a store not yet created leaves no file.
    if let Some(mut trial) = session.trial_store()? {
        shards::merge_into(&mut trial, &plan, &stores, &settings)?;
    }
    let mut store = session.writable_store("shards merge", false)?;
    let (merged, report) = shards::merge_into(&mut store, &plan, &stores, &settings)?;
    eprintln!(
        "merged {} shards of {} by {} from {} {} into {}: {} new {}, {} already stored",
        plan.shards.len(),
        plan.board,
        plan.split,
        stores.len(),
        plural(stores.len(), "store", "stores"),
        store.path(),
        report.added,
        plural(report.added, "answer", "answers"),
        report.already_stored
    );
    let text = match args.format.format() {
        Some(format) => format.exporter().table(&merged.table)?,
        None => knights::output::heatmap(&merged.table),
    };
    print(&text)
}

fn status(args: StatusArgs, session: &Session) -> Result<()> {
    let plan = read_plan(&args.plan)?;
    let stores = read_stores(&plan, &args.from, session)?;
    let status = shards::status(&plan, &stores);
    let mut text = format!(
        "{} by {}: {} of {} shards done ({:.1}% of the estimate), {:.3} s of computing so far\n",
        plan.board,
        plan.split,
        status.done,
        status.shards,
        status.fraction * 100.0,
        status.seconds
    );
    let ids =
        |ids: &[String]| shards::abbreviate(&ids.iter().map(String::as_str).collect::<Vec<_>>());
    if !status.missing.is_empty() {
        text.push_str(&format!("missing: {}\n", ids(&status.missing)));
    }
    if !status.short.is_empty() {
        text.push_str(&format!(
            "in fewer than {} stores: {}\n",
            plan.replicas,
            ids(&status.short)
        ));
    }
    if !status.conflicting.is_empty() {
        text.push_str(&format!(
            "conflicting counts (a merge will refuse them): {}\n",
            ids(&status.conflicting)
        ));
    }
    print(&text)?;
    // As a merge refuses an unfinished plan: 0 only when every shard is done.
    if status.done < status.shards {
        return Err(CliError {
            code: 1,
            message: format!(
                "{} of the plan's {} shards are not done",
                status.shards - status.done,
                status.shards
            ),
        }
        .into());
    }
    Ok(())
}
