"""benchmarks/gen_log.py: the same bytes for the same arguments, the size asked for, plants where the
manifest says, the line families of a verbose build, and trt-why finds what is planted."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from troubleshooter import diagnose

ROOT = Path(__file__).resolve().parents[2]
GEN_LOG = ROOT / "benchmarks" / "gen_log.py"
STAMP = r"\[\d\d/\d\d/\d{4}-\d\d:\d\d:\d\d\] "
MiB = 1 << 20


def _load() -> ModuleType:
    loaded = sys.modules.get("gen_log")
    if loaded is not None and Path(loaded.__file__ or "").resolve() == GEN_LOG:
        return loaded  # already imported by tests/perf/perf_helpers.py
    spec = importlib.util.spec_from_file_location("gen_log", GEN_LOG)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


gen = _load()


def write(size: int, seed: int, plants: object = None, **options: object) -> tuple[bytes, object]:
    chunks: list[bytes] = []
    manifest = gen.write_log(chunks.append, size, seed, plants, **options)
    return b"".join(chunks), manifest


def line_starts(data: bytes) -> list[int]:
    starts = [0]
    pos = data.find(b"\n")
    while pos >= 0:
        starts.append(pos + 1)
        pos = data.find(b"\n", pos + 1)
    return starts[:-1] if starts[-1] == len(data) else starts


def block_pattern(template: str) -> re.Pattern[str]:
    """A planted line: its template with the fields as wildcards, timestamped when it opens with a level."""
    body = re.escape(template)
    for name in ("node", "conv", "tensor"):
        body = body.replace(re.escape("{" + name + "}"), r"\S.*?")
    return re.compile((STAMP if template[:4] in ("[E] ", "[W] ", "[I] ", "[V] ") else "") + body)


def test_same_seed_same_bytes_other_seed_other_bytes() -> None:
    plants = [(0.3, "cudaoom"), (0.6, "opt10")]
    a, b, c = gen.generate(MiB, 7, plants), gen.generate(MiB, 7, plants), gen.generate(MiB, 8, plants)
    assert a == b
    assert a != c
    assert gen.generate(MiB, 7) != gen.generate(MiB, 7, [])  # the default plants, or none


def test_cli_writes_the_function_bytes_and_manifest(tmp_path: Path) -> None:
    """Same arguments, another process (another hash seed), file or stdout: the same bytes."""
    out, manifest = tmp_path / "x.log", tmp_path / "x.json"
    args = [sys.executable, str(GEN_LOG), "--size", "2M", "--seed", "4", "--layers", "60", "--plant", "0.5:cudaoom"]
    env = {**os.environ, "PYTHONHASHSEED": "123"}
    subprocess.run([*args, "-o", str(out), "--manifest", str(manifest)], check=True, capture_output=True, env=env)
    env["PYTHONHASHSEED"] = "7"
    piped = subprocess.run(args, check=True, capture_output=True, env=env).stdout
    data, expected = write(2 * MiB, 4, [*gen.DEFAULT_PLANTS, (0.5, "cudaoom")], layers=60)  # a dozen runs
    assert out.read_bytes() == piped == data
    assert json.loads(manifest.read_text()) == expected.to_json()
    kinds = subprocess.run([sys.executable, str(GEN_LOG), "--list-kinds"], check=True, capture_output=True, text=True).stdout
    assert [line.split()[0] for line in kinds.splitlines()] == list(gen.PLANTS)


@pytest.mark.parametrize(("size", "seed"), [(256 * 1024, 1), (MiB, 2), (3 * MiB, 3)])
def test_the_requested_size_is_met(size: int, seed: int) -> None:
    data, manifest = write(size, seed)
    assert abs(len(data) - size) <= 0.03 * size
    assert manifest.size == len(data) and manifest.lines == data.count(b"\n") and data.endswith(b"\n")
    assert len(manifest.plants) >= len(gen.DEFAULT_PLANTS)


def test_planted_lines_are_at_the_manifest_lines() -> None:
    size, seed = 2 * MiB, 5
    kinds = list(gen.PLANTS)
    plants = [((i + 1) / (len(kinds) + 1), kind) for i, kind in enumerate(kinds)]
    data, manifest = write(size, seed, plants, fail_rate=0)
    assert [(b.kind, b.at) for b in manifest.plants] == [(k, f) for f, k in plants]
    lines = data.decode().split("\n")
    starts = line_starts(data)
    planted: set[int] = set()
    for block in manifest.plants:
        got = lines[block.line - 1:block.line - 1 + block.lines]
        templates = gen.PLANTS[block.kind]
        assert block.lines == len(templates) == len(got)
        for template, line in zip(templates, got, strict=True):
            assert block_pattern(template).fullmatch(line), (block.kind, line)
        # on the first line that starts at or after its offset
        offset = int(block.at * size)
        assert starts[block.line - 1] >= offset > starts[block.line - 2], block
        planted.update(range(block.line - 1, block.line - 1 + block.lines))
    # Plants take nothing else away: without them the log is the same (it only goes on further).
    rest = "".join(line + "\n" for i, line in enumerate(lines[:-1]) if i not in planted).encode()
    plain = gen.generate(size, seed, [], fail_rate=0)
    assert len(rest) > 0.9 * size and plain.startswith(rest)


def test_runs_end_passed_or_failed_and_failures_are_in_the_manifest() -> None:
    data, manifest = write(4 * MiB, 9, [], fail_rate=0.5, layers=60)  # a small model: short runs
    lines = data.decode().split("\n")
    passed = sum(line.startswith("&&&& PASSED TensorRT.trtexec") for line in lines)
    failed = [i for i, line in enumerate(lines) if line.startswith("&&&& FAILED TensorRT.trtexec")]
    assert passed and failed
    assert passed + len(failed) in (manifest.runs, manifest.runs - 1)  # the last run may be cut off
    natural = [b for b in manifest.plants if b.at is None]
    assert len(natural) == len(failed) and {b.kind for b in natural} <= set(gen.FAIL_KINDS)
    for block, end in zip(natural, failed, strict=True):
        assert block.line - 1 < end <= block.line - 1 + block.lines + 4  # the error, trtexec's cascade, FAILED
    assert b"&&&& FAILED" not in gen.generate(4 * MiB, 9, [], fail_rate=0, layers=60)


def test_the_line_families_of_a_verbose_build() -> None:
    """Every line is a timestamped [V]/[I]/[W]/[E] line or a trtexec banner, except planted parser lines;
    each family of a real verbose build is there."""
    data, manifest = write(4 * MiB, 11, layers=100)  # several whole runs
    text = data.decode()
    planted = {n for b in manifest.plants for n in range(b.line, b.line + b.lines)}
    shape = re.compile(STAMP + r"\[[VIWE]\] |&&&& (?:RUNNING|PASSED|FAILED) TensorRT\.trtexec \[TensorRT v8[56]0\d\] # trtexec ")
    odd = [(n, line) for n, line in enumerate(text.split("\n")[:-1], 1) if not shape.match(line) and n not in planted]
    assert odd == []
    for family in ("&&&& RUNNING TensorRT.trtexec", "[I] === Device Information ===", "Registered plugin creator - ::",
                   "[I] [TRT] [MemUsageChange] Init CUDA", "Parsing node: ", "Searching for input: ", "[Conv] inputs: [",
                   "Registering layer: ", "Registering tensor: ", "Missing scale and zero-point for tensor",
                   "ConvPointwiseFusion: Fusing", "Computing costs for ", "Autotuning format combination: ",
                   "Timing Runner: ", " Set Tactic Name: ", "Fastest Tactic: ", "Chose Runner Type: ",
                   "due to insufficient memory", "{ForeignNode[", "Engine Layer Information:", "=== Performance summary ===",
                   "&&&& PASSED TensorRT.trtexec"):
        assert family in text, family


# planted kind -> the KB entry trt-why names for it, when it is the only thing planted. Left out: warnings no KB
# entry reports on their own (alltactics, tacticmem, embedded, int64clamp, initdtype), and errors whose entry
# depends on the node named or on the rest of the log (REPORTED, checked by evidence only).
EXPECTED = {"opt10ws": "gpu-out-of-memory", "cuda1": "cuda-dealloc-async-unsupported", "cuda700": "cuda-illegal-memory-access",
            "cudaoom": "gpu-out-of-memory", "dynshape": "dynamic-input-missing-profile-dims", "kopt": "kopt-shape-constraint",
            "plugin9": "plugin-no-supported-formats", "cask": "cask-execution-failure", "myelin": "myelin-error",
            "serial": "engine-version-mismatch", "planver": "engine-version-mismatch", "onnxparse": "onnx-parser-assertion",
            "noimporter": "onnx-unsupported-op", "cudnnver": "cudnn-cublas-version-mismatch", "fp16": "fp16-overflow",
            "myelindyn": "myelin-dynamic-shapes-perf", "unstable": "gpu-timing-unstable", "dla": "dla-fallback",
            "cachebad": "timing-cache-invalid", "unusedin": "unused-input", "lazyoff": "lazy-loading-disabled"}
REPORTED = ("opt10", "apiusage")  # shown as some diagnosis or as an unexplained error line


def evidence(report: object) -> tuple[dict[str, set[int]], set[int]]:
    """Lines each diagnosis cites, and every line the report points at (diagnoses and unexplained lines)."""
    found = {d.id: {e.line for e in d.evidence} for d in report.diagnoses}
    return found, set().union(*found.values()) | {u.line for u in report.unexplained}


@pytest.fixture(scope="module")
def clean_ids() -> set[str]:
    """What trt-why says about the log with nothing planted (no run fails): no error at all."""
    report = diagnose(gen.generate(MiB, 3, [], fail_rate=0))
    assert not report.unexplained and all(d.severity != "error" for d in report.diagnoses)
    return {d.id for d in report.diagnoses}


@pytest.mark.parametrize(("kind", "entry"), sorted(EXPECTED.items()))
def test_diagnose_names_a_planted_error(kind: str, entry: str, clean_ids: set[str]) -> None:
    data, manifest = write(MiB, 3, [(0.6, kind)], fail_rate=0)
    (block,) = manifest.plants
    found, _ = evidence(diagnose(data))
    assert entry not in clean_ids
    assert set(range(block.line, block.line + block.lines)) & found.get(entry, set()), (block, found)


def test_diagnose_reports_every_planted_error_of_a_busy_log() -> None:
    """Many errors in one log: each is cited by a diagnosis or listed as unexplained. cuda700 stays out: the KB
    excludes gpu-out-of-memory from a whole log that holds an illegal memory access, and the out-of-memory lines
    (opt10ws, cudaoom) are then in the report nowhere (seen 2026-11-24; a KB matter, not the generator's)."""
    kinds = [kind for kind in (*EXPECTED, *REPORTED) if kind != "cuda700"]
    plants = [((i + 1) / (len(kinds) + 1), kind) for i, kind in enumerate(kinds)]
    data, manifest = write(2 * MiB, 3, plants, fail_rate=0)
    found, pointed = evidence(diagnose(data))
    for block in manifest.plants:
        assert set(range(block.line, block.line + block.lines)) & pointed, block
    # the entries of errors nothing else explains away
    for kind in ("cuda1", "dynshape", "kopt", "plugin9", "myelin", "noimporter", "unusedin"):
        assert EXPECTED[kind] in found, kind


def test_bad_arguments() -> None:
    assert gen.parse_size("1G") == 1 << 30 and gen.parse_size("10M") == 10 * MiB and gen.parse_size("1.5k") == 1536
    assert gen.parse_size("100MiB") == 100 * MiB and gen.parse_size("4096") == 4096
    with pytest.raises(ValueError):
        gen.parse_size("ten megs")
    with pytest.raises(ValueError, match="unknown plant kind"):
        gen.generate(MiB, 1, [(0.5, "no-such-kind")])
    with pytest.raises(ValueError, match="fraction"):
        gen.generate(MiB, 1, [(1.5, "opt10")])
    for bad in (["--plant", "0.5:nope"], ["--plant", "half:opt10"], ["--size", "lots"]):
        with pytest.raises(SystemExit) as exc:
            gen.main(bad)
        assert exc.value.code == 2
