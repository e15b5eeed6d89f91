//! Plan files written and read back: the unit tests of `shards::file`.

use super::*;

fn read(text: &str) -> Result<Plan, String> {
    read_plan(text.as_bytes()).map_err(|e| e.to_string())
}

#[test]
fn plans_read_back_in_both_formats() {
    for split in [Split::Start, Split::Pair, Split::Both] {
        for replicas in [1, 2] {
            let plan = Plan::new(Board::new(7, 6).unwrap(), split)
                .unwrap()
                .with_replicas(replicas)
                .unwrap();
            for format in [PlanFormat::Jsonl, PlanFormat::Csv] {
                let text = write_plan(&plan, format);
                assert_eq!(text.contains("replicas"), replicas > 1, "{text}");
                assert_eq!(read(&text).unwrap(), plan);
            }
        }
    }
}

#[test]
fn bad_plans_name_their_line() {
    let plan = Plan::new(Board::new(5, 5).unwrap(), Split::Start).unwrap();
    let text = write_plan(&plan, PlanFormat::Jsonl);
    let lines: Vec<&str> = text.lines().collect();
    // Truncated at a line, and in the middle of one.
    let short = lines[..4].join("\n");
    assert!(
        read(&short)
            .unwrap_err()
            .starts_with("line 5: the plan ends with 3 of its 6 shards")
    );
    let cut = &text[..text.len() - 10];
    assert!(read(cut).unwrap_err().starts_with("line 7: not a shard"));
    // A weight edited, a shard twice.
    let edited = text.replacen("\"weight\":4,", "\"weight\":5,", 1);
    assert!(
        read(&edited)
            .unwrap_err()
            .contains("has weight 5, but it stands for 4 squares")
    );
    let twice = format!("{text}{}\n", lines[2]);
    assert_eq!(
        read(&twice).unwrap_err(),
        "line 8: shard 5x5-s1 appears twice (also on line 3)"
    );
    let csv = write_plan(&plan, PlanFormat::Csv).replace("5x5-s2,5,5,0,2", "5x5-s2,5,5,1,1");
    assert!(
        read(&csv)
            .unwrap_err()
            .starts_with("line 5: shard 5x5-s2 must be the question")
    );
    assert!(
        read("hello\n")
            .unwrap_err()
            .starts_with("line 1: not a plan")
    );
}

/// Plans are read as `solve` reads its input: a byte order mark skipped, any line break,
/// CSV quoting; a line is refused as soon as it passes the bound, before it ends.
#[test]
fn the_quick_counts_are_the_plans() {
    for rows in 1..=6 {
        for cols in rows..=7 {
            let board = Board::new(rows, cols).unwrap();
            for split in [Split::Start, Split::Pair, Split::Both] {
                let Ok(plan) = Plan::new(board, split) else {
                    assert_eq!(quick_counts(board, split, 1), None, "{board} {split}");
                    continue;
                };
                assert_eq!(
                    quick_counts(board, split, 1),
                    Some((plan.shards.len() as u128, plan.expected_weight())),
                    "{board} by {split}"
                );
            }
        }
    }
}

#[test]
fn plans_are_read_within_bounds() {
    let plan = Plan::new(Board::new(5, 5).unwrap(), Split::Start).unwrap();
    let text = write_plan(&plan, PlanFormat::Jsonl);
    assert_eq!(
        read(&format!("\u{feff}{}", text.replace('\n', "\r\n"))).unwrap(),
        plan
    );
    let csv = write_plan(&plan, PlanFormat::Csv);
    let quoted = csv.replace("5x5-s2,", "\"5x5-s2\",");
    assert_eq!(read(&format!("\u{feff}{quoted}")).unwrap(), plan);
    let twice = csv.replacen("rows=5 ", "rows=5 rows=5 ", 1);
    assert_eq!(
        read(&twice).unwrap_err(),
        "line 1: the header gives rows= twice"
    );
    let json_twice = text.replacen("\"rows\":5,", "\"rows\":5,\"rows\":5,", 1);
    assert!(
        read(&json_twice)
            .unwrap_err()
            .contains("duplicate field `rows`")
    );
    // An endless line: the reader stops after the bound, not at the end of the input.
    let endless = std::io::BufReader::new(std::io::repeat(b'0'));
    assert_eq!(
        read_plan(endless).unwrap_err().to_string(),
        format!("line 1: the line is longer than {MAX_LINE} bytes: not a plan's line")
    );
}
