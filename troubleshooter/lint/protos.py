"""Small ModelProto helpers: Constant node values and a weight-stripped copy for checking."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.wire import RAW_DATA, RAW_ITEMSIZE

if TYPE_CHECKING:
    from onnx import ModelProto, NodeProto, TensorProto

    from troubleshooter.lint.model import LoadedModel

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


def stripped_copy(loaded: LoadedModel, nodes: list[NodeProto]) -> ModelProto:
    """A copy of the model with ``nodes`` in this order, for shape inference and the checker.

    Initializers and top-level Constant values over ``STRIP_BYTES`` (or external) become graph
    inputs of the same type and dims, whether their values were parsed or left in the file by the
    walker; smaller tensors the walker left in the file are read back, so the copy is the same
    either way. (Bigger ones inside subgraphs keep dims and type, without values.)"""
    from onnx import GraphProto, ModelProto, helper

    model = loaded.model
    copy = ModelProto()
    for field in ("ir_version", "producer_name", "producer_version", "domain", "model_version"):
        setattr(copy, field, getattr(model, field))
    copy.opset_import.extend(model.opset_import)
    copy.functions.extend(model.functions)
    graph = GraphProto()
    source = model.graph
    graph.name = source.name
    names = {v.name for v in source.input}
    inputs = list(source.input)
    for node in nodes:
        value = _big_constant(loaded, node)
        if value is None:
            graph.node.append(node)
        elif node.output[0] not in names:
            inputs.append(helper.make_tensor_value_info(node.output[0], value.data_type, list(value.dims)))
    for tensor in source.initializer:
        if not _big(loaded, tensor):
            graph.initializer.append(tensor)
        elif tensor.name not in names:
            inputs.append(helper.make_tensor_value_info(tensor.name, tensor.data_type, list(tensor.dims)))
    graph.input.extend(inputs)
    graph.output.extend(source.output)
    graph.value_info.extend(source.value_info)
    copy.graph.CopyFrom(graph)
    _read_back_small(loaded, copy)
    return copy


def _big(loaded: LoadedModel, tensor: TensorProto) -> bool:
    from onnx import TensorProto as TP

    return tensor.data_location == TP.EXTERNAL or loaded.payload_bytes(tensor) > STRIP_BYTES


def _big_constant(loaded: LoadedModel, node: NodeProto) -> TensorProto | None:
    """The value of a Constant node when it is a big tensor, else None."""
    if node.op_type != "Constant" or node.domain not in ("", "ai.onnx") or len(node.output) != 1 or not node.output[0]:
        return None
    values = [a for a in node.attribute if a.name == "value"]
    if len(node.attribute) != 1 or len(values) != 1 or not values[0].HasField("t"):
        return None
    tensor: TensorProto = values[0].t
    return tensor if _big(loaded, tensor) else None


def _copy_tensors(model: ModelProto) -> Iterator[TensorProto]:
    from troubleshooter.lint.model import iter_graphs, iter_tensors

    yield from iter_tensors(model)
    for function in model.functions:
        for node in function.node:
            for attr in node.attribute:
                for graph in [attr.g] if attr.HasField("g") else list(attr.graphs):
                    for sub in iter_graphs(graph):
                        yield from sub.initializer
                        for inner in sub.node:
                            for a in inner.attribute:
                                if a.HasField("t"):
                                    yield a.t
                                yield from a.tensors
                if attr.HasField("t"):
                    yield attr.t
                yield from attr.tensors


def _read_back_small(loaded: LoadedModel, copy: ModelProto) -> None:
    """Read back, in ``copy``, the values of the walker-stripped tensors up to ``STRIP_BYTES``."""
    if not loaded.payloads:
        return
    for tensor in _copy_tensors(copy):
        if loaded.payload(tensor) is not None and loaded.payload_bytes(tensor) <= STRIP_BYTES:
            tensor.CopyFrom(loaded.materialize(tensor))


def checker_copy(loaded: LoadedModel, model: ModelProto) -> ModelProto:
    """``model`` (a copy of ``loaded.model`` or a stripped copy) as ``onnx.checker`` should see it in memory.

    Tensors left in the file by the walker, and external tensors (already checked by
    ``load_model``), get a one-element stand-in in the same field, with every dim 1: the
    checker's verdict on them is the one it gives for the real values, which the walker
    checked (one payload field, the right field for the type, the size the dims need)."""
    from onnx import ModelProto as MP
    from onnx import TensorProto as TP

    copy = MP()
    copy.CopyFrom(model)
    fields = ("float_data", "int32_data", "int64_data", "double_data", "uint64_data", "string_data")
    for tensor in _copy_tensors(copy):
        found = loaded.payload(tensor)
        external = tensor.data_location == TP.EXTERNAL
        if found is None and not (external and not tensor.HasField("raw_data") and not any(
                len(getattr(tensor, name)) for name in fields)):
            continue
        header = loaded.header(tensor) if found is not None else tensor
        stand_in = TP()
        stand_in.CopyFrom(header)
        del stand_in.dims[:]
        stand_in.dims.extend([1] * len(header.dims))
        if external:
            del stand_in.external_data[:]
            stand_in.ClearField("data_location")
        if found is None or found.field == RAW_DATA:
            stand_in.raw_data = b"\0" * RAW_ITEMSIZE.get(header.data_type, 1)
        else:
            getattr(stand_in, {4: "float_data", 5: "int32_data", 7: "int64_data", 10: "double_data",
                               11: "uint64_data"}[found.field]).append(0)
        tensor.CopyFrom(stand_in)
    return copy
