"""cpsolve as a CPMpy solver (`cpsolve.cpmpy.CPM_cpsolve`), checked against CPMpy's default
solver (OR-Tools, which CPMpy installs) on the same models."""

import random

import pytest

cp = pytest.importorskip("cpmpy", reason="cpmpy is not installed (CI installs it from PyPI)")
from cpsolve.cpmpy import CPM_cpsolve  # noqa: E402


def queens(n):
    q = cp.intvar(0, n - 1, shape=n, name="q")
    return cp.Model(
        cp.AllDifferent(q),
        cp.AllDifferent([q[i] + i for i in range(n)]),
        cp.AllDifferent([q[i] - i for i in range(n)]),
    ), q


def test_eight_queens_are_92_and_a_solution_is_read_back():
    model, q = queens(8)
    assert CPM_cpsolve(model).solveAll() == 92
    solver = CPM_cpsolve(model)
    assert solver.solve()
    rows = list(q.value())
    assert len(set(rows)) == 8 and len({r + i for i, r in enumerate(rows)}) == 8


def test_send_more_money():
    v = cp.intvar(0, 9, shape=8, name="l")
    S, E, N, D, M, O, R, Y = v
    model = cp.Model(
        cp.AllDifferent(v),
        1000 * S + 100 * E + 10 * N + D + 1000 * M + 100 * O + 10 * R + E
        == 10000 * M + 1000 * O + 100 * N + 10 * E + Y,
        S > 0,
        M > 0,
    )
    assert CPM_cpsolve(model).solve()
    assert list(v.value()) == [9, 5, 6, 7, 1, 0, 8, 2]


def random_model(rng):
    x = cp.intvar(-2, 4, shape=4, name="x")
    b = cp.boolvar(shape=2, name="b")
    cons = []
    for _ in range(rng.randint(2, 5)):
        i, j, k = rng.sample(range(4), 3)
        kind = rng.choice(["lin", "or", "imp", "abs", "max", "elem", "table", "alldiff", "mul", "reif"])
        c = rng.randint(-3, 5)
        if kind == "lin":
            cons.append(rng.randint(-2, 2) * x[i] + rng.randint(-2, 2) * x[j] <= c)
        elif kind == "or":
            cons.append((x[i] > c) | b[0] | (x[j] == x[k]))
        elif kind == "imp":
            cons.append(b[1].implies(x[i] + x[j] != c))
            cons.append((~b[0]).implies(x[k] >= 0))
        elif kind == "abs":
            cons.append(abs(x[i] - x[j]) >= rng.randint(0, 3))
        elif kind == "max":
            cons.append(cp.max([x[i], x[j]]) - cp.min([x[j], x[k]]) <= c + 2)
        elif kind == "elem":
            arr = cp.cpm_array([rng.randint(-2, 4) for _ in range(4)])
            cons.append(arr[x[i]] == x[j])
        elif kind == "table":
            cons.append(cp.Table([x[i], x[j]], [[rng.randint(-2, 4) for _ in range(2)] for _ in range(6)]))
        elif kind == "alldiff":
            cons.append(cp.AllDifferent([x[i], x[j], x[k]]))
        elif kind == "reif":
            # Constraints inside expressions: reified or, and, implication, comparison.
            cons.append(b[1] == ((x[i] > c) | (x[j] == x[k])))
            cons.append(((x[i] >= 0) & (x[j] <= 2)) | b[0])
            cons.append((x[k] != 1) + (x[i] < x[j]) + b[0].implies(x[k] > 0) >= 2)
        else:
            cons.append(x[i] * x[j] == c)
    return cp.Model(cons), x


@pytest.mark.parametrize("seed", range(25))
def test_random_models_count_and_optimise_as_ortools_does(seed):
    rng = random.Random(seed)
    model, x = random_model(rng)
    expected = cp.SolverLookup.get("ortools", model).solveAll()
    assert CPM_cpsolve(model).solveAll() == expected
    weights = [rng.randint(-3, 3) for _ in range(4)]
    model.minimize(sum(w * v for w, v in zip(weights, x)))
    ours, theirs = CPM_cpsolve(model), cp.SolverLookup.get("ortools", model)
    assert ours.solve() == theirs.solve()
    if expected:
        assert ours.objective_value() == theirs.objective_value()
        assert ours.status().exitstatus.name == "OPTIMAL"
        assert model.constraints and all(c.value() for c in cp.transformations.normalize.toplevel_list(model.constraints))
