//! Plan files: JSON lines or CSV, written by `knights shards plan` and read back, checked
//! line by line against the plan this build makes of the same board and split.
//!
//! JSON lines: a header object (with `"replicas":N` when each shard goes to N > 1 workers),
//! then one object per shard:
//!
//! ```text
//! {"plan":"knights shards","version":1,"rows":6,"cols":7,"by":"start","shards":12,"weight":42}
//! {"id":"6x7-s0","rows":6,"cols":7,"row":0,"col":0,"weight":4,"estimate":42}
//! ```
//!
//! CSV: the same header as a `#` comment line (CSV readers skip it with their comment
//! option; ` replicas=N` at its end when N > 1), then a header row and one row per shard;
//! `to_row` and `to_col` are empty by start:
//!
//! ```text
//! # knights shards plan version=1 rows=6 cols=7 by=start shards=12 weight=42
//! id,rows,cols,row,col,to_row,to_col,weight,estimate
//! 6x7-s0,6,7,0,0,,,4,1
//! ```

use std::collections::HashMap;
use std::io::{BufRead, Read};

use serde::{Deserialize, Serialize};

use super::{PLAN_VERSION, Plan, Shard, Split, abbreviate};
use crate::board::{Board, Square};
use crate::echo::echo;
use crate::error::Error;
use crate::input::{InputError, TextReader};
use crate::question::{Question, Shape, TourKind};

/// The `plan` field of a JSON header: what the file is.
const PLAN_NAME: &str = "knights shards";

/// The CSV header row, after the comment line.
const CSV_COLUMNS: &str = "id,rows,cols,row,col,to_row,to_col,weight,estimate";

/// The longest line read: a plan line is short, so a longer one is not a plan's.
const MAX_LINE: usize = 4096;

/// The formats of a plan file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PlanFormat {
    /// One JSON object per line.
    #[default]
    Jsonl,
    /// CSV after a `#` header line.
    Csv,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    plan: String,
    version: u32,
    rows: u32,
    cols: u32,
    by: String,
    shards: usize,
    weight: u64,
    #[serde(default = "one", skip_serializing_if = "is_one")]
    replicas: u32,
}

fn one() -> u32 {
    1
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    id: String,
    rows: u32,
    cols: u32,
    row: u32,
    col: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    to_row: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    to_col: Option<u32>,
    weight: u64,
    estimate: u64,
}

impl Record {
    fn of(shard: &Shard) -> Record {
        let q = &shard.question;
        let start = q.start.expect("a shard's question has a start");
        Record {
            id: shard.id.clone(),
            rows: q.board.rows(),
            cols: q.board.cols(),
            row: start.row,
            col: start.col,
            to_row: q.end.map(|end| end.row),
            to_col: q.end.map(|end| end.col),
            weight: shard.weight,
            estimate: shard.estimate,
        }
    }
}

fn header_of(plan: &Plan) -> Header {
    Header {
        plan: PLAN_NAME.to_string(),
        version: PLAN_VERSION,
        rows: plan.board.rows(),
        cols: plan.board.cols(),
        by: plan.split.name().to_string(),
        shards: plan.shards.len(),
        weight: plan.expected_weight(),
        replicas: plan.replicas,
    }
}

/// The plan as a file of `format`.
pub fn write_plan(plan: &Plan, format: PlanFormat) -> String {
    let header = header_of(plan);
    let mut text = String::new();
    match format {
        PlanFormat::Jsonl => {
            text.push_str(&json_line(&header));
            for shard in &plan.shards {
                text.push_str(&json_line(&Record::of(shard)));
            }
        }
        PlanFormat::Csv => {
            let replicas = match header.replicas {
                1 => String::new(),
                n => format!(" replicas={n}"),
            };
            text.push_str(&format!(
                "# knights shards plan version={} rows={} cols={} by={} shards={} weight={}{replicas}\n{CSV_COLUMNS}\n",
                header.version, header.rows, header.cols, header.by, header.shards, header.weight
            ));
            let optional = |n: Option<u32>| n.map_or(String::new(), |n| n.to_string());
            for shard in &plan.shards {
                let r = Record::of(shard);
                text.push_str(&format!(
                    "{},{},{},{},{},{},{},{},{}\n",
                    r.id,
                    r.rows,
                    r.cols,
                    r.row,
                    r.col,
                    optional(r.to_row),
                    optional(r.to_col),
                    r.weight,
                    r.estimate
                ));
            }
        }
    }
    text
}

