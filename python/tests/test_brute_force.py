"""The modelling API against brute force: small random models, every assignment checked
by plain Python. The count, the set of solutions streamed, and the optimum must agree."""

import itertools
import operator
import random

import pytest

import cpsolve

RELATIONS = {"==": operator.eq, "!=": operator.ne, "<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt}


def compare(lhs, rel, rhs):
    return {"==": lhs == rhs, "!=": lhs != rhs, "<=": lhs <= rhs, ">=": lhs >= rhs, "<": lhs < rhs, ">": lhs > rhs}[rel]


def random_model(rng):
    """A model and, beside it, the same constraints as Python predicates over an assignment."""
    m = cpsolve.Model()
    n = rng.randint(2, 4)
    xs, domains = [], []
    for i in range(n):
        if rng.random() < 0.3:
            values = sorted(rng.sample(range(-2, 4), rng.randint(1, 4)))
            xs.append(m.int_var_from(values, f"x{i}"))
        else:
            lo = rng.randint(-2, 1)
            values = list(range(lo, lo + rng.randint(1, 4)))
            xs.append(m.int_var(values[0], values[-1], f"x{i}"))
        domains.append(values)
    checks = []
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(["linear", "linear", "alldiff", "element", "table", "reified", "bool_or", "abs"])
        if kind == "linear":
            coefs = [rng.randint(-3, 3) for _ in xs]
            k, rel = rng.randint(-4, 4), rng.choice(list(RELATIONS))
            m.add(compare(sum(c * x for c, x in zip(coefs, xs)), rel, k))
            checks.append(lambda a, coefs=coefs, k=k, rel=rel: RELATIONS[rel](sum(c * v for c, v in zip(coefs, a)), k))
        elif kind == "alldiff":
            idx = rng.sample(range(n), rng.randint(2, n))
            m.add_all_different([xs[i] for i in idx], level=rng.choice(["value", "bounds", "domain"]))
            checks.append(lambda a, idx=idx: len({a[i] for i in idx}) == len(idx))
        elif kind == "element":
            i, t = rng.sample(range(n), 2)
            array = [rng.randint(-2, 3) for _ in range(rng.randint(1, 4))]
            m.add_element(xs[i], array, xs[t])
            checks.append(lambda a, i=i, t=t, array=array: 0 <= a[i] < len(array) and array[a[i]] == a[t])
        elif kind == "table":
            idx = rng.sample(range(n), 2)
            rows = [tuple(rng.randint(-2, 3) for _ in idx) for _ in range(rng.randint(0, 6))]
            m.add_table([xs[i] for i in idx], rows)
            checks.append(lambda a, idx=idx, rows=rows: tuple(a[i] for i in idx) in rows)
        elif kind == "reified":
            # b ⇔ x_i + x_j <= k, and (b or x_i == x_j) through a clause: b is projected away
            # by being functionally defined.
            i, j = rng.sample(range(n), 2)
            k = rng.randint(-2, 4)
            b = m.reify(xs[i] + xs[j] <= k)
            m.add(xs[i] != xs[j], only_if=~b)
            checks.append(lambda a, i=i, j=j, k=k: a[i] + a[j] <= k or a[i] != a[j])
        elif kind == "bool_or":
            i, j = rng.sample(range(n), 2)
            p, q = m.reify(xs[i] == 1), m.reify(xs[j] >= 2)
            m.add_bool_or([p, ~q])
            checks.append(lambda a, i=i, j=j: a[i] == 1 or not a[j] >= 2)
        else:
            i, t = rng.sample(range(n), 2)
            m.add_abs(xs[t], xs[i])
            checks.append(lambda a, i=i, t=t: a[t] == abs(a[i]))
    return m, xs, domains, checks


def brute_force(domains, checks):
    return [a for a in itertools.product(*domains) if all(c(a) for c in checks)]


@pytest.mark.parametrize("seed", range(60))
def test_random_model_agrees_with_brute_force(seed):
    rng = random.Random(seed)
    m, xs, domains, checks = random_model(rng)
    expected = brute_force(domains, checks)
    assert cpsolve.count(m) == len(expected)
    # Every variable the helpers made is a function of xs: the solutions are those of xs.
    streamed = [tuple(s.value(xs)) for s in cpsolve.solutions(m)]
    assert sorted(streamed) == sorted(expected), "each solution once, none missing"
    r = cpsolve.solve(m)
    if expected:
        assert r.status == "SATISFIED" and tuple(r.value(xs)) in expected
    else:
        assert r.status == "UNSATISFIABLE" and not r
    weights = [rng.randint(-3, 3) for _ in xs]
    m.minimize(sum(w * x for w, x in zip(weights, xs)))
    r = cpsolve.solve(m)
    if expected:
        assert r.status == "OPTIMAL"
        assert r.objective == min(sum(w * v for w, v in zip(weights, a)) for a in expected)
    else:
        assert r.status == "UNSATISFIABLE"


def test_all_solutions_lists_each_solution_once():
    m = cpsolve.Model()
    x, y = m.int_var(0, 3, "x"), m.int_var(0, 3, "y")
    m.add(x + y == 3)
    r = cpsolve.solve(m, all_solutions=True)
    assert r.status == "ALL_SOLUTIONS"
    assert sorted(tuple(s.value([x, y])) for s in r.solutions) == [(0, 3), (1, 2), (2, 1), (3, 0)]


def test_circuit_regular_and_cumulative_against_brute_force():
    m = cpsolve.Model()
    succ = [m.int_var(0, 3, f"s{i}") for i in range(4)]
    m.add_circuit(succ)
    # Hamiltonian cycles on 4 nodes: (4-1)! = 6.
    assert cpsolve.count(m) == 6

    m = cpsolve.Model()
    xs = [m.int_var(0, 1, f"b{i}") for i in range(6)]
    # No two 1s in a row: states 0 (last was 0) and 1 (last was 1).
    m.add_regular(xs, [(0, 0, 0), (0, 1, 1), (1, 0, 0)], 0, [0, 1])
    expected = [w for w in itertools.product([0, 1], repeat=6) if "11" not in "".join(map(str, w))]
    assert cpsolve.count(m) == len(expected) == 21

    m = cpsolve.Model()
    s = [m.int_var(0, 3, f"t{i}") for i in range(3)]
    dur, use = [2, 1, 2], [1, 2, 1]
    m.add_cumulative(s, dur, use, 2)
    def ok(a):
        return all(sum(u for st, d, u in zip(a, dur, use) if st <= t < st + d) <= 2 for t in range(6))
    assert cpsolve.count(m) == sum(1 for a in itertools.product(range(4), repeat=3) if ok(a))
