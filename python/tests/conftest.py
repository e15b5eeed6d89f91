"""What the tests share: the `knights` command line to compare with, and a store of each test's
own (never the user's).

Every test runs with KNIGHTS_NO_SHIPPED=1, as the Rust integration tests do: the results that
ship with knights are never taken as evidence that an engine is right. The command line is the
binary cargo built: $KNIGHTS_BIN, else target/release/knights or target/debug/knights of the
repository (or of $CARGO_TARGET_DIR).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _binary() -> Path:
    given = os.environ.get("KNIGHTS_BIN")
    if given:
        return Path(given)
    targets = [Path(os.environ["CARGO_TARGET_DIR"])] if os.environ.get("CARGO_TARGET_DIR") else []
    targets.append(REPO / "target")
    for target in targets:
        for profile in ("release", "debug"):
            path = target / profile / "knights"
            if path.is_file():
                return path
    raise RuntimeError(
        "no knights binary to compare with: build it (cargo build --release) or set KNIGHTS_BIN"
    )


@pytest.fixture(autouse=True)
def own_store(tmp_path, monkeypatch):
    """Each test's default store is a new file of its own; nothing shipped is added."""
    monkeypatch.setenv("KNIGHTS_DB", str(tmp_path / "default.db"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("KNIGHTS_NO_SHIPPED", "1")
    monkeypatch.setenv("KNIGHTS_MEMORY", "2G")
    monkeypatch.delenv("KNIGHTS_HALVES", raising=False)
    return tmp_path / "default.db"


class Cli:
    """The `knights` command line, on a store given per call (else the test's default)."""

    def __init__(self, binary: Path):
        self.binary = binary

    def run(self, *args: str, db: os.PathLike | str | None = None, check: bool = True):
        env = dict(os.environ)
        if db is not None:
            env["KNIGHTS_DB"] = str(db)
        done = subprocess.run(
            [str(self.binary), *map(str, args)],
            capture_output=True,
            text=True,
            env=env,
            stdin=subprocess.DEVNULL,
            timeout=600,
        )
        if check and done.returncode != 0:
            raise AssertionError(f"knights {' '.join(map(str, args))} failed: {done.stderr}")
        return done

    def out(self, *args: str, db=None) -> str:
        return self.run(*args, db=db).stdout

    def json(self, *args: str, db=None):
        return json.loads(self.out(*args, "--format", "json", db=db))

    def error(self, *args: str, db=None) -> tuple[int, str]:
        """The exit code and the one line on standard error, its `error: ` left out."""
        done = self.run(*args, db=db, check=False)
        assert done.returncode != 0, f"knights {args} succeeded: {done.stdout}"
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        assert len(lines) == 1, done.stderr
        line = lines[0]
        return done.returncode, line.removeprefix("error: ")


@pytest.fixture(scope="session")
def cli() -> Cli:
    return Cli(_binary())
