#!/usr/bin/env python3
"""The peer of `puzzle_sets`: puzzlekit (OR-Tools CP-SAT models) on the same public sets.

puzzlekit (PyPI `puzzlekit`, by the authors of the puzzlekit-dataset the janko.at sets
were copied from) solves each puzzle with a CP-SAT model. This script runs it on the sets
that both it and cpsolve read -- the 1,000 TAAI 2011 nonograms, the janko.at nonograms,
star battles, thermometers and binairos -- with one CP-SAT worker and the same time limit
per instance, checks every answer against the published solution (TAAI: against the clues,
the boards being random), and prints a table in the shape of `puzzle_sets`'s. puzzlekit
has no Flow Free / Numberlink or knight's tour solver.

The time of an instance is that of `puzzlekit.solve(text, type, ...)`: its parsing, model
building (Python) and search (C++), as wall clock and as the process's CPU time (which a
loaded, shared machine inflates much less). The interpreter's start and the import of
OR-Tools are not counted.

    target/peer-venv/bin/python scripts/peer-puzzlekit.py --data ../shared/data \
        --limit-ms 10000 [--sets taai,starbattle] [--max N] [--skip N] [--csv FILE]

scripts/bench-puzzle-sets.sh makes the virtual environment and runs both.
"""

import argparse
import json
import os
import sys
import time

DIFFERS = "differs from the published solution"
SETS = ["taai", "nonogram-janko", "starbattle", "thermometer", "binairo"]


def janko(data, path):
    with open(os.path.join(data, path)) as f:
        return list(json.load(f)["data"].items())


def grid_rows(text):
    """The tokens of a janko grid after its header line."""
    return [line.split() for line in text.strip().split("\n")[1:] if line.strip()]


def runs(cells):
    out, current = [], 0
    for c in cells:
        if c:
            current += 1
        elif current:
            out.append(current)
            current = 0
    if current:
        out.append(current)
    return out


def taai_cases(data):
    base = os.path.join(data, "nonogram/taai")

    def blocks(name):
        out = []
        with open(os.path.join(base, name)) as f:
            for line in f:
                line = line.rstrip("\n")
                if line.startswith("$"):
                    out.append((line[1:].strip(), []))
                elif out:
                    out[-1][1].append(line)
        return out

    cases = []
    for k, lines in blocks("taai2011_question.txt"):
        clues = [[int(t) for t in l.split() if int(t) > 0] for l in lines]
        cols, rows = clues[:25], clues[25:]
        # puzzlekit's nonogram text: `H W`, the W column clues, then the H row clues.
        text = "25 25\n" + "\n".join(" ".join(map(str, c)) if c else "0" for c in cols + rows)

        def check(grid, rows=rows, cols=cols):
            bits = [[1 if t == "x" else 0 for t in r] for r in grid]
            if len(bits) != 25 or any(len(r) != 25 for r in bits):
                return "wrong size"
            for i, clue in enumerate(rows):
                if runs(bits[i]) != clue:
                    return f"row {i + 1} does not match its clue"
            for j, clue in enumerate(cols):
                if runs([r[j] for r in bits]) != clue:
                    return f"column {j + 1} does not match its clue"
            return None

        cases.append(("taai", f"taai2011 ${k}", "25x25", "nonogram", text, check))
    return cases


def janko_cases(data, set_name, path, kind):
    cases = []
    # x/- grids are compared as star/not a star: one published star battle solution has a
    # stray `h` for `-`. Binairo's 1/2 are compared as they are.
    def norm(grid):
        return grid if kind == "binairo" else [[t == "x" for t in row] for row in grid]

    for key, entry in janko(data, path):
        want = norm(grid_rows(entry.get("solution") or ""))

        def check(grid, want=want):
            if not want:
                return None
            return None if norm(grid) == want else DIFFERS

        cases.append((set_name, key, key.rsplit("_", 1)[-1], kind, entry["problem"], check))
    return cases


def load(data, set_name):
    if set_name == "taai":
        return taai_cases(data)
    if set_name == "nonogram-janko":
        return janko_cases(data, set_name, "nonogram/janko_nonogram_puzzlekit_le20.json", "nonogram")
    if set_name == "starbattle":
        return janko_cases(data, set_name, "starbattle/janko_starbattle_puzzlekit.json", "starbattle")
    if set_name == "thermometer":
        return janko_cases(data, set_name, "thermometer/janko_thermometer_puzzlekit.json", "thermometer")
    if set_name == "binairo":
        return janko_cases(data, set_name, "binairo/janko_binairo_puzzlekit.json", "binairo")
    raise ValueError(set_name)


