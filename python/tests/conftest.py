"""Shared helpers of the Python package's tests (run by .ci/run in a fresh virtual
environment where `pip install ./python` installed the package)."""

import os
import shutil
import subprocess
import sys

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def cli_command():
    """The command line to compare with: the package's `cpsolve` command (the same Rust code
    as the binary, run as a separate process)."""
    here = os.path.join(os.path.dirname(sys.executable), "cpsolve")
    found = here if os.path.exists(here) else shutil.which("cpsolve")
    if found is None:
        pytest.skip("the package's cpsolve command is not on PATH (install the package with pip)")
    return found


def run_cli(*args, stdin=None):
    return subprocess.run([cli_command(), *args], input=stdin, capture_output=True, text=True, timeout=300)


def data_dir():
    """`CPSOLVE_DATA`, or `../shared/data` beside the repository (None if neither)."""
    env = os.environ.get("CPSOLVE_DATA")
    if env and os.path.isdir(env):
        return env
    beside = os.path.join(REPO, "..", "shared", "data")
    return beside if os.path.isdir(beside) else None
