//! One step applied to one state: every way the new square takes the moves it still needs to
//! squares not yet taken (and, for open tours, to the joined vertex), the cycle's closing,
//! and the rules that drop states no tour can come from.

use super::steps::{BoundaryStep, MAX_SLOTS, Shape};
use crate::count::frontier::rules::Outcome;
use crate::count::frontier::state::{DANGLING, EMPTY, FIRST_LABEL, FULL};

/// The most squares a step handles: a boundary, the squares joining it, the new square.
const MAX_WORK: usize = MAX_SLOTS + 8;

/// A label no normalized state holds, for the one new path a step may start.
const FRESH: u8 = 14;

/// The keys of a closed cycle waiting for the end of the row that finishes its board:
/// `CLOSED - d` finishes at the `d`-th row end from the next step on. No state of slots holds
/// them (its codes stay below 14).
const CLOSED: u64 = u64::MAX;
const MAX_WAIT: u64 = 3;

/// How joining two squares went.
enum Join {
    Ok,
    /// The move closed a cycle: through the joined vertex (open tours) or not.
    Closes {
        through_joined: bool,
    },
    Invalid,
}

/// A square's degree from its code.
fn degree(code: u8) -> u8 {
    match code {
        EMPTY => 0,
        FULL => 2,
        _ => 1,
    }
}

/// The other end of the path whose end `x` carries label `code`, among `codes`.
fn mate(codes: &[u8], x: usize, code: u8) -> Option<usize> {
    codes
        .iter()
        .enumerate()
        .position(|(i, &c)| i != x && c == code)
}

/// Joins squares `x` and `y` by a move.
fn join(codes: &mut [u8], x: usize, y: usize) -> Join {
    let (a, b) = (codes[x], codes[y]);
    if a == FULL || b == FULL {
        return Join::Invalid;
    }
    match (a, b) {
        (EMPTY, EMPTY) => {
            codes[x] = FRESH;
            codes[y] = FRESH;
        }
        (EMPTY, end) | (end, EMPTY) => {
            // The empty square becomes the path's end in place of the other.
            let (empty, other) = if a == EMPTY { (x, y) } else { (y, x) };
            codes[empty] = end;
            codes[other] = FULL;
        }
        (DANGLING, DANGLING) => {
            return Join::Closes {
                through_joined: true,
            };
        }
        (p, q) if p == q => {
            return Join::Closes {
                through_joined: false,
            };
        }
        (DANGLING, label) | (label, DANGLING) => {
            let end = if a == DANGLING { y } else { x };
            let Some(m) = mate(codes, end, label) else {
                return Join::Invalid;
            };
            codes[m] = DANGLING;
            codes[x] = FULL;
            codes[y] = FULL;
        }
        (p, q) => {
            let Some(m) = mate(codes, y, q) else {
                return Join::Invalid;
            };
            codes[m] = p;
            codes[x] = FULL;
            codes[y] = FULL;
        }
    }
    Join::Ok
}

/// Joins square `x` to the joined vertex (open tours): its path's other end is then a tour end.
fn join_vertex(codes: &mut [u8], x: usize) -> Join {
    match codes[x] {
        FULL => Join::Invalid,
        EMPTY => {
            codes[x] = DANGLING;
            Join::Ok
        }
        DANGLING => Join::Closes {
            through_joined: true,
        },
        label => {
            let Some(m) = mate(codes, x, label) else {
                return Join::Invalid;
            };
            codes[m] = DANGLING;
            codes[x] = FULL;
            Join::Ok
        }
    }
}

/// The key of the slots' codes, labels numbered in order of first appearance.
fn encode(codes: &[u8], slots: &[usize]) -> u64 {
    let mut names = [0u8; 16];
    let mut next = FIRST_LABEL;
    let mut key = 0u64;
    for (slot, &i) in slots.iter().enumerate() {
        let mut code = codes[i];
        if code >= FIRST_LABEL {
            let name = &mut names[code as usize];
            if *name == 0 {
                *name = next;
                next += 1;
            }
            code = *name;
        }
        key |= (code as u64) << (4 * slot);
    }
    key
}

/// Whether the key is a closed cycle waiting to finish its board.
fn waiting(key: u64) -> Option<u64> {
    (key >= CLOSED - MAX_WAIT).then(|| CLOSED - key)
}

