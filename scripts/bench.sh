#!/usr/bin/env bash
# Side-by-side timings: the knights engine against the plain backtracking reference counter on
# the same questions, cold (a fresh, empty answer store for every run), with peak memory.
#
#   scripts/bench.sh            # the whole table (about 15 minutes: the reference gets 60 s each)
#   LONG=1 scripts/bench.sh     # also 8x8 closed (10 to 15 minutes more, up to 16 GiB)
#   REFERENCE_LIMIT=10 scripts/bench.sh
#
# Prints a Markdown table. Builds in release mode first.
set -euo pipefail
cd "$(dirname "$0")/.."

limit=${REFERENCE_LIMIT:-60}
cargo build --release --quiet
knights=$PWD/target/release/knights
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 100,000 judge-format queries on random boards of at most 25 squares (fixed seed).
python3 - "$work/judge-100k.txt" <<'PY'
import random, sys
random.seed(2026)
boards = [(r, c) for r in range(1, 26) for c in range(1, 26) if r * c <= 25]
with open(sys.argv[1], "w") as f:
    f.write("100000\n")
    for _ in range(100000):
        r, c = random.choice(boards)
        f.write(f"{r} {c} {random.randrange(r)} {random.randrange(c)}\n")
PY

# Puzzles (issue 26): 16 given numbers of an 8x8 tour and 6 of a 6x6 tour, at squares picked
# with a fixed seed.
"$knights" tour 8 8 0 0 --seed 3 >"$work/tour-8x8.txt"
"$knights" tour 6 6 2 2 >"$work/tour-6x6.txt"
python3 - "$work" <<'PY'
import random, sys
work = sys.argv[1]
def keep(tour, puzzle, givens):
    grid = [line.split() for line in open(f"{work}/{tour}") if line.strip()]
    cells = [(r, c) for r in range(len(grid)) for c in range(len(grid[0]))]
    random.seed(0)
    kept = set(random.sample(cells, givens))
    with open(f"{work}/{puzzle}", "w") as f:
        for r, row in enumerate(grid):
            f.write(" ".join(v if (r, c) in kept else "." for c, v in enumerate(row)) + "\n")
keep("tour-8x8.txt", "puzzle-8x8-16.txt", 16)
keep("tour-6x6.txt", "puzzle-6x6-6.txt", 6)
PY

# run LIMIT ARGS...: prints "seconds peak_kib" of one cold run, or "- -" past the limit.
run() {
    local limit=$1
    shift
    local db
    db=$(mktemp -u "$work/store-XXXXXX.db")
    if /usr/bin/time -f "%e %M" -o "$work/time" timeout "$limit" \
        "$knights" --db "$db" "$@" >"$work/out" 2>"$work/err"; then
        cat "$work/time"
    else
        echo "- -"
    fi
}

