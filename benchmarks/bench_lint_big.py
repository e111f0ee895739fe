"""Benchmark ``trt-why lint`` on big models: inline weights against external data, time and peak memory.

Run: ``python benchmarks/bench_lint_big.py [--sizes 100M,1G,1.9G] [--folder DIR] [--reference]
[--cold]``. For each size it writes one model twice into a temp folder (deleted afterwards): weights
inline in the .onnx file, and the same weights in an external ``weights.bin``. The model is a chain
of MatMul layers with random-normal weights, float32, and every fourth layer float16 (through a
Cast); nothing binary is stored. The files are written field by field (protobuf wire format), so
generating a 1.9 GB model needs no 1.9 GB of memory. Before each size the free disk space is
checked (``shutil.disk_usage``); a size that does not fit is skipped, with a line saying so.

Each model is linted in a fresh process; the table gives the time of ``lint_path()``, the time of
the whole process (interpreter and imports included), the peak RSS of the process (``VmHWM``;
file pages of an mmap count there too) and whether the findings are the same as the inline
model's. ``--reference`` also lints the inline model the old way (the whole file parsed by
``onnx.load``), the reference the findings are compared with. ``--cold`` evicts the model files
from the page cache before each run (``posix_fadvise``), so the disk is read too; without it the
files are warm, as just written.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

import numpy as np
import onnx
from onnx import TensorProto, helper

from troubleshooter.lint.wire import encode_varint

CHILD = """
import json, sys, time
start = time.perf_counter()
from troubleshooter.lint import lint_path
from troubleshooter.lint import model as lint_model
import onnx, numpy
if sys.argv[2] == "reference":
    lint_model.LITE_TENSOR_BYTES = None
imported = time.perf_counter()
report = lint_path(sys.argv[1])
done = time.perf_counter()
hwm = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM"))
print(json.dumps({"import_s": imported - start, "lint_s": done - imported, "rss_mb": hwm / 1024,
                  "findings": [[f.rule, f.level, f.message, f.nodes] for f in report.findings],
                  "notes": report.notes}))
"""

SIDE = 2048
"""Weights are [SIDE, SIDE]: 16 MiB in float32, 8 MiB in float16."""


def _field(number: int, data: bytes) -> bytes:
    return encode_varint(number << 3 | 2) + encode_varint(len(data)) + data


def layers_for(size: int) -> list[int]:
    """Data types of the layers (FLOAT, and FLOAT16 every fourth) adding up to about ``size`` bytes."""
    types: list[int] = []
    total = 0
    while True:
        dtype = TensorProto.FLOAT16 if len(types) % 4 == 3 else TensorProto.FLOAT
        step = SIDE * SIDE * (2 if dtype == TensorProto.FLOAT16 else 4)
        if total + step > size and types:
            return types
        types.append(dtype)
        total += step


def graph_without_weights(types: list[int]) -> onnx.ModelProto:
    """The MatMul chain with header-only initializers (dims and type, no values)."""
    nodes, inits = [], []
    tensor = "x"
    for i, dtype in enumerate(types):
        weight = f"w{i}"
        inits.append(TensorProto(name=weight, data_type=dtype, dims=[SIDE, SIDE]))
        if dtype == TensorProto.FLOAT16:
            nodes.append(helper.make_node("Cast", [weight], [f"wf{i}"], name=f"/l{i}/cast", to=TensorProto.FLOAT))
            weight = f"wf{i}"
        nodes.append(helper.make_node("MatMul", [tensor, weight], [f"h{i}"], name=f"/l{i}/MatMul"))
        tensor = f"h{i}"
    nodes.append(helper.make_node("Relu", [tensor], ["y"], name="out"))
    graph = helper.make_graph(nodes, "big", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, SIDE])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, SIDE])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="bench_lint_big")
    model.ir_version = 8
    return model


def write_models(folder: Path, size: int, seed: int = 0) -> tuple[Path, Path]:
    """``inline/model.onnx`` and ``external/model.onnx`` + ``weights.bin``, the same weights in both."""
    types = layers_for(size)
    skeleton = graph_without_weights(types)
    rng = np.random.default_rng(seed)
    (folder / "inline").mkdir()
    (folder / "external").mkdir()
    inline_path, external_path = folder / "inline" / "model.onnx", folder / "external" / "model.onnx"

    external = onnx.ModelProto()
    external.CopyFrom(skeleton)
    with open(folder / "external" / "weights.bin", "wb") as weights:
        offsets = []
        for dtype in types:
            values = rng.standard_normal((SIDE, SIDE), dtype=np.float32)
            data = (values.astype(np.float16) if dtype == TensorProto.FLOAT16 else values).tobytes()
            offsets.append((weights.tell(), len(data)))
            weights.write(data)
    for tensor, (offset, length) in zip(external.graph.initializer, offsets, strict=True):
        tensor.data_location = TensorProto.EXTERNAL
        for key, value in (("location", "weights.bin"), ("offset", str(offset)), ("length", str(length))):
            entry = tensor.external_data.add()
            entry.key, entry.value = key, value
    external_path.write_bytes(external.SerializeToString())

    # Inline: the graph's other fields, then each initializer with its raw_data, written field by field.
    graph = onnx.GraphProto()
    graph.CopyFrom(skeleton.graph)
    del graph.initializer[:]
    head = graph.SerializeToString()
    headers = [t.SerializeToString() for t in skeleton.graph.initializer]
    tensor_sizes = [len(h) + len(encode_varint(9 << 3 | 2)) + len(encode_varint(n)) + n
                    for h, (_, n) in zip(headers, offsets, strict=True)]
    graph_size = len(head) + sum(len(encode_varint(5 << 3 | 2)) + len(encode_varint(s)) + s for s in tensor_sizes)
    model = onnx.ModelProto()
    model.CopyFrom(skeleton)
    model.ClearField("graph")
    with open(inline_path, "wb") as out, open(folder / "external" / "weights.bin", "rb") as weights:
        out.write(model.SerializeToString())
        out.write(encode_varint(7 << 3 | 2) + encode_varint(graph_size))
        out.write(head)
        for header, tensor_size, (_, length) in zip(headers, tensor_sizes, offsets, strict=True):
            out.write(encode_varint(5 << 3 | 2) + encode_varint(tensor_size) + header)
            out.write(encode_varint(9 << 3 | 2) + encode_varint(length))
            left = length
            while left:
                block = weights.read(min(left, 64 << 20))
                out.write(block)
                left -= len(block)
    return inline_path, external_path


def evict(folder: Path) -> None:
    """Drop the folder's files from the page cache (flushed first): the next read comes from disk."""
    for path in folder.rglob("*"):
        if path.is_file():
            with open(path, "rb") as handle:
                os.fsync(handle.fileno())
                os.posix_fadvise(handle.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)


