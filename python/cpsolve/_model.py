"""Modelling: variables, linear expressions built with operators, and the constraints.

A `Model` posts each constraint on the engine at once (the native `NativeModel`), so a
wrong argument is reported where it was written, with a message that names the method and
what it expected. Expressions are plain Python objects: `3 * x + y - 2` is a `LinearExpr`
(a dict of coefficients and a constant), `x + y <= 5` a `Constraint` that `Model.add` posts.
"""

from __future__ import annotations

import operator
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

from . import _native

# Coefficients and constants stay far inside the engine's 64-bit sums.
_MAX_COEFFICIENT = 2**31
_MAX_CONSTANT = 2**62


def _integer(value, what: str) -> int:
    """`value` as an int (numpy integers and bools too), or a TypeError naming `what`."""
    if isinstance(value, (LinearExpr, Constraint)):
        raise TypeError(f"{what} must be an integer, not a {type(value).__name__}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(
            f"{what} must be an integer, not {type(value).__name__} {value!r}"
        ) from None


class LinearExpr:
    """`Σ coef·var + constant`, built with `+`, `-`, `*` by an integer and `sum(...)`.

    Compare two expressions (`==`, `!=`, `<=`, `>=`, `<`, `>`) to get a constraint for
    `Model.add`. Multiplying two variables is not linear: use `Model.add_multiplication`.
    """

    __slots__ = ("_terms", "_constant")

    def __init__(self, terms: Optional[Dict["IntVar", int]] = None, constant: int = 0):
        self._terms: Dict[IntVar, int] = dict(terms or {})
        self._constant = constant

    # ----- building --------------------------------------------------------------------

    @staticmethod
    def _of(value, where: str = "a linear expression") -> "LinearExpr":
        if isinstance(value, LinearExpr):
            return value
        if isinstance(value, Constraint):
            raise TypeError(
                f"a constraint cannot be used in {where}: use Model.reify(c) for its 0/1 truth value"
            )
        try:
            constant = operator.index(value)
        except TypeError:
            raise TypeError(
                f"cannot use {type(value).__name__} {value!r} in {where}: "
                "expected an int, a variable or a linear expression"
            ) from None
        return LinearExpr({}, constant)

    def _items(self) -> Dict["IntVar", int]:
        return self._terms

    def __add__(self, other) -> "LinearExpr":
        other = LinearExpr._of(other)
        terms = dict(self._items())
        for v, c in other._items().items():
            _same_model(self, v)
            terms[v] = terms.get(v, 0) + c
        return LinearExpr(terms, self._const() + other._const())

    __radd__ = __add__

    def __sub__(self, other) -> "LinearExpr":
        return self + (-LinearExpr._of(other))

    def __rsub__(self, other) -> "LinearExpr":
        return LinearExpr._of(other) + (-self)

    def __neg__(self) -> "LinearExpr":
        return self * -1

    def __pos__(self) -> "LinearExpr":
        return self

    def __mul__(self, other) -> "LinearExpr":
        if isinstance(other, (LinearExpr, Constraint)):
            raise TypeError(
                "the product of two expressions is not linear: "
                "use Model.add_multiplication(target, x, y)"
            )
        k = _integer(other, "a coefficient")
        return LinearExpr({v: c * k for v, c in self._items().items()}, self._const() * k)

    __rmul__ = __mul__

    def _const(self) -> int:
        return self._constant

    # ----- comparing: constraints --------------------------------------------------------

    def __eq__(self, other) -> "Constraint":  # type: ignore[override]
        return Constraint(self, "==", other)

    def __ne__(self, other) -> "Constraint":  # type: ignore[override]
        return Constraint(self, "!=", other)

    def __le__(self, other) -> "Constraint":
        return Constraint(self, "<=", other)

    def __ge__(self, other) -> "Constraint":
        return Constraint(self, ">=", other)

    def __lt__(self, other) -> "Constraint":
        return Constraint(self, "<", other)

    def __gt__(self, other) -> "Constraint":
        return Constraint(self, ">", other)

    __hash__ = None  # type: ignore[assignment]

    def __bool__(self) -> bool:
        raise TypeError(
            "an expression has no truth value: compare it (x + y <= 5) and pass it to Model.add"
        )

    def __repr__(self) -> str:
        parts = []
        for v, c in self._items().items():
            if c == 1:
                parts.append(f"+ {v.name}")
            elif c == -1:
                parts.append(f"- {v.name}")
            elif c != 0:
                parts.append(f"{'+' if c > 0 else '-'} {abs(c)}*{v.name}")
        if self._const() or not parts:
            k = self._const()
            parts.append(f"{'+' if k >= 0 else '-'} {abs(k)}")
        text = " ".join(parts)
        return text[2:] if text.startswith("+ ") else "-" + text[2:]


