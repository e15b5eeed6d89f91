//! One step applied to one state: every way the new square takes the moves it still needs to
//! squares not yet taken (and, for open tours, to the joined vertex), the cycle's closing,
//! and the rules that drop states no tour can come from.

use super::steps::{BoundaryStep, MAX_SLOTS, StepShape};
use crate::count::frontier::sweep::Outcome;
use crate::count::frontier::sweep::{DANGLING, EMPTY, FIRST_LABEL, FULL};

/// The most squares a step handles: a boundary, the squares joining it, the new square.
// (A power of two, so that indexing it with `i % MAX_WORK` needs no bounds check.)
const MAX_WORK: usize = 2 * MAX_SLOTS;

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

/// The codes of the squares a step handles (those past its `work` stay `EMPTY`), and how many
/// of them are tour ends, kept as they change so that no choice counts them again.
#[derive(Clone, Copy)]
struct Work {
    codes: [u8; MAX_WORK],
    dangling: u8,
}

impl Work {
    fn set(&mut self, i: usize, code: u8) {
        self.dangling -= u8::from(self.codes[i] == DANGLING);
        self.dangling += u8::from(code == DANGLING);
        self.codes[i] = code;
    }

    /// The other end of the path whose end `x` carries label `code`.
    fn mate(&self, x: usize, code: u8) -> Option<usize> {
        // Past `work` the codes are EMPTY, never a label: the whole array can be searched.
        self.codes
            .iter()
            .enumerate()
            .position(|(i, &c)| i != x && c == code)
    }

    /// Joins squares `x` and `y` by a move.
    fn join(&mut self, x: usize, y: usize) -> Join {
        let (a, b) = (self.codes[x], self.codes[y]);
        if a == FULL || b == FULL {
            return Join::Invalid;
        }
        match (a, b) {
            (EMPTY, EMPTY) => {
                self.codes[x] = FRESH;
                self.codes[y] = FRESH;
            }
            (EMPTY, end) | (end, EMPTY) => {
                // The empty square becomes the path's end in place of the other.
                let (empty, other) = if a == EMPTY { (x, y) } else { (y, x) };
                self.set(empty, end);
                self.set(other, FULL);
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
                let Some(m) = self.mate(end, label) else {
                    return Join::Invalid;
                };
                self.set(m, DANGLING);
                self.set(x, FULL);
                self.set(y, FULL);
            }
            (p, q) => {
                let Some(m) = self.mate(y, q) else {
                    return Join::Invalid;
                };
                self.codes[m] = p;
                self.codes[x] = FULL;
                self.codes[y] = FULL;
            }
        }
        Join::Ok
    }

    /// Joins square `x` to the joined vertex (open tours): its path's other end is then a tour
    /// end.
    fn join_vertex(&mut self, x: usize) -> Join {
        match self.codes[x] {
            FULL => Join::Invalid,
            EMPTY => {
                self.set(x, DANGLING);
                Join::Ok
            }
            DANGLING => Join::Closes {
                through_joined: true,
            },
            label => {
                let Some(m) = self.mate(x, label) else {
                    return Join::Invalid;
                };
                self.set(m, DANGLING);
                self.set(x, FULL);
                Join::Ok
            }
        }
    }
}

/// The lowest bit of every nibble of a key.
const NIBBLES: u64 = 0x1111_1111_1111_1111;

/// The lowest bit of each nibble of `x` that is 0.
fn zero_nibbles(x: u64) -> u64 {
    let any = x | (x >> 1);
    let any = any | (any >> 2);
    !any & NIBBLES
}

/// What the slots that gain no move at a step need, whatever the new square chooses: read off
/// the key once a state, not once a choice.
struct Fixed {
    /// Moves they can only get from the joined vertex (open tours).
    joined_needed: u8,
    /// One of them cannot get the moves it needs: no choice goes on.
    stuck: bool,
}

impl Fixed {
    fn of(shape: &StepShape, open: bool, key: u64) -> Fixed {
        let needs = &shape.fixed;
        let empty = zero_nibbles(key);
        let end = !empty & !zero_nibbles(key ^ NIBBLES) & NIBBLES;
        let short = (empty & needs.empty_short) | (end & needs.end_short);
        let stuck = empty & needs.empty_stuck != 0;
        if open {
            Fixed {
                joined_needed: short.count_ones() as u8,
                stuck,
            }
        } else {
            Fixed {
                joined_needed: 0,
                stuck: stuck || short != 0,
            }
        }
    }
}

/// Whether a slot can still get the moves it needs.
enum Short {
    No,
    /// One move, which only the joined vertex can give (open tours).
    Joined,
    Stuck,
}

