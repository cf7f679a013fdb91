"""Solving a `Model`: one solution, the optimum, every solution, a count.

The search runs in the engine with Python's GIL released (other Python threads go on). On
Ctrl-C the search stops within a few nodes and keeps what it found, as the command line does
on SIGINT; then `Interrupted`, a `KeyboardInterrupt`, is raised with that result in its
`result` attribute, so that a loop still stops and nothing found is lost.
"""

from __future__ import annotations

import operator
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

from . import _native
from ._model import IntVar, LinearExpr, Model, Not


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a search. `result` holds what it had found (a `Result`, a `Count`, or
    for `cpsolve.puzzles` the command line's JSON object)."""

    def __init__(self, result: Any):
        super().__init__("the search was interrupted; what it found is in .result")
        self.result = result


class Solution:
    """One assignment: `s.value(x)` or `s[x]` for a variable or an expression."""

    __slots__ = ("_values", "_model")

    def __init__(self, model: Model, values: Sequence[int]):
        self._model = model
        self._values = values

    def value(self, x):
        """The value of a variable, of `~b`, of an expression, or of each of a list of them."""
        if isinstance(x, IntVar):
            if x._model is not self._model:
                raise ValueError(f"value: {x.name} belongs to another model")
            return self._values[x.index]
        if isinstance(x, LinearExpr):
            total = x._const()
            for v, c in x._items().items():
                total += c * self.value(v)
            return total
        if isinstance(x, (list, tuple)):
            return [self.value(y) for y in x]
        raise TypeError(f"value: expected a variable or an expression, not {type(x).__name__} {x!r}")

    __getitem__ = value

    def __repr__(self) -> str:
        shown = ", ".join(f"{v.name}={self._values[v.index]}" for v in self._model._variables[:12])
        more = ", …" if len(self._model._variables) > 12 else ""
        return f"Solution({shown}{more})"


class Result:
    """What `cpsolve.solve` found.

    - `status`: `"SATISFIED"` (a solution; with an objective, not proved best),
      `"OPTIMAL"`, `"ALL_SOLUTIONS"` (with `all_solutions=True`, the whole list),
      `"UNSATISFIABLE"` (proved: no solution), `"UNKNOWN"` (stopped before knowing);
    - `value(x)` / `result[x]`: the value in the solution (the best one when optimising);
    - `objective`: the objective's value, if the model has one;
    - `solutions`: every solution found, with `all_solutions=True`;
    - `stats`: a dict: `nodes`, `failures`, `propagations`, `solutions`, `restarts`,
      `peak_depth`, `time` (seconds) and `propagators` (one dict per kind: `name`,
      `instances`, `calls`, `prunings`, `removed`, `failures`).
    """

    def __init__(self, model: Model, raw: Dict[str, Any]):
        self.status: str = raw["status"]
        self.stats: Dict[str, Any] = raw["stats"]
        self._model = model
        values = raw["values"]
        self.solution: Optional[Solution] = None if values is None else Solution(model, values)
        listed = raw.get("solutions")
        self.solutions: List[Solution] = [Solution(model, v) for v in listed] if listed is not None else []
        self.objective: Optional[int] = None
        if self.solution is not None and model._objective is not None:
            self.objective = self.solution.value(model._objective[0])

    def value(self, x):
        """The value of `x` (a variable, `~b`, an expression, or a list of them) in the
        solution; a `ValueError` when there is none."""
        if self.solution is None:
            raise ValueError(f"value: there is no solution (status {self.status})")
        return self.solution.value(x)

    __getitem__ = value

    def __bool__(self) -> bool:
        """True when a solution was found."""
        return self.solution is not None

    def __repr__(self) -> str:
        obj = "" if self.objective is None else f", objective={self.objective}"
        return f"Result(status={self.status!r}{obj}, nodes={self.stats['nodes']})"


class Count(int):
    """The number of solutions (an `int`), with `status` (`"ALL_SOLUTIONS"` when exact,
    `"UNKNOWN"` when a limit stopped the count: then it is a lower bound) and `stats`."""

    status: str
    stats: Dict[str, Any]

    def __new__(cls, n: int, status: str, stats: Dict[str, Any]):
        c = super().__new__(cls, n)
        c.status = status
        c.stats = stats
        return c

    @property
    def exact(self) -> bool:
        return self.status in ("ALL_SOLUTIONS", "UNSATISFIABLE")


def _check_model(m, function: str) -> Model:
    if not isinstance(m, Model):
        raise TypeError(f"{function}: expected a cpsolve.Model, not {type(m).__name__}")
    return m


def _check_options(function: str, time_limit, threads, seed) -> None:
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
            raise TypeError(f"{function}: time_limit is a number of seconds, not {type(time_limit).__name__}")
        if not time_limit >= 0:
            raise ValueError(f"{function}: time_limit must be >= 0 seconds, not {time_limit}")
    if threads is not None:
        try:
            threads = operator.index(threads)
        except TypeError:
            raise TypeError(f"{function}: threads must be an integer, not {type(threads).__name__}") from None
        if threads < 1:
            raise ValueError(f"{function}: threads must be >= 1, not {threads}")
    if seed is not None:
        try:
            seed = operator.index(seed)
        except TypeError:
            raise TypeError(f"{function}: seed must be an integer, not {type(seed).__name__}") from None
        if not 0 <= seed < 2**64:
            raise ValueError(f"{function}: seed must lie in 0..2**64-1, not {seed}")


def solve(
    m: Model,
    time_limit: Optional[float] = None,
    threads: int = 1,
    all_solutions: bool = False,
    learn: Optional[bool] = None,
    seed: Optional[int] = None,
) -> Result:
    """Solve `m`: its first solution, or its optimum when it has an objective.

    - `time_limit`: seconds; the search then stops with the best it found (status
      `"SATISFIED"` or `"UNKNOWN"`), never a wrong answer;
    - `threads`: more than 1 races that many differently configured searches (a portfolio)
      and takes the first answer (with `all_solutions`, the list is made on one thread);
    - `all_solutions`: every solution (in `result.solutions`), or, with an objective, every
      improving one; for many solutions, `cpsolve.solutions` streams them instead;
    - `learn`: conflict learning. This version of the engine has none: `None` or `False`
      only (`True` raises `ValueError`, rather than be ignored);
    - `seed`: the random seed of the search's random choices.

    Ctrl-C stops the search and raises `Interrupted` with the result found so far.
    """
    _check_model(m, "solve")
    _check_options("solve", time_limit, threads, seed)
    if learn:
        raise ValueError("solve: learn=True: this version of the engine has no conflict learning (use learn=None)")
    raw, interrupt = _native.solve(
        m._native,
        None if time_limit is None else float(time_limit),
        operator.index(threads),
        bool(all_solutions),
        seed,
    )
    result = Result(m, raw)
    if interrupt is not None:
        raise Interrupted(result) from interrupt
    return result


def count(m: Model, threads: int = 1, time_limit: Optional[float] = None) -> Count:
    """The number of solutions of `m` (its objective ignored), exactly: the whole tree is
    explored, on `threads` threads (the tree is split between them, as `cpsolve --count -p N`
    does). With a `time_limit` that stops it first, the count is a lower bound with status
    `"UNKNOWN"`. Ctrl-C raises `Interrupted` with the count so far."""
    _check_model(m, "count")
    _check_options("count", time_limit, threads, None)
    raw, interrupt = _native.count(
        m._native, operator.index(threads), None if time_limit is None else float(time_limit)
    )
    result = Count(raw["count"], raw["status"], raw["stats"])
    if interrupt is not None:
        raise Interrupted(result) from interrupt
    return result


class Solutions:
    """The solutions of a model, one by one as the search finds them (`cpsolve.solutions`).
    After the last one, `status` and `stats` say how the search ended. `close()` stops it."""

    def __init__(self, m: Model, stream):
        self._model = m
        self._stream = stream
        self.status: Optional[str] = None
        self.stats: Optional[Dict[str, Any]] = None

    def __iter__(self) -> "Solutions":
        return self

    def __next__(self) -> Solution:
        values = next(self._stream, None)
        if values is None:
            finished = self._stream.finished
            if finished is not None:
                self.status, self.stats = finished["status"], finished["stats"]
            raise StopIteration
        return Solution(self._model, values)

    def close(self) -> None:
        self._stream.close()

    def __enter__(self) -> "Solutions":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def solutions(m: Model, limit: Optional[int] = None, time_limit: Optional[float] = None, seed: Optional[int] = None) -> Solutions:
    """Every solution of `m` (with an objective, every improving one), at most `limit`,
    yielded one by one as the search finds them: the search runs ahead by a few dozen
    solutions at most, so memory stays flat however many there are. Ctrl-C raises
    `KeyboardInterrupt` in the loop; the solutions already taken are yours."""
    _check_model(m, "solutions")
    _check_options("solutions", time_limit, None, seed)
    if limit is not None:
        limit = operator.index(limit)
        if limit < 0:
            raise ValueError(f"solutions: limit must be >= 0, not {limit}")
    stream = _native.solutions(m._native, limit, None if time_limit is None else float(time_limit), seed)
    return Solutions(m, stream)
