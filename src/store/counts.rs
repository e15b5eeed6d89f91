//! The counts of one board and kind, without the rest of their rows: what the import gate
//! checks a file's answers against, board by board, so that it holds one board's counts and
//! not the store's answers with their sources.

use std::collections::HashMap;

use num_bigint::BigUint;
use rusqlite::params;
use rusqlite::types::Value;

use super::rows::{LISTED, read_row};
use super::{Store, StoreError};
use crate::board::Board;
use crate::question::{AnswerKind, Question};

impl Store {
    /// How many answers of `kind` the store holds for `board` (either way round), and the
    /// digits of their counts together: what [`Store::counts`] would hold, found before it is
    /// read.
    pub fn counts_size(&self, board: Board, kind: AnswerKind) -> Result<(u64, u64), StoreError> {
        let board = board.canonical();
        self.conn
            .prepare_cached(
                "SELECT count(*), coalesce(sum(length(count)), 0) FROM answers
                 WHERE rows = ?1 AND cols = ?2 AND kind = ?3",
            )
            .and_then(|mut stmt| {
                stmt.query_row(params![board.rows(), board.cols(), kind.name()], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))
                })
            })
            .map(|(n, digits)| (n.max(0) as u64, digits.max(0) as u64))
            .map_err(|e| self.error("counting answers", e))
    }

    /// The stored counts of `board`'s answers of `kind`, keyed by their questions. A row that
    /// breaks a rule of the schema is [`StoreError::Damaged`], as in [`Store::list`].
    pub fn counts(
        &self,
        board: Board,
        kind: AnswerKind,
    ) -> Result<HashMap<Question, BigUint>, StoreError> {
        let board = board.canonical();
        // The unique index's first columns: a look-up, not a scan of the store.
        let mut stmt = self
            .conn
            .prepare_cached(&format!(
                "SELECT {LISTED} FROM answers WHERE rows = ?1 AND cols = ?2 AND kind = ?3"
            ))
            .map_err(|e| self.error("preparing a look-up", e))?;
        let columns = stmt.column_count();
        let mut rows = stmt
            .query(params![board.rows(), board.cols(), kind.name()])
            .map_err(|e| self.error("looking up counts", e))?;
        let mut counts = HashMap::new();
        while let Some(row) = rows
            .next()
            .map_err(|e| self.error("looking up counts", e))?
        {
            let values = (0..columns)
                .map(|i| row.get::<_, Value>(i))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| self.error("looking up counts", e))?;
            let answer = read_row(&values).map_err(|bad| StoreError::Damaged {
                path: self.path.clone(),
                detail: format!("{bad}; run `knights verify`"),
            })?;
            counts.insert(answer.question, answer.count);
        }
        Ok(counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::question::TourKind;
    use crate::store::{Answer, EngineName};

    #[test]
    fn the_counts_of_a_board_and_kind_and_nothing_else() {
        let mut store = Store::open_in_memory().unwrap();
        let b = Board::new(3, 4).unwrap();
        let answers = vec![
            Answer::computed(
                Question::from_start(b, Square::new(0, 0), TourKind::Open),
                BigUint::from(2u32),
                EngineName::Memo,
                0.0,
            ),
            Answer::computed(
                Question::total(b, TourKind::Open),
                BigUint::from(8u32),
                EngineName::Memo,
                0.0,
            ),
            Answer::computed(
                Question::total(b, TourKind::Closed),
                BigUint::ZERO,
                EngineName::Memo,
                0.0,
            ),
            Answer::computed(
                Question::between(b, Square::new(0, 0), Square::new(2, 3)),
                BigUint::from(1u32),
                EngineName::Memo,
                0.0,
            ),
        ];
        store.save(&answers).unwrap();
        // Asked the other way round, the board is the same.
        let open = store
            .counts(Board::new(4, 3).unwrap(), AnswerKind::Open)
            .unwrap();
        assert_eq!(open.len(), 2);
        assert_eq!(open[&answers[0].question], BigUint::from(2u32));
        assert_eq!(open[&answers[1].question], BigUint::from(8u32));
        assert_eq!(store.counts_size(b, AnswerKind::Open).unwrap(), (2, 2));
        assert_eq!(store.counts_size(b, AnswerKind::Between).unwrap(), (1, 1));
        let between = store.counts(b, AnswerKind::Between).unwrap();
        assert_eq!(between[&answers[3].question], BigUint::from(1u32));
        let other = Board::new(3, 5).unwrap();
        assert!(store.counts(other, AnswerKind::Open).unwrap().is_empty());
        assert_eq!(store.counts_size(other, AnswerKind::Open).unwrap(), (0, 0));
    }
}
