#!/bin/bash
# The cluster benchmark of docs/cluster.md and docs/PERFORMANCE.md (issue 24): count queens
# N (default 15)
#   - with the one-machine count, --count -p 1 and --count -p 2;
#   - split into PARTS parts (default 128), every part solved through GNU parallel
#     (docs/recipes/parallel.sh, which ends with merge) on 1 and on 2 local job slots, and
#     through xargs -P2 then merge;
# and prints one table: each run's count (they must agree), nodes, wall and CPU seconds
# (user + system, children included), then
#   - the speed-up of 2 workers over 1 through GNU parallel (expect close to 2x on an idle
#     2-core machine),
#   - the overhead of split + parallel -j 2 + merge against --count -p 2 (expect under 10 %),
# and the simulated scale-up of the parts' measured times (scripts/eps-simulate.py).
# Each run is repeated REPEAT times (default 3) and the fastest kept. Wall-clock figures
# mean something only on an otherwise idle machine: the load is printed before and after.
#
#   scripts/eps-bench.sh [N] [PARTS]     (from the repository's root, after
#                                         cargo build --profile ci -p cli)
#   REPEAT=1 scripts/eps-bench.sh 10 16  (a quick check that the script works)
set -eu
n=${1:-15}
parts=${2:-128}
repeat=${REPEAT:-3}
export CPSOLVE=${CPSOLVE:-$(pwd)/target/ci/cpsolve}
if [ ! -x "$CPSOLVE" ]; then
    echo "error: no cpsolve at $CPSOLVE (cargo build --profile ci -p cli, or set CPSOLVE)" >&2
    exit 2
fi
if ! command -v parallel > /dev/null; then
    echo "error: GNU parallel is needed (Debian: apt-get install parallel)" >&2
    exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "cpsolve eps-bench: queens $n, $parts parts, best of $repeat; $(nproc) cores"
echo "load before: $(uptime)"

# measure NAME COMMAND: run the shell COMMAND $repeat times (a fresh results folder each
# time) and keep the fastest run: a row "NAME|count|nodes|wall|cpu" in $work/rows.
TIMEFORMAT='%R %U %S'
measure() {
    local name=$1 command=$2 best="" line wall user sys
    for _ in $(seq "$repeat"); do
        rm -rf "$work/results"
        { time bash -c "$command" > "$work/out" 2> "$work/err"; } 2> "$work/time" || {
            echo "error: '$name' failed:" >&2
            cat "$work/err" >&2
            exit 1
        }
        read -r wall user sys < "$work/time"
        if [ -z "$best" ] || awk -v a="$wall" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
            best="$wall $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }')"
            line=$(tail -n 1 "$work/out")
        fi
    done
    local count nodes
    count=$(grep -o '"count":[0-9]*' <<< "$line" | head -n 1 | cut -d: -f2)
    nodes=$(grep -o '"nodes":[0-9]*' <<< "$line" | head -n 1 | cut -d: -f2)
    echo "$name|${count:--}|${nodes:--}|${best% *}|${best#* }" >> "$work/rows"
}

measure "--count -p 1" "\"\$CPSOLVE\" queens $n --count -p 1 --json"
measure "--count -p 2" "\"\$CPSOLVE\" queens $n --count -p 2 --json"
measure "split --parts $parts" "\"\$CPSOLVE\" split queens $n --count --parts $parts > $work/parts.jsonl"
total=$(($(wc -l < "$work/parts.jsonl") - 1))
measure "$total parts, parallel -j 1" "docs/recipes/parallel.sh $work/parts.jsonl $work/results -j 1"
measure "$total parts, xargs -P 2 + merge" "seq 0 $((total - 1)) |
    xargs -P 2 -I{} \"\$CPSOLVE\" solve-part $work/parts.jsonl --index {} -o $work/results &&
    \"\$CPSOLVE\" merge $work/parts.jsonl $work/results"
measure "$total parts, parallel -j 2" "docs/recipes/parallel.sh $work/parts.jsonl $work/results -j 2"
# The results of the last run stay: merge alone, and the simulation, read them.
results_kept() { cp -r "$work/results" "$work/kept"; }
results_kept
measure "merge alone" "\"\$CPSOLVE\" merge $work/parts.jsonl $work/kept > /dev/null"
measure "GNU parallel -j 2 running 'true'" "seq 0 $((total - 1)) | parallel -j 2 true"

echo
awk -F'|' '
    BEGIN { printf "%-34s %10s %12s %9s %9s\n", "run", "count", "nodes", "wall s", "CPU s" }
    { printf "%-34s %10s %12s %9.3f %9.3f\n", $1, $2, $3, $4, $5 }
' "$work/rows"
echo
awk -F'|' '
    { wall[NR] = $4; cpu[NR] = $5; if ($2 != "-") counts[$2] = 1 }
    END {
        # rows: 1 -p 1, 2 -p 2, 3 split, 4 parallel -j 1, 5 xargs, 6 parallel -j 2, 7 merge,
        # 8 GNU parallel with no work (its own start and process launches)
        n = 0; for (c in counts) n++
        printf "counts agree: %s\n", (n == 1 ? "yes" : "NO")
        printf "--count -p 2 over -p 1: %.2fx\n", wall[1] / wall[2]
        printf "2 workers over 1 (GNU parallel): %.2fx\n", wall[4] / wall[6]
        printf "split + parallel -j 2 + merge against --count -p 2: %+.1f %% wall, %+.1f %% CPU\n",
            100 * ((wall[3] + wall[6]) / wall[2] - 1), 100 * ((cpu[3] + cpu[6]) / cpu[2] - 1)
        printf "  of which GNU parallel itself: %.3f s; split + merge: %.3f s (%.1f %% of --count -p 2)\n",
            wall[8], wall[3] + wall[7], 100 * (wall[3] + wall[7]) / wall[2]
    }
' "$work/rows"
echo "load after: $(uptime)"
echo
scripts/eps-simulate.py "$work/parts.jsonl" "$work/kept" 1 2 8 64 512
