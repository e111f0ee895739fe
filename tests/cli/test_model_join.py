"""`trt-why build.log --model model.onnx`: the node named in the log, looked up in the model."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.reliability.rel_helpers import run_cli  # in this process, through main(argv)

onnx = pytest.importorskip("onnx")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lint"))
import lint_factory as fx  # noqa: E402 - the lint tests' model factory, found through the path set above

LOG = """&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --int8
[08/07/2024-12:27:04] [E] Error[10]: [optimizer.cpp::computeCosts::3897] Error Code 10: Internal Error (Could not find any implementation for node /backbone/dw/Conv.)
[08/07/2024-12:27:04] [E] Error[2]: [builder.cpp::buildSerializedNetwork::751] Error Code 2: Internal Error (Assertion engine != nullptr failed. )
&&&& FAILED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --int8
"""


def _model(tmp_path: Path, group: int) -> Path:
    model = fx.qdq_conv(c=4, k=4, group=group)
    for node in model.graph.node:
        if node.name == "conv":
            node.name = "/backbone/dw/Conv"
    return fx.save(model, tmp_path)


def _top(tmp_path: Path, group: int) -> dict:  # type: ignore[type-arg]
    log = tmp_path / "build.log"
    log.write_text(LOG, encoding="utf-8")
    r = run_cli("--format", "json", str(log), "--model", str(_model(tmp_path, group)))
    assert r.returncode == 1, r.stderr
    return json.loads(r.stdout)["diagnoses"][0]  # type: ignore[no-any-return]


def test_depthwise_model_confirms_the_diagnosis(tmp_path: Path) -> None:
    top = _top(tmp_path, group=4)
    assert top["id"] == "int8-grouped-conv-alignment"
    rules = [f["rule"] for f in top["model_findings"]]
    assert "int8-grouped-conv-channels" in rules
    assert any("confirmed on the model" in c for c in top["clues"])


def test_aligned_groups_contradict_it(tmp_path: Path) -> None:
    confirmed = _top(tmp_path / "a", group=4) if (tmp_path / "a").mkdir() is None else None
    plain = _top(tmp_path / "b", group=1) if (tmp_path / "b").mkdir() is None else None
    assert confirmed and plain
    assert plain["confidence"] < confirmed["confidence"]
    assert any("contradict" in c for c in plain["clues"])


def test_corrupt_model_is_exit_2(tmp_path: Path) -> None:
    log = tmp_path / "build.log"
    log.write_text(LOG, encoding="utf-8")
    bad = tmp_path / "model.onnx"
    bad.write_bytes(b"not a model at all")
    r = run_cli(str(log), "--model", str(bad))
    assert r.returncode == 2 and r.stderr.count(b"\n") == 1 and b"Traceback" not in r.stderr
