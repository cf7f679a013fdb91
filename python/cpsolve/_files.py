"""FlatZinc and MiniZinc models, and cpsolve as a MiniZinc solver (for CPMpy too).

`solve_flatzinc(path)` runs `cpsolve model.fzn -s` in the process and reads its MiniZinc
output (`x = 3;` items, `----------` after each solution, `==========` when the search is
complete) into Python values. `solve_minizinc(model, data)` compiles a model with
`minizinc -c` against cpsolve's own MiniZinc library (so its globals reach the engine whole)
and solves the FlatZinc that comes out. `minizinc_solver_config()` writes a solver
configuration (`cpsolve.msc`) naming the package's `cpsolve` command, for `minizinc --solver`
and for libraries that drive MiniZinc, such as CPMpy (docs/python.md).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from typing import Any, Dict, List, Optional, Union

from . import _cli, _native

_ITEM = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?);\s*$", re.S)


def _value(text: str) -> Any:
    """A dzn value: an int, a bool, a float, a set (`1..3`, `{1,2}`), an array (flattened:
    `array2d(1..2,1..2,[...])` gives its list)."""
    t = text.strip()
    if t in ("true", "false"):
        return t == "true"
    if re.fullmatch(r"-?\d+", t):
        return int(t)
    m = re.fullmatch(r"(-?\d+)\.\.(-?\d+)", t)
    if m:
        return set(range(int(m.group(1)), int(m.group(2)) + 1))
    if t.startswith("{") and t.endswith("}"):
        inner = t[1:-1].strip()
        return set() if not inner else {_value(v) for v in inner.split(",")}
    m = re.fullmatch(r"array\d+d\((.*)\)", t, re.S)
    if m:
        t = t[t.index("[") : t.rindex("]") + 1]
    if t.startswith("[") and t.endswith("]"):
        inner = t[1:-1].replace("|", ",")
        return [_value(v) for v in inner.split(",") if v.strip()]
    try:
        return float(t)
    except ValueError:
        return t


def _parse_output(out: str, optimisation: bool) -> Dict[str, Any]:
    solutions: List[Dict[str, Any]] = []
    current: Dict[str, Any] = {}
    stats: Dict[str, Any] = {}
    status = None
    buffer = ""
    for line in out.splitlines():
        s = line.strip()
        if s.startswith("%%%mzn-stat:"):
            key, _, v = s[len("%%%mzn-stat:"):].strip().partition("=")
            stats[key.strip()] = _value(v)
        elif s.startswith("%"):
            continue
        elif s == "----------":
            solutions.append(current)
            current = {}
        elif s == "==========":
            status = "OPTIMAL" if optimisation else "ALL_SOLUTIONS"
        elif s.startswith("=====") and s.endswith("====="):
            status = s.strip("=")
        elif s:
            buffer += line + "\n"
            if s.endswith(";"):
                m = _ITEM.match(buffer)
                if m:
                    current[m.group(1)] = _value(m.group(2))
                buffer = ""
    if status is None:
        status = "SATISFIED" if solutions else "UNKNOWN"
    if status == "ALL_SOLUTIONS" and len(solutions) <= 1 and not optimisation:
        # A satisfaction search asked for one solution prints `==========` only with -a.
        pass
    result: Dict[str, Any] = {
        "status": status,
        "solution": solutions[-1] if solutions else None,
        "solutions": solutions,
        "stats": stats,
    }
    if optimisation and solutions and "objective" in stats:
        result["objective"] = stats["objective"]
    return result


def solve_flatzinc(path: Union[str, os.PathLike], **flags: Any) -> Dict[str, Any]:
    """Solve a FlatZinc file. Returns a dict: `status` (as in `cpsolve.solve`), `solution`
    (the last one printed: the best, for an optimisation; a dict of the output variables),
    `solutions` (each one printed: several with `all_solutions=True`, `num_solutions=N` or,
    for an optimisation, `intermediate=True`), `objective`, `stats` (the `%%%mzn-stat`
    lines). Flags: `all_solutions`, `num_solutions`, `intermediate`, `time_limit` (seconds),
    `seed`, `free_search`, `threads`, `nodes`, `failures`, `profile`."""
    path = os.fspath(path)
    if not isinstance(path, str) or not path.endswith(".fzn"):
        raise ValueError(f"solve_flatzinc: expected a .fzn file, not {path!r}")
    args = [path, "-s"] + _cli.flags_to_args("solve_flatzinc", flags)
    out, interrupt = _cli.run("solve_flatzinc", args)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            optimisation = re.search(r"\bsolve\b[^;]*\b(minimize|maximize)\b", f.read()) is not None
    except OSError:
        optimisation = False
    result = _parse_output(out, optimisation)
    if interrupt is not None:
        from ._solve import Interrupted

        raise Interrupted(result) from interrupt
    return result


def _command() -> str:
    """The package's `cpsolve` command, next to this Python."""
    here = os.path.join(os.path.dirname(sys.executable), "cpsolve")
    if os.path.exists(here):
        return here
    found = shutil.which("cpsolve")
    if found:
        return found
    raise RuntimeError("cannot find the package's 'cpsolve' command (is the package installed with pip?)")


