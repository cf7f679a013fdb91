"""The issue's acceptance models through the modelling API: SEND+MORE=MONEY, 8-queens
counted, the seed's Sudoku, a small job-shop minimised."""

import itertools

import cpsolve


def test_send_more_money_has_its_one_solution():
    m = cpsolve.Model()
    letters = [m.int_var(0, 9, c) for c in "SENDMORY"]
    S, E, N, D, M, O, R, Y = letters
    m.add_all_different(letters)
    m.add(1000 * S + 100 * E + 10 * N + D + 1000 * M + 100 * O + 10 * R + E
          == 10000 * M + 1000 * O + 100 * N + 10 * E + Y)
    m.add(S >= 1)
    m.add(M > 0)
    r = cpsolve.solve(m)
    assert r.status == "SATISFIED"
    assert r.value(letters) == [9, 5, 6, 7, 1, 0, 8, 2]
    assert cpsolve.count(m) == 1


def queens(n):
    m = cpsolve.Model()
    q = [m.int_var(0, n - 1, f"q{i}") for i in range(n)]
    m.add_all_different(q)
    m.add_all_different([q[i] + i for i in range(n)])
    m.add_all_different([q[i] - i for i in range(n)])
    return m, q


def test_eight_queens_are_counted_92_on_one_and_two_threads():
    m, _ = queens(8)
    one, two = cpsolve.count(m), cpsolve.count(m, threads=2)
    assert (one, two) == (92, 92)
    assert one.status == "ALL_SOLUTIONS" and one.exact
    assert sum(1 for _ in cpsolve.solutions(m)) == 92


def test_a_queens_solution_attacks_nothing():
    m, q = queens(8)
    r = cpsolve.solve(m)
    rows = r.value(q)
    for i, j in itertools.combinations(range(8), 2):
        assert rows[i] != rows[j] and abs(rows[i] - rows[j]) != j - i


def sudoku_model(givens):
    m = cpsolve.Model()
    cell = [[m.int_var(1, 9, f"r{r + 1}c{c + 1}") for c in range(9)] for r in range(9)]
    for r in range(9):
        m.add_all_different(cell[r])
        m.add_all_different([cell[i][r] for i in range(9)])
    for br, bc in itertools.product(range(0, 9, 3), repeat=2):
        m.add_all_different([cell[br + i][bc + j] for i in range(3) for j in range(3)])
    for r, row in enumerate(givens):
        for c, v in enumerate(row):
            if v:
                m.add(cell[r][c] == v)
    return m, cell


SEED_SUDOKU = [  # the seed's Sudoku (the command line's built-in example)
    ".17......", "8...5....", "23.41..7.", ".8....3.9", "..2.7.4..",
    "1.3....6.", ".9..36.57", "....2...3", "......19.",
]


def test_the_seed_sudoku_has_one_solution_equal_to_the_command_line_one():
    givens = [[0 if ch == "." else int(ch) for ch in row] for row in SEED_SUDOKU]
    m, cell = sudoku_model(givens)
    r = cpsolve.solve(m)
    grid = [r.value(row) for row in cell]
    assert grid[0] == [5, 1, 7, 6, 8, 3, 9, 2, 4]
    for r_, row in enumerate(givens):
        for c, v in enumerate(row):
            assert not v or grid[r_][c] == v
    assert all(sorted(row) == list(range(1, 10)) for row in grid)
    assert cpsolve.count(m) == 1
    assert grid == cpsolve.puzzles.solve("sudoku", "".join(SEED_SUDOKU))["solution"]


# A 3×3 job shop: each job is its machines in order with durations.
JOBS = [[(0, 3), (1, 2), (2, 2)], [(0, 2), (2, 1), (1, 4)], [(1, 4), (2, 3), (0, 1)]]


def brute_force_makespan():
    """The optimum over every order of the tasks on each machine (3!³ choices), each
    scheduled as early as its predecessors allow: independent of the solver."""
    tasks = {mc: [(j, k) for j, job in enumerate(JOBS) for k, (mach, _) in enumerate(job) if mach == mc] for mc in range(3)}
    best = None
    for orders in itertools.product(*(itertools.permutations(tasks[mc]) for mc in range(3))):
        start = {}
        changed, guard = True, 0
        before = {}
        for order in orders:
            for a, b in zip(order, order[1:]):
                before.setdefault(b, []).append(a)
        for j, job in enumerate(JOBS):
            for k in range(1, len(job)):
                before.setdefault((j, k), []).append((j, k - 1))
        pending = [(j, k) for j in range(3) for k in range(3)]
        while pending and guard < 20:
            guard += 1
            for t in list(pending):
                if all(p in start for p in before.get(t, [])):
                    start[t] = max([start[p] + JOBS[p[0]][p[1]][1] for p in before.get(t, [])], default=0)
                    pending.remove(t)
        if pending:
            continue  # the machine orders contradict the jobs' orders
        span = max(start[(j, 2)] + JOBS[j][2][1] for j in range(3))
        best = span if best is None else min(best, span)
    return best


def test_a_small_job_shop_is_minimised_to_the_brute_force_optimum():
    m = cpsolve.Model()
    horizon = sum(d for job in JOBS for _, d in job)
    start = [[m.int_var(0, horizon, f"s{j}{k}") for k in range(3)] for j in range(3)]
    for j, job in enumerate(JOBS):
        for k in range(2):
            m.add(start[j][k] + job[k][1] <= start[j][k + 1])
    for mc in range(3):
        on = [(j, k) for j, job in enumerate(JOBS) for k, (mach, _) in enumerate(job) if mach == mc]
        m.add_cumulative([start[j][k] for j, k in on], [JOBS[j][k][1] for j, k in on], [1] * len(on), 1)
    makespan = m.int_var(0, horizon, "makespan")
    for j, job in enumerate(JOBS):
        m.add(makespan >= start[j][2] + job[2][1])
    m.minimize(makespan)
    r = cpsolve.solve(m)
    assert r.status == "OPTIMAL"
    assert r.objective == r.value(makespan) == brute_force_makespan()
    raced = cpsolve.solve(m, threads=2)
    assert (raced.status, raced.objective) == ("OPTIMAL", r.objective)
    for mc in range(3):  # the schedule itself is feasible
        on = [(r.value(start[j][k]), JOBS[j][k][1]) for j, job in enumerate(JOBS) for k, (mach, _) in enumerate(job) if mach == mc]
        on.sort()
        assert all(a + d <= b for (a, d), (b, _) in zip(on, on[1:]))


def test_the_docstring_examples_run():
    import doctest

    import cpsolve._model

    failed, tried = doctest.testmod(cpsolve._model)
    assert tried >= 8 and failed == 0
