//! Reading queries: both formats, every kind of bad input with its line and field, the bounds.

use super::*;
use crate::board::Board;

fn err(text: &str) -> String {
    parse_judge(text).unwrap_err().to_string()
}

#[test]
fn parses_the_sample() {
    let queries = parse_judge("2\n5 4 0 0\n3 4 0 0\n").unwrap();
    assert_eq!(queries.len(), 2);
    assert_eq!(queries[0].board, Board::new(5, 4).unwrap());
    assert_eq!(queries[1].line, 3);
}

#[test]
fn any_whitespace_is_fine() {
    let queries = parse_judge("  2 \r\n5\t4 0 0\n\n 3 4  0 0").unwrap();
    assert_eq!(queries.len(), 2);
    assert_eq!(parse_judge("2 5 4 0 0 3 4 0 0").unwrap().len(), 2);
    assert_eq!(parse_judge("0\n").unwrap().len(), 0);
}

#[test]
fn batch_lists_and_judge_files() {
    let batch = parse_batch("# a comment\n\n5 4 0 0  # corner\n3 4 1 0\n").unwrap();
    assert_eq!(batch.format, BatchFormat::List);
    assert_eq!(batch.queries.len(), 2);
    assert_eq!(batch.queries[0].line, 3);
    let batch = parse_batch("# judge\n2\n5 4 0 0\n3 4 0 0\n").unwrap();
    assert_eq!(batch.format, BatchFormat::Judge);
    assert_eq!(batch.queries[1].line, 4);
    let err = |t: &str| parse_batch(t).unwrap_err().to_string();
    assert_eq!(
        err("5 4 0 0\n5 4 0\n"),
        "line 2: expected 4 numbers (ROWS COLS ROW COL), found 3: COL is missing"
    );
    assert_eq!(
        err("5 4 0 0\n5 y 0\n"),
        "line 2: COLS 'y' is not a whole number"
    );
    assert_eq!(
        err("5 4 0 0\n5 4 0 9\n"),
        "line 2: COL is 9, outside the 5x4 board (columns are 0 to 3)"
    );
    assert_eq!(
        err("# nothing\n"),
        "the input has no queries (only blank lines or comments)"
    );
}

#[test]
fn errors_name_line_and_field() {
    assert_eq!(
        err(""),
        "the input is empty; expected T (the number of queries) on the first line"
    );
    assert_eq!(err("x\n"), "line 1: T 'x' is not a whole number");
    assert_eq!(
        err("1\n5 x 0 0\n"),
        "line 2: COLS 'x' is not a whole number (query 1)"
    );
    assert_eq!(
        err("1\n5 4 -1 0\n"),
        "line 2: ROW is -1, a negative number (query 1)"
    );
    assert_eq!(
        err("2\n5 4 0\n3 4 0 0\n"),
        "line 2: expected 4 numbers (ROWS COLS ROW COL), found 3: COL is missing"
    );
    assert_eq!(
        err("1\n5 4 0 0 7\n"),
        "line 2: expected 4 numbers (ROWS COLS ROW COL), found 5"
    );
    assert_eq!(
        err("3\n5 4 0 0\n3 4 0 0\n"),
        "line 1: T is 3 but only 2 queries follow"
    );
    assert_eq!(
        err("1\n5 4 0 0\n3 4 0 0\n"),
        "line 3: unexpected query: T on line 1 is 1, and more queries follow"
    );
    assert_eq!(
        err("1\n0 4 0 0\n"),
        "line 2: ROWS is 0; a board has at least 1 row and 1 column (query 1)"
    );
    assert_eq!(
        err("1\n5 4 5 0\n"),
        "line 2: ROW is 5, outside the 5x4 board (query 1; rows are 0 to 4)"
    );
    assert_eq!(
        err("1\n5 4 0 99999999999999999999999999999999999999999\n"),
        "line 2: COL is 9999999999999999999999999999999999999999…, far too large (query 1)"
    );
}

#[test]
fn a_query_over_two_lines_is_named_by_its_place() {
    assert_eq!(
        err("2\n5 4 0\nx 3 4 0 0\n"),
        "line 3: COL 'x' is not a whole number (query 1, which starts on line 2)"
    );
    assert_eq!(
        err("2\n5 4 0\n9 3 4 0 0\n"),
        "line 3: COL is 9, outside the 5x4 board (query 1, which starts on line 2; columns are 0 to 3)"
    );
    assert_eq!(
        err("2\n5 4 0 0\n3 y 0 0\n"),
        "line 3: COLS 'y' is not a whole number (query 2)"
    );
    // Spread over lines but complete: accepted, each query keeps the line it starts on.
    let queries = parse_judge("2\n5 4\n0 0 3\n4 0 0\n").unwrap();
    assert_eq!(
        queries.iter().map(|q| q.line).collect::<Vec<_>>(),
        vec![2, 3]
    );
}

