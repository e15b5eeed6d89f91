//! Knight's tour puzzles: a board with some step numbers given, to be completed into a tour.
//!
//! * this file: the puzzle, read from its text (one line a row, cells separated by spaces, a
//!   number for a given step, `.`, `0` or `_` for an empty cell, `#` comments) or from cells,
//!   written back as text, and the quick checks that rule a puzzle out without a search;
//! * `solve`: one completion (the memo engine's exact search with the givens as constraints),
//!   the exact number of completions (the memo engine's count with the same constraints), and
//!   the completions one by one;
//! * `make`: puzzles with exactly one completion, from a random tour.
//!
//! Squares in messages are named by their row and column counted from 1, as a person reads the
//! grid; a completion is a [`Tour`](crate::tour::Tour), checked by the validator.

mod make;
mod solve;
#[cfg(test)]
mod tests;

use std::fmt;
use std::io::Read;

use crate::board::{Board, Square};
use crate::count::memo::givens::{FixedSteps, KnightDistances};
use crate::echo::echo;
use crate::error::Error;
use crate::existence::{no_closed_tour, no_open_tour};
use crate::graph::{KnightGraph, MAX_BITSET_SQUARES};
use crate::input::InputError;

pub use make::{Made, fresh_seed, make};
pub use solve::{count, count_capped, each_completion, solve, solve_within};

/// The most bytes a puzzle's text may have (comments included): a 64-square board needs a few
/// hundred.
pub const MAX_PUZZLE_BYTES: u64 = 1 << 20;

/// A board with some step numbers given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    board: Board,
    closed: bool,
    /// The given number of every square, row by row (`None`: empty). A number may be outside
    /// `1..=R·C` (numbers too large for 64 bits are kept as `u64::MAX`): such a puzzle has no
    /// completion, which [`Puzzle::contradiction`] says.
    cells: Vec<Option<u64>>,
}

/// A given number and its square.
type Given = (u64, Square);

/// A square named as a person reads the grid: row and column from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell(pub Square);

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.0.row + 1, self.0.col + 1)
    }
}

/// Why a puzzle has no completion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoCompletion {
    /// A given number outside `1..=R·C`.
    OutOfRange {
        /// The number (`u64::MAX`: one too large to read).
        step: u64,
        /// Where it is given.
        at: Cell,
        /// Squares on the board.
        squares: u64,
    },
    /// The same number given twice.
    Repeated {
        /// The number.
        step: u64,
        /// Where it is given first.
        first: Cell,
        /// Where it is given again.
        second: Cell,
    },
    /// An existence theorem rules out every tour of the kind asked for, or one through a given
    /// end.
    Theorem(String),
    /// Two given steps too far apart for the knight to get from one to the other in time.
    TooFar {
        /// The earlier step.
        from_step: u64,
        /// Its square.
        from: Cell,
        /// The later step (in a closed tour, possibly step 1 again after the last).
        to_step: u64,
        /// Its square.
        to: Cell,
        /// The moves between the two steps.
        moves: u64,
        /// The fewest knight's moves between the squares (`None`: no path joins them).
        distance: Option<u64>,
    },
    /// Two given steps whose colours do not fit the number of moves between them.
    WrongColour {
        /// The earlier step.
        from_step: u64,
        /// Its square.
        from: Cell,
        /// The later step.
        to_step: u64,
        /// Its square.
        to: Cell,
        /// The moves between them.
        moves: u64,
    },
    /// On a board with an odd number of squares, an odd step given off the corners' colour or
    /// an even step on it.
    OddBoardColour {
        /// The step.
        step: u64,
        /// Its square.
        at: Cell,
    },
    /// The exact search found no completion.
    Search {
        /// The board.
        board: Board,
        /// Closed tours were asked for.
        closed: bool,
    },
}

