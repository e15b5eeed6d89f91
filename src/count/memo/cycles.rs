//! Closed tours: [`count_cycles`] counts them with the counter as paths through the square
//! with the fewest neighbours ([`cycle_pivot`], which the search for a closed tour shares).

use crate::board::Board;
use crate::count::Limits;
use crate::error::Error;
use crate::graph::{KnightGraph, bit};

use super::counter::{MemoCounter, MemoStats};

/// The number of closed tours (Hamiltonian cycles of the knight graph, each counted once) on
/// `board`, with the engine's figures.
///
/// Every cycle passes through the square with the fewest neighbours, so the count starts there:
/// when that square has two neighbours `a` and `b` (a corner, on every board with a cycle),
/// each cycle is exactly one path from `a` to `b` through every other square; otherwise the
/// paths from the square back to each of its neighbours are counted and halved.
pub fn count_cycles(board: Board, limits: &Limits) -> Result<(u128, MemoStats), Error> {
    let graph = KnightGraph::new(board)?;
    let start = cycle_pivot(&graph);
    let neighbours = graph.neighbours(start);
    let all = graph.all();
    let mut stats = MemoStats::default();
    if graph.len() < 3 || neighbours.count_ones() < 2 {
        return Ok((0, stats));
    }
    let mut ends_to_count = Vec::new();
    if neighbours.count_ones() == 2 {
        let first = neighbours.trailing_zeros() as usize;
        let last = (neighbours & (neighbours - 1)).trailing_zeros() as usize;
        ends_to_count.push((first, all & !bit(start) & !bit(first), last));
    } else {
        let mut rest = neighbours;
        while rest != 0 {
            let end = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            ends_to_count.push((start, all & !bit(start), end));
        }
    }
    let mut paths: u128 = 0;
    for (from, unvisited, end) in ends_to_count {
        let mut engine = MemoCounter::new(board, limits)?;
        engine.end = bit(end);
        paths = paths
            .checked_add(engine.paths_to_end(from, unvisited)?)
            .ok_or(Error::Overflow { board })?;
        stats.add(&engine.stats());
    }
    let cycles = if neighbours.count_ones() == 2 {
        paths
    } else {
        paths / 2
    };
    Ok((cycles, stats))
}

/// The square that every cycle is counted or searched through: one with the fewest
/// neighbours (a corner, with two, on boards with both sides at least 3).
pub(super) fn cycle_pivot(graph: &KnightGraph) -> usize {
    (0..graph.len())
        .min_by_key(|&i| graph.neighbours(i).count_ones())
        .expect("a board has a square")
}
