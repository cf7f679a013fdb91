"""Bad input gets a TypeError or a ValueError that says what is wrong, never a crash."""

import pytest

import cpsolve


@pytest.fixture
def m():
    return cpsolve.Model()


def test_bad_domains(m):
    with pytest.raises(TypeError, match=r"int_var: lo must be an integer, not str"):
        m.int_var("a", 3)
    with pytest.raises(TypeError, match="not float"):
        m.int_var(0, 2.5)
    with pytest.raises(ValueError, match=r"empty domain 5\.\.3"):
        m.int_var(5, 3)
    with pytest.raises(ValueError, match="out of range"):
        m.int_var(0, 2**40)
    with pytest.raises(ValueError, match="at least one value"):
        m.int_var_from([])


def test_bad_expressions(m):
    x, y = m.int_var(0, 3), m.int_var(0, 3)
    with pytest.raises(TypeError, match="not linear.*add_multiplication"):
        x * y
    with pytest.raises(TypeError, match="cannot use str"):
        x + "1"
    with pytest.raises(TypeError, match="no truth value"):
        if x + 1 <= y:
            pass
    with pytest.raises(TypeError, match="add: expected a comparison"):
        m.add(3)
    with pytest.raises(TypeError, match="add: expected a comparison"):
        m.add(x + y)


def test_variables_of_another_model(m):
    other = cpsolve.Model()
    x, z = m.int_var(0, 3, "x"), other.int_var(0, 3, "z")
    with pytest.raises(ValueError, match="belong to different models"):
        m.add(x == z)
    with pytest.raises(ValueError, match="another model"):
        m.add_all_different([z])


def test_bad_global_arguments(m):
    x, y = m.int_var(0, 3, "x"), m.int_var(0, 3, "y")
    with pytest.raises(ValueError, match="add_table: tuple 1 has 3 values, and there are 2 variables"):
        m.add_table([x, y], [(1, 2), (1, 2, 3)])
    with pytest.raises(ValueError, match="add_regular: two transitions from state 0 on value 1"):
        m.add_regular([x], [(0, 1, 1), (0, 1, 2)], 0, [1])
    with pytest.raises(ValueError, match="add_cumulative: 2 starts, 1 durations"):
        m.add_cumulative([x, y], [1], [1, 1], 1)
    with pytest.raises(ValueError, match="must be >= 0"):
        m.add_cumulative([x], [-1], [1], 1)
    with pytest.raises(ValueError, match="a literal is a 0/1 variable"):
        m.add_bool_or([x])
    with pytest.raises(ValueError, match="level must be"):
        m.add_all_different([x, y], level="strong")
    with pytest.raises(TypeError, match="must be a list"):
        m.add_all_different(5)


def test_bad_solve_options(m):
    m.int_var(0, 3)
    with pytest.raises(TypeError, match="expected a cpsolve.Model"):
        cpsolve.solve("model")
    with pytest.raises(ValueError, match="threads must be >= 1"):
        cpsolve.solve(m, threads=0)
    with pytest.raises(ValueError, match="time_limit must be >= 0"):
        cpsolve.solve(m, time_limit=-1)
    with pytest.raises(ValueError, match="no conflict learning"):
        cpsolve.solve(m, learn=True)


def test_a_constraint_false_when_posted_makes_the_model_unsatisfiable(m):
    x = m.int_var(0, 9)
    m.add(x == 12)
    r = cpsolve.solve(m)
    assert r.status == "UNSATISFIABLE"
    with pytest.raises(ValueError, match="there is no solution"):
        r.value(x)
    assert cpsolve.count(m) == 0


def test_bad_puzzles():
    with pytest.raises(ValueError, match="unknown puzzle 'sodoku'"):
        cpsolve.puzzles.solve("sodoku", "1" * 81)
    with pytest.raises(ValueError, match=r"solve: <stdin>:\d+: "):
        cpsolve.puzzles.solve("sudoku", "12x")
    with pytest.raises(ValueError, match="unknown flag|--no-such-flag"):
        cpsolve.puzzles.solve("sudoku", None, no_such_flag=True)
    with pytest.raises(ValueError, match="use cpsolve.tree"):
        cpsolve.puzzles.solve("sudoku", None, tree="x.svg")
    with pytest.raises(TypeError, match="the puzzle text is a str"):
        cpsolve.puzzles.solve("sudoku", 3.5)
    with pytest.raises(ValueError, match="expected a .fzn file"):
        cpsolve.solve_flatzinc("model.txt")
