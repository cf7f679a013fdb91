"""cpsolve as a CPMpy solver: `CPM_cpsolve`, a native CPMpy solver interface.

CPMpy (the Python modelling library, `pip install cpmpy`) drives many solvers through one
interface. This module is cpsolve's: it walks CPMpy's expressions and posts them through
cpsolve's own modelling API (`cpsolve.Model`), so no MiniZinc is needed::

    import cpmpy as cp
    from cpsolve.cpmpy import CPM_cpsolve

    q = cp.intvar(0, 7, shape=8, name="q")
    model = cp.Model(cp.AllDifferent(q),
                     cp.AllDifferent([q[i] + i for i in range(8)]),
                     cp.AllDifferent([q[i] - i for i in range(8)]))
    CPM_cpsolve(model).solveAll()        # 92

Linear comparisons, the boolean operators (`&`, `|`, `~`, `.implies`), reification (a
constraint inside an expression becomes a 0/1 variable), `AllDifferent`, `Table`, `Circuit`,
`Element` (`arr[idx]`), `abs`, `min`, `max`, `*`, `//`, `%` are posted as cpsolve's own
constraints; other global constraints through CPMpy's decomposition; anything else raises
`NotImplementedError` naming it. CPMpy's `SolverLookup` has a fixed list of solvers, so the
interface is made directly, `CPM_cpsolve(model)`, rather than by `model.solve("cpsolve")`.
"""

from __future__ import annotations

import operator
import time
from typing import Any, Optional

from cpmpy.expressions.core import BoolVal, Comparison, Expression, Operator
from cpmpy.expressions.globalconstraints import AllDifferent, Circuit, GlobalConstraint, Table
from cpmpy.expressions.globalfunctions import Abs, Element, GlobalFunction, Maximum, Minimum
from cpmpy.expressions.utils import is_num
from cpmpy.expressions.variables import NegBoolView, _BoolVarImpl, _IntVarImpl
from cpmpy.solvers.solver_interface import ExitStatus, SolverInterface, SolverStatus
from cpmpy.transformations.get_variables import get_variables
from cpmpy.transformations.normalize import toplevel_list

import cpsolve
from ._model import IntVar, LinearExpr, Not

