"""Version-dependent rules and messages (--trt-version), and the details of single rules."""

from __future__ import annotations

import lint_factory as fx
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper
from packaging.version import Version

from troubleshooter.errors import LintError
from troubleshooter.lint import lint_path, optable


def _rules(report, rule):  # type: ignore[no-untyped-def]
    return [f for f in report.findings if f.rule == rule]


def _layernorm() -> onnx.ModelProto:
    return fx.single("LayerNormalization", inputs=("x", "s", "b"), attrs={"axis": -1},
                     extra=[fx.init("s", np.ones(8)), fx.init("b", np.zeros(8))])


@pytest.mark.parametrize("trt,level", [("8.5", "error"), ("8.6", None), ("10.3", None), (None, None)])
def test_layernorm_needs_8_6(trt, level, lint_model) -> None:  # type: ignore[no-untyped-def]
    found = _rules(lint_model(_layernorm(), trt_version=trt), "unsupported-op")
    assert [f.level for f in found] == ([level] if level else [])


def test_optable_knows_ort_quantization_ops() -> None:
    for op in ("DynamicQuantizeLinear", "MatMulInteger", "ConvInteger", "QLinearConv", "QLinearMatMul"):
        for trt in (None, Version("8.6"), Version("10.3")):
            assert optable.support(op, trt) == "no"
    assert optable.support("Hardmax", Version("9.2")) == "unknown"
    assert optable.support("Hardmax", Version("8.6")) == "no"
    assert optable.support("Conv", Version("8.6")) == "yes"


def test_hardmax_unknown_between_snapshots_is_info(lint_model) -> None:  # type: ignore[no-untyped-def]
    found = _rules(lint_model(fx.single("Hardmax"), trt_version="10.2"), "unsupported-op")
    assert [f.level for f in found] == ["info"]


def test_hardmax_without_version_notes_8x(lint_model) -> None:  # type: ignore[no-untyped-def]
    found = _rules(lint_model(fx.single("Hardmax")), "unsupported-op")
    assert [f.level for f in found] == ["info"] and "8.x" in found[0].message


def test_int64_out_of_range_depends_on_version(lint_model) -> None:  # type: ignore[no-untyped-def]
    node = helper.make_node("Add", ["x", "c"], ["y"], name="add64")
    model = fx.build([node], [fx.vi("x", [2], TensorProto.INT64)], [fx.vi("y", [2], TensorProto.INT64)],
                     [fx.init("c", [1, 2**40], np.int64)])
    assert {f.level for f in _rules(lint_model(model, trt_version="8.6"), "int64-initializers")} == {"info", "warning"}
    assert {f.level for f in _rules(lint_model(model), "int64-initializers")} == {"info"}


def test_slice_int64_sentinels_are_not_out_of_range(lint_model) -> None:  # type: ignore[no-untyped-def]
    node = helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["y"], name="slice")
    model = fx.build([node], [fx.vi("x", [1, 3, 8, 8])], [fx.vi("y", [1, 3, 7, 8])],
                     [fx.init("starts", [1], np.int64), fx.init("ends", [2**63 - 1], np.int64),
                      fx.init("axes", [2], np.int64)])
    found = _rules(lint_model(model, trt_version="8.6"), "int64-initializers")
    assert [f.level for f in found] == ["info"]
    assert found[0].nodes == ["slice"]


def test_grouped_conv_is_an_error_on_8x(lint_model) -> None:  # type: ignore[no-untyped-def]
    model = fx.qdq_conv(c=8, k=8, group=8)
    found = _rules(lint_model(model, trt_version="8.6.1"), "int8-grouped-conv-channels")
    assert [f.level for f in found] == ["error"] and "depthwise" in found[0].message
    assert found[0].kb == "int8-grouped-conv-alignment"


def test_grouped_conv_unquantized_is_fine(lint_model) -> None:  # type: ignore[no-untyped-def]
    assert _rules(lint_model(fx.conv(c=8, k=8, group=8)), "int8-grouped-conv-channels") == []


