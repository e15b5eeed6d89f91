"""Concurrent use from threads: the GIL is released while counting, and several threads may
count at once into one store."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import knights

BOARDS = [(3, 8), (4, 5), (4, 6), (5, 5), (3, 9), (4, 7), (5, 6), (3, 10)]


def test_threads_counting_into_one_store_agree_with_one_thread(cli, tmp_path):
    db = tmp_path / "shared.db"

    def total(board):
        return knights.count(*board, total=True, store=db, progress=False)

    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(total, BOARDS * 2))
    alone = [knights.count(*b, total=True, store=False) for b in BOARDS]
    assert together == alone * 2
    stored = {(a.rows, a.cols): a.count for a in knights.Store(db).query(kind="open") if a.row is None}
    assert all(stored[tuple(sorted(b))] == n for b, n in zip(BOARDS, alone))
    assert cli.run("verify", db=db).returncode == 0


def test_the_gil_is_released_while_counting(tmp_path):
    ticks = 0
    stop = threading.Event()

    def tick():
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    clock = time.monotonic()
    knights.count(5, 45, total=True, store=False, progress=False)
    seconds = time.monotonic() - clock
    stop.set()
    ticker.join()
    # The other thread kept running while the count took its time.
    assert ticks > min(50, seconds * 100)


def test_series_read_from_threads_of_their_own(tmp_path):
    results = {}

    def run(rows):
        results[rows] = list(knights.series(rows, range(1, 21), store=tmp_path / f"s{rows}.db", progress=False))

    threads = [threading.Thread(target=run, args=(rows,)) for rows in (3, 4, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for rows in (3, 4, 5):
        assert results[rows] == list(knights.series(rows, range(1, 21), store=False, progress=False))
