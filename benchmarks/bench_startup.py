#!/usr/bin/env python3
"""Start-up of the one-shot CLI against the bare interpreter: `trt-why small.log` vs `python -c "import json, re"`.

    python benchmarks/bench_startup.py [--runs 30] [--log sample_logs/yolov8-int8-orin-silu.log]

Both run with this interpreter (sys.executable), the package's bytecode compiled and the KB cache
warm (as after `pip install` and a first run), interleaved run by run. Prints the medians of wall and CPU time, the ratio
(issue #26: at most 12x, pydantic models included; an earlier issue aimed at 8x) and what the one-shot path imported.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRT_WHY = "from troubleshooter.cli import entry; entry()"  # what the `trt-why` console script runs


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=str(ROOT))
    _pid, _status, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def measure(cmds: dict[str, list[str]], env: dict[str, str], runs: int) -> dict[str, dict[str, float]]:
    """Each command `runs` times, interleaved (base, tool, base, tool ...): a VM's slow minute slows both alike, and
    the ratio compares runs made side by side. Medians, with the spread of the wall times."""
    for cmd in cmds.values():
        timed(cmd, env)  # warm-up
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in cmds}
    for _ in range(runs):
        for name, cmd in cmds.items():
            samples[name].append(timed(cmd, env))
    return {name: {"wall": statistics.median(s[0] for s in got), "cpu": statistics.median(s[1] for s in got),
                   "min": min(s[0] for s in got), "max": max(s[0] for s in got)}
            for name, got in samples.items()}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--log", default=str(ROOT / "sample_logs" / "yolov8-int8-orin-silu.log"))
    p.add_argument("--format", default="text", choices=("text", "json", "markdown"))
    args = p.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("TRT_WHY_NO_CACHE", None)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "troubleshooter")], check=False,
                   stdout=subprocess.DEVNULL)
    measured = measure({"base": [sys.executable, "-c", "import json, re"],
                        "tool": [sys.executable, "-c", TRT_WHY, "--format", args.format, args.log]}, env, args.runs)
    base, tool = measured["base"], measured["tool"]
    probe = subprocess.run(  # noqa: PLW1510 - the output is what matters
        [sys.executable, "-c", ("import sys, json\nfrom troubleshooter.cli import main\n"
         f"main(['--format', {args.format!r}, {args.log!r}])\n"
         "sys.stderr.write(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))")],
        capture_output=True, env=env, cwd=str(ROOT))
    top = json.loads(probe.stderr.decode().splitlines()[-1])
    heavy = [m for m in top if m in ("textual", "onnx", "onnxruntime", "numpy", "mcp", "polygraphy", "torch")]
    print(f"python -c 'import json, re': {base['wall'] * 1000:.0f} ms wall, {base['cpu'] * 1000:.0f} ms cpu "
          f"(spread {base['min'] * 1000:.0f}-{base['max'] * 1000:.0f})")
    print(f"trt-why --format {args.format} {Path(args.log).name}: {tool['wall'] * 1000:.0f} ms wall, "
          f"{tool['cpu'] * 1000:.0f} ms cpu (spread {tool['min'] * 1000:.0f}-{tool['max'] * 1000:.0f})")
    print(f"ratio: {tool['wall'] / base['wall']:.1f}x wall, {tool['cpu'] / base['cpu']:.1f}x cpu "
          f"(medians of {args.runs} interleaved runs; target <= 12x)")
    print(f"heavy modules imported: {heavy or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