def test_deconv_axis_message_depends_on_version(lint_model) -> None:  # type: ignore[no-untyped-def]
    model = fx.qdq_conv(deconv=True, w_axis=1)
    old = _rules(lint_model(model, trt_version="8.6"), "qdq-deconv-weight-axis")[0]
    new = _rules(lint_model(model, trt_version="10.3"), "qdq-deconv-weight-axis")[0]
    default = _rules(lint_model(model), "qdq-deconv-weight-axis")[0]
    assert "does not support" in old.message
    assert "unconfirmed" in new.message
    assert "8.x" in default.message and "10.x" in default.message
    assert old.kb == "deconv-qdq-output-channels"


def test_missing_zero_point_is_an_error_before_9(lint_model) -> None:  # type: ignore[no-untyped-def]
    nodes = [helper.make_node("QuantizeLinear", ["x", "s"], ["q"], name="q"),
             helper.make_node("DequantizeLinear", ["q", "s"], ["y"], name="dq")]
    model = fx.build(nodes, [fx.vi("x", [1, 3, 8, 8])], [fx.vi("y", [1, 3, 8, 8])], [fx.init("s", 0.1)])
    assert [f.level for f in _rules(lint_model(model, trt_version="8.6"), "qdq-uint8-zero-point")] == ["error"]
    assert [f.level for f in _rules(lint_model(model), "qdq-uint8-zero-point")] == ["warning"]


def test_instance_norm_message_depends_on_version(lint_model) -> None:  # type: ignore[no-untyped-def]
    model = fx.single("InstanceNormalization", inputs=("x", "s", "b"),
                      extra=[fx.init("s", np.ones(3)), fx.init("b", np.zeros(3))])
    assert "plugin" in _rules(lint_model(model, trt_version="8.6"), "instance-norm")[0].message
    assert "native" in _rules(lint_model(model, trt_version="10.0"), "instance-norm")[0].message


def test_trt_plugin_op_is_info_and_ml_op_is_error(lint_model) -> None:  # type: ignore[no-untyped-def]
    plugin = fx.single("EfficientNMS_TRT", domain="trt.plugins")
    assert [f.level for f in _rules(lint_model(plugin), "custom-domain-op")] == ["info"]
    unknown = fx.single("FancyOp")
    assert [f.level for f in _rules(lint_model(unknown), "unsupported-op")] == ["warning"]
    ml = fx.single("Normalizer", domain="ai.onnx.ml")
    assert [f.level for f in _rules(lint_model(ml), "unsupported-op")] == ["error"]


def test_custom_op_inside_a_subgraph_is_found(lint_model) -> None:  # type: ignore[no-untyped-def]
    inner = helper.make_node("MyOp", ["x"], ["t"], name="inner_custom", domain="com.acme")
    branch = helper.make_graph([inner], "then", [], [fx.vi("t", [1, 3, 8, 8])])
    other = helper.make_graph([helper.make_node("Identity", ["x"], ["e"], name="id")], "else", [],
                              [fx.vi("e", [1, 3, 8, 8])])
    node = helper.make_node("If", ["cond"], ["y"], name="if", then_branch=branch, else_branch=other)
    model = fx.build([node], [fx.vi("cond", [], TensorProto.BOOL), fx.vi("x", [1, 3, 8, 8])],
                     [fx.vi("y", [1, 3, 8, 8])], domains={"com.acme": 1})
    found = _rules(lint_model(model), "custom-domain-op")
    assert found and found[0].nodes == ["inner_custom"]


def test_checker_still_runs_behind_unsorted_nodes(lint_model) -> None:  # type: ignore[no-untyped-def]
    model = fx.chain(unsorted=True)
    model.graph.node[0].attribute.append(helper.make_attribute("bogus", 1))
    report = lint_model(model)
    assert _rules(report, "check-model")
    assert any("topologically sorted" in n for n in report.notes)


def test_opset_too_new_for_8x(lint_model) -> None:  # type: ignore[no-untyped-def]
    model = fx.conv()
    model.opset_import[0].version = 19
    assert [f.level for f in _rules(lint_model(model, trt_version="8.6"), "opset-range")] == ["warning"]
    assert [f.level for f in _rules(lint_model(model), "opset-range")] == ["info"]


def test_nonconstant_zero_point_is_an_error(lint_model) -> None:  # type: ignore[no-untyped-def]
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "zp"], ["y"], name="q")]
    model = fx.build(nodes, [fx.vi("x", [4]), fx.vi("zp", [], TensorProto.INT8)], [fx.vi("y", [4], TensorProto.INT8)],
                     [fx.init("s", 0.1)])
    assert "run time" in _rules(lint_model(model), "qdq-zero-point")[0].message


