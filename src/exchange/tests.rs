//! The export format read back: good records, each kind of bad one with its line, both
//! formats.

use super::*;
use crate::board::{Board, Square};
use crate::question::Question;
use crate::store::ANSWER_COLUMNS;

const HEADER: &str = "rows,cols,kind,row,col,count,engine,version,seconds,computed_at\n";

fn csv(rows: &str) -> Result<Vec<(usize, Answer)>, String> {
    read_answers(&format!("{HEADER}{rows}"), ExchangeFormat::Csv).map_err(|e| e.to_string())
}

#[test]
fn reads_good_records() {
    let answers = csv("3,4,open,0,0,2,memo,0.1.0,0.001,2026-11-29T14:28:00Z\n\
         3,4,open,,,16,memo,0.1.0,0.002,2026-11-29T14:28:00Z\n")
    .unwrap();
    assert_eq!(answers.len(), 2);
    assert_eq!(answers[0].0, 2);
    assert_eq!(answers[1].1.question.start, None);
}

#[test]
fn rejects_bad_records_with_their_lines() {
    let good = "3,4,open,0,0,2,memo,0.1.0,0.001,2026-11-29T14:28:00Z\n";
    let cases = [
        (
            "4,3,open,0,0,2,memo,0.1.0,0,2026-11-29T14:28:00Z",
            "line 3: the board 4x3 is not canonical",
        ),
        (
            "3,4,open,2,3,2,memo,0.1.0,0,2026-11-29T14:28:00Z",
            "line 3: the start (2, 3) is not canonical",
        ),
        (
            "3,4,open,0,0,02,memo,0.1.0,0,2026-11-29T14:28:00Z",
            "line 3: count '02'",
        ),
        (
            "3,4,open,0,0,-2,memo,0.1.0,0,2026-11-29T14:28:00Z",
            "line 3: count '-2'",
        ),
        (
            "3,4,open,0,0,3,memo,0.1.0,0,2026-11-29T14:28:00Z",
            "line 3: open tours of 3x4 from (0, 0): count 3 cannot be right: expected 2 (known from the per-square table",
        ),
        (
            "3,4,closedish,0,0,2,memo,0.1.0,0,2026-11-29T14:28:00Z",
            "line 3: unknown kind 'closedish'",
        ),
        (
            "3,4,open,0,,2,memo,0.1.0,0,2026-11-29T14:28:00Z",
            "line 3: row and col must both be given",
        ),
        (
            "3,4,open,1,0,4,guess,0.1.0,0,2026-11-29T14:28:00Z",
            "line 3: unknown engine 'guess'",
        ),
        (
            "3,4,open,1,0,4,memo,0.1.0,-1,2026-11-29T14:28:00Z",
            "line 3: seconds '-1'",
        ),
        (
            "3,4,open,1,0,4,memo,0.1.0,0,yesterday",
            "line 3: computed_at 'yesterday'",
        ),
        ("3,4,open,1,0,4,memo", "line 3: malformed CSV"),
        (
            "3,5,open,0,0,4,memo,0.1.0,0,2026-11-29T14:28:00Z",
            "line 3: open tours of 3x5 from (0, 0): count 4 cannot be right: expected 0 (no open tour on 3x5",
        ),
        (
            "3,4,open,1,0,4,theorem,0.1.0,0,2026-11-29T14:28:00Z",
            "line 3: engine 'theorem' only answers zeros",
        ),
        (
            "6,6,closed,0,0,19724,memo,0.1.0,0,2026-11-29T14:28:00Z",
            "line 3: closed answers have no start",
        ),
        (
            "6,6,closed,,,9863,memo,0.1.0,0,2026-11-29T14:28:00Z",
            "line 3: closed tours of 6x6 (directed board total): count 9863 cannot be right: expected an even number",
        ),
        (
            "3,4,open,,,18,memo,0.1.0,0,2026-11-29T14:28:00Z\n3,4,open,1,0,4,memo,0.1.0,0,2026-11-29T14:28:00Z\n3,4,open,0,1,0,memo,0.1.0,0,2026-11-29T14:28:00Z\n3,4,open,1,1,0,memo,0.1.0,0,2026-11-29T14:28:00Z",
            // A published total is checked on its own first.
            "line 3: open tours of 3x4 (directed board total): count 18 cannot be right: expected 16 (known from OEIS A169696",
        ),
        (
            "3,4,open,,,4,memo,0.1.0,0,2026-11-29T14:28:00Z\n3,4,open,1,0,4,memo,0.1.0,0,2026-11-29T14:28:00Z",
            "line 3: open tours of 3x4 (directed board total): count 4 cannot be right: expected 16 (known from OEIS A169696",
        ),
        (
            "5,5,open,,,1729,memo,0.1.0,0,2026-11-29T14:28:00Z",
            "line 3: open tours of 5x5 (directed board total): count 1729 cannot be right: expected an even number (a directed board total counts every open tour once in each direction",
        ),
        (
            "5,5,open,0,0,12345678901234567890,memo,0.1.0,0,2026-11-29T14:28:00Z",
            "line 3: open tours of 5x5 from (0, 0): count 12345678901234567890 cannot be right: expected at most ",
        ),
        (
            "5,5,open,0,0,123456789012345678901234567890123456789,memo,0.1.0,0,2026-11-29T14:28:00Z",
            "line 3: count '123456789012345678901234567890123456789' has 39 digits; no count of tours on the 5x5 board has more than 23",
        ),
        (
            "6,6,closed,,,19724,sum,0.1.0,0,2026-11-29T14:28:00Z",
            "line 3: engine 'sum' (a sum of other counts) only answers open board totals (from their starts) and open tours from a square (from its pairs), not closed tours",
        ),
        (
            "3,4,open,1,0,4,memo,0.1.0,1e308,2026-11-29T14:28:00Z",
            "line 3: seconds '1e308' is out of range",
        ),
        (
            "3,4,open,1,0,4,memo,0.1.0,NaN,2026-11-29T14:28:00Z",
            "line 3: seconds 'NaN' is not a number of seconds",
        ),
        (
            "3,4,open,1,0,4,memo,0.1.0,-0.5,2026-11-29T14:28:00Z",
            "line 3: seconds '-0.5' is not a number of seconds",
        ),
        (
            "3,4,open,1,0,4,memo,0.1.0,inf,2026-11-29T14:28:00Z",
            "line 3: seconds 'inf' is not a number of seconds",
        ),
        (
            "3,4,open,1,0,4,memo,0.1.0,0,9999-99-99T99:99:99Z",
            "line 3: computed_at '9999-99-99T99:99:99Z' is not a real time: the month is not 01 to 12",
        ),
        (
            "3,4,open,1,0,4,memo,0.1.0,0,2026-02-29T00:00:00Z",
            "line 3: computed_at '2026-02-29T00:00:00Z' is not a real time: the day is not in that month",
        ),
        (
            "3,4,open,1,0,4,memo,0.1.0,0,2026-11-29T24:00:00Z",
            "line 3: computed_at '2026-11-29T24:00:00Z' is not a real time: the hour",
        ),
        (
            "3,4,open,1,0,4,memo,0.1.0,0,1969-12-31T23:59:59Z",
            "line 3: computed_at '1969-12-31T23:59:59Z' is not a real time: the year is before 1970",
        ),
        (
            "3,4,open,1,0,4,memo,0.1.0,0,9999-12-31T23:59:59Z",
            "line 3: computed_at '9999-12-31T23:59:59Z' is in the future",
        ),
    ];
    for (row, expected) in cases {
        let err = csv(&format!("{good}{row}\n")).unwrap_err();
        assert!(err.starts_with(expected), "{row}: {err}");
    }
    // The same question twice with two counts, on a board whose starts nothing publishes.
    let twice = "6,6,open,0,0,524486,memo,0.1.0,0,2026-11-29T14:28:00Z\n6,6,open,0,0,524488,memo,0.1.0,0,2026-11-29T14:28:00Z\n";
    let err = csv(twice).unwrap_err();
    assert!(
        err.starts_with(
            "line 3: open tours of 6x6 from (0, 0) is 524488 here but 524486 on line 2"
        ),
        "{err}"
    );
    assert!(
        read_answers("rows,cols\n", ExchangeFormat::Csv)
            .unwrap_err()
            .to_string()
            .ends_with("; column 3 (`kind`) is missing")
    );
}

