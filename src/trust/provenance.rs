//! How an answer is recorded: which engine name may stand behind which question, and the
//! seconds and time an answer carries. The one place these rules are written: an import reads
//! a record against them, the gate that admits answers to a store checks every answer against
//! them, and `knights verify` checks the store's.
//!
//! * An engine this build knows ([`KNOWN_ENGINES`]).
//! * [`SUM`] only for what is added up from other counts: an open board total (from its
//!   starts) and the open tours from a square (from its pairs).
//! * Never the memo engine or the reference for an open board total: they count the starts,
//!   and the total is their sum.
//! * [`THEOREM`] only for a zero that an existence theorem decides.
//! * Seconds from 0 to [`MAX_SECONDS`]; a time `YYYY-MM-DDTHH:MM:SSZ` that exists, from 1970 to
//!   a day past this machine's clock.

use std::fmt;

use crate::echo::echo;
use crate::existence::no_tour_for;
use crate::question::{Question, Shape, TourKind};
use crate::store::{Answer, SUM, THEOREM};

/// Engines whose answers are accepted (`theorem`: a zero decided by an existence theorem;
/// `sum`: an open board total added up from its starts, or a start's count from its pairs).
pub const KNOWN_ENGINES: [&str; 5] = ["memo", "frontier", "reference", THEOREM, SUM];

/// The release whose shipped results (`data/`) this build admits: its own version.
pub const RELEASE: &str = env!("CARGO_PKG_VERSION");

/// The source recorded for a shipped answer of file `name` whose record said `given`.
pub fn shipped_source(name: &str, given: &str) -> String {
    if given.is_empty() {
        format!("shipped with knights {RELEASE} ({name})")
    } else {
        format!("shipped with knights {RELEASE} ({name}: {given})")
    }
}

/// The most seconds an answer may have taken: ten years of computing.
pub const MAX_SECONDS: f64 = 10.0 * 365.25 * 86_400.0;

/// An engine name that cannot stand behind a question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFault {
    /// An engine this build does not know (the name as given).
    Unknown(String),
    /// [`SUM`] on a question that is no sum of other counts.
    NotASum(Question),
    /// The memo engine or the reference under an open board total.
    CountsStartsOnly(String),
    /// [`THEOREM`] where no theorem decides the question.
    NoTheorem(Question),
}

impl fmt::Display for EngineFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineFault::Unknown(engine) => write!(
                f,
                "unknown engine '{}' (known: {})",
                echo(engine),
                KNOWN_ENGINES.join(", ")
            ),
            EngineFault::NotASum(question) => write!(
                f,
                "engine '{SUM}' (a sum of other counts) only answers open board totals (from their starts) and open tours from a square (from its pairs), not {}",
                match question.kind {
                    TourKind::Closed => "closed tours",
                    TourKind::Open => "tours between two squares",
                }
            ),
            EngineFault::CountsStartsOnly(engine) => write!(
                f,
                "the {engine} engine never counts a board total (it counts the starts)"
            ),
            EngineFault::NoTheorem(question) => write!(
                f,
                "engine '{THEOREM}' only answers zeros that a theorem decides, and none applies to {question}"
            ),
        }
    }
}

/// Checks that `engine` may stand behind `question` (a canonical question).
pub fn check_engine(question: &Question, engine: &str) -> Result<(), EngineFault> {
    if !KNOWN_ENGINES.contains(&engine) {
        return Err(EngineFault::Unknown(engine.to_string()));
    }
    let open_total = question.is_open_total();
    let open_start = question.kind == TourKind::Open && matches!(question.shape(), Shape::Start(_));
    if engine == SUM && !open_total && !open_start {
        Err(EngineFault::NotASum(*question))
    } else if open_total && counts_starts_only(engine) {
        Err(EngineFault::CountsStartsOnly(engine.to_string()))
    } else if engine == THEOREM && no_tour_for(question).is_none() {
        Err(EngineFault::NoTheorem(*question))
    } else {
        Ok(())
    }
}

/// True for the engines that count from a start but never a board total: under them, an open
/// total is the sum of its starts (exports written before `sum` existed record it so).
pub fn counts_starts_only(engine: &str) -> bool {
    matches!(engine, "memo" | "reference")
}

/// Checks the seconds an answer says it took: from 0 to [`MAX_SECONDS`].
pub fn check_seconds(seconds: f64) -> Result<(), String> {
    if (0.0..=MAX_SECONDS).contains(&seconds) {
        Ok(())
    } else {
        Err(format!(
            "{seconds} seconds of computing, not a believable time (0 to {MAX_SECONDS})"
        ))
    }
}

