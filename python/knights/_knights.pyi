"""Type stubs of the native part of knights (the Rust library through PyO3)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Literal, Optional, Sequence, Tuple, Union, final, overload

__all__ = [
    "Answer",
    "ImportReport",
    "RELEASE",
    "Series",
    "Store",
    "Table",
    "VerifyReport",
    "__version__",
    "count",
    "default_store",
    "puzzle_count",
    "puzzle_make",
    "puzzle_solve",
    "series",
    "tour",
    "tour_svg",
]

__version__: str
RELEASE: str

_Square = Tuple[int, int]
"""A square `(row, col)`, both from 0."""
_StoreArg = Union[str, "os.PathLike[str]", "Store", bool, None]
"""Where answers are kept: None the default store, a path or a Store, False none."""
_Memory = Union[int, str, None]
"""A memory budget: bytes, or a size such as "512M" or "4G"; None: $KNIGHTS_MEMORY or 3/4 of RAM."""
_ProgressArg = Union[Callable[[int, int], object], bool, None]
"""progress(done, total) after each step; None: a tqdm bar where tqdm is installed; False: none."""
_BoardFilter = Union[str, Tuple[int, int], None]
_Kind = Literal["open", "closed", "between"]
_Grid = Sequence[Sequence[Optional[int]]]

@final
class Table:
    """The open tours from every square of a board, with its totals (`count(rows, cols)`)."""

    @property
    def rows(self) -> int: ...
    @property
    def cols(self) -> int: ...
    @property
    def table(self) -> list[list[int]]:
        """The count from each square, row by row."""
    @property
    def directed(self) -> int:
        """Every open tour, each direction counted (the sum of the table)."""
    @property
    def undirected(self) -> int:
        """Every open tour once."""
    @property
    def how(self) -> str:
        """How the answer was found, in a few words."""
    def __len__(self) -> int: ...
    def __getitem__(self, key: int, /) -> list[int]: ...
    def __iter__(self) -> Iterator[list[int]]: ...

@overload
def count(
    rows: int,
    cols: int,
    start: _Square,
    *,
    to: _Square | None = None,
    closed: bool = False,
    total: Literal[False] = False,
    undirected: bool = False,
    store: _StoreArg = None,
    memory: _Memory = None,
    progress: _ProgressArg = None,
) -> int:
    """The exact number of knight's tours, as `knights count` gives it.

    With a start square: the open tours from it (closed=True: the closed tours through it;
    to=(row, col): the open tours from start to there). Without: the board's total with
    total=True (closed=True: its closed tours), each direction counted, or each tour once with
    undirected=True; else a Table of every square's count.

    >>> count(5, 4, (0, 0))
    32
    >>> count(5, 5, total=True)
    1728
    >>> count(5, 5).table[0]
    [304, 0, 56, 0, 304]
    """
@overload
def count(
    rows: int,
    cols: int,
    start: None = None,
    *,
    to: None = None,
    closed: bool = False,
    total: Literal[True],
    undirected: bool = False,
    store: _StoreArg = None,
    memory: _Memory = None,
    progress: _ProgressArg = None,
) -> int: ...
@overload
def count(
    rows: int,
    cols: int,
    start: None = None,
    *,
    to: None = None,
    closed: Literal[True],
    total: bool = False,
    undirected: bool = False,
    store: _StoreArg = None,
    memory: _Memory = None,
    progress: _ProgressArg = None,
) -> int: ...
@overload
def count(
    rows: int,
    cols: int,
    start: None = None,
    *,
    to: None = None,
    closed: Literal[False] = False,
    total: Literal[False] = False,
    undirected: bool = False,
    store: _StoreArg = None,
    memory: _Memory = None,
    progress: _ProgressArg = None,
) -> Table: ...

@final
class Series:
    """The boards of a series as each is known: an iterator of (n, count)."""

    def __iter__(self) -> Series: ...
    def __next__(self) -> tuple[int, int]: ...
    def close(self) -> None:
        """Stops the work (what was known is kept) and waits for it."""
    def __enter__(self) -> Series: ...
    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool: ...

def series(
    rows: int,
    cols: range | int | None = None,
    *,
    closed: bool = False,
    undirected: bool = False,
    store: _StoreArg = None,
    memory: _Memory = None,
    progress: _ProgressArg = None,
) -> Series:
    """The totals of the boards rows x n for n in cols (default range(1, 51)), as
    `knights series` gives them: (n, count) as each board is known.

    >>> dict(series(3, range(4, 9)))
    {4: 16, 5: 0, 6: 0, 7: 104, 8: 792}
    """

def tour(
    rows: int,
    cols: int,
    start: _Square,
    *,
    closed: bool = False,
    to: _Square | None = None,
    seed: int | None = None,
    time_limit: float = 10.0,
    memory: _Memory = None,
) -> list[_Square]:
    """One tour from start, as `knights tour` finds it: the squares in order.

    >>> tour(5, 5, (0, 0))[:3]
    [(0, 0), (2, 1), (4, 0)]
    """

def tour_svg(
    rows: int,
    cols: int,
    start: _Square,
    *,
    closed: bool = False,
    to: _Square | None = None,
    seed: int | None = None,
    time_limit: float = 10.0,
    animate: bool = False,
    memory: _Memory = None,
) -> str:
    """The tour `tour()` finds as an SVG picture (animate=True: the knight moves)."""

def puzzle_solve(board: _Grid | str, *, closed: bool = False) -> list[list[int]]:
    """One completion of a puzzle: every square's step number, row by row."""

