//! Property tests: symmetric questions have equal answers.

use knights::{Board, CanonicalStart, Square, Symmetry};
use proptest::prelude::*;

use crate::util::memo;

fn count(board: Board, square: Square) -> u128 {
    memo(board.rows(), board.cols()).count_from(square).unwrap()
}

fn board_and_square() -> impl Strategy<Value = (Board, Square)> {
    (1u32..=6, 1u32..=6)
        .prop_filter("small boards", |(r, c)| r * c <= 25)
        .prop_flat_map(|(rows, cols)| (Just(Board::new(rows, cols).unwrap()), 0..rows, 0..cols))
        .prop_map(|(board, row, col)| (board, Square::new(row, col)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A square's count equals its canonical representative's, and the transposed question on
    /// the `m×n` board has the same answer.
    #[test]
    fn count_is_invariant_under_symmetry((board, square) in board_and_square()) {
        let expected = count(board, square);
        let canonical = CanonicalStart::of(board, square);
        prop_assert_eq!(count(canonical.board, canonical.square), expected);
        prop_assert_eq!(canonical.to_original(canonical.square), square);
        let transposed = Symmetry::Transpose;
        prop_assert_eq!(
            count(transposed.target(board), transposed.apply(board, square)),
            expected
        );
        for &sym in board.automorphisms() {
            prop_assert_eq!(count(board, sym.apply(board, square)), expected);
        }
    }

    /// The judge-format reader never panics, whatever the text.
    #[test]
    fn judge_reader_never_panics(text in "[0-9 \\-x\\n\\t]{0,40}") {
        let _ = knights::input::parse_judge(&text);
    }
}
