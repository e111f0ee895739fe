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


def _model(tmp_path: Path, group: int, channels: int = 4) -> Path:
    model = fx.qdq_conv(c=channels, k=channels, group=group)
    for node in model.graph.node:
        if node.name == "conv":
            node.name = "/backbone/dw/Conv"
    return fx.save(model, tmp_path)


def _top(tmp_path: Path, group: int, channels: int = 4) -> dict:  # type: ignore[type-arg]
    log = tmp_path / "build.log"
    log.write_text(LOG, encoding="utf-8")
    r = run_cli("--format", "json", str(log), "--model", str(_model(tmp_path, group, channels)))
    assert r.returncode == 1, r.stderr
    return json.loads(r.stdout)["diagnoses"][0]  # type: ignore[no-any-return]


def test_a_grouped_conv_with_unaligned_channels_confirms_the_diagnosis(tmp_path: Path) -> None:
    top = _top(tmp_path, group=4, channels=8)  # 2 channels per group: INT8 wants a multiple of 4
    assert top["id"] == "int8-grouped-conv-alignment"
    rules = [f["rule"] for f in top["model_findings"]]
    assert "int8-grouped-conv-channels" in rules
    assert top["model_verdict"] == "confirms"
    assert any("confirmed on the model" in c for c in top["clues"])


def test_a_depthwise_conv_is_not_called_confirmed_by_the_channel_rule_alone(tmp_path: Path) -> None:
    """Issue #25: the KB's first cause says the channel rule alone does not explain a depthwise failure (TensorRT
    builds depthwise INT8 convolutions); the rule firing on one shows the node's kind, not the cause."""
    top = _top(tmp_path, group=4)  # 4 channels, 4 groups: depthwise
    assert "int8-grouped-conv-channels" in [f["rule"] for f in top["model_findings"]]
    assert top["model_verdict"] == "cannot-tell"
    assert "depthwise" in top["model_verdict_reason"] and "confirmed" not in top["model_verdict_reason"]
    plain = _top(tmp_path / "x", group=4) if (tmp_path / "x").mkdir() is None else None
    assert plain is not None and top["confidence"] == plain["confidence"]  # no bonus for what does not prove


def test_aligned_groups_contradict_it(tmp_path: Path) -> None:
    confirmed = _top(tmp_path / "a", group=4, channels=8) if (tmp_path / "a").mkdir() is None else None
    plain = _top(tmp_path / "b", group=1) if (tmp_path / "b").mkdir() is None else None
    assert confirmed and plain
    assert plain["confidence"] < confirmed["confidence"]
    assert any("contradict" in c for c in plain["clues"])


IMPLICIT_INT8 = """&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --int8
[11/22/2024-01:26:02] [E] Error[10]: Could not find any implementation for node /model.2/cv1/conv/Conv + PWN(PWN(/model.2/cv1/act/Sigmoid), /model.2/cv1/act/Mul).
[11/22/2024-01:26:02] [E] Error[2]: [builder.cpp::buildSerializedNetwork::751] Error Code 2: Internal Error (Assertion engine != nullptr failed. )
&&&& FAILED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --int8
"""
"""`trtexec --int8` on a float model (no Q/DQ: TensorRT calibrates it): the Conv + SiLU fusion has no INT8 kernel."""


def _float_silu(tmp_path: Path) -> Path:
    from onnx import helper

    model = fx.conv(c=4, k=4)
    graph = model.graph
    graph.node[0].name = "/model.2/cv1/conv/Conv"
    graph.output[0].name = "out"
    graph.node.append(helper.make_node("Sigmoid", ["y"], ["sig"], name="/model.2/cv1/act/Sigmoid"))
    graph.node.append(helper.make_node("Mul", ["y", "sig"], ["out"], name="/model.2/cv1/act/Mul"))
    return fx.save(model, tmp_path)


def test_a_float_model_is_no_evidence_against_an_implicit_int8_diagnosis(tmp_path: Path) -> None:
    """Issue #25: the diagnosis's lint rules look at Q/DQ placement; on a float model they cannot fire, so
    their silence must not 'contradict' it (it dropped 0.93 -> 0.65)."""
    log = tmp_path / "build.log"
    log.write_text(IMPLICIT_INT8, encoding="utf-8")
    alone = json.loads(run_cli("--format", "json", str(log)).stdout)["diagnoses"][0]
    joined = json.loads(run_cli("--format", "json", str(log), "--model", str(_float_silu(tmp_path))).stdout)
    top = joined["diagnoses"][0]
    assert top["id"] == alone["id"] == "conv-act-fusion-no-impl"
    assert top["confidence"] == alone["confidence"]
    assert top["model_verdict"] == "cannot-tell" and "contradict" not in top["model_verdict_reason"]
    assert "Q/DQ" in top["model_verdict_reason"]


@pytest.mark.parametrize("args", [("--format", "markdown"), ("--chat", "slack"), ("--chat", "discord"),
                                  ("--chat", "github"), ()], ids=["markdown", "slack", "discord", "github", "text"])
def test_every_report_format_carries_the_model_verdict(tmp_path: Path, args: tuple[str, ...]) -> None:
    log = tmp_path / "build.log"
    log.write_text(LOG, encoding="utf-8")
    out = run_cli(*args, str(log), "--model", str(_model(tmp_path, group=4, channels=8))).stdout.decode()
    assert "confirmed on the model: int8-grouped-conv-channels on /backbone/dw/Conv" in out
    assert "confirms: confirmed" not in out  # the verdict said once


def test_corrupt_model_is_exit_2(tmp_path: Path) -> None:
    log = tmp_path / "build.log"
    log.write_text(LOG, encoding="utf-8")
    bad = tmp_path / "model.onnx"
    bad.write_bytes(b"not a model at all")
    r = run_cli(str(log), "--model", str(bad))
    assert r.returncode == 2 and r.stderr.count(b"\n") == 1 and b"Traceback" not in r.stderr
