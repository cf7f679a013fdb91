"""The puzzles of the command line, from Python.

`cpsolve.puzzles.solve("sudoku", text)` runs `cpsolve sudoku - --json` in the process with
`text` as its input and returns the JSON object it prints, as Python objects: `puzzle`,
`instance`, `status`, `solution`, `solutions` (with `all_solutions`/`num_solutions`), `count`
(with `count=True`), `objective`, `stats` — the fields of the command's `--json` line
(docs/cli.md), for every puzzle. In a notebook a grid solution displays as a picture.

Flags are the command line's, by keyword: `all_solutions=True` (-a), `num_solutions=5`
(-n), `threads=2` (-p; default: all cores, as the command line), `seed=1` (-r),
`time_limit=0.5` (seconds), `free_search=True` (-f), `count=True`, `alldiff="value"`,
`colours=4`, ... any flag of `cpsolve --help`, with `_` for `-`.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Union

from . import _cli, _native
from ._pictures import grid_svg

_KINDS = {name: (summary, optimisation, source, seed) for name, summary, optimisation, source, seed in _native.puzzle_kinds()}
_ALIASES = {"binary-sudoku": "takuzu"}


def names() -> List[str]:
    """The puzzles' names, as `cpsolve --help` lists them."""
    return list(_KINDS)


def summary(name: str) -> str:
    """The puzzle's one-line description."""
    return _KINDS[_kind(name, "summary")][0]


def example(name: str) -> str:
    """The puzzle's built-in example, in its file format (FORMATS.md)."""
    return _KINDS[_kind(name, "example")][3]


def _kind(name, function: str) -> str:
    if not isinstance(name, str):
        raise TypeError(f"{function}: the puzzle's name is a str, not {type(name).__name__}")
    name = _ALIASES.get(name, name)
    if name not in _KINDS:
        raise ValueError(f"{function}: unknown puzzle {name!r} (expected one of: {', '.join(_KINDS)})")
    return name


class PuzzleResult(dict):
    """The command line's JSON object for one instance (a `dict`); displays its solution as a
    picture in a notebook when it is a grid."""

    @property
    def status(self) -> str:
        return self["status"]

    @property
    def solution(self) -> Any:
        return self.get("solution")

    def _repr_html_(self) -> str:
        head = f"<p><b>{self.get('puzzle')}</b>: {self.get('status')}"
        if self.get("objective") is not None:
            head += f", objective {self['objective']}"
        if self.get("count") is not None:
            head += f", {self['count']} solutions"
        head += f" ({self.get('stats', {}).get('nodes', 0)} nodes)</p>"
        picture = grid_svg(self.get("solution"))
        if picture is None:
            body = self.get("solution")
            picture = "" if body is None else f"<pre>{_escape(json.dumps(body))}</pre>"
        return head + picture


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _args(function: str, name, text, flags: Dict[str, Any]):
    """The command line's words and standard input for this puzzle and text."""
    name = _kind(name, function)
    source = _KINDS[name][2]
    words = [name]
    stdin = None
    if text is None:
        pass  # the built-in example
    elif isinstance(text, int) and not isinstance(text, bool) and source in ("number", "file_or_number"):
        words.append(str(text))
    elif isinstance(text, (str, bytes)):
        if source == "builtin":
            raise ValueError(f"{function}: {name} is built in and takes no text")
        if source == "number" and isinstance(text, str) and text.strip().isdigit():
            words.append(text.strip())
        else:
            words.append("-")
            stdin = text.encode("utf-8") if isinstance(text, str) else text
    else:
        raise TypeError(f"{function}: the puzzle text is a str, not {type(text).__name__}")
    return words + _cli.flags_to_args(function, flags), stdin


def _run(function: str, name, text, flags) -> List[PuzzleResult]:
    args, stdin = _args(function, name, text, flags)
    out, interrupt = _cli.run(function, ["--json"] + args, stdin)
    results = [PuzzleResult(json.loads(line)) for line in out.splitlines() if line.strip()]
    if interrupt is not None:
        from ._solve import Interrupted

        raise Interrupted(results[0] if len(results) == 1 else results) from interrupt
    return results


def solve(name: str, text: Union[str, int, None] = None, **flags: Any) -> PuzzleResult:
    """Solve one puzzle instance: `name` as `cpsolve --help` lists it, `text` in the file
    format of FORMATS.md (a number for `queens`; `None`: the built-in example). Returns the
    command line's `--json` object. A text with several instances: use `solve_all`."""
    results = _run("solve", name, text, flags)
    if len(results) != 1:
        raise ValueError(
            f"solve: the text holds {len(results)} {name} instances: cpsolve.puzzles.solve_all returns one result each"
        )
    return results[0]


def solve_all(name: str, text: Union[str, int, None] = None, **flags: Any) -> List[PuzzleResult]:
    """Solve every instance of `text` (one per line for Sudoku, ...): one JSON object each,
    in order, as `cpsolve NAME FILE --json` prints them."""
    return _run("solve_all", name, text, flags)


def count(name: str, text: Union[str, int, None] = None, **flags: Any) -> int:
    """The number of solutions of one instance (`cpsolve NAME --count`)."""
    result = solve(name, text, count=True, **flags)
    return result["count"]
