"""Progress where a notebook shows it: a tqdm bar when tqdm is installed and no callback is
given (a stand-in module here: tqdm itself is optional), none with progress=False."""

from __future__ import annotations

import sys
import types

import pytest

import knights


class Bar:
    made: list["Bar"] = []

    def __init__(self, total=None, unit=None, leave=True):
        self.total, self.unit, self.n, self.closed = total, unit, 0, False
        Bar.made.append(self)

    def update(self, n):
        self.n += n

    def refresh(self):
        pass

    def close(self):
        self.closed = True


@pytest.fixture
def fake_tqdm(monkeypatch):
    Bar.made = []
    auto = types.ModuleType("tqdm.auto")
    auto.tqdm = Bar
    package = types.ModuleType("tqdm")
    package.auto = auto
    monkeypatch.setitem(sys.modules, "tqdm", package)
    monkeypatch.setitem(sys.modules, "tqdm.auto", auto)
    return Bar


def test_a_count_drives_a_tqdm_bar(fake_tqdm):
    knights.count(5, 5, store=False)
    [bar] = fake_tqdm.made
    assert bar.unit == "answers" and bar.n == bar.total > 0 and bar.closed


def test_a_series_drives_a_tqdm_bar(fake_tqdm):
    assert len(list(knights.series(4, range(1, 21), store=False))) == 20
    [bar] = fake_tqdm.made
    assert (bar.unit, bar.total, bar.n, bar.closed) == ("boards", 20, 20, True)


def test_no_bar_with_progress_false_or_a_callback(fake_tqdm):
    knights.count(5, 5, store=False, progress=False)
    knights.count(5, 6, store=False, progress=lambda done, total: None)
    assert fake_tqdm.made == []


def test_a_bad_progress_argument():
    with pytest.raises(ValueError, match="progress must be"):
        knights.count(5, 5, progress=3)
