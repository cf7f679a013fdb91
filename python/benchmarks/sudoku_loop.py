"""A Python loop over a file of Sudokus, one `cpsolve.puzzles.solve` call per line, against
the command line on the same file (docs/python.md, "How fast from Python").

    python python/benchmarks/sudoku_loop.py FILE [CPSOLVE]

CPSOLVE is the command line to compare with (default: the package's `cpsolve` command). Each
side runs three times; the best time of each is printed, with the answers checked equal.
"""

import json
import subprocess
import sys
import time

import cpsolve


def main() -> None:
    path = sys.argv[1]
    command = sys.argv[2] if len(sys.argv) > 2 else "cpsolve"
    lines = [l.strip() for l in open(path, encoding="utf-8") if l.strip() and not l.startswith("%")]
    loop, cli1, cli = [], [], []
    for _ in range(3):
        started = time.perf_counter()
        ours = [cpsolve.puzzles.solve("sudoku", line, threads=1)["solution"] for line in lines]
        loop.append(time.perf_counter() - started)
        for times, threads in ((cli1, ["-p", "1"]), (cli, [])):
            started = time.perf_counter()
            out = subprocess.run([command, "sudoku", path, "--json", *threads], capture_output=True, text=True, check=True).stdout
            times.append(time.perf_counter() - started)
        theirs = [json.loads(l)["solution"] for l in out.splitlines()]
        assert ours == theirs, "the loop and the command line disagree"
    print(f"{len(lines)} Sudokus from {path}")
    print(f"python loop (puzzles.solve per line, 1 thread): {min(loop):.3f} s")
    print(f"command line, -p 1:                            {min(cli1):.3f} s")
    print(f"command line, all cores:                       {min(cli):.3f} s")
    print(f"ratio loop / command line -p 1: {min(loop) / min(cli1):.2f}; / all cores: {min(loop) / min(cli):.2f}")


if __name__ == "__main__":
    main()