def test_findings_are_sorted_most_serious_first(lint_model) -> None:  # type: ignore[no-untyped-def]
    model = fx.qdq_conv(act_zp=3, c=8, k=8, group=8)
    model.graph.input.append(fx.vi("unused", [1]))
    report = lint_model(model)
    ranks = [{"error": 3, "warning": 2, "info": 1}[f.level] for f in report.findings]
    assert ranks == sorted(ranks, reverse=True) and ranks[0] == 3
    again = lint_model(model)
    assert [f.model_dump() for f in again.findings] == [f.model_dump() for f in report.findings]


@pytest.mark.parametrize("text", ["latest", "8.x", "1e5", "8.6.1abc", "861"])
def test_invalid_trt_version(tmp_path, text) -> None:  # type: ignore[no-untyped-def]
    path = fx.save(fx.conv(), tmp_path)
    with pytest.raises(LintError, match="trt-version"):
        lint_path(path, trt_version=text)


@pytest.mark.parametrize(("text", "shown", "old"), [
    ("8.6.1 GA", "8.6.1", True), ("TensorRT 8.6.1", "8.6.1", True), ("8601", "8.6.1", True),
    ("8.6.1-1+cuda12.0", "8.6.1", True), ("8.6.1.6-1+cuda12.0", "8.6.1.6", True), ("v10.3.0.26", "10.3.0.26", False),
    ("10.0.0b6", "10.0.0", False), ("TensorRT v100300", "10.3.0", False),
])
def test_trt_version_forms_diagnose_accepts(text, shown, old, lint_model) -> None:  # type: ignore[no-untyped-def]
    """lint reads --trt-version with diagnose's parser (core/versions.py): apt, pip, banner and labelled forms.
    An apt version is not a post-release (8.6.1-1 is 8.6.1) and a pip pre-release of 10.0 is a 10.x."""
    report = lint_model(fx.qdq_conv(deconv=True, w_axis=1), trt_version=text)
    assert report.trt_version == shown
    message = _rules(report, "qdq-deconv-weight-axis")[0].message
    assert ("does not support" in message) is old and ("unconfirmed" in message) is not old


def test_zero_scale_names_the_channel(lint_model) -> None:  # type: ignore[no-untyped-def]
    scale = np.full(4, 0.01)
    scale[2] = 0.0
    found = _rules(lint_model(fx.qdq_conv(w_scale=scale)), "qdq-scale")
    assert found and found[0].details["channels"] == [2] and found[0].kb == "qdq-scale-not-positive"


def test_constant_node_scales_are_constants(lint_model) -> None:  # type: ignore[no-untyped-def]
    nodes = [
        helper.make_node("Constant", [], ["s"], name="scale_const", value_float=0.05),
        helper.make_node("Constant", [], ["zp"], name="zp_const",
                         value=onnx.numpy_helper.from_array(np.array(0, np.int8))),
        helper.make_node("QuantizeLinear", ["x", "s", "zp"], ["q"], name="q"),
        helper.make_node("DequantizeLinear", ["q", "s", "zp"], ["y"], name="dq"),
    ]
    model = fx.build(nodes, [fx.vi("x", [1, 3, 8, 8])], [fx.vi("y", [1, 3, 8, 8])])
    assert lint_model(model).findings == []


def test_reversed_long_chain_sorts_quickly(lint_model) -> None:  # type: ignore[no-untyped-def]
    import time

    nodes = [helper.make_node("Relu", [f"t{i}"], [f"t{i + 1}"], name=f"r{i}") for i in range(3000)]
    nodes[-1].output[0] = "y"
    model = fx.build(list(reversed(nodes)), [fx.vi("t0", [1, 3, 8, 8])], [fx.vi("y", [1, 3, 8, 8])])
    model.graph.node[0].attribute.append(helper.make_attribute("bogus", 1))
    start = time.perf_counter()
    report = lint_model(model)
    assert time.perf_counter() - start < 10
    assert [f.rule for f in report.findings if f.level == "error"] == ["check-model"]
