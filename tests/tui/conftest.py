"""Fixtures for the Textual app's tests (helpers are in tui_helpers.py)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path

import pytest

if importlib.util.find_spec("textual") is None:  # the `tui` extra is not installed: nothing here can run
    collect_ignore_glob = ["test_*.py"]


@pytest.fixture
def onnx_models(tmp_path: Path) -> Callable[..., str]:
    """Build a tiny ONNX model with onnx.helper: a (Q/DQ) depthwise conv with a chosen node name."""
    onnx = pytest.importorskip("onnx")
    np = pytest.importorskip("numpy")
    from onnx import TensorProto, helper, numpy_helper

    def build(node_name: str = "/features.1/conv/Conv", weight: str = "features.1.conv.weight", channels: int = 6,
              group: int | None = None, quantized: bool = True, file: str = "model.onnx") -> str:
        group = channels if group is None else group
        per_group = channels // group
        inits = [numpy_helper.from_array(np.full((channels, per_group, 3, 3), 0.1, dtype=np.float32), weight),
                 numpy_helper.from_array(np.array(0.02, dtype=np.float32), "scale"),
                 numpy_helper.from_array(np.array(0, dtype=np.int8), "zero")]
        nodes = []
        x, w = "x", weight
        if quantized:
            nodes += [
                helper.make_node("QuantizeLinear", ["x", "scale", "zero"], ["xq"], name="x_q"),
                helper.make_node("DequantizeLinear", ["xq", "scale", "zero"], ["xdq"], name="x_dq"),
                helper.make_node("QuantizeLinear", [weight, "scale", "zero"], ["wq"], name=f"{weight}_QuantizeLinear"),
                helper.make_node("DequantizeLinear", ["wq", "scale", "zero"], ["wdq"], name=f"{weight}_DequantizeLinear"),
            ]
            x, w = "xdq", "wdq"
        nodes.append(helper.make_node("Conv", [x, w], ["y"], name=node_name, pads=[1, 1, 1, 1], group=group))
        graph = helper.make_graph(
            nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, channels, 8, 8])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, channels, 8, 8])], inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="trt-why-tests")
        model.ir_version = 8
        path = tmp_path / file
        onnx.save(model, str(path))
        return str(path)

    return build


@pytest.fixture(autouse=True)
def _no_kb_path(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The user's own KB folders and caches stay out of the tests."""
    monkeypatch.delenv("TRT_WHY_KB_PATH", raising=False)

