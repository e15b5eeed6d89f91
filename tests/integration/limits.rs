//! Runaway work: huge selections and boards are refused or filtered before any work is done.

use predicates::str::contains;

use crate::util::TestStore;

#[test]
fn a_huge_board_range_is_filtered_while_it_is_listed() {
    // 10^10 sizes: listing them all first would exhaust memory.
    let test = TestStore::new();
    test.knights()
        .args([
            "precompute",
            "--boards",
            "1x1..100000x100000",
            "--max-squares",
            "10",
            "--quiet",
        ])
        .assert()
        .success();
    assert!(test.answers() > 10);
    test.knights()
        .args([
            "precompute",
            "--boards",
            "1x1..30000x30000",
            "--min-squares",
            "10",
        ])
        .assert()
        .code(2)
        .stderr(contains("at most 64 squares"));
}

#[test]
fn a_per_square_table_beyond_every_engine_is_refused_before_listing_its_starts() {
    crate::util::knights()
        .args(["--no-cache", "count", "1000", "1000"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(contains("1000x1000 board is beyond every engine"));
}