#[test]
fn sources_are_read_and_old_exports_have_none() {
    let new = "rows,cols,kind,row,col,count,engine,version,seconds,computed_at,source\n\
               3,4,open,,,16,sum,0.1.0,0,2026-11-29T14:28:00Z,\"sum of starts (memo, computed)\"\n\
               3,4,open,0,0,2,memo,0.1.0,0,2026-11-29T14:28:00Z,computed\n";
    let answers = read_answers(new, ExchangeFormat::Csv).unwrap();
    assert_eq!(answers[0].1.source, "sum of starts (memo, computed)");
    assert_eq!(answers[1].1.source, "computed");
    // An old export: no source, and a total under the memo engine is a sum of starts.
    let old = csv("3,4,open,,,16,memo,0.1.0,0,2026-11-29T14:28:00Z\n").unwrap();
    assert_eq!(old[0].1.source, "");
    assert_eq!(old[0].1.engine, crate::store::EngineName::Sum);
    assert_eq!(imported_source("a.csv", ""), "imported from a.csv");
    assert_eq!(
        imported_source("a.csv", "computed"),
        "imported from a.csv (computed)"
    );
}

/// Pairs: the end in `to_row`, `to_col`, only for `between`, the pair canonical as a pair.
#[test]
fn pairs_are_read_with_their_end() {
    let header = ANSWER_COLUMNS.join(",");
    let read = |rows: &str| {
        read_answers(&format!("{header}\n{rows}"), ExchangeFormat::Csv).map_err(|e| e.to_string())
    };
    let pair = read("5,5,between,0,0,56,memo,0.1.0,0,2026-11-29T14:28:00Z,computed,4,4\n").unwrap();
    assert_eq!(
        pair[0].1.question,
        Question::between(
            Board::new(5, 5).unwrap(),
            Square::new(0, 0),
            Square::new(4, 4)
        )
    );
    for (row, expected) in [
        (
            "5,5,between,4,4,56,memo,0.1.0,0,2026-11-29T14:28:00Z,computed,0,0",
            "line 2: the pair (4, 4) to (0, 0) is not canonical",
        ),
        (
            "5,5,between,0,0,56,memo,0.1.0,0,2026-11-29T14:28:00Z,computed,,",
            "line 2: a 'between' answer needs its end",
        ),
        (
            "5,5,open,0,0,304,memo,0.1.0,0,2026-11-29T14:28:00Z,computed,4,4",
            "line 2: to_row and to_col are only for 'between' answers",
        ),
        (
            "5,5,between,0,0,1,memo,0.1.0,0,2026-11-29T14:28:00Z,computed,0,1",
            "line 2: open tours of 5x5 from (0, 0) to (0, 1): count 1 cannot be right",
        ),
        (
            "5,5,between,0,0,1,memo,0.1.0,0,2026-11-29T14:28:00Z,computed,0,0",
            "line 2: the start and the end are both (0, 0)",
        ),
        (
            "5,5,between,0,0,56,sum,0.1.0,0,2026-11-29T14:28:00Z,computed,4,4",
            "line 2: engine 'sum' (a sum of other counts) only answers open board totals (from their starts) and open tours from a square (from its pairs), not tours between two squares",
        ),
    ] {
        let err = read(&format!("{row}\n")).unwrap_err();
        assert!(err.starts_with(expected), "{row}: {err}");
    }
    // A start added up from its pairs is read; with pairs of it in the file, it must be
    // at least their sum.
    let start =
        "6,6,open,0,0,524486,sum,0.1.0,0,2026-11-29T14:28:00Z,\"sum of pairs (memo, computed)\",,";
    assert_eq!(
        read(&format!("{start}\n")).unwrap()[0].1.engine,
        crate::store::EngineName::Sum
    );
    let low = start.replace(",524486,", ",50,");
    let pair = "6,6,between,0,0,56,memo,0.1.0,0,2026-11-29T14:28:00Z,computed,4,5";
    assert_eq!(
        read(&format!("{pair}\n{low}\n")).unwrap_err(),
        "line 3: open tours of 6x6 from (0, 0) is 50, but the pairs from it in this file already add up to more: 112"
    );
}

