#!/bin/sh
# The cluster benchmark of docs/cluster.md: count queens N (default 15) with --count -p 1
# and -p 2, then split + GNU parallel with 1 and 2 local job slots + merge, each timed with
# the shell's wall clock; then the simulated scale-up of the parts' measured times.
#
#   scripts/eps-bench.sh [N] [PARTS]     (run from the repository's root after
#                                         cargo build --profile ci -p cli)
set -eu
n=${1:-15}
parts=${2:-128}
export CPSOLVE=${CPSOLVE:-$(pwd)/target/ci/cpsolve}
work=$(mktemp -d)
now() { date +%s.%N; }
elapsed() { echo "$(now) - $1" | bc; }
for p in 1 2; do
    t=$(now)
    count=$("$CPSOLVE" queens "$n" --count -p "$p" --json | grep -o '"count":[0-9]*')
    echo "queens $n --count -p $p: $count, $(elapsed "$t") s"
done
for jobs in 1 2; do
    rm -rf "$work/results"
    t=$(now)
    "$CPSOLVE" split queens "$n" --count --parts "$parts" > "$work/parts.jsonl"
    split_time=$(elapsed "$t")
    line=$(docs/recipes/parallel.sh "$work/parts.jsonl" "$work/results" -j "$jobs" | tail -n 1)
    count=$(echo "$line" | grep -o '"count":[0-9]*')
    echo "split ($split_time s) + parallel -j $jobs + merge: $count, $(elapsed "$t") s"
done
t=$(now)
"$CPSOLVE" merge "$work/parts.jsonl" "$work/results" > /dev/null
echo "merge alone: $(elapsed "$t") s"
scripts/eps-simulate.py "$work/parts.jsonl" "$work/results" 1 2 8 64 512
rm -rf "$work"
