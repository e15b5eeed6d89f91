#!/usr/bin/env python3
"""Projects a frontier pass past where it stopped, from the layers `knights count --layers`
logged (see docs/results.md, "The road to width 9").

    scripts/project-layers.py LAYERS.csv WIDTH [--rows N] [--decline LO HI]

The pass walks its board a row of WIDTH squares at a time. A layer's states depend on where in
its row the square lies, so growth is read a whole row at a time: each complete row's largest
layer, the sum of its layers, and the ratio of its largest layer to the row before's. That
ratio falls as the pass goes down the board; `--decline LO HI` says by what factor it falls a
row past the last complete one (measured on passes that ran to their end, e.g. width 8's), and
the rows to come are projected with both, giving a low and a high figure.

Seconds are taken as proportional to the states a layer starts from (the median seconds a
million states of the last complete row's layers), and the finished layer's bytes as
proportional to its states. A projection is not a measurement: the output says which rows were
measured.
"""

import argparse
import csv
import statistics
import sys


def read_pass(path):
    """The pass's layers: {square: (states, resident_bytes, seconds)}, and the pass's squares."""
    layers = {}
    squares = None
    try:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if row["phase"] != "pass":
                    continue
                square = int(row["square"])
                squares = int(row["squares"])
                layers[square] = (int(row["states"]), int(row["resident_bytes"]), float(row["seconds"]))
    except OSError as e:
        sys.exit(f"error: {path} cannot be read: {e.strerror}")
    except (KeyError, TypeError, ValueError, csv.Error, UnicodeDecodeError):
        sys.exit(f"error: {path} is not a layer log (the CSV `knights count --layers` writes)")
    if not layers:
        sys.exit(f"error: {path} has no pass layers (was it written by `knights count --layers`?)")
    return layers, squares


def project(states, w, last, squares, decline, final):
    """States of squares last+1..squares: each square's ratio to the square a row above falls
    by `decline` over a row (`final` over the pass's last row), a step a square, and carries
    over from a row's last square to the next row's first."""
    out = dict(states)
    ratio = out[last] / out[last - w]
    final_row = (squares - 1) // w
    for s in range(last + 1, squares + 1):
        if (s - 1) % w:  # not a row's first square
            row_decline = final if (s - 1) // w == final_row else decline
            ratio /= row_decline ** (1 / (w - 1))
        out[s] = out[s - w] * ratio
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("layers", help="a CSV written by `knights count --layers`")
    p.add_argument("width", type=int, help="the squares of a row of the pass")
    p.add_argument("--upto", type=int, help="project from this square on (default: the last logged)")
    p.add_argument("--decline", type=float, nargs=2, metavar=("LO", "HI"),
                   help="how much the ratio to the row above falls over a row past the measured")
    p.add_argument("--last", type=float, nargs=2, metavar=("LO", "HI"),
                   help="the same, over the pass's last row (default: --decline's)")
    args = p.parse_args()
    w = args.width
    if w < 2:
        sys.exit(f"error: a width of {w}: the rows of a pass have at least 2 squares")
    layers, squares = read_pass(args.layers)
    last = min(args.upto or max(layers), max(layers))
    missing = [s for s in range(1, last + 1) if s not in layers]
    if missing:
        sys.exit(f"error: squares {missing[:5]} are missing from {args.layers}")
    if last < 3 * w:
        sys.exit(f"error: {last} squares measured; a projection needs three rows ({3 * w})")
    states = {s: layers[s][0] for s in range(1, last + 1)}

    print(f"pass of {squares} squares in rows of {w}; squares 1-{last} measured")
    print("row: each square's states over the states a row above")
    for r in range(2, (last - 1) // w + 2):
        cells = range((r - 1) * w + 1, min(r * w, last) + 1)
        print(f"{r}: " + " ".join(f"{states[s] / states[s - w]:.3g}" for s in cells))
    row = range(max(2, last - w + 1), last + 1)
    per_million = statistics.median(
        (layers[s][2] - layers[s - 1][2]) / layers[s - 1][0] * 1e6 for s in row
    )
    bytes_a_state = layers[last][1] / layers[last][0]
    print(f"seconds a million states in, squares {row.start}-{row.stop - 1} (median): {per_million:.3f}")
    print(f"resident bytes a state of the finished layer {last}: {bytes_a_state:.1f}")
    if not args.decline or last >= squares:
        return
    final = args.last or args.decline
    low = project(states, w, last, squares, args.decline[1], final[1])
    high = project(states, w, last, squares, args.decline[0], final[0])
    print("square,measured,low,high")
    for s in range(last + 1, squares + 1):
        measured = layers[s][0] if s in layers else ""
        print(f"{s},{measured},{low[s]:.3g},{high[s]:.3g}")
    for name, out in (("low", low), ("high", high)):
        total = sum(out[s] for s in range(1, squares + 1))
        seconds = sum(out[s - 1] for s in range(2, squares + 1)) * per_million / 1e6
        largest = max(out.values())
        print(
            f"{name}: square {squares} {out[squares]:.3g} states; largest layer {largest:.3g} "
            f"states ({largest * bytes_a_state / 2**30:.3g} GiB as finished arrays); all layers "
            f"{total:.3g} states, {seconds / 3600:.3g} hours at the measured seconds a state"
        )


if __name__ == "__main__":
    main()
