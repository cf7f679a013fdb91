#!/usr/bin/env python3
"""Simulated scale-up of a split search, as the EPS papers do (Régin, Rezgui, Malapert).

    scripts/eps-simulate.py parts.jsonl results/ [WORKERS...]    (default: 1 2 8 64 512)

Reads the parts' measured times (`stats.time_ms` of each result line; a part run twice: its
first result) and schedules them on W identical workers two ways: in the parts file's order
(largest estimated part first, each part to the first worker free: what a job array does)
and longest-processing-time first on the measured times (the best a scheduler knowing the
times could do greedily). Prints, per W, the makespan and the speed-up over one worker
(the sum of the times). Where the speed-up falls well short of W, the parts are too few or
too uneven for that many workers: the largest part is a lower bound on the makespan.
"""
import heapq
import json
import os
import sys


def makespan(times, workers):
    free = [0.0] * workers
    for t in times:
        heapq.heappush(free, heapq.heappop(free) + t)
    return max(free)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    parts_path, results = sys.argv[1], sys.argv[2]
    workers = [int(w) for w in sys.argv[3:]] or [1, 2, 8, 64, 512]
    order = []
    with open(parts_path) as f:
        for line in f:
            v = json.loads(line)
            if "cpsolve_parts" not in v:
                order.append(v["part"])
    times = {}
    for name in sorted(os.listdir(results)):
        if name.startswith("."):
            continue
        with open(os.path.join(results, name)) as f:
            for line in f:
                if not line.endswith("\n"):
                    continue
                v = json.loads(line)
                times.setdefault(v["part"], v["stats"]["time_ms"])
    missing = [p for p in order if p not in times]
    if missing:
        sys.exit(f"error: {len(missing)} parts have no result (e.g. part {missing[0]})")
    in_order = [times[p] for p in order]
    total = sum(in_order)
    largest = max(in_order)
    print(f"{len(order)} parts, {total:.0f} ms in all, the largest {largest:.0f} ms "
          f"({100 * largest / total:.1f} %)")
    print(f"{'workers':>8} {'in order: ms':>13} {'speed-up':>9} {'LPT: ms':>9} {'speed-up':>9}")
    lpt = sorted(in_order, reverse=True)
    for w in workers:
        a, b = makespan(in_order, w), makespan(lpt, w)
        print(f"{w:>8} {a:>13.0f} {total / a:>9.1f} {b:>9.0f} {total / b:>9.1f}")


if __name__ == "__main__":
    main()
