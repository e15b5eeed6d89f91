"""knights.series against `knights series`."""

from __future__ import annotations

import pytest

import knights


def cli_series(cli, rows, cols, *flags, db=None):
    return {
        int(row["cols"]): (int(row["total_directed"]), int(row["total_undirected"]))
        for row in cli.json("series", rows, "--cols", cols, *flags, db=db)
    }


def test_the_5xn_table_to_50_is_the_clis_exactly(cli, tmp_path):
    expected = cli_series(cli, 5, "1..50", db=tmp_path / "cli.db")
    got = list(knights.series(5, range(1, 51), store=tmp_path / "py.db"))
    assert [n for n, _ in got] == list(range(1, 51))
    assert dict(got) == {n: directed for n, (directed, _) in expected.items()}
    assert max(count for _, count in got) > 2**64
    # The same call again is answered by the store the first one filled.
    assert list(knights.series(5, range(1, 51), store=tmp_path / "py.db")) == got


def test_the_default_range_is_1_to_50():
    got = list(knights.series(2, progress=False))
    assert [n for n, _ in got] == list(range(1, 51))


def test_closed_and_undirected_series_as_the_cli_counts_them(cli):
    closed = cli_series(cli, 6, "1..12", "--closed")
    assert dict(knights.series(6, range(1, 13), closed=True)) == {n: d for n, (d, _) in closed.items()}
    assert dict(knights.series(6, range(1, 13), closed=True, undirected=True)) == {
        n: u for n, (_, u) in closed.items()
    }
    opened = cli_series(cli, 3, "4..20")
    assert dict(knights.series(3, range(4, 21), undirected=True)) == {n: u for n, (_, u) in opened.items()}
    assert dict(knights.series(3, 7)) == {7: opened[7][0]}


def test_boards_come_as_they_are_known_and_are_saved_as_they_come(cli, tmp_path):
    db = tmp_path / "series.db"
    series = knights.series(4, range(1, 31), store=db, progress=False)
    first = next(series)
    assert first == (1, 0)
    rest = list(series)
    assert [n for n, _ in rest] == list(range(2, 31))
    stored = {a["cols"]: int(a["count"]) for a in cli.json("query", "--board", "4x30", db=db)}
    assert stored == {30: rest[-1][1]}


def test_a_series_beyond_every_engine_is_refused_as_the_cli_refuses_it(cli):
    code, line = cli.error("series", "8", "--cols", "8..9")
    assert code == 2
    with pytest.raises(knights.BeyondReachError) as raised:
        knights.series(8, range(8, 10))
    assert str(raised.value).split("; ")[0] == line.split("; ")[0]


def test_a_series_that_stops_gives_the_boards_before_it_then_why(cli):
    shown = cli.run("series", "6", "--cols", "1..30", "--memory", "1M", "--no-cache", check=False)
    assert shown.returncode == 1
    before = [int(line.split()[1]) for line in shown.stdout.splitlines()[1:]]
    got = []
    with pytest.raises(knights.MemoryBudgetError) as raised:
        for n, _ in knights.series(6, range(1, 31), memory="1M", store=False, progress=False):
            got.append(n)
    assert got == before == [1, 2, 3, 4, 5]
    # The layer's size varies from run to run; the sentence is the CLI's.
    line = shown.stderr.strip().removeprefix("error: ")
    message = str(raised.value)
    assert message.startswith("the frontier engine's layer reached ") and line.startswith(message[:36])
    assert message.split(" of the ")[-1].split(";")[0] == line.split(" of the ")[-1].split(";")[0]
    assert message.endswith('allow more with memory=SIZE (e.g. memory="16G")')


@pytest.mark.parametrize(
    "cols,error",
    [(range(5, 5), ValueError), (range(1, 10, 2), ValueError), (range(0, 3), ValueError), ([1, 2], TypeError)],
)
def test_bad_ranges_are_refused(cols, error):
    with pytest.raises(error):
        knights.series(5, cols)


def test_progress_counts_boards():
    seen = []
    list(knights.series(3, range(1, 11), progress=lambda done, total: seen.append((done, total))))
    assert seen[0] == (0, 10) and seen[-1] == (10, 10)
