#!/usr/bin/env bash
# The page of `knights serve` in a real browser. Starts the server on a free port of 127.0.0.1
# with a new, empty store, loads deep links in headless Chromium and checks what a person would
# see there, against the command's own answers: the heatmap's numbers and totals of 5x5, a tour
# of 25 steps from the corner drawn and animated, the theorem shown for a square with no tour,
# closed tours, a board past the engines, and the puzzle view (a made puzzle revealed and
# counted as `knights puzzle` does, a try's broken cells marked). Saves screenshots (wide and phone-sized) in
# $OUT (default target/browser-check). Exits non-zero when a check fails; stops its server
# whatever happens. Installs Debian's chromium when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${OUT:-target/browser-check}
mkdir -p "$OUT"
clock=$SECONDS

if ! command -v chromium >/dev/null 2>&1; then
    echo "browser check: installing chromium" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

# The same build as `cargo test` (already there after it).
cargo build --quiet
BIN=target/debug/knights

WORK=$(mktemp -d)
"$BIN" serve --bind 127.0.0.1:0 --db "$WORK/answers.db" >"$WORK/out" 2>"$WORK/err" &
SERVER=$!
cleanup() {
    kill -INT "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

for _ in $(seq 100); do
    grep -q '^listening on ' "$WORK/out" && break
    sleep 0.1
done
URL=$(sed -n 's/^listening on //p' "$WORK/out" | sed 's:/$::')
if [ -z "$URL" ]; then
    echo "browser check: the server did not start: $(cat "$WORK/err")" >&2
    exit 1
fi

# Chromium keeps its profile, crash reports and caches in the scratch directory, never in the
# home directory.
chrome() {
    HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/config" XDG_CACHE_HOME="$WORK/cache" \
        timeout 90 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --user-data-dir="$WORK/chrome" --virtual-time-budget=8000 "$@" 2>/dev/null
}
dom() { chrome --dump-dom "$URL$1"; }
shot() { chrome --screenshot="$OUT/$1.png" --window-size="$2" "$URL$3" >/dev/null; }

# From here on a check that finds nothing is a failed check, not the end of the script.
set +e +o pipefail
passed=0
failed=0
check() {
    local what=$1 expected=$2 seen=$3
    if [ "$expected" = "$seen" ]; then
        passed=$((passed + 1))
        echo "ok: $what"
    else
        failed=$((failed + 1))
        echo "FAILED: $what: expected [$expected], the page shows [$seen]"
    fi
}
# The line of the DOM that holds element `id` (the page's drawings are one line each).
line_of() { grep -m1 "id=\"$1\"" || true; }
# Digits only: the page groups long numbers with thin spaces.
digits() { sed 's/[^0-9 ]//g; s/  */ /g; s/^ //; s/ $//'; }

# 1. The 5x5 table: every square's number, row by row, and the totals, as `count` gives them.
page=$(dom "/?rows=5&cols=5")
expected=$("$BIN" --no-cache count 5 5 --format csv | tail -n +2 | cut -d, -f6 | tr '\n' ' ' | sed 's/ $//')
seen=$(echo "$page" | line_of heatmap | grep -o '<text[^>]*>[0-9]*</text>' | sed 's/<[^>]*>//g' | tr '\n' ' ' | sed 's/ $//')
check "the 5x5 heatmap's numbers" "$expected" "$seen"
totals=$("$BIN" --no-cache count 5 5 --format json | grep -o '"total_[a-z]*":"[0-9]*"' | grep -o '[0-9]*' | tr '\n' ' ' | sed 's/ $//')
seen=$(echo "$page" | line_of totals | grep -o '<dd>[^<]*</dd>' | sed 's/<[^>]*>//g' | sed 's/[^0-9]//g' | tr '\n' ' ' | sed 's/ $//')
check "the 5x5 totals (directed, undirected)" "$totals" "$seen"
colours=$(echo "$page" | line_of heatmap | grep -o 'fill="#[0-9a-f]*"' | sort -u | wc -l)
check "the heatmap has several colours" "yes" "$([ "$colours" -ge 3 ] && echo yes || echo "no: $colours")"

# 2. A tour from the corner: 25 squares, animated, with the count of the square.
page=$(dom "/?rows=5&cols=5&row=0&col=0&kind=open")
board=$(echo "$page" | line_of tour-board)
check "the tour has 25 squares" "25" "$(echo "$board" | grep -o 'data-squares="[0-9]*"' | grep -o '[0-9]*')"
step=$(echo "$page" | grep -o 'Step [0-9]* of [0-9]*' | head -1)
check "the step counter counts to 25" "of 25" "$(echo "$step" | grep -o 'of [0-9]*')"
points=$(echo "$board" | grep -o '<polyline[^>]*points="[^"]*"' | sed 's/.*points="//; s/"$//' | wc -w)
moved=$(echo "$step" | awk '{print $2}')
check "the path is drawn behind the knight" "$moved" "$points"
check "the knight is on the board" "yes" "$(echo "$board" | grep -q 'class="knight" transform="translate(' && echo yes || echo no)"
count=$("$BIN" --no-cache count 5 5 0 0)
check "the square's count" "$count" "$(echo "$page" | line_of square-count | sed 's/<[^>]*>//g; s/.*: //; s/ (each.*//' | digits)"

# 3. A square with no tour: the theorem, as `knights tour` says it.
page=$(dom "/?rows=5&cols=5&row=0&col=1&kind=open")
reason=$("$BIN" --no-cache tour 5 5 0 1 2>&1 >/dev/null || true)
check "the reason for a square with no tour" "$reason" "$(echo "$page" | line_of no-tour | sed 's/<[^>]*>//g; s/^ *//; s/&amp;/\&/g')"

# 4. Closed tours of 6x6: the cycles as `count --closed` gives them.
page=$(dom "/?rows=6&cols=6&kind=closed")
cycles=$("$BIN" --no-cache count 6 6 --closed --format json | grep -o '"cycles":"[0-9]*"' | grep -o '[0-9]*')
check "the 6x6 closed cycles" "$cycles" "$(echo "$page" | line_of totals | grep -o '<dd>[^<]*</dd>' | head -1 | sed 's/[^0-9]//g')"

# 5. Past what the engines count: the page says so, and still draws the board for tours.
page=$(dom "/?rows=9&cols=9")
check "a board past the engines says so" "yes" \
    "$(echo "$page" | line_of status-text | grep -q 'beyond every engine' && echo yes || echo no)"
check "and still draws the board" "81" "$(echo "$page" | line_of heatmap | grep -o 'class="sq' | wc -l)"

# 6. The puzzle view: a made puzzle, its one completion revealed (the completion `knights
#    puzzle` gives), the count of completions, and a try whose broken cells are marked.
page=$(dom "/?puzzle=5x5&pseed=3&pcount=1&reveal=1")
made=$("$BIN" puzzle --make 5 5 --seed 3)
expected=$(echo "$made" | "$BIN" puzzle | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
seen=$(echo "$page" | grep -o 'id="pc-[0-9]*-[0-9]*"[^>]*value="[0-9]*"' | sed 's/.*value="//; s/"$//' | tr '\n' ' ' | sed 's/ $//')
check "the puzzle's revealed completion" "$expected" "$seen"
check "the puzzle's number of completions" "1 completion" "$(echo "$page" | line_of puzzle-count | sed 's/<[^>]*>//g; s/^ *//')"
page=$(dom "/?pboard=1,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,.&t0_1=2&t2_1=3&check=1")
bad=$(echo "$page" | grep -o 'id="pc-[0-9]*-[0-9]*" class="pcell[^"]*bad' | grep -o 'pc-[0-9]*-[0-9]*' | tr '\n' ' ' | sed 's/ $//')
check "a try's broken cells are marked" "pc-0-0 pc-0-1 pc-2-1" "$bad"
check "and named" "yes" "$(echo "$page" | line_of puzzle-status | grep -q '3 cells break a rule: row 1, column 1' && echo yes || echo no)"

# Screenshots, for a person to look at.
shot tour-wide 1200,900 "/?rows=5&cols=5&row=0&col=0&kind=open"
shot tour-phone 390,844 "/?rows=5&cols=5&row=0&col=0&kind=open"
shot board-phone 390,1400 "/?rows=6&cols=6&row=2&col=3&kind=open"
shot closed-wide 1200,900 "/?rows=6&cols=6&row=0&col=0&kind=closed"
shot no-tour-wide 1200,900 "/?rows=5&cols=5&row=0&col=1&kind=open"
shot puzzle-wide 1200,1500 "/?puzzle=6x6&pseed=1&pcount=1"
shot puzzle-phone 390,1900 "/?pboard=1,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,.&t0_1=2&t2_1=3&check=1"
for name in tour-wide tour-phone board-phone closed-wide no-tour-wide puzzle-wide puzzle-phone; do
    if [ -s "$OUT/$name.png" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAILED: no screenshot $OUT/$name.png"
    fi
done

echo "browser check: $passed checks passed and $failed did not, in $((SECONDS - clock)) s; screenshots in $OUT"
[ "$failed" -eq 0 ]