def minizinc_solver_config(folder: Optional[str] = None) -> str:
    """Write cpsolve's MiniZinc library and a solver configuration `cpsolve.msc` into
    `folder` (default: a folder of this user's cache) and return the configuration's path.
    `minizinc --solver PATH model.mzn` then solves with cpsolve; put `folder` on
    `MZN_SOLVER_PATH` (`register_minizinc_solver` does) and MiniZinc, and the libraries that
    drive it (minizinc-python, CPMpy), know the solver as `cpsolve`."""
    if folder is None:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(base, "cpsolve", "minizinc")
    mznlib = os.path.join(folder, "mznlib")
    os.makedirs(mznlib, exist_ok=True)
    for name, text in _native.mznlib_files():
        with open(os.path.join(mznlib, name), "w", encoding="utf-8") as f:
            f.write(text)
    config = {
        "id": "org.cpsolve.cpsolve",
        "name": "cpsolve",
        "description": "cpsolve, a constraint-programming engine written to be read",
        "version": _native.__version__,
        "executable": _command(),
        "mznlib": mznlib,
        "tags": ["cp", "int"],
        "stdFlags": ["-a", "-n", "-s", "-t", "-p", "-r", "-f", "-i"],
        "extraFlags": [
            ["--nodes", "stop after N search nodes", "int", "0"],
            ["--failures", "stop after N failures", "int", "0"],
            ["--profile", "time each kind of propagator", "bool", "false"],
        ],
        "supportsMzn": False,
        "supportsFzn": True,
        "needsSolns2Out": True,
        "isGUIApplication": False,
    }
    path = os.path.join(folder, "cpsolve.msc")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(config, f, indent=2)
    return path


def register_minizinc_solver(folder: Optional[str] = None) -> str:
    """`minizinc_solver_config(folder)`, and its folder put first on `MZN_SOLVER_PATH` for
    this process and the ones it starts: MiniZinc then finds the solver `cpsolve`."""
    path = minizinc_solver_config(folder)
    here = os.path.dirname(path)
    paths = [p for p in os.environ.get("MZN_SOLVER_PATH", "").split(os.pathsep) if p and p != here]
    os.environ["MZN_SOLVER_PATH"] = os.pathsep.join([here] + paths)
    return path


def _dzn(data: Dict[str, Any]) -> str:
    def one(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, (set, frozenset)):
            return "{" + ", ".join(one(x) for x in sorted(v)) + "}"
        if isinstance(v, (list, tuple)):
            if v and all(isinstance(r, (list, tuple)) for r in v):
                rows = "|".join(", ".join(one(x) for x in r) for r in v)
                return f"[|{rows}|]"
            return "[" + ", ".join(one(x) for x in v) + "]"
        raise TypeError(f"solve_minizinc: cannot write {type(v).__name__} {v!r} as MiniZinc data")

    return "".join(f"{k} = {one(v)};\n" for k, v in data.items())


def solve_minizinc(model: str, data: Union[str, Dict[str, Any], None] = None, **flags: Any) -> Dict[str, Any]:
    """Solve a MiniZinc model (a `.mzn` path, or the model's text) with `data` (a `.dzn`
    path, dzn text, or a dict of values), through the `minizinc` command, which must be
    installed: it compiles the model with cpsolve's library, and `solve_flatzinc` solves the
    result. Returns what `solve_flatzinc` does, the values named as in the model."""
    if not isinstance(model, str):
        raise TypeError(f"solve_minizinc: the model is a path or the model's text, not {type(model).__name__}")
    minizinc = shutil.which("minizinc")
    if minizinc is None:
        raise RuntimeError("solve_minizinc: needs the 'minizinc' command, which is not installed (or not on PATH)")
    with tempfile.TemporaryDirectory(prefix="cpsolve-mzn-") as folder:
        msc = minizinc_solver_config(os.path.join(folder, "solver"))
        if not (model.endswith(".mzn") and os.path.exists(model)):
            path = os.path.join(folder, "model.mzn")
            with open(path, "w", encoding="utf-8") as f:
                f.write(model)
            model = path
        files = [model]
        if isinstance(data, dict):
            data = _dzn(data)
        if isinstance(data, str):
            if data.endswith(".dzn") and os.path.exists(data):
                files.append(data)
            else:
                path = os.path.join(folder, "data.dzn")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(data)
                files.append(path)
        elif data is not None:
            raise TypeError(f"solve_minizinc: data is a path, dzn text or a dict, not {type(data).__name__}")
        fzn = os.path.join(folder, "model.fzn")
        compiled = subprocess.run(
            [minizinc, "--solver", msc, "-c", *files, "--fzn", fzn, "--ozn", os.path.join(folder, "model.ozn")],
            capture_output=True,
            text=True,
        )
        if compiled.returncode != 0:
            lines = [l for l in compiled.stderr.splitlines() if l.strip()]
            raise ValueError(f"solve_minizinc: minizinc: {' '.join(lines[-3:]) if lines else 'compilation failed'}")
        return solve_flatzinc(fzn, **flags)
