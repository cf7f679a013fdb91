"""cpsolve: a constraint-programming engine written to be read, from Python.

Modelling (`Model`, `solve`, `solutions`, `count`)::

    import cpsolve
    m = cpsolve.Model()
    x = [m.int_var(1, 8, f"q{i}") for i in range(8)]
    m.add_all_different(x)
    m.add_all_different([x[i] + i for i in range(8)])   # expressions become variables
    m.add_all_different([x[i] - i for i in range(8)])
    cpsolve.count(m)           # 92

The puzzles of the command line (`cpsolve.puzzles.solve("sudoku", text)`), FlatZinc and
MiniZinc models (`solve_flatzinc`, `solve_minizinc`), and pictures of the search for a
notebook (`animate`, `tree`). docs/python.md is the guide.
"""

from . import _native
from ._files import minizinc_solver_config, register_minizinc_solver, solve_flatzinc, solve_minizinc
from ._model import BoolVar, Constraint, IntVar, LinearExpr, Model, Not
from ._pictures import Page, Picture, animate, tree
from ._solve import Count, Interrupted, Result, Solution, Solutions, count, solutions, solve
from . import puzzles

__version__: str = _native.__version__

__all__ = [
    "Model",
    "IntVar",
    "BoolVar",
    "Not",
    "LinearExpr",
    "Constraint",
    "solve",
    "solutions",
    "count",
    "Result",
    "Solution",
    "Solutions",
    "Count",
    "Interrupted",
    "puzzles",
    "solve_flatzinc",
    "solve_minizinc",
    "minizinc_solver_config",
    "register_minizinc_solver",
    "animate",
    "tree",
    "Page",
    "Picture",
]
