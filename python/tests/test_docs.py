"""The walkthrough of docs/python.md runs, and prints what it shows: each `python` block runs in
order in one namespace, and a line's `# ...` comment lines under it are what that line gives
(its value's repr, what it printed, or the exception it raised; `...` stands for the rest).

The walkthrough's heat map reads 8x8's table, which ships with knights: this test lets the
shipped results into its store. It checks that the page shows what the package returns, never
that an engine is right.
"""

from __future__ import annotations

import ast
import contextlib
import doctest
import io
import re
from pathlib import Path

import knights

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def chunks(block: str):
    """(code, expected) pairs: code lines, then the `# ` lines under them."""
    code, want = [], []
    for line in block.splitlines():
        if line.startswith("# "):
            want.append(line[2:])
            continue
        if want:
            yield "\n".join(code), "\n".join(want)
            code, want = [], []
        code.append(line)
    if code or want:
        yield "\n".join(code), "\n".join(want)


def run(code: str, namespace: dict) -> str:
    tree = ast.parse(code)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(tree, "docs/python.md", "exec"), namespace)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "docs/python.md", "eval"), namespace)
                if value is not None:
                    print(repr(value))
    except knights.Error as e:
        return out.getvalue() + f"knights.{type(e).__name__}: {e}\n"
    return out.getvalue()


def test_the_walkthrough_prints_what_it_shows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KNIGHTS_NO_SHIPPED", "0")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    text = DOC.read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    walkthrough = text.split("## A walkthrough")[1].split("## Long work")[0]
    assert len(re.findall(r"```python\n", walkthrough)) >= 5
    namespace: dict = {}
    checker = doctest.OutputChecker()
    shown = 0
    for block in blocks:
        for code, want in chunks(block):
            got = run(code, namespace)
            if not want:
                continue
            shown += 1
            if got.startswith("knights."):
                got, want = " ".join(got.split()), " ".join(want.split())
            assert checker.check_output(want + "\n", got if got.endswith("\n") else got + "\n", doctest.ELLIPSIS), (
                f"docs/python.md: {code!r} shows\n{want}\nbut gives\n{got}"
            )
    assert shown >= 12