def _same_model(a, v: "IntVar") -> None:
    for w in a._items():
        if w._model is not v._model:
            raise ValueError(
                f"{w.name} and {v.name} belong to different models: an expression stays in one model"
            )
        return


class IntVar(LinearExpr):
    """An integer variable of a `Model` (`Model.int_var`, `Model.int_var_from`)."""

    __slots__ = ("_model", "index", "name")

    def __init__(self, model: "Model", index: int, name: str):
        self._model = model
        self.index = index
        self.name = name

    def _items(self) -> Dict["IntVar", int]:
        return {self: 1}

    def _const(self) -> int:
        return 0

    @property
    def bounds(self) -> Tuple[int, int]:
        """The declared `(lo, hi)`."""
        return self._model._native.bounds(self.index)

    @property
    def domain(self) -> List[int]:
        """The values of the declared domain."""
        return self._model._native.domain_values(self.index)

    def __hash__(self) -> int:
        return hash((id(self._model), self.index))

    def __repr__(self) -> str:
        return self.name


class BoolVar(IntVar):
    """A 0/1 variable (`Model.bool_var`). `~b` is its negation, `1 - b`."""

    __slots__ = ()

    def __invert__(self) -> "Not":
        return Not(self)


class Not(LinearExpr):
    """The negation `~b` of a 0/1 variable: the expression `1 - b`, and a literal for
    `Model.add_bool_or`, `Model.add(..., only_if=~b)`."""

    __slots__ = ("var",)

    def __init__(self, var: BoolVar):
        self.var = var

    def _items(self) -> Dict[IntVar, int]:
        return {self.var: -1}

    def _const(self) -> int:
        return 1

    def __invert__(self) -> BoolVar:
        return self.var

    def __repr__(self) -> str:
        return f"~{self.var.name}"


class Constraint:
    """`lhs REL rhs`, a comparison of two expressions, to be posted by `Model.add` (or turned
    into a 0/1 variable by `Model.reify`)."""

    __slots__ = ("lhs", "relation", "rhs")

    def __init__(self, lhs, relation: str, rhs):
        self.lhs = LinearExpr._of(lhs, "a constraint")
        self.relation = relation
        self.rhs = LinearExpr._of(rhs, "a constraint")
        _same_model_all(self.lhs, self.rhs)

    def __bool__(self) -> bool:
        # `x == y` of two variables is also asked by `in`, `list.index` and dicts: answer it
        # as Python would (the same variable or not), as CP-SAT does.
        if (
            self.relation in ("==", "!=")
            and isinstance(self.lhs, IntVar)
            and isinstance(self.rhs, IntVar)
        ):
            same = self.lhs is self.rhs
            return same if self.relation == "==" else not same
        raise TypeError(
            f"the constraint {self!r} has no truth value until solved: pass it to Model.add"
        )

    def _normal(self) -> Tuple[List[Tuple[int, int]], str, int]:
        """`Σ a·x rel rhs` with `rel` one of `le`, `eq`, `ne`, as the engine takes it."""
        expr = self.lhs - self.rhs
        terms = [(c, v.index) for v, c in expr._items().items() if c != 0]
        k = expr._const()
        for c, _ in terms:
            if abs(c) > _MAX_COEFFICIENT:
                raise ValueError(f"coefficient {c} is too large (at most 2**31 in magnitude)")
        if abs(k) > _MAX_CONSTANT:
            raise ValueError(f"constant {k} is too large (at most 2**62 in magnitude)")
        negated = [(-c, x) for c, x in terms]
        rel = self.relation
        if rel == "==":
            return terms, "eq", -k
        if rel == "!=":
            return terms, "ne", -k
        if rel == "<=":
            return terms, "le", -k
        if rel == "<":
            return terms, "le", -k - 1
        if rel == ">=":
            return negated, "le", k
        return negated, "le", k - 1  # ">"

    def _variables(self) -> List[IntVar]:
        return list((self.lhs - self.rhs)._items())

    def __repr__(self) -> str:
        return f"{self.lhs!r} {self.relation} {self.rhs!r}"


