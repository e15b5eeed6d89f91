"""knights.tour and knights.tour_svg against `knights tour`."""

from __future__ import annotations

import json

import pytest

import knights


def cli_tour(cli, *args):
    return [tuple(s) for s in json.loads(cli.out("tour", *map(str, args), "--format", "json"))["squares"]]


@pytest.mark.parametrize(
    "args,kwargs,flags",
    [
        ((5, 5, (0, 0)), {}, []),
        ((6, 6, (0, 0)), {"closed": True}, ["--closed"]),
        ((8, 8, (3, 4)), {"seed": 7}, ["--seed", "7"]),
        ((6, 6, (0, 0)), {"to": (5, 4)}, ["--to", "5", "4"]),
        ((3, 10, (0, 0)), {}, []),
        ((40, 40, (0, 0)), {}, []),
    ],
)
def test_tours_are_the_clis(cli, args, kwargs, flags):
    rows, cols, (r, c) = args
    squares = knights.tour(*args, **kwargs)
    assert squares == cli_tour(cli, rows, cols, r, c, *flags)
    assert len(squares) == rows * cols == len(set(squares))
    moves = {(abs(a - c2), abs(b - d)) for (a, b), (c2, d) in zip(squares, squares[1:])}
    assert moves <= {(1, 2), (2, 1)}


def test_the_svg_is_the_clis(cli):
    assert knights.tour_svg(5, 5, (0, 0)) == cli.out("tour", "5", "5", "0", "0", "--format", "svg")
    animated = cli.out("tour", "6", "6", "0", "0", "--closed", "--format", "svg", "--animate")
    assert knights.tour_svg(6, 6, (0, 0), closed=True, animate=True) == animated


def test_no_tour_says_why_as_the_cli_does(cli):
    for args, kwargs in [((4, 4, 0, 0), {}), ((5, 5, 0, 0), {"closed": True}), ((3, 4, 1, 1), {})]:
        flags = ["--closed"] if kwargs.get("closed") else []
        code, line = cli.error("tour", *map(str, args), *flags)
        assert code == 3
        with pytest.raises(knights.NoTourError) as raised:
            knights.tour(args[0], args[1], (args[2], args[3]), **kwargs)
        assert str(raised.value) == line


def test_bad_tour_arguments():
    with pytest.raises(knights.InputError, match="outside the 5x5 board"):
        knights.tour(5, 5, (5, 0))
    with pytest.raises(ValueError, match="time_limit"):
        knights.tour(8, 8, (0, 0), to=(7, 6), time_limit=0)
    with pytest.raises(ValueError, match="closed=True"):
        knights.tour(6, 6, (0, 0), closed=True, to=(5, 4))
