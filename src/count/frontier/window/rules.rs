//! One square applied to one state: every way to choose the new square's moves back into the
//! window, and the rules that drop the states no tour can come from.

use crate::count::frontier::plan::{FrontierMode, Plan};
use crate::count::frontier::sweep::{DANGLING, EMPTY, FIRST_LABEL, FULL};
use crate::count::frontier::sweep::{Key, Outcome};
use crate::count::frontier::window::state::{Codec, Word};
use crate::count::frontier::window::step::Step;

impl Plan {
    /// Every way to decide the moves from square `v` back into the window of `key`.
    pub(crate) fn transitions<Wd: Word, K: Key>(
        &self,
        codec: &Codec,
        step: &Step<Wd>,
        key: K,
        mut emit: impl FnMut(Outcome<K>),
    ) {
        let k = self.k;
        let (window, flag) = codec.decode_key::<Wd, K>(key);
        // Slot k, the new square, starts empty (its nibble is 0).
        let fresh = FIRST_LABEL + (window.labels().count_ones() / 2) as u8;
        let source = Source {
            codec,
            step,
            window,
            flag,
            fresh,
        };
        // Neighbours that can still take a move, and the one that must (the leaving square,
        // when it is not yet done and only this move can help it).
        let mut usable = [0usize; 4];
        let mut count = 0;
        for &slot in &step.neighbours[..step.neighbour_count] {
            if window.code(slot) != FULL {
                usable[count] = slot;
                count += 1;
            }
        }
        let mut forced = usize::MAX;
        if !step.last && step.finishes.is_none() {
            let needs_move = match (self.mode, window.code(0)) {
                (_, FULL) => false,
                (FrontierMode::Closed, EMPTY) => return, // two moves short, one square left
                (FrontierMode::Closed, _) => true,
                (_, EMPTY | DANGLING) => true,
                _ => false,
            };
            if needs_move {
                if !usable[..count].contains(&0) {
                    return;
                }
                forced = 0;
            }
        }
        let max_moves = if step.start_slot == Some(k) || step.end_slot == Some(k) {
            1
        } else {
            2
        };
        let min_moves = step.min_moves;
        if forced == usize::MAX && min_moves == 0 {
            self.try_moves(&source, &[], &mut emit);
        }
        for i in 0..count {
            if (forced == usize::MAX || usable[i] == forced) && min_moves <= 1 {
                self.try_moves(&source, &[usable[i]], &mut emit);
            }
            if max_moves == 2 {
                for j in i + 1..count {
                    if forced == usize::MAX || usable[i] == forced || usable[j] == forced {
                        let moves = [usable[i], usable[j]];
                        self.try_moves(&source, &moves, &mut emit);
                    }
                }
            }
        }
    }

