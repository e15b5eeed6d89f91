"""Knight's tour puzzles: a board with some step numbers given, to complete into a tour.

A puzzle is a list of rows, each a list of step numbers (1 to rows*cols) with `None` (or 0) for
an empty cell, or its text as `knights puzzle` reads it.

>>> import knights
>>> grid = knights.puzzle.make(5, 5, seed=7)
>>> knights.puzzle.count(grid)
1
>>> solved = knights.puzzle.solve(grid)
"""

from __future__ import annotations

from ._knights import puzzle_count as count
from ._knights import puzzle_make as make
from ._knights import puzzle_solve as solve

__all__ = ["count", "make", "solve"]
