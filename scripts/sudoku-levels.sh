#!/usr/bin/env bash
# The figures of docs/propagators/README.md and docs/puzzles/sudoku.md: nodes and failures at
# each all-different level on two public Sudoku sets (from ../shared/data/sudoku), one
# thread, the default search, every answer checked by the Sudoku checker. Prints the
# markdown rows the pages show; docs/cli's test (cli/tests/docs_commands.rs) runs this and
# compares. Needs `cpsolve` on the PATH and python3.
set -euo pipefail
data="${1:-../shared/data/sudoku}"
for set in puzzles3_magictour_top1465 puzzles2_17_clue_first1000; do
  for level in value bounds domain; do
    cpsolve sudoku "$data/$set.txt" --json -p 1 --alldiff "$level" | python3 -c '
import json, sys
nodes = failures = 0
for line in sys.stdin:
    s = json.loads(line)["stats"]
    nodes += s["nodes"]; failures += s["failures"]
print(f"| {sys.argv[1]} | {sys.argv[2]} | {nodes:,} | {failures:,} |")' "$set" "$level"
  done
done
