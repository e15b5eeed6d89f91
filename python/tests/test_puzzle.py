"""knights.puzzle against `knights puzzle`."""

from __future__ import annotations

import json

import pytest

import knights


def board_text(grid):
    return "\n".join(" ".join("." if c is None else str(c) for c in row) for row in grid) + "\n"


def test_make_count_and_solve_are_the_clis(cli, tmp_path):
    made = json.loads(cli.out("puzzle", "--make", "5", "5", "--seed", "7", "--format", "json"))
    grid = knights.puzzle.make(5, 5, seed=7)
    assert grid == made["cells"]
    assert knights.puzzle.make(5, 5, seed=7) == grid
    file = tmp_path / "five.txt"
    file.write_text(board_text(grid))
    assert knights.puzzle.count(grid) == int(cli.out("puzzle", str(file), "--count")) == 1
    solved = knights.puzzle.solve(grid)
    expected = [[int(n) for n in line.split()] for line in cli.out("puzzle", str(file)).splitlines()]
    assert solved == expected
    assert all(solved[r][c] == grid[r][c] for r in range(5) for c in range(5) if grid[r][c])
    assert knights.puzzle.solve(board_text(grid)) == solved


def test_counts_of_a_puzzle_with_many_completions(cli, tmp_path):
    grid = [[1, None, None, None, None]] + [[None] * 5 for _ in range(4)]
    file = tmp_path / "corner.txt"
    file.write_text(board_text(grid))
    assert knights.puzzle.count(grid) == int(cli.out("puzzle", str(file), "--count")) == 304
    grid[0][0] = 0
    assert knights.puzzle.count(grid) == 1728


def test_a_puzzle_without_completion(cli, tmp_path):
    grid = [[1, 2, None], [None] * 3, [None] * 3]
    file = tmp_path / "none.txt"
    file.write_text(board_text(grid))
    code, line = cli.error("puzzle", str(file))
    assert code == 3
    with pytest.raises(knights.NoTourError) as raised:
        knights.puzzle.solve(grid)
    assert str(raised.value) == line
    assert knights.puzzle.count(grid) == 0


def test_bad_puzzles():
    with pytest.raises(knights.InputError):
        knights.puzzle.solve([[1, 2], [3]])
    with pytest.raises(knights.InputError):
        knights.puzzle.solve([[-1, None], [None, None]])
    with pytest.raises(TypeError):
        knights.puzzle.solve(5)
    with pytest.raises(ValueError, match="clues=99"):
        knights.puzzle.make(5, 5, clues=99)