#[test]
fn one_line_and_old_mac_line_breaks_read_alike_in_both_readers() {
    let expected = parse_judge("2\n5 4 0 0\n3 4 0 0\n").unwrap();
    for text in [
        "2\r5 4 0 0\r3 4 0 0\r",
        "2\r\n5 4 0 0\r\n3 4 0 0",
        "\u{feff}2\n5 4 0 0\n3 4 0 0\n",
    ] {
        assert_eq!(parse_judge(text).unwrap(), expected, "{text:?}");
        let batch = parse_batch(text).unwrap();
        assert_eq!(batch.format, BatchFormat::Judge);
        assert_eq!(batch.queries, expected, "{text:?}");
    }
    let one_line = parse_judge("1 5 4 0 0").unwrap();
    assert_eq!(one_line[0].line, 1);
    assert_eq!(parse_batch("1 5 4 0 0").unwrap().queries, one_line);
    assert_eq!(
        parse_batch("2 5 4 0 0 # two\n3 4 0 0")
            .unwrap()
            .queries
            .len(),
        2
    );
    // Old Mac line breaks count lines in errors too.
    assert_eq!(
        err("2\r5 4 0 0\r3 x 0 0\r"),
        "line 3: COLS 'x' is not a whole number (query 2)"
    );
    assert_eq!(
        parse_batch("5 4 0 0\r3 4 x 0\r").unwrap_err().to_string(),
        "line 2: ROW 'x' is not a whole number"
    );
}

#[test]
fn invisible_characters_are_shown_and_a_leading_bom_skipped() {
    assert_eq!(
        err("1\n5 4 0 \0\n"),
        "line 2: COL '\\0' is not a whole number (query 1)"
    );
    assert_eq!(
        err("1\n\u{feff}5 4 0 0\n"),
        "line 2: ROWS '<U+FEFF>5' is not a whole number (query 1)"
    );
    assert_eq!(
        err("\u{1b}[31m\n"),
        "line 1: T '<U+001B>[31m' is not a whole number"
    );
    assert_eq!(parse_judge("\u{feff}1\n5 4 0 0\n").unwrap().len(), 1);
}

#[test]
fn bounds_end_the_reading_with_short_messages() {
    let zeros = "0".repeat(1000);
    let message = err(&zeros);
    assert_eq!(
        message,
        format!(
            "line 1: T is longer than {MAX_FIELD_CHARS} characters: '{}…'",
            "0".repeat(crate::echo::MAX_ECHO_CHARS)
        )
    );
    let message = err(&format!("1\n5 4 0 {}", "\0".repeat(1000)));
    assert!(
        message.starts_with("line 2: COL is longer than 64 characters: '\\0\\0"),
        "{message}"
    );
    assert!(message.len() < 200, "{message}");
    let message = parse_batch(&format!("5 4 0 0\n{}x", " ".repeat(MAX_LINE_BYTES)))
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        format!("line 2: the line is longer than {MAX_LINE_BYTES} bytes (1 MiB)")
    );
    assert_eq!(
        err("20000000\n"),
        "line 1: T is 20000000; at most 10000000 queries are read at once (split the input)"
    );
    assert_eq!(
        err("1\n5 4 0 0 x y\n"),
        "line 2: expected 4 numbers (ROWS COLS ROW COL), found 6"
    );
    assert_eq!(
        err("1\n5 4 0 0\n\u{fffd}\u{0}"),
        "line 3: expected 4 numbers (ROWS COLS ROW COL), found 1: COLS ROW COL is missing"
    );
    assert!(err("ab\n\u{e9}x\n").contains("not a whole number"));
    assert_eq!(
        read_judge(&b"1\n5 4 \xff 0\n"[..]).unwrap_err().to_string(),
        "line 2: the input is not text: invalid UTF-8 at byte 6"
    );
}

#[test]
fn count_digits_are_bounded_by_the_board() {
    let digits = |r, c| max_count_digits(Board::new(r, c).unwrap());
    assert_eq!(digits(1, 1), 1);
    assert_eq!(digits(1, 2), 1);
    assert_eq!(digits(5, 5), 23);
    assert_eq!(digits(1000, 1000), 845_105);
    assert!(digits(100_000, 100_000) < 9_000_000_000);
    // Above every published total: 8x8 has 19,591,828,170,979,904 directed open tours.
    assert!(digits(8, 8) > 17);
    assert!(digits(3, 4) >= 2);
}

#[test]
fn batch_format_is_told_by_the_first_line() {
    let err = |t: &str| parse_batch(t).unwrap_err().to_string();
    assert_eq!(
        err("5 4 0\n5 4 0 0\n"),
        "line 1: expected 4 numbers (ROWS COLS ROW COL), found 3: COL is missing"
    );
    assert_eq!(
        err("# a list\n5 4 0 0\n5 4 0 0 9 9\n"),
        "line 3: expected 4 numbers (ROWS COLS ROW COL), found 6"
    );
    assert_eq!(parse_batch("0\n").unwrap().queries.len(), 0);
    assert_eq!(parse_batch("0\n").unwrap().format, BatchFormat::Judge);
    assert_eq!(
        err("1 5 4 0 0\n3 4 0 0\n"),
        "line 2: unexpected query: T on line 1 is 1, and more queries follow"
    );
}
