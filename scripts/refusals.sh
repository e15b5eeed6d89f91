#!/usr/bin/env bash
# How long each refusal takes and how much memory it holds: the bad inputs of issue 45 (stores
# that are not stores, forged plans and puzzles, wrong counts imported or planted, outputs over
# the store, a store given twice as replicas), each run RUNS times on a fresh copy of its files,
# with /usr/bin/time's wall seconds and peak memory (the median of the runs, and the largest
# peak). Every refusal must exit non-zero with one line; a row says so when it does not.
#
#   scripts/refusals.sh             # builds in release mode first; about a minute
#   RUNS=5 scripts/refusals.sh
#
# Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${RUNS:-3}
cargo build --release --quiet
knights=$PWD/target/release/knights
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export KNIGHTS_NO_SHIPPED=1 XDG_DATA_HOME="$work/xdg"
cd "$work"

header="rows,cols,kind,row,col,count,engine,version,seconds,computed_at"
record() { printf '%s\n%s,0.1.0,0.5,2026-11-29T14:28:00Z\n' "$header" "$1" >"$2"; }

# The files the refusals read, made once; each run works on a copy.
"$knights" --db good.db count 5 5 >/dev/null
"$knights" --db good.db count 5 6 >/dev/null
head -c 1000000 /dev/urandom >random.db
cp good.db truncated.db && truncate -s 10000 truncated.db
cp good.db planted.db
python3 - <<'PY'
import sqlite3
c = sqlite3.connect("planted.db")
c.execute("UPDATE answers SET count = '306' WHERE rows = 5 AND cols = 5 AND row = 0 AND col = 0")
c.commit()
PY
"$knights" shards plan 5 5 -o plan.txt 2>/dev/null
"$knights" shards plan 5 5 --replicas 2 -o replicas-plan.txt 2>/dev/null
sed '1s/"shards":[0-9]*/"shards":100000/' plan.txt >forged-plan.txt
python3 -c 'print("{\"cells\": [" + "[1]," * 399999 + "[1]]}")' >huge-puzzle.json
record "6,6,open,0,0,524488,memo" six-corner.csv
record "7,7,open,0,0,19023006778,frontier" seven-corner.csv
record "8,100000,closed,,,24,frontier" long-closed.csv
record "8,8,open,,,1$(printf '0%.0s' $(seq 1 199999)),frontier" huge-total.csv
cp good.db replica.db

# name | what is run (in a fresh directory holding copies of the files above)
cases=(
  "not an SQLite file as --db|$knights --db random.db count 5 5 0 0"
  "a truncated store|$knights --db truncated.db count 5 5 0 0"
  "a plan claiming 100,000 shards|$knights --db good.db shards status forged-plan.txt"
  "a JSON puzzle of 400,000 rows|$knights puzzle huge-puzzle.json"
  "import: 6x6 corner 524488 (recounted)|$knights --db good.db import six-corner.csv"
  "import: 7x7 corner + 2 (shipped table)|$knights --db good.db import seven-corner.csv"
  "import: 24 closed tours of 8x100000 (floor)|$knights --db good.db import long-closed.csv"
  "import: a 200,000-digit 8x8 total (bound)|$knights --db good.db import huge-total.csv"
  "a planted 5x5 corner of 306, read|$knights --db planted.db count 5 5 4 4"
  "export -o the store itself|$knights --db good.db export -o good.db"
  "merge --replicas 2 of a store and its copy|$knights --db merged.db shards merge replicas-plan.txt --from good.db replica.db"
  "KNIGHTS_DB empty|env KNIGHTS_DB= $knights count 5 5 0 0"
  "--memory 99999999T|$knights --memory 99999999T count 5 5 0 0"
)

echo "| refusal | exit | lines | seconds (median of $runs) | peak MiB (largest) | message |"
echo "| --- | --- | --- | --- | --- | --- |"
for case in "${cases[@]}"; do
  name=${case%%|*}
  command=${case#*|}
  seconds=() peak=0 code=0 lines=0 message=
  for _ in $(seq "$runs"); do
    run=$(mktemp -d "$work/run.XXXX")
    cp ./*.db ./*.txt ./*.csv ./*.json "$run"/
    set +e
    (cd "$run" && /usr/bin/time -f "%e %M" -o time.txt sh -c "exec $command" >out.txt 2>err.txt)
    code=$?
    set -e
    read -r s kb < <(tail -n 1 "$run/time.txt")
    seconds+=("$s")
    ((kb > peak)) && peak=$kb
    lines=$(wc -l <"$run/err.txt")
    message=$(head -c 110 "$run/err.txt" | tr '\n|' ' /')
    rm -rf "$run"
  done
  median=$(printf '%s\n' "${seconds[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
  echo "| $name | $code | $lines | $median | $((peak / 1024)) | ${message}… |"
done
