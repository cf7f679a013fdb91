"""FlatZinc and MiniZinc models, and cpsolve as a MiniZinc solver for CPMpy."""

import os
import shutil

import pytest

import cpsolve
from conftest import REPO, run_cli

MINIMIZE = os.path.join(REPO, "cli", "tests", "corpus", "fzn-minimize.fzn")


def test_a_flatzinc_minimisation_is_solved_to_its_optimum():
    r = cpsolve.solve_flatzinc(MINIMIZE)
    assert r["status"] == "OPTIMAL"
    assert r["solution"]["x"] == 1 and r["solution"]["x"] + r["solution"]["y"] >= 20
    assert r["stats"]  # the %%%mzn-stat lines
    assert run_cli(MINIMIZE).stdout.count("----------") == len(r["solutions"])


def test_a_bad_flatzinc_file_is_a_value_error_naming_the_line():
    with pytest.raises(ValueError, match=r"fzn-undefined-var.fzn:\d+:"):
        cpsolve.solve_flatzinc(os.path.join(REPO, "cli", "tests", "corpus", "fzn-undefined-var.fzn"))


def needs_minizinc():
    if shutil.which("minizinc") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI must install minizinc (.ci/run)")
        pytest.skip("minizinc is not installed: the MiniZinc tests need it")


def test_a_minizinc_model_with_data_as_a_dict():
    needs_minizinc()
    model = """
    int: n;
    array[1..n] of var 1..n: q;
    include "alldifferent.mzn";
    constraint alldifferent(q);
    constraint alldifferent(i in 1..n)(q[i] + i);
    constraint alldifferent(i in 1..n)(q[i] - i);
    solve satisfy;
    """
    r = cpsolve.solve_minizinc(model, {"n": 6}, all_solutions=True)
    assert r["status"] == "ALL_SOLUTIONS"
    assert len(r["solutions"]) == 4
    assert all(len(s["q"]) == 6 for s in r["solutions"])


def test_cpmpy_solves_through_minizinc_with_cpsolve(tmp_path):
    needs_minizinc()
    cp = pytest.importorskip("cpmpy", reason="cpmpy is not installed (CI installs it from PyPI)")
    from cpmpy.solvers.minizinc import CPM_minizinc

    if not CPM_minizinc.installed():
        pytest.skip("CPMpy's MiniZinc interface needs the 'minizinc' Python package")
    if CPM_minizinc.outdated():
        pytest.skip("CPMpy's MiniZinc interface refuses this minizinc (it wants 2.8.2 or later; Debian ships 2.6.4)")
    cpsolve.register_minizinc_solver(str(tmp_path / "solver"))
    x = cp.intvar(1, 8, shape=8, name="q")
    model = cp.Model(
        cp.AllDifferent(x),
        cp.AllDifferent([x[i] + i for i in range(8)]),
        cp.AllDifferent([x[i] - i for i in range(8)]),
    )
    solver = cp.SolverLookup.get("minizinc:cpsolve", model)
    assert solver.solveAll() == 92
    s = cp.Model(x[0] + x[1] == 15, x[0] > x[1])
    s.maximize(x[0] * 2)
    assert s.solve(solver="minizinc:cpsolve") and x[0].value() == 8


def test_minizinc_runs_the_package_command_through_the_solver_configuration(tmp_path):
    """The route CPMpy and minizinc-python take: `minizinc --solver cpsolve.msc`, which runs
    the package's `cpsolve` command on the compiled FlatZinc."""
    needs_minizinc()
    import subprocess

    msc = cpsolve.minizinc_solver_config(str(tmp_path / "solver"))
    model = tmp_path / "queens.mzn"
    model.write_text(
        'include "alldifferent.mzn"; int: n = 6; array[1..n] of var 1..n: q;\n'
        "constraint alldifferent(q); constraint alldifferent(i in 1..n)(q[i] + i);\n"
        "constraint alldifferent(i in 1..n)(q[i] - i); solve satisfy;\n"
    )
    out = subprocess.run(["minizinc", "--solver", msc, "-a", str(model)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("----------") == 4 and "==========" in out.stdout
