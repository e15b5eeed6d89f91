//! Which worker of how many this process is: as given, or from the scheduler that started it.
//!
//! A Slurm job array gives each task its index in `SLURM_ARRAY_TASK_ID` and the array's size
//! in `SLURM_ARRAY_TASK_COUNT` (and its bounds in `SLURM_ARRAY_TASK_MIN`/`MAX`); a Kubernetes
//! Indexed Job gives each pod its index in `JOB_COMPLETION_INDEX`, but not the job's
//! completions, which come from the command line or from [`WORKERS_VAR`]. An array's size is
//! the number of workers only when the array is `0-(N-1)`: a task resubmitted alone
//! (`--array=2`) is an array of one task, so its count is refused, never taken for the
//! workers, and the number of workers must then be given.

use std::fmt;

use crate::echo::echo;

/// The task's index in a Slurm job array.
pub const SLURM_INDEX: &str = "SLURM_ARRAY_TASK_ID";
/// How many tasks the Slurm job array has.
pub const SLURM_COUNT: &str = "SLURM_ARRAY_TASK_COUNT";
/// The array's lowest index.
pub const SLURM_MIN: &str = "SLURM_ARRAY_TASK_MIN";
/// The array's highest index.
pub const SLURM_MAX: &str = "SLURM_ARRAY_TASK_MAX";
/// The step between the array's indices (`--array=0-6:2`).
pub const SLURM_STEP: &str = "SLURM_ARRAY_TASK_STEP";
/// The pod's index in a Kubernetes Indexed Job.
pub const KUBERNETES_INDEX: &str = "JOB_COMPLETION_INDEX";
/// The number of workers, for a scheduler that does not say it (a Kubernetes Indexed Job's
/// `completions`).
pub const WORKERS_VAR: &str = "KNIGHTS_WORKERS";

/// Where a number came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Given by the caller (the command line's options).
    Given,
    /// An environment variable.
    Var(&'static str),
    /// Slurm's `SLURM_ARRAY_TASK_MAX` + 1 (an array `0-MAX` without a count).
    SlurmMax,
    /// Nothing gave it: one worker.
    One,
}

/// This process's worker number and the number of workers, and where each came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// The worker's number, below `workers`.
    pub worker: u64,
    /// How many workers there are.
    pub workers: u64,
    /// Where `worker` came from.
    pub worker_from: Source,
    /// Where `workers` came from.
    pub workers_from: Source,
}

impl Assignment {
    /// Whether a scheduler's environment gave the worker's number.
    pub fn from_scheduler(&self) -> bool {
        matches!(self.worker_from, Source::Var(_))
    }
}

/// Why the worker's number or the number of workers cannot be known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WorkerError {
    /// Neither given nor set by a scheduler.
    #[error(
        "no worker number: none was given, and no Slurm job array ({SLURM_INDEX}) or Kubernetes Indexed Job ({KUBERNETES_INDEX}) set one"
    )]
    NoIndex,
    /// Both schedulers' variables are set.
    #[error("both {SLURM_INDEX} and {KUBERNETES_INDEX} are set: which worker this is is unclear")]
    TwoSchedulers,
    /// A variable that is not a number.
    #[error("{var} is '{}', not a number", echo(value))]
    NotANumber {
        /// The variable.
        var: &'static str,
        /// What it holds.
        value: String,
    },
    /// An index from the environment but no number of workers.
    #[error("{index} gives this worker's number but not the number of workers")]
    NoCount {
        /// The variable that gave the index.
        index: &'static str,
    },
    /// A Slurm array that is not `0-(N-1)`, so that its size is not the number of workers.
    #[error(
        "the Slurm job array is {min}-{max}{step} ({count} {tasks}), not 0-(N-1): its size is not the number of workers{alone}",
        step = if *step > 1 { format!(":{step}") } else { String::new() },
        tasks = if *count == 1 { "task" } else { "tasks" },
        alone = if *count == 1 { " (a task resubmitted alone?)" } else { "" },
    )]
    PartialArray {
        /// `SLURM_ARRAY_TASK_MIN`.
        min: u64,
        /// `SLURM_ARRAY_TASK_MAX`.
        max: u64,
        /// `SLURM_ARRAY_TASK_STEP` (1 when unset).
        step: u64,
        /// `SLURM_ARRAY_TASK_COUNT`, or the count the bounds and step imply.
        count: u64,
    },
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Given => f.write_str("given"),
            Source::Var(var) => f.write_str(var),
            Source::SlurmMax => write!(f, "{SLURM_MAX} + 1"),
            Source::One => f.write_str("one worker"),
        }
    }
}

