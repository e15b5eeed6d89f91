//! The records of one file together: records of one question agree, a total is the sum of
//! its starts in the file (at least the sum of those it has), and a start the sum of its
//! pairs, on boards with pairs in the file. What the store adds is the gate's to check.

use std::collections::{HashMap, HashSet};

use num_bigint::BigUint;

use crate::board::Board;
use crate::echo::echo;
use crate::input::InputError;
use crate::question::{Question, Shape};
use crate::store::Answer;
use crate::trust::{self, Parts};

/// Records of one question agree, and complete boards add up to their totals.
pub(super) fn check_consistency(answers: &[(usize, Answer)]) -> Result<(), InputError> {
    let mut seen: HashMap<Question, (usize, &BigUint)> = HashMap::new();
    for (line, answer) in answers {
        if let Some(&(first, count)) = seen.get(&answer.question) {
            if *count != answer.count {
                return Err(InputError::at(
                    *line,
                    format!(
                        "{} is {} here but {} on line {first}",
                        answer.question,
                        echo(&answer.count.to_string()),
                        echo(&count.to_string())
                    ),
                ));
            }
        } else {
            seen.insert(answer.question, (*line, &answer.count));
        }
    }
    // Starts against their pairs (on the boards with pairs in the file), then totals against
    // their starts.
    let with_pairs: HashSet<Board> = seen
        .keys()
        .filter(|q| matches!(q.shape(), Shape::Between(..)))
        .map(|q| q.board)
        .collect();
    for parts in [Parts::Pairs, Parts::Starts] {
        for (line, answer) in answers {
            let q = answer.question;
            let checked = match parts {
                Parts::Pairs if !with_pairs.contains(&q.board) => continue,
                // A board has at least one class of starts per 8 squares: with more squares
                // than 8 times the records, the file cannot hold them all, and listing a huge
                // board's starts would take long.
                Parts::Starts if q.board.squares() > 8 * answers.len() as u64 => continue,
                _ => trust::check_parts(&q, &answer.count, parts, |part| {
                    seen.get(part).map(|&(_, count)| count)
                }),
            };
            if let Err(fault) = checked {
                return Err(InputError::at(
                    *line,
                    format!(
                        "{} is {}, but {} {}",
                        fault.subject(&q),
                        echo(&answer.count.to_string()),
                        fault.words("this file"),
                        echo(&fault.sum.to_string())
                    ),
                ));
            }
        }
    }
    Ok(())
}
