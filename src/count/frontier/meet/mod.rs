//! Meeting in the middle: the top half's states up to the cut, joined with their own half turns
//! (the closed join in `closed`, the open one in `open`; both read the cut as `cut` does).

mod closed;
mod cut;
mod open;

use num_bigint::BigUint;

use self::closed::closed_join;
use self::open::open_join;
use super::layer::{by_word, first_layer};
use super::plan::{FrontierMode, FrontierStats, Plan};
use super::state::{Codec, Word};
use super::tally::Tally;
use crate::cancel::CancelFlag;
use crate::error::Error;
use crate::memory::MemoryBudget;

impl Plan {
    /// The meeting in the middle (see [`count_meeting`](super::count_meeting)).
    pub(super) fn meet<T: Tally + Into<u128> + Copy>(
        &self,
        budget: MemoryBudget,
        cancel: &CancelFlag,
    ) -> Result<(BigUint, FrontierStats), Error> {
        by_word!(self, Wd => self.meet_word::<Wd, T>(budget, cancel))
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
        let mut layer = first_layer::<Wd, T>(&codec);
        let heights = self.h..=self.h;
        for v in 0..=hi {
            cancel.check()?;
            let step = self.step::<Wd>(v, &heights);
            layer = self
                .advance(&codec, layer, &step, budget, cancel, &mut stats)?
                .0;
            let states: u64 = layer.iter().map(|m| m.len() as u64).sum();
            cancel.report_pass(v as u64 + 1, hi as u64 + 1, states);
        }
        // Moves inside the cut that are their own half turn (between two rows, two moves on an
        // odd width): neither half owns them, and every join tries them both ways.
        let fixed = self.self_turned_moves();
        let total = if self.mode == FrontierMode::OpenAll {
            open_join::<Wd, T>(layer, &codec, cut, offset, &fixed, cancel)?
        } else {
            closed_join::<Wd, T>(layer, &codec, cut, offset, &fixed, cancel)?
        };
        Ok((total, stats))
    }
}
