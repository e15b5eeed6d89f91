//! Values of options: clap's mirrors of the library's enums, and the parsers of numbers,
//! ranges and boards.

use std::ops::RangeInclusive;

use clap::ValueEnum;
use knights::Board;
use knights::count::frontier::Rows;
use knights::exchange::ExchangeFormat;
use knights::output::{Format, TourFormat};
use knights::precompute::BoardRange;
use knights::question::AnswerKind;
use knights::resolve::EngineChoice;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum CountFormatArg {
    Table,
    Json,
    Csv,
    /// A heatmap of the per-square table.
    Svg,
}

impl CountFormatArg {
    /// The exporter's format, or `None` for a picture (a heatmap, which only a table has).
    pub fn format(self) -> Option<Format> {
        match self {
            CountFormatArg::Table => Some(Format::Table),
            CountFormatArg::Json => Some(Format::Json),
            CountFormatArg::Csv => Some(Format::Csv),
            CountFormatArg::Svg => None,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum TourFormatArg {
    /// The board with the step number of every square.
    Board,
    /// The board's size and the squares in order.
    Json,
    /// A picture of the board and the knight's path.
    Svg,
}

impl TourFormatArg {
    /// The format, animated with `--animate` (a picture only).
    pub fn with_animation(self, animate: bool) -> Result<TourFormat, crate::cli::exit::CliError> {
        match (self, animate) {
            (TourFormatArg::Svg, true) => Ok(TourFormat::AnimatedSvg),
            (_, true) => Err(crate::cli::exit::CliError::bad_input(
                "--animate draws an animated picture: give it with --format svg",
            )),
            (format, false) => Ok(format.into()),
        }
    }
}

impl From<TourFormatArg> for TourFormat {
    fn from(arg: TourFormatArg) -> Self {
        match arg {
            TourFormatArg::Board => TourFormat::Board,
            TourFormatArg::Json => TourFormat::Json,
            TourFormatArg::Svg => TourFormat::Svg,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FormatArg {
    Table,
    Json,
    Csv,
}

impl From<FormatArg> for Format {
    fn from(arg: FormatArg) -> Self {
        match arg {
            FormatArg::Table => Format::Table,
            FormatArg::Json => Format::Json,
            FormatArg::Csv => Format::Csv,
        }
    }
}

/// The formats of `series`: those of the other commands, and OEIS's b-file, which only a
/// series fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SeriesFormatArg {
    Table,
    Json,
    Csv,
    /// An OEIS b-file: `n a(n)` per board, a(n) undirected.
    Bfile,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ExchangeArg {
    Csv,
    Json,
}

impl From<ExchangeArg> for ExchangeFormat {
    fn from(arg: ExchangeArg) -> Self {
        match arg {
            ExchangeArg::Csv => ExchangeFormat::Csv,
            ExchangeArg::Json => ExchangeFormat::Json,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// The faster engine for each question.
    Auto,
    /// The memoized search over (square, unvisited squares): boards of up to 64 squares.
    Memo,
    /// The transfer-matrix DP over the frontier: boards with a short side of up to 9.
    Frontier,
    /// Plain backtracking, for comparison.
    Reference,
}

impl From<EngineArg> for EngineChoice {
    fn from(arg: EngineArg) -> Self {
        match arg {
            EngineArg::Auto => EngineChoice::Auto,
            EngineArg::Memo => EngineChoice::Memo,
            EngineArg::Frontier => EngineChoice::Frontier,
            EngineArg::Reference => EngineChoice::Reference,
        }
    }
}

/// The side of the board the frontier engine's rows run along.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RowsArg {
    /// The short side: the fewest states (what `--engine frontier` does without `--rows`).
    Short,
    /// The long side: the board counted a second way (a long side of at most 9).
    Long,
}

impl From<RowsArg> for Rows {
    fn from(arg: RowsArg) -> Self {
        match arg {
            RowsArg::Short => Rows::Short,
            RowsArg::Long => Rows::Long,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum KindArg {
    Open,
    Closed,
    /// Open tours between two squares (`count ... --to`).
    Between,
}

impl From<KindArg> for AnswerKind {
    fn from(arg: KindArg) -> Self {
        match arg {
            KindArg::Open => AnswerKind::Open,
            KindArg::Closed => AnswerKind::Closed,
            KindArg::Between => AnswerKind::Between,
        }
    }
}

/// A board side: a whole number from 1 to the largest side.
pub fn parse_side(text: &str) -> Result<u32, String> {
    knights::input::parse_side(text)
}

/// How often a pass saves its layer, in minutes (fractions allowed; 0: at every square).
pub fn parse_minutes(text: &str) -> Result<std::time::Duration, String> {
    let minutes: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a number of minutes", knights::echo::echo(text)))?;
    if !minutes.is_finite() || !(0.0..=1e6).contains(&minutes) {
        return Err(format!(
            "'{}' minutes: give 0 (every square) to 1000000",
            knights::echo::echo(text)
        ));
    }
    Ok(std::time::Duration::from_secs_f64(minutes * 60.0))
}

/// A row or column of a square, from 0.
pub fn parse_coordinate(text: &str) -> Result<u32, String> {
    knights::input::parse_coordinate(text)
}

/// A range of sides `A..B`, or one side.
pub fn parse_cols(text: &str) -> Result<RangeInclusive<u32>, String> {
    let (low, high) = text.split_once("..").unwrap_or((text, text));
    let low = parse_side(low.trim())?;
    let high = parse_side(high.trim())?;
    if low > high {
        return Err(format!(
            "'{}' is empty: {low} is more than {high}",
            knights::echo::echo(text)
        ));
    }
    Ok(low..=high)
}

/// A range of boards `AxB..CxD`.
pub fn parse_range(text: &str) -> Result<BoardRange, String> {
    text.parse()
}

/// One board, `RxC`.
pub fn parse_board(text: &str) -> Result<Board, String> {
    BoardRange::one_board(text)
}

/// Checks KNIGHTS_MEMORY's size, so that an error names the variable rather than the option
/// (clap's would say `--memory`). `Ok(true)` when `--memory` is given: the variable is then
/// not read at all (clap would still read it for the option's global copy).
pub fn memory_from_environment(value: &std::ffi::OsStr) -> Result<bool, String> {
    let overridden = std::env::args_os()
        .skip(1)
        .take_while(|arg| arg != "--")
        .any(|arg| arg == "--memory" || arg.to_string_lossy().starts_with("--memory="));
    if overridden {
        return Ok(true);
    }
    match value.to_str() {
        Some(text) => text
            .parse::<knights::MemoryBudget>()
            .map(|_| false)
            .map_err(|e| e.to_string()),
        None => Err("it is not UTF-8 text".into()),
    }
}