fn json_line(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect("plan records serialize") + "\n"
}

/// Reads a plan (either format: JSON lines start with `{`, CSV with `#`) and checks it: the
/// header's version, board and split; every line a shard of that plan, with its question and
/// weight, once; every shard there; the weights adding up to the board's squares (by start)
/// or ordered pairs (by pair). The estimates are taken as written (they may be tuned by hand).
/// The first fault is returned with its line.
pub fn read_plan(reader: impl BufRead) -> Result<Plan, Error> {
    let at = |line: usize, message: String| Error::Input(InputError::at(line, message));
    let mut lines = PlanLines {
        text: TextReader::new(reader),
    };
    let Some((first, header_line)) = lines.next_nonblank()? else {
        return Err(Error::Input(InputError::whole(
            "the plan is empty: write one with `knights shards plan`",
        )));
    };
    let (format, header) = parse_header(&header_line).map_err(|m| at(first, m))?;
    if header.version != PLAN_VERSION {
        return Err(at(
            first,
            format!(
                "plan version {} is not known to this build (it reads version {PLAN_VERSION})",
                header.version
            ),
        ));
    }
    let board = Board::new(header.rows, header.cols).map_err(|e| at(first, e.to_string()))?;
    let split: Split = header.by.parse().map_err(|m| at(first, m))?;
    // A header that miscounts its board's shards is refused before the plan is made (which
    // takes a while for a board of 100,000 shards): the count of the classes is a formula.
    if let Some((shards, weight)) = quick_counts(board, split, header.replicas)
        && (header.shards as u128 != shards || header.weight != weight)
    {
        return Err(at(
            first,
            format!(
                "the header says {} shards of weight {}, but the {board} board by {split} has {shards} shards of weight {weight}",
                header.shards, header.weight,
            ),
        ));
    }
    let expected = Plan::new(board, split)
        .and_then(|plan| plan.with_replicas(header.replicas))
        .map_err(|e| at(first, e.to_string()))?;
    if header.shards != expected.shards.len() || header.weight != expected.expected_weight() {
        return Err(at(
            first,
            format!(
                "the header says {} shards of weight {}, but the {board} board by {split} has {} shards of weight {}",
                header.shards,
                header.weight,
                expected.shards.len(),
                expected.expected_weight()
            ),
        ));
    }
    if format == PlanFormat::Csv {
        match lines.next_nonblank()? {
            Some((_, columns))
                if csv_fields(&columns).is_ok_and(|c| c.join(",") == CSV_COLUMNS) => {}
            Some((number, _)) => {
                return Err(at(
                    number,
                    format!("the header row must be `{CSV_COLUMNS}`"),
                ));
            }
            None => {
                return Err(at(
                    first + 1,
                    format!("the plan ends before its header row `{CSV_COLUMNS}`"),
                ));
            }
        }
    }

    let places: HashMap<&str, usize> = expected
        .shards
        .iter()
        .enumerate()
        .map(|(place, shard)| (shard.id.as_str(), place))
        .collect();
    let mut seen: Vec<Option<usize>> = vec![None; expected.shards.len()];
    let mut estimates: Vec<u64> = vec![0; expected.shards.len()];
    let mut weights = 0u64;
    let mut last = first;
    while let Some((number, line)) = lines.next_nonblank()? {
        last = number;
        let record = match format {
            PlanFormat::Jsonl => parse_json_record(&line),
            PlanFormat::Csv => parse_csv_record(&line),
        }
        .map_err(|m| at(number, m))?;
        let Some(&place) = places.get(record.id.as_str()) else {
            return Err(at(
                number,
                format!(
                    "{} is not a shard of the {board} board by {split}",
                    echo(&record.id)
                ),
            ));
        };
        if let Some(earlier) = seen[place] {
            return Err(at(
                number,
                format!("shard {} appears twice (also on line {earlier})", record.id),
            ));
        }
        let shard = &expected.shards[place];
        if record_question(&record).ok() != Some(shard.question) {
            return Err(at(
                number,
                format!(
                    "shard {} must be the question {}",
                    record.id, shard.question
                ),
            ));
        }
        if record.weight != shard.weight {
            return Err(at(
                number,
                format!(
                    "shard {} has weight {}, but it stands for {} {}",
                    record.id,
                    record.weight,
                    shard.weight,
                    match shard.question.shape() {
                        Shape::Between(..) => "ordered pairs",
                        _ => "squares",
                    }
                ),
            ));
        }
        seen[place] = Some(number);
        estimates[place] = record.estimate;
        weights += record.weight;
    }
    let missing: Vec<&str> = expected
        .shards
        .iter()
        .zip(&seen)
        .filter(|(_, seen)| seen.is_none())
        .map(|(shard, _)| shard.id.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(at(
            last + 1,
            format!(
                "the plan ends with {} of its {} shards (truncated?); missing {}",
                expected.shards.len() - missing.len(),
                expected.shards.len(),
                abbreviate(&missing)
            ),
        ));
    }
    // Implied by the checks above; kept as the plan's own invariant.
    if weights != expected.expected_weight() {
        return Err(at(
            last,
            format!(
                "the weights add up to {weights}, not {}",
                expected.expected_weight()
            ),
        ));
    }
    let mut plan = expected;
    for (shard, estimate) in plan.shards.iter_mut().zip(estimates) {
        shard.estimate = estimate;
    }
    Ok(plan)
}

