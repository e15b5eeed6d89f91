"""knights.Store against `knights query`, `export`, `import` and `verify`, and bad stores."""

from __future__ import annotations

import sqlite3

import pytest

import knights


@pytest.fixture
def filled(cli, tmp_path):
    db = tmp_path / "filled.db"
    cli.out("count", 4, 5, db=db)
    cli.out("count", 5, 6, "--total", db=db)
    cli.out("count", 6, 6, "--closed", db=db)
    cli.out("count", 5, 5, 0, 0, "--to", 4, 4, db=db)
    return db


def test_query_lists_what_the_cli_lists(cli, filled):
    store = knights.Store(filled)
    rows = store.query()
    listed = cli.json("query", db=filled)
    assert len(rows) == len(listed) > 0
    for row, record in zip(rows, listed):
        assert (row.rows, row.cols, row.kind, row.row, row.col, row.to_row, row.to_col) == (
            record["rows"], record["cols"], record["kind"], record["row"], record["col"],
            record["to_row"], record["to_col"],
        )
        assert row.count == int(record["count"])
        assert (row.engine, row.source, row.version) == (record["engine"], record["source"], record["version"])
    assert [a.kind for a in store.query(kind="closed")] == ["closed"]
    assert {(a.rows, a.cols) for a in store.query(board="5x4")} == {(4, 5)}
    assert {(a.rows, a.cols) for a in store.query(board=(6, 5))} == {(5, 6)}
    assert all(a.rows * a.cols <= 20 for a in store.query(max_squares=20))


def test_export_writes_what_the_cli_writes(cli, filled, tmp_path):
    store = knights.Store(filled)
    assert store.export() == cli.out("export", db=filled)
    assert store.export(format="json") == cli.out("export", "--format", "json", db=filled)
    out = tmp_path / "out.json"
    assert store.export(out) == len(store.query())
    assert out.read_text() == cli.out("export", "--format", "json", db=filled)
    with pytest.raises(knights.InputError):
        store.export(filled)


def test_import_passes_the_clis_gate(cli, filled, tmp_path):
    exported = tmp_path / "answers.csv"
    cli.out("export", "--output", exported, db=filled)
    fresh = knights.Store(tmp_path / "fresh.db")
    report = fresh.import_(exported)
    assert report.added == len(knights.Store(filled).query()) and report.already_stored == 0
    assert report.summary.startswith(f"imported {report.added} new answers from {exported}")
    assert fresh.import_(exported).already_stored == report.added
    key = lambda a: (a["rows"], a["cols"], a["kind"], a["row"], a["col"], a["to_row"], a["to_col"], a["count"])
    assert list(map(key, cli.json("query", db=fresh.path))) == list(map(key, cli.json("query", db=filled)))
    assert all(a.source.startswith(f"imported from {exported}") for a in fresh.query())
    # A bad record refuses the whole file, naming its line, as the CLI does.
    lines = exported.read_text().splitlines()
    header, first = lines[0], lines[1].split(",")
    count_at = header.split(",").index("count")
    first[count_at] = str(int(first[count_at]) + 2)
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join([header, ",".join(first)]) + "\n")
    _, line = cli.error("import", bad, db=tmp_path / "other.db")
    with pytest.raises(knights.InputError) as raised:
        knights.Store(tmp_path / "another.db").import_(bad)
    assert str(raised.value) == line
    with pytest.raises(knights.InputError, match="cannot read"):
        fresh.import_(tmp_path / "missing.csv")


def test_verify_says_what_the_cli_says(cli, filled):
    report = knights.Store(filled).verify()
    printed = cli.out("verify", db=filled).splitlines()
    assert report.ok and report.problems == [] and report.summary == printed[-1]
    recounted = knights.Store(filled).verify(recount=True)
    assert recounted.summary == cli.out("verify", "--recount", db=filled).splitlines()[-1]
    assert recounted.recounted > 0


def test_a_store_changed_outside_knights(cli, filled):
    with sqlite3.connect(filled) as db:
        db.execute("UPDATE answers SET count = '34' WHERE rows = 4 AND cols = 5 AND row = 0 AND col = 0 AND kind = 'open'")
    report = knights.Store(filled).verify()
    code = cli.run("verify", db=filled, check=False)
    assert code.returncode == 1
    assert not report and report.problems == code.stdout.splitlines()[:-1]
    # The count is never served: the CLI and Python refuse it with the same words.
    _, line = cli.error("count", "4", "5", "0", "0", db=filled)
    with pytest.raises(knights.StoreError) as raised:
        knights.count(4, 5, (0, 0), store=filled)
    assert str(raised.value) == line


def test_a_file_that_is_not_a_store(cli, tmp_path):
    bad = tmp_path / "notes.db"
    bad.write_text("these are my notes, not a database\n" * 50)
    _, line = cli.error("count", "5", "4", "0", "0", db=bad)
    with pytest.raises(knights.StoreError) as raised:
        knights.count(5, 4, (0, 0), store=bad)
    assert str(raised.value) == line
    with pytest.raises(knights.StoreError):
        knights.Store(bad).query()
    assert bad.read_text().startswith("these are my notes")
    with pytest.raises(knights.InputError, match="nothing to verify"):
        knights.Store(tmp_path / "missing.db").verify()
