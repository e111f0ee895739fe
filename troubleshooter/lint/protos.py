"""Small ModelProto helpers: Constant node values and a weight-stripped copy for checking."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from onnx import ModelProto, NodeProto, TensorProto

STRIP_BYTES = 4096
"""Initializers above this size are replaced by graph inputs in the stripped copy."""


def constant_value(node: NodeProto) -> TensorProto | None:
    """The value of a Constant node as a TensorProto (value, value_float(s), value_int(s))."""
    from onnx import TensorProto as TP
    from onnx import helper

    for attr in node.attribute:
        if attr.name == "value":
            value: TensorProto = attr.t
            return value
        if attr.name == "value_float":
            return helper.make_tensor(node.output[0], TP.FLOAT, [], [attr.f])
        if attr.name == "value_floats":
            return helper.make_tensor(node.output[0], TP.FLOAT, [len(attr.floats)], list(attr.floats))
        if attr.name == "value_int":
            return helper.make_tensor(node.output[0], TP.INT64, [], [attr.i])
        if attr.name == "value_ints":
            return helper.make_tensor(node.output[0], TP.INT64, [len(attr.ints)], list(attr.ints))
    return None


def stripped_copy(model: ModelProto, nodes: list[NodeProto]) -> ModelProto:
    """A copy of the model with ``nodes`` in this order and big or external initializers turned into inputs."""
    from onnx import GraphProto, ModelProto, TensorProto, helper

    copy = ModelProto()
    for field in ("ir_version", "producer_name", "producer_version", "domain", "model_version"):
        setattr(copy, field, getattr(model, field))
    copy.opset_import.extend(model.opset_import)
    copy.functions.extend(model.functions)
    graph = GraphProto()
    source = model.graph
    graph.name = source.name
    graph.node.extend(nodes)
    graph.input.extend(source.input)
    graph.output.extend(source.output)
    graph.value_info.extend(source.value_info)
    names = {v.name for v in source.input}
    for tensor in source.initializer:
        big = tensor.data_location == TensorProto.EXTERNAL or len(tensor.raw_data) > STRIP_BYTES
        if not big:
            graph.initializer.append(tensor)
        elif tensor.name not in names:
            graph.input.append(helper.make_tensor_value_info(tensor.name, tensor.data_type, list(tensor.dims)))
    copy.graph.CopyFrom(graph)
    return copy
