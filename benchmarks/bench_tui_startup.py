#!/usr/bin/env python3
"""How long `trt-why tui` takes to show its first screen on a cold start (a script, not a test).

Each run is a fresh Python process (nothing imported, no KB loaded) that builds the app with
``create_app()``, runs it headless at 120x40 and reports as soon as the first screen is composed
and painted. The time is the wall clock from spawning the process to that moment, so it includes
the interpreter's start-up and every import. Target: under 1 s.

    python benchmarks/bench_tui_startup.py [--runs 10] [--log LOG]

With ``--log``, a second figure: until the report screen for that log is shown.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import sys
log = sys.argv[1] or None
from troubleshooter.tui.app import create_app

app = create_app(log=log)

async def auto_pilot(pilot):
    if log is None:
        await pilot.pause()          # the paste screen is composed and painted
    else:
        from troubleshooter.tui.screens.report import ReportScreen
        while not isinstance(app.screen, ReportScreen):
            await pilot.pause(0.01)
        await pilot.pause()
    sys.stdout.write("READY\n")
    sys.stdout.flush()
    app.exit()

app.run(headless=True, size=(120, 40), auto_pilot=auto_pilot)
"""


def one_run(log: str | None) -> float:
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", CHILD, log or ""], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    _, err = proc.communicate(timeout=60)
    if line.strip() != "READY":
        raise SystemExit(f"the app did not start: {err.strip()[-2000:]}")
    return elapsed


def report(label: str, times: list[float]) -> None:
    print(f"{label}: first run {times[0]:.3f} s; median {statistics.median(times):.3f} s, "
          f"min {min(times):.3f} s, max {max(times):.3f} s over {len(times)} runs")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--log", help="also time until the report for this log is shown")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]} · {sys.platform} · each run a new process")
    times = [one_run(None) for _ in range(args.runs)]
    report("first screen (paste)", times)
    verdict = "OK" if statistics.median(times) < 1.0 else "SLOWER than the 1 s target"
    print(f"target < 1 s: {verdict}")
    if args.log:
        report(f"report for {Path(args.log).name}", [one_run(str(Path(args.log).resolve())) for _ in range(args.runs)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
