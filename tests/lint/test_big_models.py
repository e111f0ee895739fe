"""Big models: the wire walker gives the findings of a full ``onnx.load``, and inline and
external copies of a model give the same findings.

The ``lint_model`` fixture (conftest.py) already lints every model of the lint tests four ways
and compares the findings; this module adds the storage variants the factory does not make
(typed data fields, Constant values, subgraph initializers, malformed payloads) and checks the
walker's pieces directly.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import lint_factory as fx
import numpy as np
import onnx
import pytest
from conftest import assert_same_findings, lint_every_way
from onnx import TensorProto, helper, numpy_helper
from test_rules import CASES

from troubleshooter.errors import LintError
from troubleshooter.lint import lint_path
from troubleshooter.lint import model as model_module
from troubleshooter.lint.model import load_model


def _typed(values: np.ndarray, name: str, dtype: int) -> TensorProto:
    """A tensor with its values in the typed field (float_data, int64_data...), not raw_data."""
    return helper.make_tensor(name, dtype, list(values.shape), values.ravel().tolist(), raw=False)


def _fp16_typed(value: float) -> onnx.ModelProto:
    model = fx.conv()
    weights = np.full((4, 3, 3, 3), 0.1, np.float32)
    weights[1, 2, 0, 0] = value
    model.graph.initializer[0].CopyFrom(_typed(weights, "w", TensorProto.FLOAT))
    return model


def _int64_typed() -> onnx.ModelProto:
    node = helper.make_node("Add", ["x", "c"], ["y"], name="add64")
    values = np.arange(600, dtype=np.int64)
    values[5] = -(2**40)
    return fx.build([node], [fx.vi("x", [600], TensorProto.INT64)], [fx.vi("y", [600], TensorProto.INT64)],
                    [_typed(values, "c", TensorProto.INT64)])


def _fp16_in_int32_data() -> onnx.ModelProto:
    """FLOAT16 weights stored in int32_data (as some exporters do), and a DOUBLE in double_data."""
    half = np.full((4, 3, 3, 3), 0.5, np.float16)
    tensor = helper.make_tensor("w", TensorProto.FLOAT16, list(half.shape), half.ravel().tolist())
    assert tensor.int32_data and not tensor.raw_data
    node = helper.make_node("Conv", ["x", "w"], ["y"], name="conv", pads=[1, 1, 1, 1])
    add = helper.make_node("Add", ["d", "d"], ["z"], name="add_d")
    double = _typed(np.linspace(0, 1, 300), "d", TensorProto.DOUBLE)
    return fx.build([node, add], [fx.vi("x", [1, 3, 8, 8], TensorProto.FLOAT16)],
                    [fx.vi("y", [1, 4, 8, 8], TensorProto.FLOAT16), fx.vi("z", [300], TensorProto.DOUBLE)],
                    [tensor, double])


def _constant_weights(value: float) -> onnx.ModelProto:
    """The conv weight as a big Constant node, plus an INT64 Constant shape."""
    weights = np.full((4, 3, 3, 3), 0.1, np.float32)
    weights[0, 0, 0, 0] = value
    const = helper.make_node("Constant", [], ["w"], name="wconst", value=numpy_helper.from_array(weights, "wv"))
    shape = helper.make_node("Constant", [], ["shape"], name="shape",
                             value=numpy_helper.from_array(np.array([1, -1], np.int64), "sv"))
    conv = helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1])
    flat = helper.make_node("Reshape", ["c", "shape"], ["y"], name="flat")
    return fx.build([const, shape, conv, flat], [fx.vi("x", [1, 3, 8, 8])], [fx.vi("y", [1, 256])])


def _subgraph_weights(value: float) -> onnx.ModelProto:
    """An If whose branches hold their own conv weights (initializers of the subgraphs)."""
    def branch(label: str, fill: float) -> onnx.GraphProto:
        weights = np.full((4, 3, 3, 3), fill, np.float32)
        conv = helper.make_node("Conv", ["x", f"w_{label}"], [f"o_{label}"], name=f"conv_{label}", pads=[1, 1, 1, 1])
        return helper.make_graph([conv], label, [], [fx.vi(f"o_{label}", [1, 4, 8, 8])],
                                 [numpy_helper.from_array(weights, f"w_{label}")])
    node = helper.make_node("If", ["cond"], ["y"], name="if", then_branch=branch("then", value),
                            else_branch=branch("else", 0.1))
    return fx.build([node], [fx.vi("cond", [], TensorProto.BOOL), fx.vi("x", [1, 3, 8, 8])],
                    [fx.vi("y", [1, 4, 8, 8])])


def _short_payload() -> onnx.ModelProto:
    """raw_data smaller than the dims need: the walker keeps it whole, the checker reports it."""
    model = fx.conv()
    model.graph.initializer[0].raw_data = model.graph.initializer[0].raw_data[:-8]
    return model


def _unsorted_with_weights() -> onnx.ModelProto:
    model = fx.conv(c=3, k=4)
    relu = helper.make_node("Relu", ["y"], ["z"], name="relu")
    model.graph.node.insert(0, relu)
    model.graph.output[0].name = "z"
    return model


def _checker_error_with_weights() -> onnx.ModelProto:
    """The checker rejects the model (a bogus attribute) while its weights are left in the file."""
    model = fx.conv(c=8, k=16)
    model.graph.node[0].attribute.append(helper.make_attribute("bogus", 1))
    return model


EXTRA: dict[str, Callable[[], onnx.ModelProto]] = {
    "checker-error-with-weights": _checker_error_with_weights,
    "fp16-typed-overflow": lambda: _fp16_typed(1e6),
    "fp16-typed-clean": lambda: _fp16_typed(1.0),
    "int64-typed": _int64_typed,
    "fp16-in-int32-data": _fp16_in_int32_data,
    "constant-overflow": lambda: _constant_weights(1e6),
    "constant-subnormal": lambda: _constant_weights(1e-7),
    "subgraph-weights": lambda: _subgraph_weights(0.2),
    "short-payload": _short_payload,
    "unsorted-with-weights": _unsorted_with_weights,
    "qdq-block-scale": lambda: fx.qdq_conv(w_scale=np.full(4, 0.01)),
}


@pytest.mark.parametrize("make", list(EXTRA.values()), ids=list(EXTRA))
def test_walker_matches_full_load(make: Callable[[], onnx.ModelProto], tmp_path: Path) -> None:
    # onnx.checker does not compare external data with the dims: a short payload is only caught inline.
    external = make is not _short_payload
    reports = lint_every_way(make(), tmp_path, trt_version="8.6", external=external)
    assert_same_findings(reports)
    reports = lint_every_way(make(), tmp_path / "current", external=external)
    assert_same_findings(reports)


@pytest.mark.parametrize("side", ["positive", "clean"])
def test_every_rule_case_matches_full_load(side: str, tmp_path: Path) -> None:
    """Every rule's positive and clean model (test_rules.CASES), each way, same findings."""
    for i, case in enumerate(CASES):
        make = case.positive if side == "positive" else case.clean
        reports = lint_every_way(make(), tmp_path / f"{i}", trt_version=case.trt)
        assert_same_findings(reports)


