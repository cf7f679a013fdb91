#!/usr/bin/env bash
# The public-set benchmark of the puzzles beyond the seeds (issue 22), and its peer.
#
#   scripts/bench-puzzle-sets.sh [LIMIT_MS] [SETS] [MAX]
#
# 1. builds `benches`' puzzle_sets binary and runs it: the `cpsolve` command (in-process,
#    one thread, LIMIT_MS per instance, default 10000) on the sets under ../shared/data
#    (taai, nonogram-non, nonogram-janko, flow, numberlink, starbattle, thermometer,
#    binairo, knights; SETS a comma-separated subset, default all; MAX instances per set,
#    default all), every answer checked against the published solution or the clues;
# 2. makes a Python virtual environment under target/peer-venv with puzzlekit (PyPI; OR-Tools
#    CP-SAT models by the authors of the janko.at datasets) and runs it, one CP-SAT worker,
#    the same limit, on the sets it also solves (taai, nonogram-janko, starbattle,
#    thermometer, binairo), every answer checked the same way.
#
# Tables go to standard output and target/puzzle-sets/ (per-instance CSV files). PROFILE
# (default ci: optimised, with debug assertions and overflow checks, as CI builds; release
# for the fairest figure) chooses the cargo profile. Run it with `nice` on a shared machine
# and note `uptime` beside the figures. Without ../shared/data each set prints `skipped`.
set -euo pipefail
cd "$(dirname "$0")/.."
limit="${1:-10000}"
sets="${2:-}"
max="${3:-}"
profile="${PROFILE:-ci}"
out=target/puzzle-sets
mkdir -p "$out"

cargo build --quiet --profile "$profile" -p benches --bin puzzle_sets
args=(--data ../shared/data --limit-ms "$limit" --csv "$out/cpsolve.csv")
peer_args=(--data ../shared/data --limit-ms "$limit" --csv "$out/puzzlekit.csv")
if [ -n "$sets" ]; then args+=(--sets "$sets"); fi
if [ -n "$max" ]; then args+=(--max "$max"); peer_args+=(--max "$max"); fi
echo "## cpsolve ($(git rev-parse --short HEAD), profile $profile, one thread, -t $limit)"
echo "load before: $(uptime)"
"target/$profile/puzzle_sets" "${args[@]}"
echo "load after: $(uptime)"

venv=target/peer-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import puzzlekit' 2>/dev/null; then
  if ! python3 -m venv "$venv" || ! "$venv/bin/pip" install --quiet puzzlekit; then
    echo "skipped: puzzlekit could not be installed into $venv (python3 -m venv, pip install puzzlekit)"
    exit 0
  fi
fi
peer_sets=""
for s in taai nonogram-janko starbattle thermometer binairo; do
  if [ -z "$sets" ] || [[ ",$sets," == *",$s,"* ]]; then peer_sets="$peer_sets${peer_sets:+,}$s"; fi
done
if [ -z "$peer_sets" ]; then exit 0; fi
echo
echo "## puzzlekit $("$venv/bin/pip" show puzzlekit | sed -n 's/^Version: //p'), OR-Tools $("$venv/bin/pip" show ortools | sed -n 's/^Version: //p') (one CP-SAT worker, $limit ms)"
echo "load before: $(uptime)"
"$venv/bin/python" scripts/peer-puzzlekit.py "${peer_args[@]}" --sets "$peer_sets"
echo "load after: $(uptime)"