def puzzle_count(
    board: _Grid | str,
    *,
    closed: bool = False,
    memory: _Memory = None,
    progress: _ProgressArg = None,
) -> int:
    """The exact number of completions of a puzzle."""

def puzzle_make(
    rows: int,
    cols: int,
    *,
    closed: bool = False,
    clues: int | None = None,
    seed: int | None = None,
    memory: _Memory = None,
) -> list[list[int | None]]:
    """A puzzle with exactly one completion (None: an empty cell)."""

def default_store() -> str:
    """The path of the store `knights` uses by default."""

@final
class Answer:
    """One stored answer: the columns of `knights query`."""

    @property
    def rows(self) -> int: ...
    @property
    def cols(self) -> int: ...
    @property
    def kind(self) -> _Kind: ...
    @property
    def row(self) -> int | None: ...
    @property
    def col(self) -> int | None: ...
    @property
    def to_row(self) -> int | None: ...
    @property
    def to_col(self) -> int | None: ...
    @property
    def count(self) -> int: ...
    @property
    def engine(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def seconds(self) -> float: ...
    @property
    def computed_at(self) -> str: ...
    @property
    def source(self) -> str: ...

@final
class ImportReport:
    """What Store.import_ did."""

    @property
    def added(self) -> int: ...
    @property
    def already_stored(self) -> int: ...
    @property
    def summary(self) -> str: ...

@final
class VerifyReport:
    """What Store.verify found: true when no problem was found."""

    @property
    def answers(self) -> int: ...
    @property
    def recounted(self) -> int: ...
    @property
    def not_recounted(self) -> int: ...
    @property
    def decided(self) -> int: ...
    @property
    def problems(self) -> list[str]: ...
    @property
    def summary(self) -> str: ...
    @property
    def ok(self) -> bool: ...
    def __bool__(self) -> bool: ...

@final
class Store:
    """The answer store `knights` keeps: the same file, the same checks."""

    def __new__(
        cls, path: str | os.PathLike[str] | None = None, *, no_shipped: bool | None = None
    ) -> Store: ...
    @property
    def path(self) -> str: ...
    @property
    def no_shipped(self) -> bool: ...
    def __fspath__(self) -> str: ...
    def query(
        self,
        *,
        board: _BoardFilter = None,
        kind: _Kind | None = None,
        min_squares: int | None = None,
        max_squares: int | None = None,
    ) -> list[Answer]:
        """The stored answers, as `knights query` lists them."""
    def export(
        self,
        file: str | os.PathLike[str] | None = None,
        *,
        format: Literal["csv", "json"] | None = None,
        board: _BoardFilter = None,
        kind: _Kind | None = None,
        min_squares: int | None = None,
        max_squares: int | None = None,
    ) -> str | int:
        """The answers as `knights export` writes them: to file (how many), else a string."""
    def import_(
        self,
        file: str | os.PathLike[str],
        *,
        format: Literal["csv", "json"] | None = None,
        memory: _Memory = None,
    ) -> ImportReport:
        """Adds an export's answers, every record checked first, as `knights import`."""
    def verify(
        self,
        *,
        recount: bool = False,
        seconds: float | None = None,
        board: _BoardFilter = None,
        kind: _Kind | None = None,
        min_squares: int | None = None,
        max_squares: int | None = None,
    ) -> VerifyReport:
        """Checks the stored answers, as `knights verify`."""
