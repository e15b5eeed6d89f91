//! The results knights computed and ships in `data/` (the per-square tables of 7×7, 7×8 and
//! 8×8, and 8×8's start/end pairs): compiled into the binary and admitted to every store it
//! writes, once per release, through the gate an import passes ([`admit`]) — so a new store
//! answers `count 8 8 0 0` at once, and `verify --recount` rechecks them like any answer.
//!
//! They are results, not evidence: no test takes them as proof that an engine is right.

use super::Settings;
use super::admit::{Incoming, admit};
use crate::error::Error;
use crate::exchange::{self, ExchangeFormat};
use crate::store::{ImportReport, Store};

pub use crate::trust::known::{SHIPPED, ShippedFile};
pub use crate::trust::provenance::RELEASE;

/// What [`admit_shipped`] did.
#[derive(Debug, Default)]
pub struct ShippedReport {
    /// Answers added to the store, over all files.
    pub added: usize,
    /// Files the gate refused, each with why (the store keeps nothing of them).
    pub refused: Vec<(&'static str, Error)>,
}

/// Admits the shipped results to `store` unless this release's are there already (or the store
/// is read-only). Each file is all or nothing; one the gate refuses (a stored count that
/// differs, say) is reported in [`ShippedReport::refused`] and the others still enter. The
/// store remembers the release only when every file entered, so a refusal is seen again.
pub fn admit_shipped(store: &mut Store, settings: &Settings) -> Result<ShippedReport, Error> {
    let mut report = ShippedReport::default();
    if store.is_read_only() || store.has_shipped(RELEASE)? {
        return Ok(report);
    }
    for file in SHIPPED {
        match admit_file(store, file, settings) {
            Ok(added) => report.added += added.added,
            Err(Error::Store(e)) => return Err(Error::Store(e)),
            Err(refused) => report.refused.push((file.name, refused)),
        }
    }
    if report.refused.is_empty() {
        store.mark_shipped(RELEASE)?;
    }
    Ok(report)
}

fn admit_file(
    store: &mut Store,
    file: &ShippedFile,
    settings: &Settings,
) -> Result<ImportReport, Error> {
    let records = exchange::read_answers(file.text, ExchangeFormat::Csv)?;
    admit(
        store,
        Incoming::Shipped {
            name: file.name,
            records: &records,
        },
        settings,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shipped file reads as an export and passes the gate into a new store, once: the
    /// second time there is nothing to do. Their sources name the release and the file, and no
    /// machine's paths.
    #[test]
    fn shipped_results_enter_a_new_store_once() {
        let mut store = Store::open_in_memory().unwrap();
        let report = admit_shipped(&mut store, &Settings::default()).unwrap();
        assert!(report.refused.is_empty(), "{:?}", report.refused);
        assert!(report.added > 300, "{}", report.added);
        assert!(store.has_shipped(RELEASE).unwrap());
        assert_eq!(
            admit_shipped(&mut store, &Settings::default())
                .unwrap()
                .added,
            0
        );
        for answer in store.list(&Default::default()).unwrap() {
            assert!(
                answer
                    .source
                    .starts_with(&format!("shipped with knights {RELEASE} (data/")),
                "{}",
                answer.source
            );
            assert!(!answer.source.contains("/work/"), "{}", answer.source);
        }
    }

    /// A shipped 8x8 start is served at once, and said to be the sum of its pairs (no engine
    /// counted it as such); the board's total the sum of its starts.
    #[test]
    fn shipped_starts_are_sums_of_their_pairs() {
        use crate::board::{Board, Square};
        use crate::question::{Question, TourKind};

        let mut store = Store::open_in_memory().unwrap();
        admit_shipped(&mut store, &Settings::default()).unwrap();
        let board = Board::new(8, 8).unwrap();
        let corner = Question::from_start(board, Square::new(0, 0), TourKind::Open);
        let total = Question::total(board, TourKind::Open);
        let resolution = super::super::resolve(
            &[corner, total],
            Some(&mut store),
            &Settings::default(),
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(resolution.count(&corner).to_string(), "1222177251161336");
        let how = resolution.how(&corner);
        assert!(
            how.starts_with(
                "from the answer store, where it was added up from the counts of its pairs"
            ),
            "{how}"
        );
        let how = resolution.how(&total);
        assert!(how.contains("of its starts"), "{how}");
    }
}