def measure(path: Path, mode: str = "walker", cold: bool = False) -> dict[str, object]:
    """Lint ``path`` in a fresh interpreter: lint time, process time, peak RSS, findings."""
    if cold:
        evict(path.parent)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, str(path), mode], capture_output=True, text=True,
                          cwd=ROOT, check=True, timeout=1800)
    data: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    data["wall_s"] = time.perf_counter() - start
    return data


def parse_size(text: str) -> int:
    """'100M', '1G', '1.9G' (decimal units, as disks count) -> bytes."""
    units = {"K": 1e3, "M": 1e6, "G": 1e9}
    return int(float(text[:-1]) * units[text[-1].upper()]) if text[-1].upper() in units else int(text)


def main() -> None:
    """Generate each size, lint it every way, print a table, delete the files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100M,1G,1.9G", help="weight sizes, comma-separated (decimal units)")
    parser.add_argument("--folder", type=Path, help="parent of the temp folder (default: the system's)")
    parser.add_argument("--reference", action="store_true", help="also lint the inline model with onnx.load")
    parser.add_argument("--cold", action="store_true", help="evict the files from the page cache before each run")
    args = parser.parse_args()
    rows = []
    for label in args.sizes.split(","):
        size = parse_size(label)
        parent = args.folder or Path(tempfile.gettempdir())
        free = shutil.disk_usage(parent).free
        needed = int(2 * size * 1.05) + (512 << 20)
        if free < needed:
            print(f"{label}: skipped, needs {needed / 1e9:.1f} GB free in {parent}, has {free / 1e9:.1f} GB")
            continue
        with tempfile.TemporaryDirectory(prefix="bench-lint-big-", dir=parent) as tmp:
            start = time.perf_counter()
            inline, external = write_models(Path(tmp), size)
            made = time.perf_counter() - start
            print(f"{label}: wrote {inline.stat().st_size / 1e9:.2f} GB inline + external copy in {made:.1f} s",
                  flush=True)
            runs = [("inline", measure(inline, cold=args.cold)), ("external", measure(external, cold=args.cold))]
            if args.reference:
                runs.append(("inline, onnx.load", measure(inline, "reference", cold=args.cold)))
            base = runs[0][1]["findings"]
            for way, data in runs:
                rows.append((label, way, inline.stat().st_size if way != "external" else external.stat().st_size,
                             data, data["findings"] == base))
    print(f"\n{'weights':>8} {'stored':<18} {'.onnx file':>10} {'lint':>8} {'process':>8} {'peak RSS':>9} "
          f"{'findings':>9} same")
    for label, way, file_size, data, same in rows:
        findings = data["findings"]
        assert isinstance(findings, list)
        shown = f"{file_size / 1e6:>8.1f}MB" if file_size >= 1e6 else f"{file_size / 1e3:>8.1f}kB"
        print(f"{label:>8} {way:<18} {shown} {float(str(data['lint_s'])):>7.2f}s "
              f"{float(str(data['wall_s'])):>7.2f}s {float(str(data['rss_mb'])):>7.0f}MB {len(findings):>9} "
              f"{'yes' if same else 'NO'}")
    print(f"(cache {'cold' if args.cold else 'warm'}; Python {sys.version.split()[0]}, onnx {onnx.__version__}, "
          f"numpy {np.__version__}, {os.cpu_count()} CPUs)")
    for label, way, _, data, _ in rows:
        if way == "inline":
            findings = data["findings"]
            assert isinstance(findings, list)
            print(f"{label} findings: " + "; ".join(f"{f[0]} {f[1]}: {f[2][:90]}..." for f in findings))


if __name__ == "__main__":
    main()
