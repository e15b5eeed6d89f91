//! The integration tests, in one binary (as ripgrep does): the engine against the reference
//! counter and published counts, the board's symmetries, the command line end to end, and the
//! server's API.
// A test that cannot run here (no root, no tmpfs) says so on its output and passes.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod anchors;
mod checkpoints;
mod cli;
mod closed;
mod data;
#[cfg(unix)] // the examples run through a shell script
mod docs;
mod files;
mod frontier;
mod input;
mod known;
mod limits;
mod memo_vs_reference;
mod pairs;
mod puzzle;
mod refusals;
mod schedulers;
mod serve;
mod serve_clients;
mod serve_work;
mod shards;
mod shipped;
mod store;
mod symmetry;
mod tours;
mod trust;
mod util;
