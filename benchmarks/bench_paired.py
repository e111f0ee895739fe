"""Paired one-core timing of `trt-why --format json` on the same log: two checkouts, alternated.

    python benchmarks/bench_paired.py OLD_CHECKOUT NEW_CHECKOUT LOG [--runs 5]

Each run is a fresh process with TRT_WHY_JOBS=1 and its own warm KB cache; the two sides alternate, so
whatever else the machine is doing falls on both. Prints each pair's CPU seconds (user + system) and the
medians and their ratio: a change is judged on the ratio, never on a best run.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile


def cpu_seconds(checkout: str, log: str, cache: str) -> float:
    env = dict(os.environ, TRT_WHY_JOBS="1", TRT_WHY_CACHE_DIR=cache, PYTHONPATH=checkout)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "troubleshooter.cli", "--format", "json", "--exit-zero", log],
                   stdout=subprocess.DEVNULL, env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("log")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    caches = {side: tempfile.mkdtemp(prefix=f"trt-why-{side}-") for side in ("old", "new")}
    for side in ("old", "new"):  # warm the KB caches and the page cache
        cpu_seconds(getattr(args, side), args.log, caches[side])
    times: dict[str, list[float]] = {"old": [], "new": []}
    for i in range(args.runs):
        for side in ("old", "new"):
            times[side].append(cpu_seconds(getattr(args, side), args.log, caches[side]))
        print(f"pair {i + 1}: old {times['old'][-1]:.2f} s, new {times['new'][-1]:.2f} s", flush=True)
    old, new = statistics.median(times["old"]), statistics.median(times["new"])
    print(f"median CPU: old {old:.2f} s (spread {min(times['old']):.2f}-{max(times['old']):.2f}), "
          f"new {new:.2f} s (spread {min(times['new']):.2f}-{max(times['new']):.2f}), new/old {new / old:.3f}")


if __name__ == "__main__":
    main()