_COMPARE = {"==": operator.eq, "!=": operator.ne, "<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt}
_STATUS = {
    "OPTIMAL": ExitStatus.OPTIMAL,
    "SATISFIED": ExitStatus.FEASIBLE,
    "ALL_SOLUTIONS": ExitStatus.OPTIMAL,
    "UNSATISFIABLE": ExitStatus.UNSATISFIABLE,
    "UNKNOWN": ExitStatus.UNKNOWN,
}


def _decomposed(c) -> list:
    """CPMpy's decomposition of a global constraint (its defining constraints included)."""
    parts = c.decompose()
    if isinstance(parts, tuple) and len(parts) == 2:
        return list(parts[0]) + list(parts[1])
    return list(parts)


class CPM_cpsolve(SolverInterface):
    """CPMpy's solver interface for cpsolve (see the module's documentation)."""

    @staticmethod
    def supported() -> bool:
        return True

    @classmethod
    def version(cls) -> Optional[str]:
        return cpsolve.__version__

    def __init__(self, cpm_model=None, subsolver=None):
        self._model = cpsolve.Model()
        super().__init__(name="cpsolve", cpm_model=cpm_model, subsolver=subsolver)

    @property
    def native_model(self) -> cpsolve.Model:
        return self._model

    # ----- variables -------------------------------------------------------------------

    def solver_var(self, cpm_var):
        if is_num(cpm_var):
            return int(cpm_var)
        if isinstance(cpm_var, NegBoolView):
            return Not(self.solver_var(cpm_var._bv))
        if cpm_var not in self._varmap:
            if isinstance(cpm_var, _BoolVarImpl):
                self._varmap[cpm_var] = self._model.bool_var(cpm_var.name)
            elif isinstance(cpm_var, _IntVarImpl):
                self._varmap[cpm_var] = self._model.int_var(int(cpm_var.lb), int(cpm_var.ub), cpm_var.name)
            else:
                raise NotImplementedError(f"cpsolve: variables of type {type(cpm_var).__name__} are not supported")
        return self._varmap[cpm_var]

    # ----- expressions: CPMpy's tree to cpsolve's linear expressions ---------------------

    def _aux(self, e) -> IntVar:
        lo, hi = e.get_bounds()
        return self._model.int_var(int(lo), int(hi), f"({e})")

    def _expr(self, e) -> Any:
        """An integer expression as an int or a `LinearExpr`."""
        if is_num(e):
            return int(e)
        if isinstance(e, (_IntVarImpl, NegBoolView)):
            return self.solver_var(e)
        if isinstance(e, Operator):
            name, args = e.name, e.args
            if name == "sum":
                return sum((self._expr(a) for a in args), 0)
            if name == "wsum":
                return sum((int(w) * self._expr(a) for w, a in zip(args[0], args[1])), 0)
            if name == "sub":
                return self._expr(args[0]) - self._expr(args[1])
            if name == "-":
                return -self._expr(args[0])
            if name == "mul":
                a, b = args
                if is_num(a) or is_num(b):
                    return self._expr(a) * self._expr(b)
                t = self._aux(e)
                self._model.add_multiplication(t, self._expr(a), self._expr(b))
                return t
            if name in ("div", "mod"):
                t = self._aux(e)
                post = self._model.add_division if name == "div" else self._model.add_modulo
                post(t, self._expr(args[0]), self._expr(args[1]))
                return t
            if name in ("and", "or", "->", "not"):
                return self._literal(e)
        if isinstance(e, (Comparison, BoolVal, GlobalConstraint)):
            return self._literal(e)
        if isinstance(e, GlobalFunction):
            return self._function(e)
        raise NotImplementedError(f"cpsolve: the expression {e} ({type(e).__name__}) is not supported")

    def _function(self, e) -> IntVar:
        t = self._aux(e)
        if isinstance(e, Element):
            array, index = e.args
            self._model.add_element(self._expr(index), [self._expr(a) for a in array], t)
        elif isinstance(e, Abs):
            self._model.add_abs(t, self._expr(e.args[0]))
        elif isinstance(e, Minimum):
            self._model.add_min(t, [self._expr(a) for a in e.args])
        elif isinstance(e, Maximum):
            self._model.add_max(t, [self._expr(a) for a in e.args])
        elif type(e).__name__ in ("Multiplication", "Division", "Modulo"):
            post = {"Multiplication": self._model.add_multiplication, "Division": self._model.add_division, "Modulo": self._model.add_modulo}
            post[type(e).__name__](t, self._expr(e.args[0]), self._expr(e.args[1]))
        else:
            raise NotImplementedError(f"cpsolve: the function {e} ({type(e).__name__}) is not supported")
        return t

    def _literal(self, e):
        """A boolean expression as a 0/1 variable or its negation."""
        m = self._model
        if isinstance(e, (_BoolVarImpl, NegBoolView)):
            return self.solver_var(e)
        if isinstance(e, BoolVal) or is_num(e):
            v = int(bool(e.value() if isinstance(e, BoolVal) else e))
            return m.int_var(v, v, str(bool(v)))
        if isinstance(e, Comparison):
            return m.reify(self._comparison(e))
        if isinstance(e, Operator):
            lits = [self._literal(a) for a in e.args]
            if e.name == "not":
                return _negate(lits[0])
            b = m.bool_var(f"[{e}]")
            if e.name == "and":
                m.add(sum(lits, 0) == len(lits), iff=b)
            elif e.name == "or":
                m.add(sum(lits, 0) >= 1, iff=b)
            elif e.name == "->":
                m.add(_negate(lits[0]) + lits[1] >= 1, iff=b)
            else:
                raise NotImplementedError(f"cpsolve: the operator {e.name} is not supported")
            return b
        if isinstance(e, GlobalConstraint):
            parts = _decomposed(e)
            return self._literal(Operator("and", parts) if len(parts) != 1 else parts[0])
        raise NotImplementedError(f"cpsolve: the boolean expression {e} ({type(e).__name__}) is not supported")

    def _comparison(self, c: Comparison):
        lhs, rhs = self._expr(c.args[0]), self._expr(c.args[1])
        return _COMPARE[c.name](lhs, rhs)

    # ----- constraints -----------------------------------------------------------------

    def transform(self, cpm_expr):
        return toplevel_list(cpm_expr)

    def add(self, cpm_expr):
        get_variables(cpm_expr, collect=self.user_vars)
        for c in self.transform(cpm_expr):
            self._post(c)
        return self

    __add__ = add

    def _post(self, c) -> None:
        m = self._model
        if isinstance(c, BoolVal):
            m.add(bool(c.value()))
        elif isinstance(c, (_BoolVarImpl, NegBoolView)):
            m.add(self.solver_var(c) == 1)
        elif isinstance(c, Comparison):
            m.add(self._comparison(c))
        elif isinstance(c, Operator) and c.name == "and":
            for a in c.args:
                self._post(a)
        elif isinstance(c, Operator) and c.name == "or":
            m.add_bool_or([self._literal(a) for a in c.args])
        elif isinstance(c, Operator) and c.name == "->":
            m.add_bool_or([_negate(self._literal(c.args[0])), self._literal(c.args[1])])
        elif isinstance(c, Operator) and c.name == "not":
            m.add(self._literal(c.args[0]) == 0)
        elif isinstance(c, AllDifferent):
            m.add_all_different([self._expr(a) for a in c.args])
        elif isinstance(c, Table):
            array, table = c.args
            m.add_table([self._expr(a) for a in array], [[int(v) for v in row] for row in table])
        elif isinstance(c, Circuit):
            m.add_circuit([self._expr(a) for a in c.args])
        elif isinstance(c, GlobalConstraint):
            for part in _decomposed(c):
                for d in toplevel_list(part):
                    self._post(d)
        else:
            raise NotImplementedError(f"cpsolve: the constraint {c} ({type(c).__name__}) is not supported")

    # ----- objective and solving ---------------------------------------------------------

    def objective(self, expr, minimize: bool) -> None:
        get_variables(expr, collect=self.user_vars)
        e = self._expr(expr)
        if minimize:
            self._model.minimize(e)
        else:
            self._model.maximize(e)

    def has_objective(self) -> bool:
        return self._model.objective is not None

    def _read(self, solution) -> None:
        for v in self.user_vars:
            sv = self._varmap.get(v)
            if solution is None or sv is None:
                v._value = None
            else:
                value = solution.value(sv)
                v._value = bool(value) if isinstance(v, _BoolVarImpl) else value

    def solve(self, time_limit: Optional[float] = None, **kwargs) -> bool:
        """Solve (the optimum, with an objective); `kwargs` go to `cpsolve.solve`
        (`threads`, `seed`)."""
        started = time.time()
        r = cpsolve.solve(self._model, time_limit=time_limit, **kwargs)
        self.cpm_status = SolverStatus(self.name)
        self.cpm_status.exitstatus = _STATUS[r.status]
        self.cpm_status.runtime = time.time() - started
        self.cpm_status.solve_time = r.stats["time"]
        self._read(r.solution)
        self.objective_value_ = r.objective
        return self._solve_return(self.cpm_status)

    def solveAll(self, display=None, time_limit: Optional[float] = None, solution_limit: Optional[int] = None, call_from_model=False, **kwargs) -> int:
        """Every solution, streamed from the engine (no blocking clauses are added, the
        solver stays usable); `display` as in CPMpy."""
        if self.has_objective():
            from cpmpy.exceptions import NotSupportedError

            raise NotSupportedError("cpsolve: solveAll on a model with an objective lists improving solutions only; remove the objective")
        started = time.time()
        stream = cpsolve.solutions(self._model, limit=solution_limit, time_limit=time_limit)
        found = 0
        for s in stream:
            found += 1
            self._read(s)
            self.print_display(display)
        self.cpm_status = SolverStatus(self.name)
        self.cpm_status.runtime = self.cpm_status.solve_time = time.time() - started
        if found == 0:
            self.cpm_status.exitstatus = ExitStatus.UNSATISFIABLE if stream.status == "UNSATISFIABLE" else ExitStatus.UNKNOWN
        elif stream.status == "ALL_SOLUTIONS":
            self.cpm_status.exitstatus = ExitStatus.OPTIMAL
        else:
            self.cpm_status.exitstatus = ExitStatus.FEASIBLE
        return found


def _negate(literal):
    if isinstance(literal, Not):
        return literal.var
    return Not(literal)
