"""The puzzles from Python give what the command line's --json line holds, for every puzzle;
counts equal the command line's; the pictures are the command line's files."""

import json
import os
import tempfile

import pytest

import cpsolve
from conftest import run_cli

SAME_FIELDS = ("puzzle", "instance", "status", "solution", "count", "objective")


@pytest.mark.parametrize("name", cpsolve.puzzles.names())
def test_every_puzzle_example_gives_the_command_line_json(name):
    ours = cpsolve.puzzles.solve(name, threads=1, time_limit=20)
    theirs = json.loads(run_cli(name, "--json", "-p", "1", "-t", "20000").stdout)
    for field in SAME_FIELDS:
        assert ours.get(field) == theirs.get(field), field
    assert set(ours["stats"]) == set(theirs["stats"])
    assert ours["status"] in ("SATISFIED", "OPTIMAL")


@pytest.mark.parametrize("n", [4, 6, 8])
def test_queens_counts_equal_the_command_line_and_the_api(n):
    theirs = json.loads(run_cli("queens", str(n), "--count", "--json").stdout)["count"]
    assert cpsolve.puzzles.count("queens", n) == theirs
    assert cpsolve.puzzles.solve("queens", str(n), count=True, threads=2)["count"] == theirs
    m = cpsolve.Model()
    q = [m.int_var(0, n - 1) for _ in range(n)]
    m.add_all_different(q)
    m.add_all_different([q[i] + i for i in range(n)])
    m.add_all_different([q[i] - i for i in range(n)])
    assert cpsolve.count(m) == theirs


def test_several_instances_give_one_result_each_in_order():
    example = cpsolve.puzzles.example("sudoku").strip()
    text = example + "\n" + example + "\n"
    results = cpsolve.puzzles.solve_all("sudoku", text, threads=2)
    assert [r["instance"] for r in results] == [1, 2]
    assert results[0]["solution"] == results[1]["solution"]
    with pytest.raises(ValueError, match="holds 2 sudoku instances"):
        cpsolve.puzzles.solve("sudoku", text)


def test_flags_reach_the_command_line():
    listed = cpsolve.puzzles.solve("queens", 6, all_solutions=True)
    assert listed["status"] == "ALL_SOLUTIONS" and len(listed["solutions"]) == 4
    two = cpsolve.puzzles.solve("queens", 8, num_solutions=2)
    assert len(two["solutions"]) == 2


def test_a_grid_displays_as_a_picture():
    r = cpsolve.puzzles.solve("sudoku")
    page = r._repr_html_()
    assert "<svg" in page and page.count("<text") == 81
    assert "SATISFIED" in page


def test_animate_and_tree_are_the_command_line_files():
    page = cpsolve.animate("queens", 5)
    svg = cpsolve.tree("queens", 5)
    with tempfile.TemporaryDirectory() as d:
        run_cli("queens", "5", "--animate", os.path.join(d, "a.html"))
        run_cli("queens", "5", "--tree", os.path.join(d, "t.svg"))
        with open(os.path.join(d, "a.html"), encoding="utf-8") as f:
            assert page.html == f.read()
        with open(os.path.join(d, "t.svg"), encoding="utf-8") as f:
            assert svg.svg == f.read()
    assert svg._repr_svg_().startswith("<svg") or "<svg" in svg._repr_svg_()
    assert "srcdoc=" in page._repr_html_()
    assert isinstance(cpsolve.tree("queens", 5, format="html"), cpsolve.Page)