def _same_model_all(a: LinearExpr, b: LinearExpr) -> None:
    va, vb = list(a._items()), list(b._items())
    if va and vb and va[0]._model is not vb[0]._model:
        raise ValueError(
            f"{va[0].name} and {vb[0].name} belong to different models: a constraint stays in one model"
        )


Literal = Union[BoolVar, Not]
Expression = Union[LinearExpr, int]


class Model:
    """Variables and constraints, to be solved by `cpsolve.solve`.

    >>> import cpsolve
    >>> m = cpsolve.Model()
    >>> x, y = m.int_var(0, 9, "x"), m.int_var(0, 9, "y")
    >>> m.add(x + 2 * y == 12)
    >>> m.add(x > y)
    >>> m.maximize(x)
    >>> r = cpsolve.solve(m)
    >>> r.status, r.value(x), r.value(y)
    ('OPTIMAL', 8, 2)

    Constraints are posted at once: a wrong argument raises `TypeError` or `ValueError`
    where it was written. A constraint that is false when posted (say `m.add(x == 12)` with
    `x` in 0..9) is not an error: the model then has no solution.
    """

    def __init__(self) -> None:
        self._native = _native.NativeModel()
        self._variables: List[IntVar] = []
        self._objective: Optional[Tuple[LinearExpr, bool]] = None

    # ----- variables ---------------------------------------------------------------------

    def _register(self, cls, index: int, name) -> IntVar:
        if name is None:
            name = f"x{index}"
        elif not isinstance(name, str):
            raise TypeError(f"a variable's name must be a str, not {type(name).__name__}")
        v = cls(self, index, name)
        self._variables.append(v)
        return v

    def int_var(self, lo: int, hi: int, name: Optional[str] = None) -> IntVar:
        """An integer variable with domain `lo..hi` (both included)."""
        lo, hi = _integer(lo, "int_var: lo"), _integer(hi, "int_var: hi")
        if lo > hi:
            raise ValueError(f"int_var: empty domain {lo}..{hi} (lo must be <= hi)")
        index = self._call("int_var", self._native.int_var, lo, hi)
        return self._register(IntVar, index, name)

    def bool_var(self, name: Optional[str] = None) -> BoolVar:
        """A 0/1 variable; `~b` is its negation."""
        index = self._native.int_var(0, 1)
        return self._register(BoolVar, index, name)  # type: ignore[return-value]

    def int_var_from(self, values: Iterable[int], name: Optional[str] = None) -> IntVar:
        """An integer variable whose domain is exactly `values` (a domain with holes)."""
        vs = [_integer(v, "int_var_from: a value") for v in _iterable(values, "int_var_from", "values")]
        if not vs:
            raise ValueError("int_var_from: a domain needs at least one value")
        index = self._call("int_var_from", self._native.var_from_values, vs)
        cls = BoolVar if set(vs) <= {0, 1} and len(set(vs)) == 2 else IntVar
        return self._register(cls, index, name)

    @property
    def variables(self) -> List[IntVar]:
        """Every variable, in the order they were made (the helpers' own ones included)."""
        return list(self._variables)

    # ----- checks ------------------------------------------------------------------------

    def _call(self, method: str, fn, *args):
        try:
            return fn(*args)
        except ValueError as e:
            raise ValueError(f"{method}: {e}") from None
        except OverflowError:
            raise ValueError(f"{method}: a number is out of the engine's range") from None

    def _var(self, x, method: str, what: str = "a variable") -> IntVar:
        """`x` as a variable of this model: a constant becomes a fixed variable, an expression
        a new variable equal to it."""
        if isinstance(x, IntVar):
            if x._model is not self:
                raise ValueError(f"{method}: {x.name} belongs to another model")
            return x
        if isinstance(x, LinearExpr):
            return self._expression_var(x, method)
        if isinstance(x, Constraint):
            return self.reify(x)
        k = _integer(x, f"{method}: {what}")
        index = self._call(method, self._native.int_var, k, k)
        return self._register(IntVar, index, f"{k}")

    def _vars(self, xs, method: str, what: str = "a variable") -> List[IntVar]:
        return [self._var(x, method, what) for x in _iterable(xs, method, "the variables")]

    def _expression_var(self, e: LinearExpr, method: str) -> IntVar:
        """A new variable equal to `e` (its bounds from those of the terms)."""
        for v in e._items():
            if v._model is not self:
                raise ValueError(f"{method}: {v.name} belongs to another model")
        lo = hi = e._const()
        for v, c in e._items().items():
            a, b = v.bounds
            lo += min(c * a, c * b)
            hi += max(c * a, c * b)
        if lo < -(2**31) or hi > 2**31 - 2:
            raise ValueError(
                f"{method}: the expression {e!r} ranges over {lo}..{hi}, beyond the engine's 32-bit values"
            )
        z = self._register(IntVar, self._native.int_var(lo, hi), f"({e!r})")
        self._post(z == e, "add")
        return z

    # ----- constraints -------------------------------------------------------------------

    def add(self, constraint, only_if: Optional[Literal] = None, iff: Optional[Literal] = None) -> None:
        """Post `constraint`, a comparison of linear expressions (`x + y <= 5`, `x != y`).

        Reification: `only_if=b` posts `b ⇒ constraint` (the constraint holds when the 0/1
        variable `b` is 1; `~b` for when it is 0); `iff=b` posts `b ⇔ constraint`.
        `Model.reify(constraint)` makes such a `b` for you.
        """
        if only_if is not None and iff is not None:
            raise ValueError("add: give only_if or iff, not both")
        if isinstance(constraint, bool):
            # `x == x` compared to True already; `False` makes the model unsatisfiable.
            if only_if is None and iff is None:
                if not constraint:
                    self._native.linear([], "eq", 1)
                return
            constraint = LinearExpr({}, int(constraint)) == 1
        if not isinstance(constraint, Constraint):
            raise TypeError(
                f"add: expected a comparison such as x + y <= 5, not {type(constraint).__name__} {constraint!r}"
            )
        for v in constraint._variables():
            if v._model is not self:
                raise ValueError(f"add: {v.name} belongs to another model")
        if only_if is None and iff is None:
            self._post(constraint, "add")
            return
        literal = only_if if only_if is not None else iff
        self._post_reified(constraint, literal, half=only_if is not None, method="add")

    def _post(self, c: Constraint, method: str) -> None:
        terms, rel, rhs = c._normal()
        self._call(method, self._native.linear, terms, rel, rhs)

    def _post_reified(self, c: Constraint, literal, half: bool, method: str) -> None:
        b, positive = self._literal(literal, method)
        terms, rel, rhs = c._normal()
        if positive:
            self._call(method, self._native.reified_linear, b.index, terms, rel, rhs, half)
            return
        # `¬b ⇒ c`: a fresh `n = 1 - b` carries it.
        n = self.bool_var(f"~{b.name}")
        self._post(n + b == 1, method)
        self._call(method, self._native.reified_linear, n.index, terms, rel, rhs, half)

    def _literal(self, literal, method: str) -> Tuple[IntVar, bool]:
        if isinstance(literal, Not):
            return self._literal(literal.var, method)[0], False
        if isinstance(literal, IntVar):
            if literal._model is not self:
                raise ValueError(f"{method}: {literal.name} belongs to another model")
            lo, hi = literal.bounds
            if lo < 0 or hi > 1:
                raise ValueError(
                    f"{method}: {literal.name} ranges over {lo}..{hi}; a literal is a 0/1 variable (Model.bool_var) or its negation ~b"
                )
            return literal, True
        raise TypeError(
            f"{method}: expected a 0/1 variable or its negation ~b, not {type(literal).__name__} {literal!r}"
        )

    def reify(self, constraint: Constraint, name: Optional[str] = None) -> BoolVar:
        """A new 0/1 variable `b` with `b ⇔ constraint`: `sum(m.reify(x == 3) for x in xs)`
        counts the 3s."""
        if not isinstance(constraint, Constraint):
            raise TypeError(
                f"reify: expected a comparison such as x == 3, not {type(constraint).__name__}"
            )
        b = self.bool_var(name if name is not None else f"[{constraint!r}]")
        self.add(constraint, iff=b)
        return b

    def add_all_different(self, xs: Iterable[IntVar], level: str = "domain") -> None:
        """All of `xs` take different values. `level`: the strength of the propagation,
        `"value"` (forward checking), `"bounds"` or `"domain"` (Régin's matching, the
        default)."""
        if level not in ("value", "bounds", "domain"):
            raise ValueError(f"add_all_different: level must be 'value', 'bounds' or 'domain', not {level!r}")
        vs = self._vars(xs, "add_all_different")
        self._call("add_all_different", self._native.all_different, [v.index for v in vs], level)

    def add_element(self, index, array: Sequence, target) -> None:
        """`target == array[index]`, `index` counted from 0; the entries are integers or
        variables."""
        entries = list(_iterable(array, "add_element", "array"))
        i = self._var(index, "add_element", "the index")
        t = self._var(target, "add_element", "the target")
        if all(not isinstance(e, LinearExpr) for e in entries):
            values = [_integer(e, "add_element: an array entry") for e in entries]
            self._call("add_element", self._native.element, i.index, values, t.index)
        else:
            vs = [self._var(e, "add_element", "an array entry") for e in entries]
            self._call("add_element", self._native.element_var, i.index, [v.index for v in vs], t.index)

    def add_table(self, xs: Sequence[IntVar], tuples: Iterable[Sequence[int]]) -> None:
        """`(xs[0], xs[1], …)` is one of `tuples` (a list of allowed rows)."""
        vs = self._vars(xs, "add_table")
        rows = []
        for i, t in enumerate(_iterable(tuples, "add_table", "tuples")):
            row = [_integer(v, f"add_table: tuple {i}'s value") for v in _iterable(t, "add_table", f"tuple {i}")]
            rows.append(row)
        self._call("add_table", self._native.table, [v.index for v in vs], rows)

    def add_circuit(self, succ: Sequence[IntVar]) -> None:
        """`succ[i]` is the node after node `i` (nodes counted from 0), and the successors
        form one cycle through every node (a Hamiltonian circuit)."""
        vs = self._vars(succ, "add_circuit")
        self._call("add_circuit", self._native.circuit, [v.index for v in vs])

    def add_regular(
        self,
        xs: Sequence[IntVar],
        transitions: Iterable[Tuple[int, int, int]],
        start: int,
        accepting: Iterable[int],
    ) -> None:
        """`xs` spells a word that the automaton accepts: `transitions` are `(state, value,
        next_state)` triples (deterministic: one per state and value), from state `start`,
        ending in one of `accepting` (CP-SAT's `AddAutomaton`)."""
        vs = self._vars(xs, "add_regular")
        triples = []
        for t in _iterable(transitions, "add_regular", "transitions"):
            t = list(_iterable(t, "add_regular", "a transition"))
            if len(t) != 3:
                raise ValueError(f"add_regular: a transition is (state, value, next_state), not {t!r}")
            triples.append(tuple(_integer(v, "add_regular: a transition's entry") for v in t))
        start = _integer(start, "add_regular: start")
        finals = [_integer(q, "add_regular: an accepting state") for q in _iterable(accepting, "add_regular", "accepting")]
        self._call("add_regular", self._native.regular, [v.index for v in vs], triples, start, finals)

    def add_cumulative(self, starts: Sequence, durations: Sequence, demands: Sequence, capacity) -> None:
        """Tasks start at `starts[i]`, run `durations[i]` and use `demands[i]` units of a
        resource of `capacity` units, never more at once. Durations, demands and capacity are
        integers or variables."""
        ss = self._vars(starts, "add_cumulative", "a start")
        ds = list(_iterable(durations, "add_cumulative", "durations"))
        rs = list(_iterable(demands, "add_cumulative", "demands"))
        if not (len(ss) == len(ds) == len(rs)):
            raise ValueError(
                f"add_cumulative: {len(ss)} starts, {len(ds)} durations and {len(rs)} demands: one of each per task"
            )
        constant = not any(isinstance(v, LinearExpr) for v in ds + rs + [capacity])
        if constant:
            ds = [_integer(v, "add_cumulative: a duration") for v in ds]
            rs = [_integer(v, "add_cumulative: a demand") for v in rs]
            cap = _integer(capacity, "add_cumulative: the capacity")
            self._call("add_cumulative", self._native.cumulative, [v.index for v in ss], ds, rs, cap)
            return
        dv = self._vars(ds, "add_cumulative", "a duration")
        rv = self._vars(rs, "add_cumulative", "a demand")
        cv = self._var(capacity, "add_cumulative", "the capacity")
        self._call(
            "add_cumulative",
            self._native.cumulative_var,
            [v.index for v in ss],
            [v.index for v in dv],
            [v.index for v in rv],
            cv.index,
        )

    def add_bool_or(self, literals: Iterable[Literal]) -> None:
        """At least one of `literals` (0/1 variables `b` or their negations `~b`) is true."""
        pos, neg = [], []
        for lit in _iterable(literals, "add_bool_or", "literals"):
            v, positive = self._literal(lit, "add_bool_or")
            (pos if positive else neg).append(v.index)
        self._call("add_bool_or", self._native.bool_or, pos, neg)

    def add_bool_and(self, literals: Iterable[Literal]) -> None:
        """Every one of `literals` is true."""
        for lit in _iterable(literals, "add_bool_and", "literals"):
            self.add_bool_or([lit])

    def add_implication(self, a: Literal, b: Literal) -> None:
        """`a ⇒ b` over literals."""
        self._literal(a, "add_implication")
        self.add_bool_or([_negate(a), b])

    def _arith(self, method: str, op: str, target, x, y) -> None:
        t = self._var(target, method, "the target")
        a = self._var(x, method)
        b = self._var(y, method)
        self._call(method, self._native.arith, op, a.index, b.index, t.index)

    def add_multiplication(self, target, x, y) -> None:
        """`target == x * y`."""
        self._arith("add_multiplication", "times", target, x, y)

    def add_division(self, target, x, y) -> None:
        """`target == x // y`, rounded toward zero (as C and MiniZinc do); `y != 0`."""
        self._arith("add_division", "div", target, x, y)

    def add_modulo(self, target, x, y) -> None:
        """`target == x mod y`, with the sign of `x` (as C and MiniZinc do); `y != 0`."""
        self._arith("add_modulo", "mod", target, x, y)

    def add_abs(self, target, x) -> None:
        """`target == |x|`."""
        self._arith("add_abs", "abs", target, x, x)

    def add_min(self, target, xs: Iterable) -> None:
        """`target == min(xs)`."""
        self._fold("add_min", "min", target, xs)

    def add_max(self, target, xs: Iterable) -> None:
        """`target == max(xs)`."""
        self._fold("add_max", "max", target, xs)

    def _fold(self, method: str, op: str, target, xs) -> None:
        vs = self._vars(xs, method)
        if not vs:
            raise ValueError(f"{method}: needs at least one variable")
        acc = vs[0]
        for v in vs[1:]:
            lo = min(acc.bounds[0], v.bounds[0]) if op == "min" else max(acc.bounds[0], v.bounds[0])
            hi = min(acc.bounds[1], v.bounds[1]) if op == "min" else max(acc.bounds[1], v.bounds[1])
            step = self._register(IntVar, self._native.int_var(lo, hi), f"{op}(…)")
            self._call(method, self._native.arith, op, acc.index, v.index, step.index)
            acc = step
        self.add(self._var(target, method, "the target") == acc)

    # ----- objective ---------------------------------------------------------------------

    def minimize(self, expr) -> None:
        """Look for the solution with the smallest value of `expr` (branch and bound)."""
        self._set_objective(expr, True, "minimize")

    def maximize(self, expr) -> None:
        """Look for the solution with the largest value of `expr` (branch and bound)."""
        self._set_objective(expr, False, "maximize")

    def _set_objective(self, expr, minimize: bool, method: str) -> None:
        if isinstance(expr, Constraint):
            raise TypeError(f"{method}: expected an expression, not the constraint {expr!r}")
        e = LinearExpr._of(expr, f"{method}'s objective")
        z = self._var(e, method)
        self._native.set_objective(z.index, minimize)
        self._objective = (e, minimize)

    @property
    def objective(self) -> Optional[LinearExpr]:
        """The expression to minimise or maximise, if any."""
        return None if self._objective is None else self._objective[0]

    def __repr__(self) -> str:
        goal = ""
        if self._objective is not None:
            goal = f", {'minimize' if self._objective[1] else 'maximize'} {self._objective[0]!r}"
        return f"Model({len(self._variables)} variables, {self._native.num_propagators()} propagators{goal})"


def _negate(literal):
    return literal.var if isinstance(literal, Not) else Not(literal)


def _iterable(xs, method: str, what: str):
    if isinstance(xs, (str, bytes)) or not hasattr(xs, "__iter__"):
        raise TypeError(f"{method}: {what} must be a list (or another iterable), not {type(xs).__name__}")
    return xs
