#!/bin/bash
# The cluster benchmark of docs/cluster.md and docs/PERFORMANCE.md: count queens N (default
# 15) with --count -p 1 and -p 2; split into PARTS parts (default 128) and solve them with
# GNU parallel (docs/recipes/parallel.sh) on 1 and 2 local job slots, then with xargs -P2,
# each followed by merge; then the simulated scale-up of the parts' measured times.
# Each step prints its count, its nodes, and its wall, user and system times (the shell's
# `time`, children included): on a shared machine trust the CPU times and the nodes.
#
#   scripts/eps-bench.sh [N] [PARTS]     (from the repository's root, after
#                                         cargo build --profile ci -p cli)
set -eu
n=${1:-15}
parts=${2:-128}
export CPSOLVE=${CPSOLVE:-$(pwd)/target/ci/cpsolve}
work=$(mktemp -d)
TIMEFORMAT='    %R s wall, %U s user, %S s sys'
summary() { grep -o '"count":[0-9]*\|"nodes":[0-9]*' | tr '\n' ' '; echo; }
for p in 1 2; do
    echo "queens $n --count -p $p:"
    time ("$CPSOLVE" queens "$n" --count -p "$p" --json | summary)
done
echo "split --parts $parts:"
time ("$CPSOLVE" split queens "$n" --count --parts "$parts" > "$work/parts.jsonl")
total=$(($(wc -l < "$work/parts.jsonl") - 1))
for jobs in 1 2; do
    rm -rf "$work/results"
    echo "$total parts, docs/recipes/parallel.sh -j $jobs (GNU parallel) + merge:"
    time (docs/recipes/parallel.sh "$work/parts.jsonl" "$work/results" -j "$jobs" | tail -n 1 | summary)
done
rm -rf "$work/results"
echo "$total parts, xargs -P2 + merge:"
time (seq 0 $((total - 1)) |
    xargs -P2 -I{} "$CPSOLVE" solve-part "$work/parts.jsonl" --index {} -o "$work/results" &&
    "$CPSOLVE" merge "$work/parts.jsonl" "$work/results" | summary)
echo "merge alone:"
time ("$CPSOLVE" merge "$work/parts.jsonl" "$work/results" > /dev/null)
scripts/eps-simulate.py "$work/parts.jsonl" "$work/results" 1 2 8 64 512
rm -rf "$work"
