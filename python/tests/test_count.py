"""knights.count against `knights count` on small boards, and its errors against the CLI's."""

from __future__ import annotations

import pytest

import knights


def test_the_first_example(cli):
    assert knights.count(5, 4, (0, 0)) == 32
    assert cli.out("count", "5", "4", "0", "0").strip() == "32"


@pytest.mark.parametrize("rows,cols", [(1, 1), (3, 4), (4, 5), (5, 5), (3, 7)])
def test_every_square_as_the_cli_counts_it(cli, rows, cols):
    table = knights.count(rows, cols, store=False)
    assert isinstance(table, knights.Table)
    report = cli.json("count", rows, cols, "--no-cache")
    assert table.table == [[int(c) for c in row] for row in report["counts"]]
    assert table.directed == int(report["total_directed"])
    assert table.undirected == int(report["total_undirected"])
    assert (table.rows, table.cols) == (rows, cols)
    assert table[0] == table.table[0] and len(table) == rows
    for r in range(rows):
        for c in range(cols):
            assert knights.count(rows, cols, (r, c)) == table.table[r][c]


def test_totals_closed_and_pairs_as_the_cli_counts_them(cli):
    total = cli.json("count", 5, 6, "--total")
    assert knights.count(5, 6, total=True) == int(total["total_directed"])
    assert knights.count(5, 6, total=True, undirected=True) == int(total["total_undirected"])
    closed = cli.json("count", 6, 6, "--closed")
    assert knights.count(6, 6, closed=True) == int(closed["directed"])
    assert knights.count(6, 6, closed=True, undirected=True) == int(closed["cycles"])
    pair = cli.json("count", 5, 5, 0, 0, "--to", 4, 4)
    assert knights.count(5, 5, (0, 0), to=(4, 4)) == int(pair["count"])
    start = cli.json("count", 6, 6, 0, 0, "--closed")
    assert knights.count(6, 6, (0, 0), closed=True) == int(start["count"])


def test_counts_past_two_to_the_64_are_exact_python_ints(cli):
    count = knights.count(5, 30, total=True, store=False)
    assert isinstance(count, int) and count > 2**64
    expected = cli.json("count", 5, 30, "--total", "--no-cache")["total_directed"]
    assert str(count) == expected
    assert count % 2 == 0


def test_a_count_from_python_is_read_by_the_cli_and_back(cli, tmp_path):
    db = tmp_path / "shared.db"
    assert knights.count(6, 5, (0, 0), store=db) == int(cli.json("count", 6, 5, 0, 0, db=db)["count"])
    listed = cli.json("query", "--board", "5x6", db=db)
    assert any(a["row"] == 0 and a["col"] == 0 and a["kind"] == "open" for a in listed)
    # Counted by the CLI, served to Python from the store (the engine's record says so).
    cli.out("count", 4, 7, "--total", db=db)
    stored = knights.Store(db).query(board=(4, 7))
    assert [a.count for a in stored if a.row is None] == [knights.count(4, 7, total=True, store=False)]
    table = knights.count(4, 7, total=True, store=knights.Store(db))
    assert table == stored[0].count


def test_the_default_store_is_the_clis(cli, own_store):
    knights.count(3, 4, (0, 0))
    assert knights.default_store() == str(own_store)
    assert any(a["rows"] == 3 and a["cols"] == 4 for a in cli.json("query"))


@pytest.mark.parametrize(
    "args,call",
    [
        (["count", "5", "5", "7", "7"], lambda: knights.count(5, 5, (7, 7))),
        (["count", "8", "8", "0", "0"], lambda: knights.count(8, 8, (0, 0))),
        (["count", "20", "20", "--closed"], lambda: knights.count(20, 20, closed=True)),
    ],
)
def test_errors_say_what_the_cli_says(cli, args, call):
    _, line = cli.error(*args)
    with pytest.raises(knights.Error) as raised:
        call()
    # The remedy names this API's arguments (closed=True) where the CLI names its options
    # (--closed): the words before it are the same.
    assert str(raised.value).split("; ")[0] == line.split("; ")[0]
    assert isinstance(raised.value, ValueError)


def test_a_pair_of_one_square_is_refused_as_the_cli_refuses_it(cli):
    _, line = cli.error("count", "5", "5", "0", "0", "--to", "0", "0")
    with pytest.raises(knights.InputError) as raised:
        knights.count(5, 5, (0, 0), to=(0, 0))
    assert line.startswith("--to 0 0 is ")
    assert str(raised.value) == "to=(0, 0) is " + line.removeprefix("--to 0 0 is ")


def test_a_memory_budget_refusal_says_what_the_cli_says(cli):
    _, line = cli.error("count", "6", "30", "--total", "--memory", "64K", "--no-cache")
    with pytest.raises(knights.MemoryBudgetError) as raised:
        knights.count(6, 30, total=True, memory="64K", store=False)
    assert str(raised.value).split("; ")[0] == line.split("; ")[0]
    assert "memory=" in str(raised.value)


@pytest.mark.parametrize(
    "call,words",
    [
        (lambda: knights.count(0, 5), "a board side is at least 1"),
        (lambda: knights.count(-1, 5), "-1 is negative"),
        (lambda: knights.count(5, 5, (0, -2)), "squares are numbered from 0"),
        (lambda: knights.count(5, 5, to=(1, 2)), "to= needs a start square"),
        (lambda: knights.count(5, 5, (0, 0), total=True), "total=True"),
        (lambda: knights.count(5, 5, memory="lots"), "invalid memory size 'lots'"),
        (lambda: knights.count(5, 5, (0, 0), undirected=True), "undirected=True"),
    ],
)
def test_bad_arguments_are_value_errors(call, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        call()


def test_arguments_of_the_wrong_type_are_type_errors():
    with pytest.raises(TypeError):
        knights.count("5", 5)
    with pytest.raises(TypeError):
        knights.count(5, 5, "a1")
    with pytest.raises(TypeError):
        knights.count(5, 5, store=3.5)


def test_progress_is_reported_to_a_callback():
    seen = []
    knights.count(5, 5, progress=lambda done, total: seen.append((done, total)), store=False)
    assert seen and seen[-1][0] == seen[-1][1] > 0
    assert all(done <= total for done, total in seen)
