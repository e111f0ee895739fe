"""Test models built with onnx.helper, in the style of Polygraphy's tests/models/make_models.py.

Nothing binary is committed: every model a lint test needs is generated here. Each builder
returns a ModelProto; ``save`` writes one to a folder.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
F = TensorProto.FLOAT


def build(
    nodes: Sequence[onnx.NodeProto],
    inputs: Sequence[onnx.ValueInfoProto],
    outputs: Sequence[onnx.ValueInfoProto],
    initializers: Sequence[onnx.TensorProto] = (),
    *,
    opset: int = OPSET,
    domains: dict[str, int] | None = None,
) -> onnx.ModelProto:
    """A model with the default opset (and extra domains)."""
    imports = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in (domains or {}).items()]
    graph = helper.make_graph(list(nodes), "g", list(inputs), list(outputs), list(initializers))
    model = helper.make_model(graph, opset_imports=imports, producer_name="trt-why-tests")
    model.ir_version = 8
    return model


def vi(name: str, shape: Sequence[int | str | None] | None, dtype: int = F) -> onnx.ValueInfoProto:
    """A tensor value info."""
    return helper.make_tensor_value_info(name, dtype, None if shape is None else list(shape))


def init(name: str, values: Any, dtype: Any = np.float32) -> onnx.TensorProto:
    """An initializer from values."""
    return numpy_helper.from_array(np.asarray(values, dtype=dtype), name)


def save(model: onnx.ModelProto, folder: Path, name: str = "model.onnx") -> Path:
    """Write the model (inline data) and return its path."""
    path = folder / name
    onnx.save(model, str(path))
    return path


# ---- plain float models -------------------------------------------------------------------
def conv(c: int = 3, k: int = 4, hw: Sequence[int | str] = (8, 8), group: int = 1, w_c: int | None = None,
         bias: int | None = None) -> onnx.ModelProto:
    """x[1,c,H,W] -> Conv(W[k, w_c or c/group, 3, 3]) -> y."""
    w_c = w_c if w_c is not None else c // group
    inits = [init("w", np.full((k, w_c, 3, 3), 0.1))]
    ins = ["x", "w"]
    if bias is not None:
        inits.append(init("b", np.zeros(bias)))
        ins.append("b")
    node = helper.make_node("Conv", ins, ["y"], name="conv", pads=[1, 1, 1, 1], group=group)
    return build([node], [vi("x", [1, c, *hw])], [vi("y", [1, k, *hw])], inits)


def chain(names: Sequence[str] = ("r1", "r2"), *, unsorted: bool = False) -> onnx.ModelProto:
    """x -> Relu -> Relu -> y, optionally with the node list reversed (unsorted)."""
    first = helper.make_node("Relu", ["x"], ["a"], name=names[0])
    second = helper.make_node("Relu", ["a"], ["y"], name=names[1])
    nodes = [second, first] if unsorted else [first, second]
    return build(nodes, [vi("x", [1, 3, 8, 8])], [vi("y", [1, 3, 8, 8])])


def dynamic_hw() -> onnx.ModelProto:
    """A valid conv + relu with input [1, 3, H, W]."""
    c = helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1])
    r = helper.make_node("Relu", ["c"], ["y"], name="relu")
    return build([c, r], [vi("x", [1, 3, "H", "W"])], [vi("y", [1, 4, "H", "W"])],
                 [init("w", np.full((4, 3, 3, 3), 0.1))])


def single(op: str, *, domain: str = "", opset: int = OPSET, attrs: dict[str, Any] | None = None,
           inputs: Sequence[str] = ("x",), extra: Sequence[onnx.TensorProto] = (),
           out_type: int = F, out_shape: Sequence[int | str] = (1, 3, 8, 8)) -> onnx.ModelProto:
    """One node of ``op`` on x[1, 3, 8, 8]."""
    node = helper.make_node(op, list(inputs), ["y"], name=f"{op.lower()}0", domain=domain, **(attrs or {}))
    domains = {domain: 1} if domain else None
    return build([node], [vi("x", [1, 3, 8, 8])], [vi("y", out_shape, out_type)], list(extra), opset=opset,
                 domains=domains)


# ---- quantized models ---------------------------------------------------------------------
def qdq_conv(  # noqa: PLR0913 - keyword-only knobs of a test model
    *,
    c: int = 4,
    k: int = 4,
    group: int = 1,
    act_scale: Any = 0.02,
    act_zp: Any = 0,
    zp_dtype: Any = np.int8,
    w_scale: Any = None,
    w_axis: int | None = 0,
    w_zp: bool = True,
    quantize_input: bool = True,
    quantize_weight: bool = True,
    deconv: bool = False,
    act_axis: int | None = None,
) -> onnx.ModelProto:
    """x -> Q -> DQ -> Conv/ConvTranspose(DQ(int8 W)) -> y, every parameter adjustable."""
    op = "ConvTranspose" if deconv else "Conv"
    w_shape = (c, k // group, 3, 3) if deconv else (k, c // group, 3, 3)
    nodes: list[onnx.NodeProto] = []
    inits: list[onnx.TensorProto] = []
    data = "x"
    if quantize_input:
        inits += [init("x_scale", act_scale), init("x_zp", act_zp, zp_dtype)]
        extra = {"axis": act_axis} if act_axis is not None else {}
        nodes += [
            helper.make_node("QuantizeLinear", ["x", "x_scale", "x_zp"], ["xq"], name="x_q", **extra),
            helper.make_node("DequantizeLinear", ["xq", "x_scale", "x_zp"], ["xdq"], name="x_dq", **extra),
        ]
        data = "xdq"
    if quantize_weight:
        scale = w_scale if w_scale is not None else np.full(w_shape[0 if w_axis in (0, None) else 1], 0.01)
        inits += [init("w_q", np.ones(w_shape), np.int8), init("w_scale", scale)]
        w_inputs = ["w_q", "w_scale"]
        if w_zp:
            inits.append(init("w_zp", np.zeros(np.asarray(scale).shape), np.int8))
            w_inputs.append("w_zp")
        extra_w = {"axis": w_axis} if w_axis is not None else {}
        nodes.append(helper.make_node("DequantizeLinear", w_inputs, ["w"], name="w_dq", **extra_w))
    else:
        inits.append(init("w", np.full(w_shape, 0.1)))
    nodes.append(helper.make_node(op, [data, "w"], ["y"], name="conv", pads=[1, 1, 1, 1], group=group))
    return build(nodes, [vi("x", [1, c, 8, 8])], [vi("y", [1, k, 8, 8])], inits)


def qdq_residual(quantize_skip: bool) -> onnx.ModelProto:
    """A quantized conv whose output is added to the block input (quantized or float skip)."""
    model = qdq_conv()
    graph = model.graph
    graph.output[0].name = "out"
    skip = "xdq" if quantize_skip else "x_relu"
    if not quantize_skip:
        graph.node.append(helper.make_node("Relu", ["x"], ["x_relu"], name="skip_relu"))
    graph.node.append(helper.make_node("Add", ["y", skip], ["out"], name="residual_add"))
    return model


def qdq_silu(split: bool) -> onnx.ModelProto:
    """A quantized conv followed by SiLU; with ``split`` a Q/DQ pair sits between Sigmoid and Mul."""
    model = qdq_conv()
    graph = model.graph
    graph.output[0].name = "out"
    graph.node.append(helper.make_node("Sigmoid", ["y"], ["sig"], name="act_sigmoid"))
    sig = "sig"
    if split:
        graph.initializer.extend([init("s_scale", 0.01), init("s_zp", 0, np.int8)])
        graph.node.extend([
            helper.make_node("QuantizeLinear", ["sig", "s_scale", "s_zp"], ["sig_q"], name="sig_q"),
            helper.make_node("DequantizeLinear", ["sig_q", "s_scale", "s_zp"], ["sig_dq"], name="sig_dq"),
        ])
        sig = "sig_dq"
    graph.node.append(helper.make_node("Mul", ["y", sig], ["out"], name="act_mul"))
    return model


def qdq_runtime_scale() -> onnx.ModelProto:
    """A QuantizeLinear whose scale is computed by a ReduceMax (dynamic quantization)."""
    nodes = [
        helper.make_node("ReduceMax", ["x"], ["scale"], name="amax", keepdims=0),
        helper.make_node("QuantizeLinear", ["x", "scale", "zp"], ["xq"], name="x_q"),
        helper.make_node("DequantizeLinear", ["xq", "scale", "zp"], ["y"], name="x_dq"),
    ]
    return build(nodes, [vi("x", [1, 3, 8, 8])], [vi("y", [1, 3, 8, 8])], [init("zp", 0, np.int8)])


def ort_dynamic_quant() -> onnx.ModelProto:
    """ONNX Runtime's dynamic quantization: DynamicQuantizeLinear feeding MatMulInteger."""
    nodes = [
        helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"], name="dql"),
        helper.make_node("MatMulInteger", ["xq", "wq", "xz", "wz"], ["y"], name="mmi"),
    ]
    inits = [init("wq", np.ones((8, 4)), np.uint8), init("wz", 0, np.uint8)]
    return build(nodes, [vi("x", [2, 8])], [vi("y", [2, 4], TensorProto.INT32)], inits)
