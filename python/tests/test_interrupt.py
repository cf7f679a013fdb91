"""The GIL is released while the engine searches, and Ctrl-C stops a search with what it
found: a real SIGINT sent to a real Python process."""

import os
import signal
import subprocess
import sys
import threading
import time

import cpsolve

LONG_COUNT = """
import sys, cpsolve
n = 15
m = cpsolve.Model()
q = [m.int_var(0, n - 1) for _ in range(n)]
m.add_all_different(q, level="value")
m.add_all_different([q[i] + i for i in range(n)], level="value")
m.add_all_different([q[i] - i for i in range(n)], level="value")
print("searching", flush=True)
try:
    cpsolve.count(m)
    print("finished", flush=True)
except cpsolve.Interrupted as e:
    print("interrupted", e.result.status, int(e.result) > 0, e.result.stats["nodes"] > 0, flush=True)
except KeyboardInterrupt:
    print("plain KeyboardInterrupt", flush=True)
"""

LONG_OPTIMISATION = """
import cpsolve
n = 16
m = cpsolve.Model()
q = [m.int_var(0, n - 1) for _ in range(n)]
m.add_all_different(q, level="value")
m.add_all_different([q[i] + i for i in range(n)], level="value")
m.add_all_different([q[i] - i for i in range(n)], level="value")
m.minimize(sum((i + 1) * q[i] for i in range(n)))
print("searching", flush=True)
try:
    cpsolve.solve(m)
    print("finished", flush=True)
except cpsolve.Interrupted as e:
    r = e.result
    rows = r.value(q)
    ok = len(set(rows)) == n and len({v + i for i, v in enumerate(rows)}) == n
    print("interrupted", r.status, ok, r.objective == sum((i + 1) * v for i, v in enumerate(rows)), flush=True)
"""

LONG_STREAM = """
import cpsolve
n = 15
m = cpsolve.Model()
q = [m.int_var(0, n - 1) for _ in range(n)]
m.add_all_different(q, level="value")
m.add_all_different([q[i] + i for i in range(n)], level="value")
m.add_all_different([q[i] - i for i in range(n)], level="value")
taken = []
print("searching", flush=True)
try:
    for s in cpsolve.solutions(m):
        taken.append(s.value(q))
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", len(taken) > 0, len({tuple(t) for t in taken}) == len(taken), flush=True)
"""

LONG_PUZZLE = """
import cpsolve
print("searching", flush=True)
try:
    cpsolve.puzzles.solve("queens", 15, count=True, threads=1)
    print("finished", flush=True)
except cpsolve.Interrupted as e:
    print("interrupted", e.result["status"], e.result["count"] > 0, flush=True)
"""


def interrupt(script):
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "searching"
    time.sleep(1.0)
    started = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    return out.strip(), err, time.monotonic() - started, p.returncode


def test_ctrl_c_stops_a_count_and_keeps_the_count_so_far():
    out, err, _, code = interrupt(LONG_COUNT)
    assert out == "interrupted UNKNOWN True True", err
    assert code == 0


def test_ctrl_c_stops_an_optimisation_and_keeps_its_best_solution():
    out, err, _, code = interrupt(LONG_OPTIMISATION)
    assert out == "interrupted SATISFIED True True", err
    assert code == 0


def test_ctrl_c_stops_a_stream_of_solutions_and_keeps_those_taken():
    out, err, _, code = interrupt(LONG_STREAM)
    assert out == "interrupted True True", err
    assert code == 0


def test_ctrl_c_stops_a_puzzle_and_keeps_its_json():
    out, err, _, code = interrupt(LONG_PUZZLE)
    assert out == "interrupted UNKNOWN True", err
    assert code == 0


def test_the_gil_is_released_while_searching():
    m = cpsolve.Model()
    n = 11
    q = [m.int_var(0, n - 1) for _ in range(n)]
    m.add_all_different(q, level="value")
    m.add_all_different([q[i] + i for i in range(n)], level="value")
    m.add_all_different([q[i] - i for i in range(n)], level="value")
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=tick)
    t.start()
    before = len(ticks)
    started = time.monotonic()
    assert cpsolve.count(m) == 2680
    elapsed = time.monotonic() - started
    done.set()
    t.join()
    # Python code ran in the other thread during the search (the GIL was free): a few ticks
    # at least, whatever the machine's speed.
    assert len(ticks) - before >= min(5, int(elapsed * 100)), (len(ticks), elapsed)