/// The worker's number and the number of workers: `worker` and `workers` where given;
/// otherwise the number of workers from [`WORKERS_VAR`], and the worker's number (and, in a
/// Slurm array `0-(N-1)`, the number of workers) from the scheduler's variables, read through
/// `var`. With `worker` given and no number of workers, one worker. Does not check that the
/// worker is below the workers: [`Plan::for_worker`](super::Plan::for_worker) does.
pub fn assign(
    worker: Option<u64>,
    workers: Option<u64>,
    var: impl Fn(&str) -> Option<String>,
) -> Result<Assignment, WorkerError> {
    let number = |name: &'static str| -> Result<Option<u64>, WorkerError> {
        match var(name) {
            None => Ok(None),
            Some(value) => match value.trim().parse::<u64>() {
                Ok(n) => Ok(Some(n)),
                Err(_) => Err(WorkerError::NotANumber { var: name, value }),
            },
        }
    };
    let count = match workers {
        Some(n) => Some((n, Source::Given)),
        None => number(WORKERS_VAR)?.map(|n| (n, Source::Var(WORKERS_VAR))),
    };
    if let Some(worker) = worker {
        let (workers, workers_from) = count.unwrap_or((1, Source::One));
        return Ok(Assignment {
            worker,
            workers,
            worker_from: Source::Given,
            workers_from,
        });
    }
    let (index, index_var) = match (number(SLURM_INDEX)?, number(KUBERNETES_INDEX)?) {
        (Some(_), Some(_)) => return Err(WorkerError::TwoSchedulers),
        (Some(i), None) => (i, SLURM_INDEX),
        (None, Some(i)) => (i, KUBERNETES_INDEX),
        (None, None) => return Err(WorkerError::NoIndex),
    };
    let (workers, workers_from) = match count {
        Some(count) => count,
        None if index_var == SLURM_INDEX => slurm_count(&number)?,
        None => return Err(WorkerError::NoCount { index: index_var }),
    };
    Ok(Assignment {
        worker: index,
        workers,
        worker_from: Source::Var(index_var),
        workers_from,
    })
}

