"""Paired timing of `trt-why --format json` on the same log: two checkouts, alternated.

    python benchmarks/bench_paired.py OLD_CHECKOUT NEW_CHECKOUT LOG [--runs 5] [--jobs 1]

Each run is a fresh process with TRT_WHY_JOBS=1 (one core; `--jobs N`: up to N processes for a log of
96 MiB and more, `reading/parallel.py`) and its own warm KB cache; the two sides alternate, so whatever
else the machine is doing falls on both. Prints each pair's CPU seconds (user + system, children
included) and wall seconds, then the medians, their spread and their ratio: a change is judged on the
ratio, never on a best run. With one core CPU is the figure; with several, wall time.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def timed(checkout: str, log: str, cache: str, jobs: int) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run."""
    env = dict(os.environ, TRT_WHY_JOBS=str(jobs), TRT_WHY_CACHE_DIR=cache, PYTHONPATH=checkout)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "troubleshooter.cli", "--format", "json", "--exit-zero", log],
                   stdout=subprocess.DEVNULL, env=env, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def _line(name: str, old: list[float], new: list[float]) -> str:
    o, n = statistics.median(old), statistics.median(new)
    return (f"median {name}: old {o:.2f} s (spread {min(old):.2f}-{max(old):.2f}), "
            f"new {n:.2f} s (spread {min(new):.2f}-{max(new):.2f}), new/old {n / o:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("log")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=1, help="TRT_WHY_JOBS (default 1: one core)")
    args = parser.parse_args()
    caches = {side: tempfile.mkdtemp(prefix=f"trt-why-{side}-") for side in ("old", "new")}
    for side in ("old", "new"):  # warm the KB caches and the page cache
        timed(getattr(args, side), args.log, caches[side], args.jobs)
    cpu: dict[str, list[float]] = {"old": [], "new": []}
    wall: dict[str, list[float]] = {"old": [], "new": []}
    for i in range(args.runs):
        for side in ("old", "new"):
            c, w = timed(getattr(args, side), args.log, caches[side], args.jobs)
            cpu[side].append(c)
            wall[side].append(w)
        print(f"pair {i + 1}: old {cpu['old'][-1]:.2f} s CPU / {wall['old'][-1]:.2f} s wall, "
              f"new {cpu['new'][-1]:.2f} s CPU / {wall['new'][-1]:.2f} s wall", flush=True)
    print(_line("CPU", cpu["old"], cpu["new"]))
    print(_line("wall", wall["old"], wall["new"]))


if __name__ == "__main__":
    main()