    /// One choice of moves from the new square.
    #[inline(always)]
    fn try_moves<Wd: Word, K: Key>(
        &self,
        source: &Source<'_, Wd>,
        moves: &[usize],
        emit: &mut impl FnMut(Outcome<K>),
    ) {
        let Source {
            codec,
            step,
            window,
            flag,
            fresh,
        } = *source;
        let k = self.k;
        let mut a = window;
        let mut completed = false;
        let chosen = moves.iter().fold(0u32, |mask, &slot| mask | 1 << slot);
        for &slot in moves {
            match self.connect(&mut a, slot, k, fresh, step.all) {
                Join::Ok => {}
                Join::Completes => completed = true,
                Join::Invalid => return,
            }
        }
        // The fixed start and end end with one move (once done, their slots are marked full).
        for slot in [step.start_slot, step.end_slot].into_iter().flatten() {
            if window.code(slot) != FULL && a.code(slot) == FULL {
                return;
            }
        }
        if completed {
            // A cycle closed or the two tour ends met: this must be the whole board.
            if step.finishes.is_some() && a.eq_mask(FULL, step.all) == step.all {
                emit(Outcome::Finished(chosen));
            }
            return;
        }
        if step.finishes.is_some() && self.finished(a, step) {
            emit(Outcome::Finished(chosen));
        }
        if step.last {
            return;
        }
        // A closed tour needs two moves at every square: one with a single move left cannot
        // still be empty.
        if self.mode == FrontierMode::Closed && a.eq_mask(EMPTY, step.one_left) != Wd::ZERO {
            return;
        }
        let mut flag = flag;
        if !self.finalize(&mut a, step, &mut flag) {
            return;
        }
        if self.mode != FrontierMode::Closed && !self.ends_possible(a, step, flag) {
            return;
        }
        let next = a.shift_out().canonical();
        if step.mirror && next.code(0) == FULL {
            // At the end of a row the window is two whole rows, and the rest of the board is
            // symmetric left to right: a state and its mirror image finish in as many ways,
            // so only the smaller of the two is kept.
            let mirrored = self.mirror(next).canonical();
            let mirrored_flag = if self.colour_flag && self.w.is_multiple_of(2) {
                flag ^ 1
            } else {
                flag
            };
            let key: K = codec.encode(next, flag);
            let other: K = codec.encode(mirrored, mirrored_flag);
            emit(Outcome::Next(key.min(other), chosen));
        } else {
            emit(Outcome::Next(codec.encode(next, flag), chosen));
        }
    }

    /// The window at the end of a row (slot 0 done, then two whole rows) turned left to right.
    fn mirror<Wd: Word>(&self, window: Wd) -> Wd {
        let w = self.w;
        let mut out = window;
        for row in 0..2 {
            for c in 0..w {
                out = out.with(1 + row * w + (w - 1 - c), window.code(1 + row * w + c));
            }
        }
        out
    }

    /// Adds the move between slots `i` and `j` (`fresh` labels a new path).
    fn connect<Wd: Word>(&self, a: &mut Wd, i: usize, j: usize, fresh: u8, all: Wd) -> Join {
        let (x, y) = (a.code(i), a.code(j));
        if x == FULL || y == FULL {
            return Join::Invalid;
        }
        match (x, y) {
            (EMPTY, EMPTY) => {
                *a = a.with(i, fresh).with(j, fresh);
            }
            (EMPTY, other) => *a = a.with(i, other).with(j, FULL),
            (other, EMPTY) => *a = a.with(j, other).with(i, FULL),
            (DANGLING, DANGLING) => {
                *a = a.with(i, FULL).with(j, FULL);
                return Join::Completes;
            }
            (DANGLING, label) | (label, DANGLING) => {
                // The far end of the labelled path now leads to a tour end.
                *a = a.with(i, FULL).with(j, FULL);
                *a = a.replace(label, DANGLING, all);
            }
            (p, q) if p == q => {
                // Both ends of one path: a cycle. Only the last move of a closed tour may do it.
                if self.mode != FrontierMode::Closed {
                    return Join::Invalid;
                }
                *a = a.with(i, FULL).with(j, FULL);
                return Join::Completes;
            }
            (p, q) => {
                *a = a.with(i, FULL).with(j, FULL);
                *a = a.replace(q, p, all);
            }
        }
        Join::Ok
    }

    /// True when the extended window, taken as the end of the board, completes one tour.
    fn finished<Wd: Word>(&self, a: Wd, step: &Step<Wd>) -> bool {
        let all = step.all;
        if self.mode == FrontierMode::Closed {
            return false; // a closed tour finishes only through its closing move
        }
        if a.eq_mask(EMPTY, all) != Wd::ZERO {
            return false;
        }
        if self.end.is_some() {
            // Between two squares, the path ends still in the window are fixed squares.
            let (_, _, dangling) = a.classes();
            if (a.labels() | dangling) & all & !step.fixed_all != Wd::ZERO {
                return false;
            }
        }
        let dangling = a.eq_mask(DANGLING, all).count_ones();
        let ends = a.labels().count_ones();
        matches!((dangling, ends), (1, 0) | (0, 2))
    }