def solve(puzzlekit, case, limit_ms):
    """(verdict, note, wall ms, CPU ms) for one instance."""
    _set, _name, _size, kind, text, check = case
    start, cpu_start = time.perf_counter(), time.process_time()
    try:
        result = puzzlekit.solve(
            text,
            kind,
            solver_options={"num_search_workers": 1, "time_limit_sec": limit_ms / 1000.0},
        )
    except Exception as e:  # puzzlekit refuses the input
        ms, cpu = (time.perf_counter() - start) * 1e3, (time.process_time() - cpu_start) * 1e3
        return "rejected", f"{type(e).__name__}: {(str(e) or '?').splitlines()[0][:100]}", ms, cpu
    ms, cpu = (time.perf_counter() - start) * 1e3, (time.process_time() - cpu_start) * 1e3
    status = result.solution_data.get("status")
    grid = result.sol_grid
    if grid is None or grid.is_empty():
        if status == "Infeasible":
            return "unsat", "Infeasible", ms, cpu
        return "unsolved", f"status {status}", ms, cpu
    rows = [[str(v) for v in row] for row in grid.matrix]
    why = check(rows)
    if why == DIFFERS:
        # Not a proof of a wrong answer: the puzzle may have several solutions (one star
        # battle here has two). puzzle_sets counts them with cpsolve.
        return "differs", why, ms, cpu
    if why:
        return "wrong", why, ms, cpu
    return "ok", "", ms, cpu


def percentile(sorted_values, p):
    if not sorted_values:
        return 0.0
    return sorted_values[round((len(sorted_values) - 1) * p)]


def summary(label, results):
    count = {v: 0 for v in ["ok", "differs", "unsolved", "unsat", "wrong", "rejected"]}
    for _case, verdict, _note, _ms, _cpu in results:
        count[verdict] += 1
    wall_s = sum(r[3] for r in results) / 1e3
    times = sorted(r[4] for r in results)
    print(
        f"| {label} | {len(results)} | {count['ok'] + count['differs']} | {count['unsolved']} "
        f"| {count['unsat']} | {count['differs']} | {count['wrong']} | {count['rejected']} | {wall_s:.2f} | {sum(times) / 1e3:.2f} "
        f"| {percentile(times, 0.5):.1f} | {percentile(times, 0.9):.1f} "
        f"| {percentile(times, 0.99):.1f} | {times[-1] if times else 0:.1f} |"
    )


def size_key(size):
    a, _, b = size.partition("x")
    return (int(a or 0), int(b or 0))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default="../shared/data")
    parser.add_argument("--limit-ms", type=int, default=10000)
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--max", type=int, default=None)
    parser.add_argument("--skip", type=int, default=0, help="instances skipped at the start of each set")
    parser.add_argument("--csv")
    args = parser.parse_args()
    try:
        import puzzlekit
    except ImportError:
        print("skipped: puzzlekit is not installed (scripts/bench-puzzle-sets.sh installs it "
              "into target/peer-venv)")
        return 0
    sets = args.sets.split(",")
    for s in sets:
        if s not in SETS:
            print(f"error: unknown set {s} (known: {', '.join(SETS)})", file=sys.stderr)
            return 2
    csv = open(args.csv, "w") if args.csv else None
    if csv:
        csv.write("set,name,size,verdict,wall_ms,cpu_ms,note\n")
    print("| set | instances | solved | unsolved | unsat | differs | wrong | rejected | wall s | CPU s "
          "| median CPU ms | p90 | p99 | max |")
    print("|---|" + "---:|" * 13)
    notes = []
    # OR-Tools loads parts of itself on the first solve (most of a second): warm up on a
    # small puzzle, not counted.
    puzzlekit.solve("2 2\n1\n1\n1\n1", "nonogram", solver_options={"num_search_workers": 1})
    for s in sets:
        try:
            cases = load(args.data, s)
        except OSError as e:
            print(f"| {s} | skipped: {e} |")
            continue
        results = []
        end = None if args.max is None else args.skip + args.max
        for case in cases[args.skip : end]:
            verdict, note, ms, cpu = solve(puzzlekit, case, args.limit_ms)
            results.append((case, verdict, note, ms, cpu))
            if verdict != "ok":
                notes.append(f"{case[0]} {case[1]}: {verdict}, {note}")
            if csv:
                csv.write(f"{case[0]},{case[1]},{case[2]},{verdict},{ms:.3f},{cpu:.3f},\"{note}\"\n")
        summary(s, results)
        sizes = sorted({r[0][2] for r in results}, key=size_key)
        if len(sizes) > 1:
            for size in sizes:
                summary(f"{s} {size}", [r for r in results if r[0][2] == size])
    print()
    for n in notes:
        print(f"- {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