/// The number of workers a Slurm array `0-(N-1)` stands for: its count, or its highest index
/// + 1 where Slurm gives no count.
fn slurm_count(
    number: &dyn Fn(&'static str) -> Result<Option<u64>, WorkerError>,
) -> Result<(u64, Source), WorkerError> {
    let count = number(SLURM_COUNT)?;
    let (min, max) = (number(SLURM_MIN)?, number(SLURM_MAX)?);
    let step = number(SLURM_STEP)?.unwrap_or(1).max(1);
    match (count, min, max) {
        (Some(count), min, max) => {
            let min = min.unwrap_or(0);
            let max = max.unwrap_or(count.saturating_sub(1));
            if min == 0 && step == 1 && max + 1 == count {
                Ok((count, Source::Var(SLURM_COUNT)))
            } else {
                Err(WorkerError::PartialArray {
                    min,
                    max,
                    step,
                    count,
                })
            }
        }
        (None, Some(min), Some(max)) if min <= max => {
            if min == 0 && step == 1 {
                Ok((max + 1, Source::SlurmMax))
            } else {
                Err(WorkerError::PartialArray {
                    min,
                    max,
                    step,
                    count: (max - min) / step + 1,
                })
            }
        }
        _ => Err(WorkerError::NoCount { index: SLURM_INDEX }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        }
    }

    fn pair(a: Result<Assignment, WorkerError>) -> (u64, u64) {
        let a = a.unwrap();
        (a.worker, a.workers)
    }

    #[test]
    fn given_numbers_win() {
        let slurm = [(SLURM_INDEX, "3"), (SLURM_COUNT, "4")];
        assert_eq!(pair(assign(Some(1), Some(2), env(&slurm))), (1, 2));
        let one = assign(Some(0), None, env(&[])).unwrap();
        assert_eq!(
            (one.worker, one.workers, one.workers_from),
            (0, 1, Source::One)
        );
        assert!(!one.from_scheduler());
        assert_eq!(
            pair(assign(Some(2), None, env(&[(WORKERS_VAR, "5")]))),
            (2, 5)
        );
    }

    #[test]
    fn slurm_arrays() {
        let full = [
            (SLURM_INDEX, "2"),
            (SLURM_COUNT, "4"),
            (SLURM_MIN, "0"),
            (SLURM_MAX, "3"),
        ];
        let a = assign(None, None, env(&full)).unwrap();
        assert_eq!((a.worker, a.workers), (2, 4));
        assert_eq!(a.worker_from, Source::Var(SLURM_INDEX));
        assert_eq!(a.workers_from, Source::Var(SLURM_COUNT));
        assert!(a.from_scheduler());
        // Without a count, the bounds.
        let bounds = [(SLURM_INDEX, "1"), (SLURM_MIN, "0"), (SLURM_MAX, "5")];
        let a = assign(None, None, env(&bounds)).unwrap();
        assert_eq!(
            (a.worker, a.workers, a.workers_from),
            (1, 6, Source::SlurmMax)
        );
        // A task resubmitted alone: its array's size is not the workers'.
        let alone = [
            (SLURM_INDEX, "2"),
            (SLURM_COUNT, "1"),
            (SLURM_MIN, "2"),
            (SLURM_MAX, "2"),
        ];
        let e = assign(None, None, env(&alone)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the Slurm job array is 2-2 (1 task), not 0-(N-1): its size is not the number of workers (a task resubmitted alone?)"
        );
        assert_eq!(pair(assign(None, Some(4), env(&alone))), (2, 4));
        assert_eq!(
            pair(assign(
                None,
                None,
                env(&[&alone[..], &[(WORKERS_VAR, "4")]].concat())
            )),
            (2, 4)
        );
        let stepped = [
            (SLURM_INDEX, "2"),
            (SLURM_COUNT, "2"),
            (SLURM_MIN, "0"),
            (SLURM_MAX, "2"),
            (SLURM_STEP, "2"),
        ];
        let e = assign(None, None, env(&stepped)).unwrap_err();
        assert!(matches!(e, WorkerError::PartialArray { step: 2, .. }));
        assert_eq!(
            e.to_string(),
            "the Slurm job array is 0-2:2 (2 tasks), not 0-(N-1): its size is not the number of workers"
        );
        assert_eq!(
            assign(None, None, env(&[(SLURM_INDEX, "0")])),
            Err(WorkerError::NoCount { index: SLURM_INDEX })
        );
    }

    #[test]
    fn kubernetes_indexed_jobs() {
        let pod = [(KUBERNETES_INDEX, "3")];
        assert_eq!(
            assign(None, None, env(&pod)),
            Err(WorkerError::NoCount {
                index: KUBERNETES_INDEX
            })
        );
        let a = assign(None, Some(4), env(&pod)).unwrap();
        assert_eq!((a.worker, a.workers, a.workers_from), (3, 4, Source::Given));
        let with_var = [(KUBERNETES_INDEX, "3"), (WORKERS_VAR, "8")];
        let a = assign(None, None, env(&with_var)).unwrap();
        assert_eq!(
            (a.worker, a.workers, a.workers_from),
            (3, 8, Source::Var(WORKERS_VAR))
        );
    }

    #[test]
    fn refusals() {
        assert_eq!(assign(None, Some(3), env(&[])), Err(WorkerError::NoIndex));
        assert_eq!(
            assign(
                None,
                None,
                env(&[(SLURM_INDEX, "1"), (KUBERNETES_INDEX, "1")])
            ),
            Err(WorkerError::TwoSchedulers)
        );
        assert_eq!(
            assign(None, Some(2), env(&[(KUBERNETES_INDEX, "x")])),
            Err(WorkerError::NotANumber {
                var: KUBERNETES_INDEX,
                value: "x".into()
            })
        );
        assert!(matches!(
            assign(Some(0), None, env(&[(WORKERS_VAR, "-1")])),
            Err(WorkerError::NotANumber {
                var: WORKERS_VAR,
                ..
            })
        ));
    }
}