def test_the_walker_strips_payloads_and_rules_still_see_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = fx.save(_fp16_typed(1e6), tmp_path)
    monkeypatch.setattr(model_module, "LITE_TENSOR_BYTES", 1)
    loaded = load_model(path)
    tensor = loaded.model.graph.initializer[0]
    assert loaded.payload(tensor) is not None
    assert len(tensor.float_data) == 0 and not tensor.raw_data and list(tensor.dims) == [4, 3, 3, 3]
    full = onnx.load(str(path)).graph.initializer[0]
    assert np.array_equal(loaded.read_array(tensor), numpy_helper.to_array(full))
    chunks = list(loaded.iter_values(tensor, chunk_bytes=40))
    assert len(chunks) > 1
    assert np.array_equal(np.concatenate([c.copy() for c in chunks]), numpy_helper.to_array(full).ravel())
    assert loaded.read_array(tensor, limit=16) is None  # stored outside the parsed model, and too big


@pytest.mark.parametrize("dtype", [TensorProto.INT64, TensorProto.INT32, TensorProto.FLOAT16, TensorProto.UINT64])
def test_varint_chunks_cut_between_values(dtype: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(1)
    if dtype == TensorProto.FLOAT16:
        values = rng.standard_normal(999).astype(np.float16)
        tensor = helper.make_tensor("t", dtype, [999], values.tolist())  # bit patterns in int32_data
    else:
        np_type = helper.tensor_dtype_to_np_dtype(dtype)
        info = np.iinfo(np_type)
        values = rng.integers(max(info.min, -(2**62)), min(info.max, 2**62), 999, dtype=np.int64).astype(np_type)
        tensor = _typed(values, "t", dtype)
    node = helper.make_node("Identity", ["t"], ["y"], name="id")
    path = fx.save(fx.build([node], [], [fx.vi("y", [999], dtype)], [tensor]), tmp_path)
    monkeypatch.setattr(model_module, "LITE_TENSOR_BYTES", 1)
    loaded = load_model(path)
    stripped = loaded.model.graph.initializer[0]
    assert loaded.payload(stripped) is not None
    assert np.array_equal(numpy_helper.to_array(onnx.load(str(path)).graph.initializer[0]).ravel(), values)
    for chunk in (11, 64, 1 << 20):
        got = np.concatenate([c.copy() for c in loaded.iter_values(stripped, chunk_bytes=chunk)])
        assert np.array_equal(got, values.ravel()), chunk


def test_inline_and_external_copies_agree_on_fp16_overflow(tmp_path: Path) -> None:
    """Before: external weights were skipped, so only the inline copy warned."""
    reports = lint_every_way(_constant_weights(1e6), tmp_path)
    assert_same_findings(reports)
    assert any(f.rule == "fp16-range" and f.level == "warning" for f in reports["external"].findings)


def test_walker_and_reference_fail_alike_on_damaged_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cut or corrupted copies of a model: both parsers accept it with the same findings (rule and level: the
    checker words a name that is not UTF-8 differently when it reads the file itself), or both refuse it with
    the same triage code."""
    good = _subgraph_weights(0.2).SerializeToString()
    rand = random.Random(5)
    cases = [good[:cut] for cut in range(0, len(good), max(1, len(good) // 40))]
    for _ in range(60):
        damaged = bytearray(good)
        for _ in range(3):
            damaged[rand.randrange(len(damaged))] = rand.randrange(256)
        cases.append(bytes(damaged))
    path = tmp_path / "model.onnx"

    def outcome(threshold: int | None) -> object:
        monkeypatch.setattr(model_module, "LITE_TENSOR_BYTES", threshold)
        try:
            return [(f.rule, f.level, f.nodes) for f in lint_path(path).findings]
        except LintError as err:
            return getattr(err, "code", str(err))

    for data in cases:
        path.write_bytes(data)
        assert outcome(1) == outcome(None), data.hex()[:80]


def test_a_weight_that_cannot_be_scanned_is_noted(tmp_path: Path) -> None:
    """External data shorter than the dims need: fp16-range skips the tensor and says why."""
    model = fx.conv()
    onnx.save_model(model, str(tmp_path / "model.onnx"), save_as_external_data=True, location="weights.bin",
                    size_threshold=0)
    saved = onnx.load(str(tmp_path / "model.onnx"), load_external_data=False)
    weight = saved.graph.initializer[0]
    for entry in weight.external_data:
        if entry.key == "length":
            entry.value = str(int(entry.value) - 8)
    (tmp_path / "model.onnx").write_bytes(saved.SerializeToString())
    report = lint_path(tmp_path / "model.onnx")
    assert any(n.startswith("fp16-range: 1 weight tensor(s) skipped") and "dims need" in n for n in report.notes), (
        report.notes)
