"""One positive and one clean model per rule; the three TensorRT-accepted models give no error."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import lint_factory as fx
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from troubleshooter.lint.rules import all_rules


@dataclass
class Case:
    rule: str
    positive: Callable[[], onnx.ModelProto]
    clean: Callable[[], onnx.ModelProto]
    trt: str | None = None
    level: str | None = None


def _bad_attribute() -> onnx.ModelProto:
    model = fx.chain()
    model.graph.node[0].attribute.append(helper.make_attribute("bogus", 1))
    return model


def _broadcast_mismatch() -> onnx.ModelProto:
    node = helper.make_node("Add", ["a", "b"], ["y"], name="bad_add")
    return fx.build([node], [fx.vi("a", [1, 3]), fx.vi("b", [1, 4])], [fx.vi("y", [1, 4])])


def _dangling() -> onnx.ModelProto:
    model = fx.chain()
    model.graph.node[1].input[0] = "ghost"
    return model


def _dead() -> onnx.ModelProto:
    model = fx.chain()
    model.graph.node.append(helper.make_node("Relu", ["x"], ["unused"], name="leftover"))
    return model


def _unused_input() -> onnx.ModelProto:
    model = fx.chain()
    model.graph.input.append(fx.vi("mask", [1, 3, 8, 8]))
    return model


def _int64(value: int) -> Callable[[], onnx.ModelProto]:
    def make() -> onnx.ModelProto:
        node = helper.make_node("Add", ["x", "c"], ["y"], name="add64")
        return fx.build([node], [fx.vi("x", [4], TensorProto.INT64)], [fx.vi("y", [4], TensorProto.INT64)],
                        [fx.init("c", [1, 2, 3, value], np.int64)])
    return make


def _instance_norm() -> onnx.ModelProto:
    return fx.single("InstanceNormalization", inputs=("x", "s", "b"),
                     extra=[fx.init("s", np.ones(3)), fx.init("b", np.zeros(3))])


def _fp16(value: float) -> Callable[[], onnx.ModelProto]:
    def make() -> onnx.ModelProto:
        model = fx.conv()
        weights = np.full((4, 3, 3, 3), 0.1, np.float32)
        weights[0, 0, 0, 0] = value
        model.graph.initializer[0].CopyFrom(onnx.numpy_helper.from_array(weights, "w"))
        return model
    return make


def _layernorm() -> onnx.ModelProto:
    return fx.single("LayerNormalization", inputs=("x", "s", "b"), attrs={"axis": -1},
                     extra=[fx.init("s", np.ones(8)), fx.init("b", np.zeros(8))])


CASES = [
    Case("check-model", _bad_attribute, fx.chain),
    Case("shape-inference", _broadcast_mismatch, fx.chain),
    Case("conv-channels", lambda: fx.conv(c=3, w_c=2), fx.conv),
    Case("dangling-inputs", _dangling, lambda: fx.chain(unsorted=True)),
    Case("duplicate-node-names", lambda: fx.chain(("n", "n")), fx.chain, level="info"),
    Case("dead-nodes", _dead, fx.chain, level="info"),
    Case("unused-inputs", _unused_input, fx.chain, level="info"),
    Case("custom-domain-op", lambda: fx.single("MyOp", domain="com.acme"), fx.conv, level="warning"),
    Case("unsupported-op", fx.ort_dynamic_quant, fx.qdq_conv, level="error"),
    Case("opset-range", fx.conv, lambda: fx.build(fx.conv().graph.node, fx.conv().graph.input,
                                                   fx.conv().graph.output, fx.conv().graph.initializer, opset=13),
         trt="8.4", level="warning"),
    Case("qdq-zero-point", lambda: fx.qdq_conv(act_zp=3), fx.qdq_conv, level="error"),
    Case("qdq-uint8-zero-point", lambda: fx.qdq_conv(zp_dtype=np.uint8), fx.qdq_conv, level="warning"),
    Case("qdq-scale", lambda: fx.qdq_conv(act_scale=-0.5), fx.qdq_conv, level="error"),
    Case("qdq-scale-constant", fx.qdq_runtime_scale, fx.qdq_conv, level="error"),
    Case("qdq-axis-length", lambda: fx.qdq_conv(w_scale=np.full(3, 0.1)), fx.qdq_conv, level="error"),
    Case("qdq-per-channel-activation",
         lambda: fx.qdq_conv(act_scale=np.full(4, 0.1), act_zp=np.zeros(4), act_axis=1), fx.qdq_conv, level="error"),
    Case("qdq-conv-weight-axis", lambda: fx.qdq_conv(w_axis=1), fx.qdq_conv, level="error"),
    Case("qdq-deconv-weight-axis", lambda: fx.qdq_conv(deconv=True, w_axis=1),
         lambda: fx.qdq_conv(deconv=True, w_axis=0), level="warning"),
    Case("qdq-weighted-op-partial", lambda: fx.qdq_conv(quantize_input=False), fx.qdq_conv, level="warning"),
    Case("qdq-mixed-add-concat", lambda: fx.qdq_residual(False), lambda: fx.qdq_residual(True), level="warning"),
    Case("qdq-silu-split", lambda: fx.qdq_silu(True), lambda: fx.qdq_silu(False), level="warning"),
    Case("int8-grouped-conv-channels", lambda: fx.qdq_conv(c=8, k=8, group=8),
         lambda: fx.qdq_conv(c=8, k=8, group=2), level="warning"),
    Case("int64-initializers", _int64(2**40), fx.conv, trt="8.6"),
    Case("instance-norm", _instance_norm, fx.conv, level="info"),
    Case("dynamic-inputs", fx.dynamic_hw, fx.conv, level="info"),
    Case("fp16-range", _fp16(1e6), _fp16(1.0), level="warning"),
]


def test_every_rule_has_a_case() -> None:
    assert {c.rule for c in CASES} == {r.id for r in all_rules()}


@pytest.mark.parametrize("case", CASES, ids=[f"{c.rule}::positive" for c in CASES])
def test_rule_fires_on_positive_model(case: Case, lint_model) -> None:  # type: ignore[no-untyped-def]
    report = lint_model(case.positive(), trt_version=case.trt)
    hits = [f for f in report.findings if f.rule == case.rule]
    assert hits, f"{case.rule} did not fire: {[(f.rule, f.message) for f in report.findings]}"
    if case.level:
        assert any(f.level == case.level for f in hits)
    for f in hits:
        assert f.message and "\n" not in f.message


@pytest.mark.parametrize("case", CASES, ids=[f"{c.rule}::clean" for c in CASES])
def test_rule_silent_on_clean_model(case: Case, lint_model) -> None:  # type: ignore[no-untyped-def]
    report = lint_model(case.clean(), trt_version=case.trt)
    assert [f.message for f in report.findings if f.rule == case.rule] == []


@pytest.mark.parametrize(
    "make",
    [lambda: fx.chain(unsorted=True), lambda: fx.chain(("n", "n")), fx.dynamic_hw],
    ids=["unsorted-nodes", "duplicate-node-names", "dynamic-hw"],
)
def test_tensorrt_accepted_models_have_no_error(make, lint_model) -> None:  # type: ignore[no-untyped-def]
    report = lint_model(make())
    assert [f for f in report.findings if f.level in ("error", "warning")] == []
    assert report.exit_status == 0


def test_clean_models_have_no_findings(lint_model) -> None:  # type: ignore[no-untyped-def]
    for make in (fx.conv, fx.qdq_conv, fx.chain):
        report = lint_model(make())
        assert report.findings == [], [(f.rule, f.message) for f in report.findings]