impl fmt::Display for NoCompletion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoCompletion::OutOfRange { step, at, squares } => {
                if *step == u64::MAX {
                    write!(
                        f,
                        "no completion: the number at {at} is far outside 1..{squares} (the board has {squares} squares)"
                    )
                } else {
                    write!(
                        f,
                        "no completion: {step} at {at} is outside 1..{squares} (the board has {squares} squares)"
                    )
                }
            }
            NoCompletion::Repeated {
                step,
                first,
                second,
            } => write!(
                f,
                "no completion: {step} is given twice, at {first} and at {second}"
            ),
            NoCompletion::Theorem(why) => write!(f, "no completion: {why}"),
            NoCompletion::TooFar {
                from_step,
                from,
                to_step,
                to,
                moves,
                distance,
            } => {
                // Said as steps after steps, so that the moves the tour has and the knight's
                // moves the squares need are not read as the same kind of move.
                let far = match distance {
                    Some(d) => format!("the two squares are {d} knight's moves apart"),
                    None => "no knight's path joins the two squares".to_string(),
                };
                write!(
                    f,
                    "no completion: step {to_step} at {to} comes {moves} {} after step {from_step} at {from}, but {far}",
                    if *moves == 1 { "move" } else { "moves" }
                )
            }
            NoCompletion::WrongColour {
                from_step,
                from,
                to_step,
                to,
                moves,
            } => write!(
                f,
                "no completion: step {to_step} at {to} comes {moves} moves after step {from_step} at {from}, an {} number, and every move changes colour, so the squares must {}",
                if moves % 2 == 1 { "odd" } else { "even" },
                if moves % 2 == 1 {
                    "differ in colour; they do not"
                } else {
                    "have the same colour; they do not"
                }
            ),
            NoCompletion::OddBoardColour { step, at } => write!(
                f,
                "no completion: the board has an odd number of squares, so a tour starts and ends on the corners' colour and every odd step is on it, every even step off it; step {step} at {at} is {}",
                if step % 2 == 1 { "off it" } else { "on it" }
            ),
            NoCompletion::Search { board, closed } => write!(
                f,
                "no completion: an exhaustive search found no {} tour of {board} through the given numbers",
                if *closed { "closed" } else { "open" }
            ),
        }
    }
}

impl NoCompletion {
    /// The reason alone, without "no completion:" (for a puzzle that cannot even be made).
    pub fn reason(&self) -> String {
        let said = self.to_string();
        said.strip_prefix("no completion: ")
            .map_or(said.clone(), str::to_string)
    }
}

impl Puzzle {
    /// A puzzle from its cells, row by row (`None` or `Some(0)`: empty). Every row must have
    /// the same number of cells, and the board at most 64 squares.
    pub fn from_cells(rows: Vec<Vec<Option<u64>>>, closed: bool) -> Result<Puzzle, InputError> {
        let mut cells = Vec::new();
        let width = rows.first().map_or(0, Vec::len);
        if rows.is_empty() || width == 0 {
            return Err(InputError::whole("the puzzle has no cells"));
        }
        for (r, row) in rows.iter().enumerate() {
            check_row(r + 1, row.len(), width, None)?;
            cells.extend(row.iter().map(|c| c.filter(|&n| n != 0)));
        }
        let board = board_of(rows.len(), width)?;
        Ok(Puzzle {
            board,
            closed,
            cells,
        })
    }

    /// Reads a puzzle's text (at most [`MAX_PUZZLE_BYTES`]).
    pub fn read(reader: impl Read, closed: bool) -> Result<Puzzle, Error> {
        let mut bytes = Vec::new();
        reader
            .take(MAX_PUZZLE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| InputError::whole(format!("cannot read the puzzle: {e}")))?;
        if bytes.len() as u64 > MAX_PUZZLE_BYTES {
            return Err(InputError::whole(format!(
                "the puzzle is longer than {} KiB; a puzzle of at most {MAX_BITSET_SQUARES} squares needs far less",
                MAX_PUZZLE_BYTES / 1024
            ))
            .into());
        }
        let text = match std::str::from_utf8(&bytes) {
            Ok(text) => text,
            Err(e) => {
                let line = 1 + bytes[..e.valid_up_to()]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                return Err(InputError::at(line, "not UTF-8 text").into());
            }
        };
        Ok(Puzzle::parse(text, closed)?)
    }

