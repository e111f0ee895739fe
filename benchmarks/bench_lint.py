"""Benchmark ``trt-why lint``: time and peak memory per model, each model in a fresh process.

Run: ``python benchmarks/bench_lint.py [--large-gb 2] [--keep DIR]``. Models are generated
(tests/lint/lint_factory.py plus a QDQ conv chain and a large external-data model made with a
sparse file), so nothing binary is stored. The sparse file's weights are scanned (fp16-range reads
external weights in 16 MiB chunks): its time is mostly the kernel filling the holes with zero pages.
``bench_lint_big.py`` measures models with real weights, inline and external. For each model a subprocess imports trt-why, lints
the model once and reports the lint time, the wall time of the whole process (interpreter and
imports included) and its peak RSS (``VmHWM``; ``ru_maxrss`` would include the parent's peak,
because Linux keeps it across fork and exec).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "lint")]

import lint_factory as fx
import numpy as np
import onnx
from onnx import TensorProto, helper

CHILD = """
import json, sys, time
start = time.perf_counter()
from troubleshooter.lint import lint_path
from troubleshooter.errors import LintError
import onnx, numpy
imported = time.perf_counter()
try:
    report = lint_path(sys.argv[1])
    findings = len(report.findings)
except LintError as err:
    findings = -1
done = time.perf_counter()
# VmHWM, not ru_maxrss: Linux keeps ru_maxrss across fork + exec, so it would show the parent's peak.
hwm = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM"))
print(json.dumps({"import_s": imported - start, "lint_s": done - imported, "findings": findings,
                  "rss_mb": hwm / 1024}))
"""


def qdq_chain(blocks: int, channels: int = 32) -> onnx.ModelProto:
    """``blocks`` quantized conv blocks (Q, DQ, DQ weight, Conv, Sigmoid, Mul): 6 nodes each."""
    nodes, inits = [], [fx.init("s", 0.02), fx.init("zp", 0, np.int8)]
    tensor = "x"
    for i in range(blocks):
        inits += [fx.init(f"w{i}", np.ones((channels, channels, 3, 3)), np.int8),
                  fx.init(f"ws{i}", np.full(channels, 0.01)), fx.init(f"wz{i}", np.zeros(channels), np.int8)]
        nodes += [
            helper.make_node("QuantizeLinear", [tensor, "s", "zp"], [f"q{i}"], name=f"/b{i}/q"),
            helper.make_node("DequantizeLinear", [f"q{i}", "s", "zp"], [f"dq{i}"], name=f"/b{i}/dq"),
            helper.make_node("DequantizeLinear", [f"w{i}", f"ws{i}", f"wz{i}"], [f"wd{i}"], name=f"/b{i}/wdq",
                             axis=0),
            helper.make_node("Conv", [f"dq{i}", f"wd{i}"], [f"c{i}"], name=f"/b{i}/conv/Conv", pads=[1, 1, 1, 1]),
            helper.make_node("Sigmoid", [f"c{i}"], [f"g{i}"], name=f"/b{i}/act/Sigmoid"),
            helper.make_node("Mul", [f"c{i}", f"g{i}"], [f"m{i}"], name=f"/b{i}/act/Mul"),
        ]
        tensor = f"m{i}"
    nodes.append(helper.make_node("Identity", [tensor], ["y"], name="out"))
    shape = [1, channels, 32, 32]
    return fx.build(nodes, [fx.vi("x", shape)], [fx.vi("y", shape)], inits)


def big_inline(megabytes: int) -> onnx.ModelProto:
    """A MatMul with ``megabytes`` of float32 weights stored inline."""
    side = int((megabytes * 1e6 / 4) ** 0.5)
    node = helper.make_node("MatMul", ["x", "w"], ["y"], name="fc")
    return fx.build([node], [fx.vi("x", [1, side])], [fx.vi("y", [1, side])],
                    [fx.init("w", np.random.default_rng(0).random((side, side), np.float32))])


def big_external(folder: Path, gigabytes: float) -> Path:
    """A MatMul whose ``gigabytes`` of weights live in a sparse external file (never written)."""
    side = int((gigabytes * 2**30 / 4) ** 0.5)
    size = side * side * 4
    tensor = onnx.TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[side, side])
    tensor.data_location = TensorProto.EXTERNAL
    for key, value in {"location": "big.data", "offset": "0", "length": str(size)}.items():
        entry = tensor.external_data.add()
        entry.key, entry.value = key, value
    node = helper.make_node("MatMul", ["x", "w"], ["y"], name="fc")
    model = fx.build([node], [fx.vi("x", [1, side])], [fx.vi("y", [1, side])], [tensor])
    path = folder / "big_external.onnx"
    path.write_bytes(model.SerializeToString())
    with open(folder / "big.data", "wb") as handle:
        handle.truncate(size)
    return path


def measure(path: Path) -> dict[str, float]:
    """Lint ``path`` in a fresh interpreter; lint time, process wall time and peak RSS."""
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True,
                            cwd=ROOT, check=True, timeout=600)
    wall = time.perf_counter() - start
    data: dict[str, float] = json.loads(result.stdout.strip().splitlines()[-1])
    data["wall_s"] = wall
    return data


def main() -> None:
    """Build the models, lint each in a subprocess, print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large-gb", type=float, default=2.0, help="size of the external-data model")
    parser.add_argument("--inline-mb", type=int, default=200, help="size of the inline-weights model (0: skip)")
    parser.add_argument("--keep", type=Path, help="write the models here instead of a temp folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-lint-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        models: dict[str, Callable[[], onnx.ModelProto]] = {
            "conv (1 node)": fx.conv,
            "qdq conv (4 nodes)": fx.qdq_conv,
            "qdq conv, 3 problems": lambda: fx.qdq_conv(act_zp=3, c=8, k=8, group=8),
            "unsorted relu chain": lambda: fx.chain(unsorted=True),
            "dynamic H/W": fx.dynamic_hw,
            "qdq conv chain (301 nodes)": lambda: qdq_chain(50),
            "qdq conv chain (1201 nodes)": lambda: qdq_chain(200),
        }
        if args.inline_mb:
            models[f"MatMul, {args.inline_mb} MB inline"] = lambda: big_inline(args.inline_mb)
        paths = {}
        for i, (name, make) in enumerate(models.items()):
            paths[name] = fx.save(make(), folder, f"m{i}.onnx")
        paths[f"MatMul, {args.large_gb:g} GB external (sparse)"] = big_external(folder, args.large_gb)
        rows = []
        for name, path in paths.items():
            data = measure(path)
            rows.append((name, path.stat().st_size, data))
        print(f"{'model':<34} {'file':>10} {'lint':>9} {'process':>9} {'peak RSS':>9} {'findings':>8}")
        for name, size, data in rows:
            print(f"{name:<34} {size / 1e6:>8.2f}MB {data['lint_s'] * 1000:>7.1f}ms {data['wall_s']:>8.2f}s "
                  f"{data['rss_mb']:>7.1f}MB {int(data['findings']):>8}")
        print(f"(lint = lint_path() only; process = whole child incl. interpreter and imports of trt-why, onnx "
              f"and numpy ({rows[0][2]['import_s'] * 1000:.0f} ms); "
              f"Python {sys.version.split()[0]}, onnx {onnx.__version__})")


if __name__ == "__main__":
    main()
