//! OEIS b-files: one line `n a(n)` per term, for the tools that read them (no header and no
//! `#` comments, which b-files allow but some readers do not).

use std::fmt::Write;

use super::records::BoardTotal;

/// A series of boards `ROWS x n` as a b-file, one line `n a(n)` per board in the order given:
/// n the number of columns, a(n) the count undirected (each open path once, each closed tour
/// once as a cycle). That is how OEIS lists the sequences of a fixed number of rows: open
/// tours of 3xn, 4xn, 5xn, 6xn and 7xn (A169696, A079137, A083386, A306281, A306283) and
/// closed ones of 3x2n, 5x2n, 6xn and 8xn (A070030, A175855, A175881, A193055). The digits are
/// exact at any size.
pub fn bfile(totals: &[BoardTotal]) -> String {
    let mut out = String::new();
    for total in totals {
        writeln!(out, "{} {}", total.cols, total.total_undirected).expect("writing to a String");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;
    use crate::question::TourKind;
    use num_bigint::BigUint;

    fn total(rows: u32, cols: u32, kind: TourKind, directed: BigUint) -> BoardTotal {
        BoardTotal::new(Board::new(rows, cols).unwrap(), kind, &directed)
    }

    #[test]
    fn one_line_per_board_of_its_columns_and_undirected_count() {
        let open = [
            total(3, 3, TourKind::Open, BigUint::from(0u32)),
            total(3, 4, TourKind::Open, BigUint::from(16u32)),
        ];
        assert_eq!(bfile(&open), "3 0\n4 8\n");
        // The 1x1 board's single tour is its own reverse: 1, not a half.
        assert_eq!(
            bfile(&[total(1, 1, TourKind::Open, BigUint::from(1u32))]),
            "1 1\n"
        );
        let closed = [total(3, 10, TourKind::Closed, BigUint::from(32u32))];
        assert_eq!(bfile(&closed), "10 16\n");
        assert_eq!(bfile(&[]), "");
    }

    #[test]
    fn counts_past_128_bits_keep_every_digit() {
        let cycles: BigUint = "377031597006006571424070743308269493020186682009428464253448495336"
            .parse()
            .unwrap();
        let text = bfile(&[total(6, 40, TourKind::Closed, &cycles * 2u32)]);
        assert_eq!(text, format!("40 {cycles}\n"));
    }
}