    /// A puzzle from its text: one line a row, cells separated by spaces (or tabs), a whole
    /// number for a given step and `.`, `0` or `_` for an empty cell; `#` starts a comment, and
    /// blank lines are skipped. Errors name the line, the row and the column.
    pub fn parse(text: &str, closed: bool) -> Result<Puzzle, InputError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut cells = Vec::new();
        let mut width = None;
        let mut rows = 0usize;
        for (line_index, line) in text.split(['\n', '\r']).enumerate() {
            let line_number = line_index + 1;
            let content = line.split('#').next().unwrap_or("");
            let tokens: Vec<&str> = content.split_whitespace().collect();
            if tokens.is_empty() {
                continue;
            }
            rows += 1;
            let at = |col: usize, message: String| {
                InputError::at(line_number, format!("row {rows}, column {col}: {message}"))
            };
            for (c, token) in tokens.iter().enumerate() {
                if cells.len() as u64 >= MAX_BITSET_SQUARES {
                    return Err(at(
                        c + 1,
                        format!(
                            "the puzzle has more than {MAX_BITSET_SQUARES} squares, the most the exact engine takes"
                        ),
                    ));
                }
                cells.push(cell(token).map_err(|message| at(c + 1, message))?);
            }
            let expected = *width.get_or_insert(tokens.len());
            check_row(rows, tokens.len(), expected, Some(line_number))?;
        }
        let Some(width) = width else {
            return Err(InputError::whole(
                "the puzzle has no rows: give one line a row, cells separated by spaces",
            ));
        };
        let board = board_of(rows, width)?;
        Ok(Puzzle {
            board,
            closed,
            cells,
        })
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// True when the completion must be a closed tour.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// The given number of every square, row by row (`None`: empty).
    pub fn cells(&self) -> &[Option<u64>] {
        &self.cells
    }

    /// The given numbers with their squares, in row-major order.
    pub fn givens(&self) -> impl Iterator<Item = (u64, Square)> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|step| (step, self.board.square(i))))
    }

    /// The puzzle's text: the grid, numbers aligned, `.` for empty cells; read back by
    /// [`Puzzle::parse`].
    pub fn to_text(&self) -> String {
        let width = self.board.squares().to_string().len();
        let mut out = String::new();
        for row in self.cells.chunks(self.board.cols() as usize) {
            let line: Vec<String> = row
                .iter()
                .map(|c| match c {
                    Some(n) => format!("{n:>width$}"),
                    None => format!("{:>width$}", "."),
                })
                .collect();
            out.push_str(&line.join(" "));
            out.push('\n');
        }
        out
    }

    /// A reason the puzzle has no completion that needs no search: a number outside the board's
    /// steps or given twice, a theorem against the tours asked for, two given steps too far
    /// apart or of the wrong colours for the moves between them (knight distance and colour).
    pub fn contradiction(&self) -> Option<NoCompletion> {
        let board = self.board;
        let squares = board.squares();
        let mut by_step: Vec<(u64, Square)> = Vec::new();
        for (step, square) in self.givens() {
            if step == 0 || step > squares {
                return Some(NoCompletion::OutOfRange {
                    step,
                    at: Cell(square),
                    squares,
                });
            }
            by_step.push((step, square));
        }
        by_step.sort_by_key(|&(step, square)| (step, board.index(square)));
        for pair in by_step.windows(2) {
            if pair[0].0 == pair[1].0 {
                return Some(NoCompletion::Repeated {
                    step: pair[0].0,
                    first: Cell(pair[0].1),
                    second: Cell(pair[1].1),
                });
            }
        }
        if let Some(why) = self.theorem(&by_step) {
            return Some(NoCompletion::Theorem(why));
        }
        if squares % 2 == 1 {
            for &(step, square) in &by_step {
                if Board::is_corner_colour(square) != (step % 2 == 1) {
                    return Some(NoCompletion::OddBoardColour {
                        step,
                        at: Cell(square),
                    });
                }
            }
        }
        let graph = KnightGraph::new(board).ok()?;
        let distances = KnightDistances::new(&graph);
        let mut gaps: Vec<(Given, Given, u64)> = by_step
            .windows(2)
            .map(|pair| (pair[0], pair[1], pair[1].0 - pair[0].0))
            .collect();
        if self.closed && by_step.len() >= 2 {
            // Around the cycle: from the last given step to the first, through step 1.
            let (first, last) = (by_step[0], by_step[by_step.len() - 1]);
            gaps.push((last, first, squares - last.0 + first.0));
        }
        for ((from_step, from), (to_step, to), moves) in gaps {
            let distance = distances.between(board.index(from), board.index(to));
            let distance =
                (distance != KnightDistances::UNREACHABLE).then_some(u64::from(distance));
            let (from, to) = (Cell(from), Cell(to));
            if distance.is_none_or(|d| d > moves) {
                return Some(NoCompletion::TooFar {
                    from_step,
                    from,
                    to_step,
                    to,
                    moves,
                    distance,
                });
            }
            let colours_differ = Board::is_corner_colour(from.0) != Board::is_corner_colour(to.0);
            if colours_differ != (moves % 2 == 1) {
                return Some(NoCompletion::WrongColour {
                    from_step,
                    from,
                    to_step,
                    to,
                    moves,
                });
            }
        }
        None
    }

    /// The theorems (Schwenk, Conrad et al., the outer lines of a board with a side of 4)
    /// against the tours asked for, and against tours with the given first or last square.
    fn theorem(&self, by_step: &[(u64, Square)]) -> Option<String> {
        let board = self.board;
        if self.closed {
            return no_closed_tour(board).map(|why| why.to_string());
        }
        if let Some(why) = no_open_tour(board, None) {
            return Some(why.to_string());
        }
        let squares = board.squares();
        let ends = by_step
            .iter()
            .filter(|&&(step, _)| step == 1 || step == squares);
        for &(step, square) in ends {
            let inner = board.rows() == 4 && matches!(square.row, 1 | 2)
                || board.cols() == 4 && matches!(square.col, 1 | 2);
            if inner {
                return Some(format!(
                    "step {step} is given at {}, in one of the two inner lines of a board with a side of 4, and an open tour of such a board starts and ends in the outer lines",
                    Cell(square)
                ));
            }
        }
        None
    }

    /// The given steps as the engine's constraints (`None` when the puzzle contradicts itself:
    /// see [`Puzzle::contradiction`]).
    pub(crate) fn fixed_steps(&self, graph: &KnightGraph) -> Option<FixedSteps> {
        let steps: Vec<(u32, Square)> = self
            .givens()
            .map(|(step, square)| (u32::try_from(step).unwrap_or(u32::MAX), square))
            .collect();
        FixedSteps::new(self.board, graph, &steps)
    }

    /// The puzzle with the square `index` (row-major) given `step`, or emptied (`None`).
    pub fn with_cell(&self, index: usize, step: Option<u64>) -> Puzzle {
        let mut puzzle = self.clone();
        puzzle.cells[index] = step.filter(|&n| n != 0);
        puzzle
    }
}