/// Every state `key` goes on to at `step`, and the ways it finishes a board there.
pub(super) fn transitions(
    step: &BoundaryStep,
    open: bool,
    key: u64,
    mut emit: impl FnMut(Outcome),
) {
    let shape = &step.shape;
    if let Some(wait) = waiting(key) {
        match (shape.row_end, wait) {
            (false, _) => emit(Outcome::Next(key, 0)),
            (true, 0) if step.finishes.is_some() => emit(Outcome::Finished(0)),
            (true, 0) => {}
            (true, wait) => emit(Outcome::Next(CLOSED - (wait - 1), 0)),
        }
        return;
    }
    let mut codes = [EMPTY; MAX_WORK];
    for (slot, code) in codes[..shape.before].iter_mut().enumerate() {
        *code = ((key >> (4 * slot)) & 15) as u8;
    }
    let codes = &codes[..shape.work];
    let own = shape.own;
    let need = 2 - degree(codes[own]) as usize;
    // The squares the new one may move to (usize::MAX: the joined vertex).
    let mut options = [0usize; 5];
    let mut count = 0;
    for &u in &shape.later {
        if codes[u] != FULL {
            options[count] = u;
            count += 1;
        }
    }
    if open {
        options[count] = usize::MAX;
        count += 1;
    }
    let options = &options[..count];
    let mut choose = |moves: &[usize]| apply(step, open, codes, moves, &mut emit);
    match need {
        0 => choose(&[]),
        1 => {
            for &a in options {
                choose(&[a]);
            }
        }
        _ => {
            for i in 0..options.len() {
                for &b in &options[i + 1..] {
                    choose(&[options[i], b]);
                }
            }
        }
    }
}

/// One choice of moves from the new square.
fn apply(
    step: &BoundaryStep,
    open: bool,
    codes: &[u8],
    moves: &[usize],
    emit: &mut impl FnMut(Outcome),
) {
    let shape = &step.shape;
    let mut work = [EMPTY; MAX_WORK];
    let work = &mut work[..codes.len()];
    work.copy_from_slice(codes);
    let dangling_before = work.iter().filter(|&&c| c == DANGLING).count();
    let own = shape.own;
    let mut closed = None;
    for (i, &to) in moves.iter().enumerate() {
        let joined = if to == usize::MAX {
            // The joined vertex takes two moves, one for each tour end so far: a third is
            // refused. (A tour end taking it closes the cycle, if it is the only one.)
            if dangling_before >= 2 {
                return;
            }
            join_vertex(work, own)
        } else {
            join(work, own, to)
        };
        match joined {
            Join::Ok => {}
            Join::Invalid => return,
            Join::Closes { through_joined } => {
                if i + 1 != moves.len() || through_joined != open {
                    return;
                }
                work[own] = FULL;
                if to != usize::MAX {
                    work[to] = FULL;
                }
                closed = Some(());
            }
        }
    }
    if closed.is_some() {
        close(shape, step.finishes.is_some(), work, emit);
        return;
    }
    debug_assert_eq!(work[own], FULL);
    if !can_go_on(shape, open, work) {
        return;
    }
    let key = encode(work, &shape.after);
    let key = match &shape.mirror {
        Some(image) => key.min(encode(work, image)),
        None => key,
    };
    emit(Outcome::Next(key, 0));
}

/// A cycle has closed: the board it finishes is the one whose rows hold exactly the squares
/// that have both moves. Every square above that row is done, and none below it is touched.
fn close(shape: &Shape, finishes_now: bool, work: &[u8], emit: &mut impl FnMut(Outcome)) {
    let mut height = shape.outside_row;
    for (slot, &i) in shape.after.iter().enumerate() {
        if work[i] != FULL {
            height = height.min(shape.slot_row[slot]);
        }
    }
    if height == 0 {
        return;
    }
    for (slot, &i) in shape.after.iter().enumerate() {
        if shape.slot_row[slot] >= height && work[i] != EMPTY {
            return;
        }
    }
    // The board ends with row `height - 1` from here: at this step or a later row end.
    let wait = u64::from(height - 1);
    match (shape.row_end, wait) {
        (true, 0) if finishes_now => emit(Outcome::Finished(0)),
        (true, 0) => {}
        (true, wait) => emit(Outcome::Next(CLOSED - (wait - 1), 0)),
        (false, wait) => emit(Outcome::Next(CLOSED - wait, 0)),
    }
}

/// Whether every square on the boundary can still get the moves it needs: those to squares
/// not yet taken, and for open tours the joined vertex's two, of which the tour ends so far
/// hold some.
fn can_go_on(shape: &Shape, open: bool, work: &[u8]) -> bool {
    let mut joined_needed = 0;
    for (slot, &i) in shape.after.iter().enumerate() {
        let code = work[i];
        if code == FULL || (code == EMPTY && !shape.prune_empty[slot]) {
            continue;
        }
        let need = 2 - degree(code);
        let short = need.saturating_sub(shape.future[slot]);
        match (open, short) {
            (_, 0) => {}
            (true, 1) => joined_needed += 1,
            _ => return false,
        }
    }
    if open {
        let dangling = work
            .iter()
            .enumerate()
            .filter(|&(i, &c)| c == DANGLING && i != shape.own)
            .count();
        return joined_needed + dangling <= 2;
    }
    true
}