fn short(shape: &StepShape, open: bool, codes: &[u8; MAX_WORK], slot: usize) -> Short {
    let code = codes[shape.after[slot] % MAX_WORK];
    if code == FULL || (code == EMPTY && !shape.prune_empty[slot]) {
        return Short::No;
    }
    match ((2 - degree(code)).saturating_sub(shape.future[slot]), open) {
        (0, _) => Short::No,
        (1, true) => Short::Joined,
        _ => Short::Stuck,
    }
}

/// The keys of the codes of two orders of the same slots (a boundary and its mirror image),
/// labels numbered in order of first appearance in each: one loop, so that the two run side
/// by side.
fn encode_both(codes: &[u8; MAX_WORK], slots: &[usize], image: &[usize]) -> (u64, u64) {
    let mut first = Names::new();
    let mut second = Names::new();
    let (mut a, mut b) = (0u64, 0u64);
    for (slot, (&i, &j)) in slots.iter().zip(image).enumerate() {
        a |= u64::from(first.name(codes[i % MAX_WORK])) << (4 * slot);
        b |= u64::from(second.name(codes[j % MAX_WORK])) << (4 * slot);
    }
    (a, b)
}

/// The key of the slots' codes, labels numbered in order of first appearance.
fn encode(codes: &[u8; MAX_WORK], slots: &[usize]) -> u64 {
    let mut names = Names::new();
    let mut key = 0u64;
    for (slot, &i) in slots.iter().enumerate() {
        key |= u64::from(names.name(codes[i % MAX_WORK])) << (4 * slot);
    }
    key
}

/// The names given to labels so far as a key is encoded.
struct Names {
    names: [u8; 16],
    next: u8,
}

impl Names {
    const UNNAMED: u8 = u8::MAX;

    fn new() -> Names {
        let mut names = [Names::UNNAMED; 16];
        names[EMPTY as usize] = EMPTY;
        names[FULL as usize] = FULL;
        names[DANGLING as usize] = DANGLING;
        Names {
            names,
            next: FIRST_LABEL,
        }
    }

    /// The code in the key of `code`: itself below the labels, else its label's name, given
    /// when first seen. No branch on the code: which codes are labels follows no pattern a
    /// predictor learns.
    #[inline(always)]
    fn name(&mut self, code: u8) -> u8 {
        let code = usize::from(code & 15);
        let named = self.names[code];
        let fresh = named == Names::UNNAMED;
        let name = if fresh { self.next } else { named };
        self.names[code] = name;
        self.next += u8::from(fresh);
        name
    }
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
    let mut work = Work {
        codes: [EMPTY; MAX_WORK],
        dangling: zero_nibbles(key ^ (u64::from(DANGLING) * NIBBLES)).count_ones() as u8,
    };
    for (slot, code) in work.codes[..MAX_SLOTS].iter_mut().enumerate() {
        *code = ((key >> (4 * slot)) & 15) as u8;
    }
    let fixed = Fixed::of(shape, open, key);
    let own = shape.own;
    let need = 2 - degree(work.codes[own]) as usize;
    // The squares the new one may move to (usize::MAX: the joined vertex).
    let mut options = [0usize; 5];
    let mut count = 0;
    for &u in &shape.later {
        if work.codes[u] != FULL {
            options[count] = u;
            count += 1;
        }
    }
    if open {
        options[count] = usize::MAX;
        count += 1;
    }
    let options = &options[..count];
    let mut choose = |moves: &[usize]| apply(step, open, work, &fixed, moves, &mut emit);
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
    mut work: Work,
    fixed: &Fixed,
    moves: &[usize],
    emit: &mut impl FnMut(Outcome),
) {
    let shape = &step.shape;
    let dangling_before = work.dangling;
    let own = shape.own;
    let mut closed = false;
    for (i, &to) in moves.iter().enumerate() {
        let joined = if to == usize::MAX {
            // The joined vertex takes two moves, one for each tour end so far: a third is
            // refused. (A tour end taking it closes the cycle, if it is the only one.)
            if dangling_before >= 2 {
                return;
            }
            work.join_vertex(own)
        } else {
            work.join(own, to)
        };
        match joined {
            Join::Ok => {}
            Join::Invalid => return,
            Join::Closes { through_joined } => {
                if i + 1 != moves.len() || through_joined != open {
                    return;
                }
                work.set(own, FULL);
                if to != usize::MAX {
                    work.set(to, FULL);
                }
                closed = true;
            }
        }
    }
    if closed {
        close(shape, step.finishes.is_some(), &work.codes, emit);
        return;
    }
    debug_assert_eq!(work.codes[own], FULL);
    if !can_go_on(shape, open, fixed, &work) {
        return;
    }
    let key = match &shape.mirror {
        Some(image) => {
            let (key, mirrored) = encode_both(&work.codes, &shape.after, image);
            key.min(mirrored)
        }
        None => encode(&work.codes, &shape.after),
    };
    emit(Outcome::Next(key, 0));
}

