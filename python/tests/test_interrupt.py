"""KeyboardInterrupt stops long work and keeps what finished, as Ctrl-C does for `knights`;
an exception of a progress callback stops it too."""

from __future__ import annotations

import _thread
import threading
import time

import pytest

import knights


def interrupt_after(seconds):
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


def test_an_interrupted_count_keeps_the_answers_it_finished(tmp_path):
    db = tmp_path / "table.db"
    done = []

    def progress(finished, total):
        done.append(finished)
        if finished == 3:
            _thread.interrupt_main()

    clock = time.monotonic()
    with pytest.raises(KeyboardInterrupt) as raised:
        knights.count(6, 6, store=db, progress=progress)
    assert time.monotonic() - clock < 60
    message = str(raised.value)
    assert message.startswith("interrupted: ") and str(db) in message and "saved" in message
    saved = knights.Store(db).query(board="6x6", kind="open")
    assert len(saved) >= 3
    # Counting again finds them in the store and computes the rest.
    table = knights.count(6, 6, store=db, progress=False)
    assert table.directed == knights.count(6, 6, total=True, store=False)


def test_an_interrupted_series_keeps_the_boards_known_before_it(tmp_path):
    db = tmp_path / "series.db"
    got = []
    timer = None
    clock = time.monotonic()
    with pytest.raises(KeyboardInterrupt) as raised:
        # 6x1 to 6x5 come at once; the one pass for 6x6 on takes minutes.
        for n, count in knights.series(6, range(1, 121), store=db, progress=False):
            got.append((n, count))
            if timer is None:
                timer = interrupt_after(1.0)
    assert time.monotonic() - clock < 30
    assert str(raised.value).startswith("interrupted")
    assert len(got) < 120
    stored = {(a.rows, a.cols): a.count for a in knights.Store(db).query(kind="open") if a.row is None}
    assert all(stored[tuple(sorted((6, n)))] == count for n, count in got if n >= 4)


def test_interrupting_a_wait_between_boards(tmp_path):
    timer = interrupt_after(1.0)
    clock = time.monotonic()
    with pytest.raises(KeyboardInterrupt) as raised:
        # One board long enough to be in the middle of it when the interrupt comes.
        knights.count(6, 200, total=True, store=tmp_path / "long.db", progress=False)
    timer.cancel()
    assert time.monotonic() - clock < 30
    assert str(raised.value) == "interrupted"
    assert knights.Store(tmp_path / "long.db").query(board="6x200") == []


def test_an_exception_in_the_progress_callback_stops_the_work(tmp_path):
    class Enough(Exception):
        pass

    def progress(done, total):
        if done >= 2:
            raise Enough

    with pytest.raises(Enough):
        knights.count(6, 6, store=tmp_path / "cb.db", progress=progress)
    assert len(knights.Store(tmp_path / "cb.db").query(board="6x6")) >= 2