/// The number of shards and the weight of the plan of `board` by `split`, without making it,
/// when [`Plan::new`] would make it (with `replicas` copies): else `None`, and the plan's own
/// refusal speaks. Burnside's lemma over the board's symmetries (and, by pair, reversal).
fn quick_counts(board: Board, split: Split, replicas: u32) -> Option<(u128, u64)> {
    use crate::resolve::Engine;
    let board = board.canonical();
    let (rows, cols) = (u128::from(board.rows()), u128::from(board.cols()));
    let squares = rows * cols;
    let takes = Engine::Memo.check(board).is_ok() || Engine::Frontier.check(board).is_ok();
    if !takes || !(1..=super::MAX_REPLICAS).contains(&replicas) {
        return None;
    }
    if split != Split::Start && squares < 2 {
        return None;
    }
    // Each symmetry's fixed squares, and the squares its square fixes.
    let odd = |n: u128| n % 2 == 1;
    let centre = u128::from(odd(rows) && odd(cols));
    let mut fixed: Vec<(u128, u128)> = vec![
        (squares, squares),                          // identity
        (centre, squares),                           // half turn
        (if odd(rows) { cols } else { 0 }, squares), // rows mirrored
        (if odd(cols) { rows } else { 0 }, squares), // columns mirrored
    ];
    if rows == cols {
        fixed.extend([
            (rows, squares),  // the diagonal
            (rows, squares),  // the other diagonal
            (centre, centre), // quarter turn: its square is the half turn
            (centre, centre), // three quarters
        ]);
    }
    let group = fixed.len() as u128;
    let mut shards = 0u128;
    let mut least = 0u128;
    for part in split.parts() {
        match part {
            Split::Pair => {
                let sum: u128 = fixed
                    .iter()
                    .map(|&(f, f2)| f * f.saturating_sub(1) + (f2 - f))
                    .sum();
                shards += sum / (2 * group);
                least += (squares * (squares - 1)).div_ceil(2 * group);
            }
            _ => {
                shards += fixed.iter().map(|&(f, _)| f).sum::<u128>() / group;
                least += squares.div_ceil(group);
            }
        }
    }
    // As `Plan::new` refuses a board whose plan would be too large.
    if least > u128::from(super::MAX_SHARDS) {
        return None;
    }
    let weight = split
        .parts()
        .iter()
        .map(|part| match part {
            Split::Pair => squares * (squares - 1),
            _ => squares,
        })
        .sum::<u128>();
    Some((shards, u64::try_from(weight).ok()?))
}

/// The lines of a plan, read through [`TextReader`] (UTF-8 checked, a leading byte order mark
/// skipped, any line break), one character at a time: a line is refused as soon as it passes
/// [`MAX_LINE`] bytes, so an endless line costs no more than a plan's line.
struct PlanLines<R> {
    text: TextReader<R>,
}

impl<R: Read> PlanLines<R> {
    /// The next line that is not blank, with its number; `None` at the end.
    fn next_nonblank(&mut self) -> Result<Option<(usize, String)>, Error> {
        loop {
            let number = self.text.line();
            let mut line = String::new();
            let mut ended = false;
            loop {
                match self.text.next_char()? {
                    Some('\n') => break,
                    Some(c) => {
                        line.push(c);
                        if line.len() > MAX_LINE {
                            return Err(Error::Input(InputError::at(
                                number,
                                format!(
                                    "the line is longer than {MAX_LINE} bytes: not a plan's line"
                                ),
                            )));
                        }
                    }
                    None => {
                        ended = true;
                        break;
                    }
                }
            }
            if !line.trim().is_empty() {
                return Ok(Some((number, line)));
            }
            if ended {
                return Ok(None);
            }
        }
    }
}