/// A cycle has closed: the board it finishes is the one whose rows hold exactly the squares
/// that have both moves. Every square above that row is done, and none below it is touched.
fn close(shape: &StepShape, finishes_now: bool, work: &[u8], emit: &mut impl FnMut(Outcome)) {
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
/// hold some. (The new square has both its moves, so it is no tour end.)
fn can_go_on(shape: &StepShape, open: bool, fixed: &Fixed, work: &Work) -> bool {
    if fixed.stuck {
        return false;
    }
    let mut joined_needed = fixed.joined_needed;
    for &slot in &shape.changing {
        match short(shape, open, &work.codes, slot) {
            Short::No => {}
            Short::Joined => joined_needed += 1,
            Short::Stuck => return false,
        }
    }
    !open || joined_needed + work.dangling <= 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::frontier::boundary::steps::Order;

    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// Keys name labels in the order they first appear, whatever codes the labels had, and
    /// leave the other codes as they are; a boundary and its mirror image encoded side by side
    /// give each its own key.
    #[test]
    fn keys_name_labels_in_order_of_first_appearance() {
        let mut random = xorshift(0x2545_F491_4F6C_DD1D);
        for _ in 0..10_000 {
            let mut codes = [EMPTY; MAX_WORK];
            for code in codes.iter_mut() {
                *code = (random() % 15) as u8;
            }
            let slots: Vec<usize> = (0..1 + random() as usize % MAX_SLOTS)
                .map(|_| random() as usize % MAX_WORK)
                .collect();
            let mut image = slots.clone();
            image.reverse();
            // The plain way: a table of names, a branch on the code.
            let plain = |slots: &[usize]| {
                let mut names = [0u8; 16];
                let mut next = FIRST_LABEL;
                let mut key = 0u64;
                for (slot, &i) in slots.iter().enumerate() {
                    let mut code = codes[i];
                    if code >= FIRST_LABEL {
                        if names[code as usize] == 0 {
                            names[code as usize] = next;
                            next += 1;
                        }
                        code = names[code as usize];
                    }
                    key |= u64::from(code) << (4 * slot);
                }
                key
            };
            let distinct = slots
                .iter()
                .map(|&i| codes[i])
                .filter(|&c| c >= FIRST_LABEL)
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            // Only keys whose labels fit the 13 names a key has (the engine's hold at most 8).
            if distinct + usize::from(FIRST_LABEL) > 16 {
                continue;
            }
            assert_eq!(encode(&codes, &slots), plain(&slots), "{codes:?} {slots:?}");
            assert_eq!(
                encode_both(&codes, &slots, &image),
                (plain(&slots), plain(&image))
            );
        }
    }

    /// What the fixed slots need, read off the key's nibbles at once, equals what a slot by
    /// slot look at the same codes finds, at every step of a few strips, for many keys.
    #[test]
    fn fixed_needs_read_off_the_key_equal_slot_by_slot() {
        let mut random = xorshift(0x9E37_79B9_7F4A_7C15);
        for (w, rows, outside_in) in [(5, 9, true), (6, 8, false), (7, 8, true)] {
            let order = Order::new(w, rows, outside_in);
            for t in 0..w * rows {
                let heights = rows / 2..=rows;
                let step = order.step(t, &heights, true);
                let shape = &step.shape;
                for _ in 0..200 {
                    // Any codes below FRESH in the slots before the step, none past them.
                    let mut key = 0u64;
                    let mut codes = [EMPTY; MAX_WORK];
                    for (slot, code) in codes[..shape.before].iter_mut().enumerate() {
                        *code = (random() % u64::from(FRESH)) as u8;
                        key |= u64::from(*code) << (4 * slot);
                    }
                    for open in [false, true] {
                        let (mut joined_needed, mut stuck) = (0, false);
                        for slot in (0..shape.after.len()).filter(|s| !shape.changing.contains(s)) {
                            match short(shape, open, &codes, slot) {
                                Short::No => {}
                                Short::Joined => joined_needed += 1,
                                Short::Stuck => stuck = true,
                            }
                        }
                        let fixed = Fixed::of(shape, open, key);
                        assert_eq!(
                            (fixed.joined_needed, fixed.stuck),
                            (joined_needed, stuck),
                            "{w} wide, step {t}, key {key:x}, open {open}"
                        );
                    }
                }
            }
        }
    }
}