/// Checks how `answer` is recorded: [`check_engine`], [`check_seconds`] and, when it has one,
/// its time ([`check_utc_timestamp`]). The first fault, in words.
pub fn check_record(answer: &Answer) -> Result<(), String> {
    check_engine(&answer.question, answer.engine.as_str()).map_err(|fault| fault.to_string())?;
    check_seconds(answer.seconds)?;
    if let Some(time) = &answer.computed_at {
        check_utc_timestamp(time)?;
    }
    Ok(())
}

/// Reads a number of seconds: a finite number from 0 to [`MAX_SECONDS`] (`-0` is 0).
pub fn seconds_in_range(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if (0.0..=MAX_SECONDS).contains(&seconds) => Ok(seconds.abs()),
        Ok(seconds) if seconds.is_finite() && seconds > 0.0 => Err(format!(
            "seconds '{}' is out of range: at most {MAX_SECONDS} (ten years) is believable",
            echo(text)
        )),
        _ => Err(format!(
            "seconds '{}' is not a number of seconds (0 or more)",
            echo(text)
        )),
    }
}

/// Checks a time `YYYY-MM-DDTHH:MM:SSZ` (UTC): its shape, and that it names a real moment (a
/// month 1 to 12, a day of that month, hours 0 to 23, minutes and seconds 0 to 59) from the
/// year 1970 to a day past this machine's clock.
pub fn check_utc_timestamp(text: &str) -> Result<(), String> {
    let b = text.as_bytes();
    let shaped = b.len() == 20
        && b.iter().enumerate().all(|(i, &c)| match i {
            4 | 7 => c == b'-',
            10 => c == b'T',
            13 | 16 => c == b':',
            19 => c == b'Z',
            _ => c.is_ascii_digit(),
        });
    if !shaped {
        return Err(format!(
            "computed_at '{}' is not a UTC time like 2026-11-29T14:28:00Z",
            echo(text)
        ));
    }
    let number = |from: usize, to: usize| -> u32 { text[from..to].parse().unwrap_or(0) };
    let (year, month, day) = (number(0, 4), number(5, 7), number(8, 10));
    let (hour, minute, second) = (number(11, 13), number(14, 16), number(17, 19));
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 0,
    };
    let why = if year < 1970 {
        "the year is before 1970"
    } else if days == 0 {
        "the month is not 01 to 12"
    } else if day == 0 || day > days {
        "the day is not in that month"
    } else if hour > 23 {
        "the hour is not 00 to 23"
    } else if minute > 59 {
        "the minute is not 00 to 59"
    } else if second > 59 {
        "the second is not 00 to 59"
    } else {
        let at = days_from_civil(year, month, day) * 86_400
            + i64::from(hour * 3600 + minute * 60 + second);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        if at > now + 86_400 {
            return Err(format!(
                "computed_at '{}' is in the future (more than a day past this machine's clock)",
                echo(text)
            ));
        }
        return Ok(());
    };
    Err(format!(
        "computed_at '{}' is not a real time: {why}",
        echo(text)
    ))
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(year: u32, month: u32, day: u32) -> i64 {
    let y = i64::from(year) - i64::from(month <= 2);
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let m = i64::from(month);
    let day_of_year = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Square};

    #[test]
    fn engines_by_shape() {
        let board = Board::new(5, 5).unwrap();
        let total = Question::total(board, TourKind::Open);
        let corner = Question::from_start(board, Square::new(0, 0), TourKind::Open);
        let pair = Question::between(board, Square::new(0, 0), Square::new(4, 4));
        let closed = Question::total(board, TourKind::Closed);
        assert_eq!(check_engine(&total, SUM), Ok(()));
        assert_eq!(check_engine(&corner, SUM), Ok(()));
        assert_eq!(check_engine(&pair, SUM), Err(EngineFault::NotASum(pair)));
        assert!(check_engine(&total, "memo").is_err());
        assert_eq!(check_engine(&total, "frontier"), Ok(()));
        assert_eq!(check_engine(&closed, THEOREM), Ok(()));
        assert_eq!(
            check_engine(&corner, THEOREM),
            Err(EngineFault::NoTheorem(corner))
        );
        assert!(check_engine(&corner, "guess").is_err());
    }

    #[test]
    fn seconds_and_times() {
        assert_eq!(seconds_in_range("-0"), Ok(0.0));
        assert_eq!(seconds_in_range("12.5"), Ok(12.5));
        assert!(check_seconds(-1.0).is_err());
        assert!(check_utc_timestamp("2024-02-29T23:59:59Z").is_ok());
        assert!(check_utc_timestamp("1970-01-01T00:00:00Z").is_ok());
        assert!(check_utc_timestamp("2023-02-29T00:00:00Z").is_err());
        assert!(check_utc_timestamp("9999-01-01T00:00:00Z").is_err());
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11017);
    }
}