fn parse_header(line: &str) -> Result<(PlanFormat, Header), String> {
    let line = line.trim();
    if line.starts_with('{') {
        let header: Header = serde_json::from_str(line).map_err(|e| {
            format!(
                "not a plan header ({}); write a plan with `knights shards plan`",
                json_reason(&e)
            )
        })?;
        if header.plan != PLAN_NAME {
            return Err(format!("the header's plan must be \"{PLAN_NAME}\""));
        }
        return Ok((PlanFormat::Jsonl, header));
    }
    let Some(rest) = line.strip_prefix("# knights shards plan ") else {
        return Err(
            "not a plan: the first line must be a plan's header; write one with `knights shards plan`"
                .to_string(),
        );
    };
    let mut fields: HashMap<&str, &str> = HashMap::new();
    for word in rest.split_whitespace() {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("the header's `{}` is not KEY=VALUE", echo(word)))?;
        if fields.insert(key, value).is_some() {
            return Err(format!("the header gives {}= twice", echo(key)));
        }
    }
    let get = |key: &str| {
        fields
            .get(key)
            .copied()
            .ok_or_else(|| format!("the header has no {key}="))
    };
    let number = |key: &str| -> Result<u64, String> {
        get(key)?
            .parse()
            .map_err(|_| format!("the header's {key} must be a whole number"))
    };
    let small = |key: &str| -> Result<u32, String> {
        u32::try_from(number(key)?).map_err(|_| format!("the header's {key} is too large"))
    };
    Ok((
        PlanFormat::Csv,
        Header {
            plan: PLAN_NAME.to_string(),
            version: small("version")?,
            rows: small("rows")?,
            cols: small("cols")?,
            by: get("by")?.to_string(),
            shards: number("shards")? as usize,
            weight: number("weight")?,
            replicas: match fields.get("replicas") {
                Some(_) => small("replicas")?,
                None => 1,
            },
        },
    ))
}

fn parse_json_record(line: &str) -> Result<Record, String> {
    serde_json::from_str(line.trim()).map_err(|e| format!("not a shard ({})", json_reason(&e)))
}

/// The fields of one CSV line, quoting read as CSV readers write it (`"6x7-s0",6,...`).
fn csv_fields(line: &str) -> Result<Vec<String>, String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(line.as_bytes());
    let mut record = csv::StringRecord::new();
    match reader.read_record(&mut record) {
        Ok(_) => Ok(record
            .iter()
            .map(|field| field.trim().to_string())
            .collect()),
        Err(e) => Err(format!("malformed CSV: {e}")),
    }
}

fn parse_csv_record(line: &str) -> Result<Record, String> {
    let fields = csv_fields(line)?;
    if fields.len() != 9 {
        return Err(format!(
            "a shard has 9 fields ({CSV_COLUMNS}), this line has {}",
            fields.len()
        ));
    }
    let names: Vec<&str> = CSV_COLUMNS.split(',').collect();
    let number = |i: usize| -> Result<u64, String> {
        fields[i].parse().map_err(|_| {
            format!(
                "{} must be a whole number, got '{}'",
                names[i],
                echo(&fields[i])
            )
        })
    };
    let small = |i: usize| -> Result<u32, String> {
        u32::try_from(number(i)?).map_err(|_| format!("{} is too large", names[i]))
    };
    let optional = |i: usize| -> Result<Option<u32>, String> {
        if fields[i].is_empty() {
            Ok(None)
        } else {
            small(i).map(Some)
        }
    };
    Ok(Record {
        id: fields[0].to_string(),
        rows: small(1)?,
        cols: small(2)?,
        row: small(3)?,
        col: small(4)?,
        to_row: optional(5)?,
        to_col: optional(6)?,
        weight: number(7)?,
        estimate: number(8)?,
    })
}

/// serde_json's message without its position: a plan line is one line, and the line number
/// is given in front.
fn json_reason(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

fn record_question(record: &Record) -> Result<Question, ()> {
    let board = Board::new(record.rows, record.cols).map_err(|_| ())?;
    let end = match (record.to_row, record.to_col) {
        (Some(row), Some(col)) => Some(Square::new(row, col)),
        (None, None) => None,
        _ => return Err(()),
    };
    Ok(Question {
        board,
        kind: TourKind::Open,
        start: Some(Square::new(record.row, record.col)),
        end,
    })
}

#[cfg(test)]
mod tests;