#[test]
fn long_headers_are_cut() {
    let header = HEADER.replace("version", &format!("ver\0{}", "x".repeat(100)));
    assert_eq!(
        read_answers(&header, ExchangeFormat::Csv)
            .unwrap_err()
            .to_string(),
        format!(
            "line 1: the header must be `{}` (or, from an older knights, without `,to_row,to_col` or `,source,to_row,to_col`); column 8 is `ver\\0{}…`, not `version`",
            ANSWER_COLUMNS.join(","),
            "x".repeat(36)
        )
    );
}

#[test]
fn json_records_have_lines() {
    let text = "[\n{\"rows\":3,\"cols\":4,\"kind\":\"open\",\"row\":0,\"col\":0,\"count\":\"2\",\"engine\":\"memo\",\"version\":\"0.1.0\",\"seconds\":0.1,\"computed_at\":\"2026-11-29T14:28:00Z\"},\n{\"rows\":3,\"cols\":4,\"kind\":\"open\",\"row\":null,\"col\":null,\"count\":16,\"engine\":\"memo\",\"version\":\"0.1.0\",\"seconds\":0.1,\"computed_at\":\"2026-11-29T14:28:00Z\"}\n]\n";
    let err = read_answers(text, ExchangeFormat::Json)
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("line 3: count must be a string"), "{err}");
    let err = read_answers("[\n{\"rows\": 3,\n", ExchangeFormat::Json)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("line 3: malformed JSON") || err.starts_with("line 2: malformed JSON"),
        "{err}"
    );
}