/// One cell's token: a whole number, or an empty mark.
fn cell(token: &str) -> Result<Option<u64>, String> {
    if matches!(token, "." | "_") {
        return Ok(None);
    }
    if !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "{} is not a step number or an empty mark (., 0 or _)",
            quoted(token)
        ));
    }
    // Too many digits for 64 bits: far outside any board's steps, said as such later.
    Ok(Some(token.parse::<u64>().unwrap_or(u64::MAX)).filter(|&n| n != 0))
}

fn quoted(token: &str) -> String {
    format!("\"{}\"", echo(token))
}

/// Every row as long as the first.
fn check_row(
    row: usize,
    found: usize,
    expected: usize,
    line: Option<usize>,
) -> Result<(), InputError> {
    if found == expected {
        return Ok(());
    }
    let column = found.min(expected) + 1;
    let message = if found < expected {
        format!(
            "row {row}, column {column}: the row ends after {found} cells; row 1 has {expected}"
        )
    } else {
        format!("row {row}, column {column}: the row has {found} cells; row 1 has {expected}")
    };
    Err(match line {
        Some(line) => InputError::at(line, message),
        None => InputError::whole(message),
    })
}

/// The board of `rows × cols` cells, within the exact engine's limit.
fn board_of(rows: usize, cols: usize) -> Result<Board, InputError> {
    let too_large = || {
        InputError::whole(format!(
            "a puzzle of {rows}x{cols} has more than {MAX_BITSET_SQUARES} squares, the most the exact engine takes"
        ))
    };
    if (rows as u64).saturating_mul(cols as u64) > MAX_BITSET_SQUARES {
        return Err(too_large());
    }
    Board::new(rows as u32, cols as u32).map_err(|e| InputError::whole(e.to_string()))
}