# "ARGS|TARGET|REFERENCE|EXPECT": REFERENCE "no" where the reference counter has no such
# command; EXPECT a published count (data/published/board-totals.csv) that the output must contain.
questions=(
    "count 6 6 0 0|0.2|"
    "count 6 6|1||6637920"
    "count 5 8|5||36122108"
    "count 4 10|2||2426224"
    "precompute --boards 3x3..12x12 --max-squares 40 --quiet|5|"
    "solve $work/judge-100k.txt|2|"
    "count 6 6 --closed|||9862"
    "count 5 8 --closed||"
    "count 5 8 --total|0.3||36122108"
    "count 6 8 --closed|1|"
    "count 7 8 --closed|30|"
    "count 6 8 --total|30|"
    "count 7 7 --total|180||165575218320"
    "count 6 6 0 0 --to 5 4|0.1|"
    "count 6 8|300|"
    "count 6 10 --total|30|no|287655314640896"
    "series 3 --cols 4..300 --closed --quiet|10|no"
    # Issue 23's series targets (the periodic transfer, counts modulo primes).
    "series 5 --cols 1..16 --quiet|0.8|no"
    "series 5 --cols 1..50 --quiet|3.5|no"
    "series 6 --cols 1..12 --quiet|55|no"
    "series 6 --cols 1..40 --closed --quiet||no"
    "tour 8 8 0 0||no"
    "tour 1000 1000 0 0|1|no"
    "tour 1000 1000 0 0 --closed|1|no"
    "tour 4 100000 0 31||no"
    "puzzle $work/puzzle-8x8-16.txt||no"
    "puzzle --count $work/puzzle-6x6-6.txt||no"
    "puzzle --make 6 6 --seed 1||no"
    "puzzle --make 8 8 --seed 0||no"
)
# The long questions (an hour or more in all, up to 16 GiB each): LONG=1 scripts/bench.sh. The
# 7x8 and 6x10 open totals are OEIS A306283 and A306281, doubled (directed); the targets are
# issue 21's.
if [[ ${LONG:-0} == 1 ]]; then
    questions+=(
        "--memory 16G count 8 8 --closed|150|no|13267364410532"
        "--memory 16G count 7 7|45|no|165575218320"
        "--memory 16G count 7 8 --total|180|no|41332850120656"
        "--memory 16G count 7 8|900|no|41332850120656"
        "--memory 16G count 6 7|60|no"
        "--memory 16G count 8 8 2 3 --to 5 3|300|no|2039402798854"
        # The corner pair: its half (5.9 GB as classes) and its mirror image; 16 GiB is the target.
        "--memory 16G count 8 8 0 0 --to 0 7|2400|no|152548120426494"
        # Issue 23's long series: 6xn to Knuth's n = 32 (A306281), 8xn closed (A193055).
        "--memory 16G series 6 --cols 1..32 --quiet|300|no"
        "--memory 16G series 8 --cols 1..16 --closed --quiet|1800|no"
        # Issue 48: 8x9 (a cut of 18 squares) and 8x10 closed meeting in the middle (A193055).
        "--memory 16G count 8 9 --closed|240|no|7112881119092574"
        "--memory 16G count 8 10 --closed|900|no|4235482818156697040"
    )
fi

wrong=()
printf '| question | knights | peak memory | reference | ratio | target |\n'
printf '| --- | ---: | ---: | ---: | ---: | ---: |\n'
for entry in "${questions[@]}"; do
    IFS='|' read -r args target with_reference expect <<<"$entry"
    read -r ours ours_kib < <(run 3600 $args)
    mark=""
    if [[ -n $expect ]] && ! grep -q -- "$expect" "$work/out"; then
        wrong+=("knights $args (expected $expect)")
        mark="WRONG: "
    fi
    if [[ $with_reference == no ]]; then
        reference="-"
        ratio="-"
    else
        read -r theirs _ < <(run "$limit" $args --engine reference)
        if [[ $theirs == "-" ]]; then
            reference="> ${limit} s"
            # Past the reference's limit ourselves, the ratio is not known.
            ratio=$(python3 -c "print(f'> {$limit / max($ours, 0.005):.0f}x' if $ours < $limit else '-')")
        else
            reference="$theirs s"
            ratio="$(python3 -c "print(f'{$theirs / max($ours, 0.005):.0f}')")x"
        fi
    fi
    shown=${args/$work\/judge-100k.txt/judge-100k.txt (100,000 random queries, <= 25 squares)}
    shown=${shown/$work\/puzzle-8x8-16.txt/8x8 puzzle, 16 given numbers}
    shown=${shown/$work\/puzzle-6x6-6.txt/6x6 puzzle, 6 given numbers}
    printf '| `knights %s` | %s%s s | %s MiB | %s | %s | %s |\n' \
        "$shown" "$mark" "$ours" "$((ours_kib / 1024))" "$reference" "$ratio" "${target:+<= $target s}"
done

# The published set of board totals: every kxn with 3 <= k <= n <= 12 and k*n <= 40, as four
# series on one new store (the times added, the largest peak memory).
db=$(mktemp -u "$work/store-XXXXXX.db")
seconds=0
peak=0
for series in "3 --cols 3..12" "4 --cols 4..10" "5 --cols 5..8" "6 --cols 6..6"; do
    /usr/bin/time -f "%e %M" -o "$work/time" "$knights" --db "$db" series $series --quiet \
        >"$work/out" 2>"$work/err"
    read -r s kib <"$work/time"
    seconds=$(python3 -c "print(round($seconds + $s, 2))")
    peak=$((kib > peak ? kib : peak))
done
printf '| `knights series` 3, 4, 5 and 6 (every board total of at most 40 squares) | %s s | %s MiB | - | - | <= 1 s |\n' \
    "$seconds" "$((peak / 1024))"

if ((${#wrong[@]} > 0)); then
    printf 'wrong answer: %s\n' "${wrong[@]}" >&2
    exit 1
fi
