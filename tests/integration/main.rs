//! The integration tests, in one binary (as ripgrep does): the engine against the reference
//! counter and published counts, the board's symmetries, and the command line end to end.

mod anchors;
mod cli;
mod closed;
mod data;
mod engine;
mod files;
mod frontier;
mod input;
mod limits;
mod store;
mod symmetry;
mod tours;
mod util;