/// The number of completions of a puzzle, as `knights puzzle --count --format json` and the
/// server write it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CountRecord {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Closed tours were asked for.
    pub closed: bool,
    /// How many numbers the puzzle gives.
    pub givens: usize,
    /// The number of completions (a string of digits, as every count in JSON).
    pub count: crate::output::Count,
    /// Why there is none, when a check says so without a search.
    pub reason: Option<String>,
}

impl CountRecord {
    /// The record of `puzzle`'s count (0 with `reason`, when there is one).
    pub fn new(puzzle: &Puzzle, count: u128, reason: Option<&NoCompletion>) -> Self {
        CountRecord {
            rows: puzzle.board.rows(),
            cols: puzzle.board.cols(),
            closed: puzzle.closed,
            givens: puzzle.givens().count(),
            count: crate::output::Count(count.into()),
            reason: reason.map(ToString::to_string),
        }
    }
}

/// A made puzzle, as `knights puzzle --make --format json` and the server write it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MadeRecord {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Its completion is a closed tour.
    pub closed: bool,
    /// The seed it was made from.
    pub seed: u64,
    /// How many numbers it gives.
    pub clues: usize,
    /// True when every given number is needed for the completion to be the only one.
    pub minimal: bool,
    /// The given numbers, row by row (`null`: empty).
    pub cells: Vec<Vec<Option<u64>>>,
    /// The puzzle's text.
    pub text: String,
}

impl MadeRecord {
    /// The record of `made`, made from `seed`.
    pub fn new(made: &Made, seed: u64) -> Self {
        let puzzle = &made.puzzle;
        MadeRecord {
            rows: puzzle.board.rows(),
            cols: puzzle.board.cols(),
            closed: puzzle.closed,
            seed,
            clues: made.clues,
            minimal: made.minimal,
            cells: puzzle
                .cells
                .chunks(puzzle.board.cols() as usize)
                .map(<[_]>::to_vec)
                .collect(),
            text: puzzle.to_text(),
        }
    }
}

/// A puzzle's cells sent as JSON (`[[1, null, …], …]`, `null` or 0 for an empty cell), read
/// only as far as a puzzle can go: past [`MAX_BITSET_SQUARES`] cells (or rows) the reading
/// stops with the row and column, so that a body of 400,000 rows is refused at its 65th
/// instead of being read whole into memory first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonCells(pub Vec<Vec<Option<u64>>>);

impl<'de> serde::Deserialize<'de> for JsonCells {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(JsonRows).map(JsonCells)
    }
}

fn too_many_cells<E: serde::de::Error>(row: usize, col: usize) -> E {
    E::custom(format!(
        "row {row}, column {col}: the puzzle has more than {MAX_BITSET_SQUARES} squares, the most the exact engine takes"
    ))
}

struct JsonRows;

impl<'de> serde::de::Visitor<'de> for JsonRows {
    type Value = Vec<Vec<Option<u64>>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the rows of the puzzle, each a list of cells")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut rows: Vec<Vec<Option<u64>>> = Vec::new();
        let mut cells = 0u64;
        loop {
            // Empty rows count too: a list of 400,000 `[]` is no puzzle either.
            if rows.len() as u64 >= MAX_BITSET_SQUARES {
                if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    return Err(too_many_cells(rows.len() + 1, 1));
                }
                return Ok(rows);
            }
            let row = JsonRow {
                row: rows.len() + 1,
                before: cells,
            };
            match seq.next_element_seed(row)? {
                Some(row) => {
                    cells += row.len() as u64;
                    rows.push(row);
                }
                None => return Ok(rows),
            }
        }
    }
}

/// One row: its number (from 1) and the cells of the rows before it.
struct JsonRow {
    row: usize,
    before: u64,
}

impl<'de> serde::de::DeserializeSeed<'de> for JsonRow {
    type Value = Vec<Option<u64>>;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> serde::de::Visitor<'de> for JsonRow {
    type Value = Vec<Option<u64>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {} as a list of cells (numbers, or null)", self.row)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut row = Vec::new();
        while let Some(cell) = seq.next_element::<Option<u64>>()? {
            if self.before + row.len() as u64 >= MAX_BITSET_SQUARES {
                return Err(too_many_cells(self.row, row.len() + 1));
            }
            row.push(cell);
        }
        Ok(row)
    }
}