    /// Squares with no move left: their degree is final. Returns false when one is wrong.
    fn finalize<Wd: Word>(&self, a: &mut Wd, step: &Step<Wd>, flag: &mut u8) -> bool {
        let (empty, full, dangling) = a.classes();
        if (empty | dangling) & step.finals_mask != Wd::ZERO {
            return false;
        }
        let mut ends_here = step.finals_mask & !full;
        if ends_here == Wd::ZERO {
            return true;
        }
        if self.mode == FrontierMode::Closed {
            return false;
        }
        let mut ends = (dangling & step.all).count_ones();
        while ends_here != Wd::ZERO {
            let shift = ends_here.trailing_zeros();
            ends_here = ends_here & !(Wd::from_u8(1) << shift);
            let slot = (shift / 4) as usize;
            let label = a.code(slot);
            if label == DANGLING {
                return false; // both ends of one path done: it closed too early
            }
            // A tour end: the far end of its path now leads to it.
            *a = a.with(slot, FULL).replace(label, DANGLING, step.all);
            ends += 1;
            let colour = step.colour[slot];
            if self.end.is_some() {
                // Between two squares, only they are tour ends.
                if step.start_slot != Some(slot) && step.end_slot != Some(slot) {
                    return false;
                }
                continue;
            }
            match self.start {
                Some(start) => {
                    if step.start_slot != Some(slot) {
                        // The start is one end; while it is not done, one other at
                        // most.
                        let pending = step.start_pending
                            || step.start_slot.is_some_and(|s| a.code(s) != FULL);
                        if pending && ends > 1 {
                            return false;
                        }
                        let start_colour = self.corner_colour(start);
                        if self.colours
                            && (self.odd && !colour || !self.odd && colour == start_colour)
                        {
                            return false;
                        }
                    }
                    if ends > 2 {
                        return false;
                    }
                }
                None => {
                    if ends > 2 || self.colours && self.odd && !colour {
                        return false;
                    }
                    if self.colour_flag {
                        if ends == 1 {
                            *flag = u8::from(colour);
                        } else if *flag == u8::from(colour) {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// Open tours: the squares of the next window that can no longer get two moves must be
    /// tour ends; with the ends already made, there may be two at most, of possible colours.
    fn ends_possible<Wd: Word>(&self, a: Wd, step: &Step<Wd>, flag: u8) -> bool {
        let (empty, full, dangling) = a.classes();
        let forced = (empty & step.next & step.weak) | (step.fixed_mask & !full);
        let left = (dangling & step.next).count_ones();
        let ends = forced.count_ones()
            + left
            + u32::from(step.start_pending)
            + u32::from(step.end_pending);
        if ends > 2 {
            return false;
        }
        if self.end.is_some() {
            // Between two squares, no other square may be left to be a tour end.
            return forced & !step.fixed_mask == Wd::ZERO;
        }
        if !self.colours {
            return true;
        }
        let others = forced & !step.start_mask;
        if self.odd {
            // Tour ends are on the corners' colour.
            return others & !step.corner == Wd::ZERO;
        }
        let corner = (others & step.corner).count_ones();
        let other = (others & !step.corner).count_ones();
        match self.start {
            // On an even board the two ends differ in colour.
            Some(start) => {
                if self.corner_colour(start) {
                    corner == 0
                } else {
                    other == 0
                }
            }
            None => {
                corner <= 1
                    && other <= 1
                    && !(self.colour_flag
                        && left >= 1
                        && if flag == 1 { corner > 0 } else { other > 0 })
            }
        }
    }
}

/// One state about to take a step's square, with what every choice of moves from the new
/// square starts from.
#[derive(Clone, Copy)]
struct Source<'a, Wd> {
    codec: &'a Codec,
    step: &'a Step<Wd>,
    /// The state's window and colour flag.
    window: Wd,
    flag: u8,
    /// The label a new path takes.
    fresh: u8,
}

enum Join {
    Ok,
    Completes,
    Invalid,
}
