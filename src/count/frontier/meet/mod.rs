//! Meeting in the middle: the top half's states up to the cut, joined with their own half turns
//! (the closed join in [`closed`], the open one in [`open`]).

mod closed;
mod open;

use hashbrown::HashMap;
use num_bigint::BigUint;
use rayon::prelude::*;

use self::closed::join_class;
use self::open::open_join;
use super::layer::{SHARDS, shard_of};
use super::plan::{FrontierMode, FrontierStats, Plan};
use super::state::{Codec, EMPTY, FIRST_LABEL, FULL, Word};
use super::tally::Tally;
use crate::cancel::CancelFlag;
use crate::error::Error;
use crate::memory::MemoryBudget;

impl Plan {
    /// The meeting in the middle (see [`count_closed_meeting`](super::count_closed_meeting)).
    pub(super) fn meet<T: Tally + Into<u128> + Copy>(
        &self,
        budget: MemoryBudget,
        cancel: &CancelFlag,
    ) -> Result<(BigUint, FrontierStats), Error> {
        if self.k < 16 {
            self.meet_word::<u64, T>(budget, cancel)
        } else {
            self.meet_word::<u128, T>(budget, cancel)
        }
    }

    fn meet_word<Wd: Word, T: Tally + Into<u128> + Copy>(
        &self,
        budget: MemoryBudget,
        cancel: &CancelFlag,
    ) -> Result<(BigUint, FrontierStats), Error> {
        let (lo, hi) = self.cut();
        // The cut's squares in the window after its last square: slots 1..=2W (the square
        // before the cut stays in slot 0), or all slots 0..=2W.
        let cut = hi - lo + 1;
        let offset = self.k - cut;
        let codec = Codec::new(self.k);
        let mut stats = FrontierStats {
            count_bits: T::BITS,
            ..FrontierStats::default()
        };
        let initial = codec.encode::<Wd>(Wd::repeat(FULL, self.k), 0);
        let mut layer: Vec<HashMap<u64, T>> = (0..SHARDS).map(|_| HashMap::new()).collect();
        layer[shard_of(initial)].insert(initial, T::one());
        let heights = self.h..=self.h;
        for v in 0..=hi {
            cancel.check()?;
            let step = self.step::<Wd>(v, &heights);
            layer = self.advance(&codec, layer, &step, budget, &mut stats)?.0;
        }
        if self.mode == FrontierMode::OpenAll {
            let fixed = self.self_turned_moves();
            let total = open_join::<Wd, T>(layer, &codec, cut, offset, &fixed, cancel)?;
            return Ok((total, stats));
        }
        // Each state becomes the degrees and pairings of the cut's squares, grouped by degrees.
        let mut classes: HashMap<u32, Vec<(u64, T)>> = HashMap::new();
        for shard in layer {
            for (key, count) in shard {
                let (window, _) = codec.decode::<Wd>(key);
                if offset == 1 && window.code(0) != FULL {
                    continue; // a square above the cut left unfinished
                }
                let mut degrees = 0u32;
                let mut partners = u64::MAX;
                for i in 0..cut {
                    let code = window.code(i + offset);
                    degrees |= code_degree(code) << (2 * i);
                    if code >= FIRST_LABEL {
                        let other = label_partner(window, i, cut, offset);
                        partners &= !(15u64 << (4 * i));
                        partners |= (other as u64) << (4 * i);
                    }
                }
                classes.entry(degrees).or_default().push((partners, count));
            }
        }
        cancel.check()?;
        let last = cut - 1;
        // On an odd width, two moves across the cut are their own half turn: neither half owns
        // them, and every join tries them both ways.
        let fixed = self.self_turned_moves();
        let entries: Vec<(&u32, &Vec<(u64, T)>)> = classes.iter().collect();
        let total = entries
            .par_iter()
            .map(|&(&degrees, tops)| {
                let mut sum = BigUint::default();
                for chosen in 0..1usize << fixed.len() {
                    let (used, extra) = chosen_moves(&fixed, chosen);
                    // Degrees the bottom must bring, as a state of the top half turned.
                    let mut wanted = 0u32;
                    let mut possible = true;
                    for i in 0..cut {
                        let have = ((degrees >> (2 * (last - i))) & 3) + extra[last - i];
                        if have > 2 {
                            possible = false;
                            break;
                        }
                        wanted |= (2 - have) << (2 * i);
                    }
                    let Some(bottoms) = classes.get(&wanted).filter(|_| possible) else {
                        continue;
                    };
                    sum += join_class(degrees, wanted, &used, tops, bottoms, cut);
                }
                sum
            })
            .reduce(BigUint::default, |a, b| a + b);
        Ok((total, stats))
    }
}

/// The self-turned moves picked by the bits of `chosen`, and how many each cut square gets.
pub(super) fn chosen_moves(
    fixed: &[(usize, usize)],
    chosen: usize,
) -> (Vec<(usize, usize)>, [u32; 16]) {
    let used: Vec<(usize, usize)> = fixed
        .iter()
        .enumerate()
        .filter(|(bit, _)| chosen & (1 << bit) != 0)
        .map(|(_, &edge)| edge)
        .collect();
    let mut extra = [0u32; 16];
    for &(i, j) in &used {
        extra[i] += 1;
        extra[j] += 1;
    }
    (used, extra)
}

/// The number of moves a window code stands for.
pub(super) fn code_degree(code: u8) -> u32 {
    match code {
        EMPTY => 0,
        FULL => 2,
        _ => 1,
    }
}

/// The cut square (of `cut`, window slots `offset..offset + cut`) at the other end of the path
/// ending at `i`.
pub(super) fn label_partner<Wd: Word>(window: Wd, i: usize, cut: usize, offset: usize) -> usize {
    let code = window.code(i + offset);
    (0..cut)
        .find(|&j| j != i && window.code(j + offset) == code)
        .expect("a path has two ends")
}
