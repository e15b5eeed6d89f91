//! The shipped lookup data (`data/lookup.csv`) is complete and right: every record is read back
//! through the import checks and recounted by the engine (zeros that a theorem decided
//! included).

use std::collections::HashSet;
use std::path::PathBuf;

use knights::exchange::{ExchangeFormat, read_answers};
use knights::precompute::{BoardSelection, questions};
use knights::question::{Question, TourKind};

use crate::util::{Recounter, TestStore};

fn lookup_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join("lookup.csv")
}

#[test]
fn lookup_data_covers_every_board_up_to_30_squares_and_is_right() {
    let text = std::fs::read_to_string(lookup_file()).unwrap();
    let answers = read_answers(&text, ExchangeFormat::Csv).unwrap();
    let boards = BoardSelection {
        max_squares: Some(30),
        ..Default::default()
    }
    .boards()
    .unwrap();
    let expected: HashSet<Question> = questions(&boards, TourKind::Open)
        .into_iter()
        .chain(questions(&boards, TourKind::Closed))
        .collect();
    let present: HashSet<Question> = answers.iter().map(|(_, a)| a.question).collect();
    assert_eq!(present, expected);
    assert_eq!(answers.len(), expected.len(), "no question twice");

    // Recount every row (all of them: boards this small take milliseconds).
    let mut recounter = Recounter::default();
    for (line, answer) in &answers {
        assert_eq!(
            answer.count,
            recounter.count(&answer.question),
            "data/lookup.csv line {line}: {}",
            answer.question
        );
    }
}

#[test]
fn lookup_data_imports_and_answers_from_the_store() {
    let test = TestStore::new();
    test.knights()
        .arg("import")
        .arg(lookup_file())
        .assert()
        .success();
    test.knights()
        .args(["count", "6", "5", "--stats"])
        .assert()
        .success()
        .stdout(predicates::str::contains("total (directed):   37568"))
        .stderr(predicates::str::contains("answered from the store"));
}
