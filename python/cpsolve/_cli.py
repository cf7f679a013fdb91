"""Running the command line in the process, and turning its words into Python's.

`run(args, stdin)` is the command line itself (see python/src/command.rs); its exit status
becomes Python's: 2 (bad usage or input, one line `error: FILE:LINE: ...`) a `ValueError`
with that line, 1 (an internal error) a `RuntimeError`; a warning line a Python warning.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Optional, Tuple

from . import _native

# Flags with a Python name of their own, and the command line's spelling.
_SPELLING = {
    "all_solutions": "-a",
    "num_solutions": "-n",
    "threads": "-p",
    "seed": "-r",
    "free_search": "-f",
    "intermediate": "-i",
    "statistics": "-s",
}

# Flags whose output has a function of its own here.
_REFUSED = {
    "json": "the result is the JSON object already",
    "trace": "use cpsolve.tree for the picture of the search",
    "tree": "use cpsolve.tree(...)",
    "animate": "use cpsolve.animate(...)",
    "verbose": "progress lines are for the terminal",
    "help": "see help(cpsolve)",
    "version": "see cpsolve.__version__",
}


def flags_to_args(function: str, flags: Dict[str, Any]) -> List[str]:
    """`time_limit=1.5, all_solutions=True, alldiff="value"` as `-t 1500 -a --alldiff value`.
    `time_limit` is in seconds, as everywhere in Python (the command line's `-t` counts
    milliseconds). Any other flag of `cpsolve --help` is spelt with `_` for `-`."""
    args: List[str] = []
    for name, value in flags.items():
        if name in _REFUSED:
            raise ValueError(f"{function}: {name}= is not taken here: {_REFUSED[name]}")
        if value is None or value is False:
            continue
        if name == "time_limit":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
                raise ValueError(f"{function}: time_limit is a number of seconds >= 0, not {value!r}")
            args += ["-t", str(max(0, round(value * 1000)))]
            continue
        flag = _SPELLING.get(name, "--" + name.replace("_", "-"))
        if value is True:
            args.append(flag)
        else:
            args += [flag, str(value)]
    return args


def run(function: str, args: List[str], stdin: Optional[bytes] = None) -> Tuple[str, Optional[BaseException]]:
    """Run the command line; its standard output, and the Ctrl-C exception if one came."""
    status, out, err, interrupt = _native.run_cli(args, stdin)
    lines = [line for line in err.splitlines() if line.strip()]
    for line in lines:
        if line.startswith("warning: "):
            warnings.warn(f"{function}: {line[len('warning: '):]}", stacklevel=3)
    errors = [line for line in lines if line.startswith("error: ")]
    message = errors[0][len("error: "):] if errors else (lines[-1] if lines else "")
    if status == 2:
        raise ValueError(f"{function}: {message}")
    if status != 0:
        raise RuntimeError(f"{function}: {message or f'the command line ended with status {status}'}")
    return out.decode("utf-8"), interrupt
