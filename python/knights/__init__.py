"""Counts knight's tours exactly, and remembers every answer.

The Python face of `knights`: the same engines, the same answer store and the same checks as
the command line, so that a count saved from Python is served to `knights` and the other way
round.

>>> import knights
>>> knights.count(5, 4, (0, 0))
32
>>> dict(knights.series(3, range(4, 9)))
{4: 16, 5: 0, 6: 0, 7: 104, 8: 792}
>>> knights.tour(5, 5, (0, 0))[:3]
[(0, 0), (2, 1), (4, 0)]

Counts are exact Python ints of any size. Long work releases the GIL, shows progress (a
callback, or a tqdm bar where tqdm is installed) and stops on KeyboardInterrupt keeping what
it finished. See docs/python.md in the repository for a walkthrough.
"""

from __future__ import annotations

from . import puzzle
from ._errors import (
    BeyondReachError,
    Error,
    InputError,
    InternalError,
    MemoryBudgetError,
    NoTourError,
    SearchGaveUpError,
    StoreError,
)
from ._knights import (
    RELEASE,
    Answer,
    ImportReport,
    Series,
    Store,
    Table,
    VerifyReport,
    __version__,
    count,
    default_store,
    series,
    tour,
    tour_svg,
)

__all__ = [
    "Answer",
    "BeyondReachError",
    "Error",
    "ImportReport",
    "InputError",
    "InternalError",
    "MemoryBudgetError",
    "NoTourError",
    "RELEASE",
    "SearchGaveUpError",
    "Series",
    "Store",
    "StoreError",
    "Table",
    "VerifyReport",
    "__version__",
    "count",
    "default_store",
    "puzzle",
    "series",
    "tour",
    "tour_svg",
]
