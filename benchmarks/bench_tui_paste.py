#!/usr/bin/env python3
"""Paste to report in the TUI, measured in a real terminal (tmux): a script, not a test.

`trt-why tui` runs in a detached tmux session (120x40 by default). A log made by gen_log.py is loaded
into a tmux buffer and pasted as a terminal pastes it (`tmux paste-buffer -p`: a bracketed paste, line
breaks sent as CR); the clock runs from the paste to the moment the report screen is on the terminal
(its tab bar, read with `tmux capture-pane` every 20 ms). Each size is pasted into a fresh app.

Two references are timed the same way for each size: the terminal itself (the same paste into a
small reader that only waits for the paste's end marker: the bytes' own transit time) and the
one-shot CLI on the same bytes (`trt-why --format json FILE`, process start to exit).

    python benchmarks/bench_tui_paste.py                    # 1 MB and 20 MB, 3 runs each
    python benchmarks/bench_tui_paste.py --sizes 1M 5M 20M --runs 5 --size 80x24

Targets (issue #25): 1 MB in at most 1 s, 20 MB in at most 10 s. The exit status is 1 when a median
misses its target.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_log import generate  # benchmarks/ is on the path above

TARGETS = {1_000_000: 1.0, 20_000_000: 10.0}
"""Bytes -> seconds the median must not exceed (issue #25); other sizes are reported without a target."""
REPORT_MARK = "2 Your version"
"""Text that only the report screen shows (its tab bar)."""
READY_MARK = "Paste a TensorRT build log"
POLL = 0.02
SETTLE = 2.0
"""Seconds between the first screen and the paste: a user opens the app, then copies the log and pastes it
(the app loads its knowledge base meanwhile)."""
HANG_GUARD = 300.0

READER = r"""
import os, sys, termios, tty, time
fd = sys.stdin.fileno()
old = termios.tcgetattr(fd)
tty.setraw(fd)
sys.stdout.write("\x1b[?2004h" "READER READY\r\n"); sys.stdout.flush()
seen = b""
try:
    while not seen.endswith(b"\x1b[201~"):
        seen = (seen + os.read(fd, 1 << 16))[-16:]
finally:
    termios.tcsetattr(fd, termios.TCSADRAIN, old)
sys.stdout.write("\x1b[?2004l" "READER GOT IT\r\n"); sys.stdout.flush()
time.sleep(60)
"""
"""The terminal's side alone: turn bracketed paste on, read until the paste's end marker, say so."""


def tmux(*args: str, check: bool = True) -> str:
    done = subprocess.run(["tmux", *args], capture_output=True, text=True, check=False)
    if check and done.returncode != 0:
        raise SystemExit(f"tmux {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def screen(session: str) -> str:
    return tmux("capture-pane", "-p", "-t", session, check=False)


def wait_for(session: str, mark: str, timeout: float = HANG_GUARD) -> float:
    """Poll the pane until it shows ``mark``; the time it was first seen."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if mark in screen(session):
            return time.monotonic()
        time.sleep(POLL)
    raise SystemExit(f"{session}: {mark!r} not on the screen after {timeout:.0f} s:\n{screen(session)}")


def paste_into(command: str, ready: str, done: str, log: Path, size: tuple[int, int]) -> float:
    """Start ``command`` in a fresh tmux session, wait for ``ready``, paste ``log``, time until ``done``."""
    session = f"trtwhy-bench-{os.getpid()}"
    env = {"TERM": "xterm-256color", "COLORTERM": "truecolor"}
    exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    tmux("new-session", "-d", "-s", session, "-x", str(size[0]), "-y", str(size[1]), f"{exports} {command}")
    try:
        wait_for(session, ready)
        time.sleep(SETTLE)
        tmux("load-buffer", "-b", session, str(log))
        start = time.monotonic()
        tmux("paste-buffer", "-p", "-d", "-b", session, "-t", session)
        return wait_for(session, done) - start
    finally:
        tmux("kill-session", "-t", session, check=False)


def decimal_size(spec: str) -> int:
    """`1M` -> 1,000,000 bytes (decimal, as the targets are written), `500K`, `1.5M`, `12345`."""
    units = {"K": 10**3, "M": 10**6, "G": 10**9}
    return int(float(spec[:-1]) * units[spec[-1].upper()]) if spec[-1].upper() in units else int(spec)


def one_shot(log: Path) -> float:
    start = time.monotonic()
    subprocess.run([sys.executable, "-m", "troubleshooter.cli", "--format", "json", "--exit-zero", str(log)],
                   cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
    return time.monotonic() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="+", default=["1M", "20M"], help="log sizes: 1M = 10^6 bytes, 500K, 12345")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--size", default="120x40", help="terminal columns x rows")
    args = parser.parse_args(argv)
    if shutil.which("tmux") is None:
        raise SystemExit("this benchmark needs tmux")
    cols, rows = (int(x) for x in args.size.lower().split("x"))
    python = shlex.quote(sys.executable)
    # A session that lives as long as the benchmark: the tmux server would otherwise exit between two runs,
    # and the next run's new-session could reach a server on its way out.
    keeper = f"trtwhy-bench-keeper-{os.getpid()}"
    tmux("new-session", "-d", "-s", keeper, "sleep 86400")
    try:
        return _run(args, cols, rows, python)
    finally:
        tmux("kill-session", "-t", keeper, check=False)


def _run(args: argparse.Namespace, cols: int, rows: int, python: str) -> int:
    missed = False
    print(f"paste to report in `trt-why tui` at {cols}x{rows}, tmux {tmux('-V').split()[-1]}, median of {args.runs} runs")
    print(f"{'size':>8}  {'lines':>9}  {'terminal':>9}  {'one-shot':>9}  {'paste→report':>13}  target")
    with tempfile.TemporaryDirectory(prefix="trt-why-paste-") as tmp:
        for spec in args.sizes:
            n = decimal_size(spec)
            data = generate(n, seed=1)
            log = Path(tmp) / f"paste-{spec}.log"
            log.write_bytes(data)
            lines = data.count(b"\n")
            reader = Path(tmp) / "reader.py"
            reader.write_text(READER, encoding="utf-8")
            term = statistics.median(paste_into(f"{python} {reader}", "READER READY", "READER GOT IT", log, (cols, rows))
                                     for _ in range(args.runs))
            cli = statistics.median(one_shot(log) for _ in range(args.runs))
            app = [paste_into(f"cd {shlex.quote(str(ROOT))} && {python} -m troubleshooter.cli tui", READY_MARK,
                              REPORT_MARK, log, (cols, rows)) for _ in range(args.runs)]
            med = statistics.median(app)
            target = TARGETS.get(n)
            verdict = "" if target is None else (f"<= {target:g} s " + ("ok" if med <= target else "MISSED"))
            missed |= target is not None and med > target
            print(f"{len(data) / 1e6:>6.1f}MB  {lines:>9,}  {term:>8.2f}s  {cli:>8.2f}s  {med:>12.2f}s  {verdict}"
                  f"   (runs: {', '.join(f'{t:.2f}' for t in app)})", flush=True)
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
