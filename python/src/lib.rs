//! The Python package `knights`: a thin binding over the library (`knights = { path = ".." }`).
//! Every answer comes from the library's own entry points, called as the command line calls
//! them (src/cli/commands/), with the same store, the same gate and the same one-line errors;
//! this crate only turns Python values into the library's and back, runs long work off the
//! GIL and raises errors as Python exceptions.

mod convert;
mod count;
mod errors;
mod session;
mod store;
mod tour;
mod work;

use pyo3::prelude::*;

/// The native part of the package: `knights/__init__.py` re-exports it.
#[pymodule]
fn _knights(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("RELEASE", knights::resolve::shipped::RELEASE)?;
    m.add_function(wrap_pyfunction!(count::count, m)?)?;
    m.add_function(wrap_pyfunction!(count::series, m)?)?;
    m.add_function(wrap_pyfunction!(tour::tour, m)?)?;
    m.add_function(wrap_pyfunction!(tour::tour_svg, m)?)?;
    m.add_function(wrap_pyfunction!(tour::puzzle_solve, m)?)?;
    m.add_function(wrap_pyfunction!(tour::puzzle_count, m)?)?;
    m.add_function(wrap_pyfunction!(tour::puzzle_make, m)?)?;
    m.add_function(wrap_pyfunction!(default_store, m)?)?;
    m.add_class::<count::Table>()?;
    m.add_class::<count::Series>()?;
    m.add_class::<store::PyStore>()?;
    m.add_class::<store::PyAnswer>()?;
    m.add_class::<store::PyImportReport>()?;
    m.add_class::<store::PyVerifyReport>()?;
    Ok(())
}

/// The path of the store `knights` uses by default: $KNIGHTS_DB, else knights/answers.db in
/// the data directory (~/.local/share on Linux).
#[pyfunction]
fn default_store() -> PyResult<String> {
    Ok(session::default_store_path()?.display().to_string())
}
