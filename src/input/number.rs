//! Whole numbers and their bounds: the one reader of a whole number that every option,
//! parameter and query field goes through, the board's sides and squares, the most digits a
//! count of a board can have, and `plural`.

use crate::board::Board;

/// Why a word is not a whole number that fits in 64 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotWhole {
    /// A number below 0.
    Negative,
    /// Digits that make a number above `u64::MAX`.
    TooLarge,
    /// Not a number at all (letters, a fraction, an exponent, nothing).
    NotANumber,
}

/// Reads a whole number of at most 64 bits (spaces around it are ignored; a leading `+` is
/// accepted). Callers word the error, naming the field they were reading.
pub fn parse_whole(text: &str) -> Result<u64, NotWhole> {
    let text = text.trim();
    match text.parse::<i128>() {
        Ok(value) if value < 0 => Err(NotWhole::Negative),
        Ok(value) => u64::try_from(value).map_err(|_| NotWhole::TooLarge),
        Err(_)
            if !text.is_empty()
                && text
                    .trim_start_matches(['+', '-'])
                    .bytes()
                    .all(|b| b.is_ascii_digit()) =>
        {
            Err(NotWhole::TooLarge)
        }
        Err(_) => Err(NotWhole::NotANumber),
    }
}

/// A whole number, worded for an option or parameter; `hint` says what the value is.
fn whole(text: &str, hint: &str) -> Result<u64, String> {
    let shown = || crate::echo::echo(text);
    parse_whole(text).map_err(|e| match e {
        NotWhole::Negative => format!("{} is negative; {hint}", shown()),
        NotWhole::TooLarge => format!("{} is far too large; {hint}", shown()),
        NotWhole::NotANumber => format!("'{}' is not a whole number; {hint}", shown()),
    })
}

/// Reads a board side given as an option or parameter (the command line and the server show
/// the same message): a whole number from 1 to the largest side.
pub fn parse_side(text: &str) -> Result<u32, String> {
    let value = whole(text, "a board side is at least 1")?;
    Board::check_side(value).map_err(|e| e.to_string())
}

/// Reads a row or column of a square given as an option or parameter, counted from 0.
pub fn parse_coordinate(text: &str) -> Result<u32, String> {
    let value = whole(text, "squares are numbered from 0")?;
    u32::try_from(value).map_err(|_| format!("{} is far too large", crate::echo::echo(text)))
}

/// An upper bound on the number of decimal digits of any count of tours on `board` (open or
/// closed, from a start or the directed total), to refuse an absurd count before reading it.
///
/// A directed open tour of `n` squares is a start (`n` ways), a first move (at most 8) and
/// `n - 2` more moves, each to one of at most 7 squares (a knight has at most 8 moves and one
/// of them goes back): at most `n · 8 · 7^(n-2)` tours in all, and a count from one start, or
/// of closed tours, is no larger. The bound is one digit above that, for rounding: 23 digits
/// for 5x5 (whose total is 1728), 845,105 for 1000x1000.
pub fn max_count_digits(board: Board) -> u64 {
    let squares = board.squares();
    if squares < 3 {
        return 1;
    }
    let log10 = (squares as f64).log10() + 8f64.log10() + (squares - 2) as f64 * 7f64.log10();
    log10.floor() as u64 + 2
}

/// `one` for 1, `many` for any other number: `plural(n, "query", "queries")`.
pub fn plural<'a, N: PartialEq + From<u8>>(n: N, one: &'a str, many: &'a str) -> &'a str {
    if n == N::from(1) { one } else { many }
}
