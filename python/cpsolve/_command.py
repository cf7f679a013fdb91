"""The `cpsolve` command installed with the package: the command line of the Rust binary,
run in this process (`cpsolve sudoku puzzle.txt`, and the executable MiniZinc runs through
the solver configuration of `cpsolve.minizinc_solver_config`)."""

import sys

from . import _native


def main() -> None:
    sys.exit(_native.main(sys.argv[1:]))


if __name__ == "__main__":
    main()
