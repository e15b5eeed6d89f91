"""The exceptions knights raises: each says what is wrong in one line, as `knights` does."""

from __future__ import annotations

__all__ = [
    "Error",
    "InputError",
    "BeyondReachError",
    "MemoryBudgetError",
    "SearchGaveUpError",
    "StoreError",
    "NoTourError",
    "InternalError",
]


class Error(Exception):
    """Every error of knights (an interruption is a KeyboardInterrupt, as usual)."""


class InputError(Error, ValueError):
    """The arguments, a board, a square or a file are wrong (`knights` exits with 2)."""


class BeyondReachError(InputError):
    """No engine here counts it: its message says what can be counted instead."""


class MemoryBudgetError(Error):
    """The engines needed more memory than `memory=` allows; its message says how much."""


class SearchGaveUpError(Error, TimeoutError):
    """A search ran out of its time without deciding: it does not mean there is no answer."""


class StoreError(Error):
    """The answer store failed, is not a store, or holds what cannot be trusted."""


class NoTourError(Error):
    """No tour (or no completion of a puzzle) exists; the message says why."""


class InternalError(Error):
    """A bug in knights: please report it with the message."""
