//! Python values to the library's and back: counts as Python ints of any size, board sides and
//! squares read by the library's own readers (`knights::input`), so that a bad one gets the
//! command line's words.

use knights::{Board, Square};
use num_bigint::BigUint;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt};

use crate::errors::Raise;

/// `count` as a Python int, exact whatever its size.
pub fn int(py: Python<'_>, count: &BigUint) -> PyResult<Py<PyAny>> {
    if count.bits() <= 128 {
        let small = u128::try_from(count).expect("at most 128 bits");
        return Ok(small.into_pyobject(py)?.into_any().unbind());
    }
    let bytes = PyBytes::new(py, &count.to_bytes_le());
    Ok(py
        .get_type::<PyInt>()
        .call_method1("from_bytes", (bytes, "little"))?
        .unbind())
}

/// The text of a whole-number argument, for the library's readers; not an int: TypeError.
fn whole_text(arg: &Bound<'_, PyAny>, name: &str) -> PyResult<String> {
    if !arg.is_instance_of::<PyInt>() || arg.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an int, not {}",
            arg.get_type().name()?
        )));
    }
    Ok(arg.str()?.to_string())
}

/// A board side (`rows`, `cols`): at least 1, at most the library's largest.
pub fn side(arg: &Bound<'_, PyAny>, name: &str) -> PyResult<u32> {
    let text = whole_text(arg, name)?;
    knights::input::parse_side(&text)
        .map_err(|e| Raise::input(format!("invalid value {text} for {name}: {e}")).into())
}

/// A row or column of a square, from 0.
pub fn coordinate(arg: &Bound<'_, PyAny>, name: &str) -> PyResult<u32> {
    let text = whole_text(arg, name)?;
    knights::input::parse_coordinate(&text)
        .map_err(|e| Raise::input(format!("invalid value {text} for {name}: {e}")).into())
}

/// A square given as `(row, col)`.
pub fn square(arg: &Bound<'_, PyAny>, name: &str) -> PyResult<Square> {
    let items: Vec<Bound<'_, PyAny>> = match arg.try_iter() {
        Ok(items) if !arg.is_instance_of::<pyo3::types::PyString>() => {
            items.collect::<PyResult<_>>()?
        }
        _ => Vec::new(),
    };
    match items.as_slice() {
        [row, col] => Ok(Square::new(
            coordinate(row, &format!("{name}'s row"))?,
            coordinate(col, &format!("{name}'s column"))?,
        )),
        _ => Err(PyTypeError::new_err(format!(
            "{name} must be a square (row, col), not {}",
            arg.repr()?
        ))),
    }
}

/// The board `rows × cols`.
pub fn board(rows: &Bound<'_, PyAny>, cols: &Bound<'_, PyAny>) -> PyResult<Board> {
    let board = Board::new(side(rows, "rows")?, side(cols, "cols")?).map_err(Raise::from)?;
    Ok(board)
}

/// A board to filter a store's answers by: `(rows, cols)` or `"RxC"`.
pub fn board_filter(arg: &Bound<'_, PyAny>) -> PyResult<Board> {
    if let Ok(text) = arg.extract::<String>() {
        return knights::precompute::BoardRange::one_board(&text)
            .map_err(|e| Raise::input(format!("invalid value for board: {e}")).into());
    }
    let items: Vec<Bound<'_, PyAny>> = match arg.try_iter() {
        Ok(items) => items.collect::<PyResult<_>>()?,
        Err(_) => Vec::new(),
    };
    match items.as_slice() {
        [rows, cols] => board(rows, cols),
        _ => Err(PyTypeError::new_err(format!(
            "board must be (rows, cols) or a string such as \"5x5\", not {}",
            arg.repr()?
        ))),
    }
}

/// `(row, col)` for Python.
pub fn pair(square: Square) -> (u32, u32) {
    (square.row, square.col)
}
