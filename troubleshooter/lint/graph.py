"""What the rules see: the top-level graph indexed by tensor, constants resolved, shapes inferred.

Built once per model. Shape inference runs on a weight-stripped, topologically sorted copy,
so a model whose weights live in external files (or are huge) costs milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import TYPE_CHECKING, Any

from packaging.version import Version

from troubleshooter.lint.model import LoadedModel, iter_graphs
from troubleshooter.lint.protos import constant_value, stripped_copy

if TYPE_CHECKING:
    import numpy as np
    from onnx import ModelProto, NodeProto, TensorProto

Shape = list[int | str | None]
"""Dims of a tensor: an int when static, the dim_param name, or None when unknown."""

PASS_THROUGH = {"Identity", "Cast", "Reshape", "Transpose", "Unsqueeze", "Squeeze", "Flatten"}
"""Ops that keep a tensor a build-time constant (weights) when their data input is one."""

class LintContext:
    """The model as the rules see it."""

    def __init__(self, loaded: LoadedModel, trt: Version | None) -> None:
        self.loaded = loaded
        self.model: ModelProto = loaded.model
        self.graph = loaded.model.graph
        self.trt = trt
        self.notes: list[str] = []
        self.nodes: list[NodeProto] = list(self.graph.node)
        self.names: list[str] = [self._name(i, n) for i, n in enumerate(self.nodes)]
        self.position: dict[str, int] = {}
        for i, name in enumerate(self.names):
            self.position.setdefault(name, i)
        self.initializers: dict[str, TensorProto] = {t.name: t for t in self.graph.initializer}
        self.constants: dict[str, TensorProto] = {}
        self.producer: dict[str, int] = {}
        self.consumers: dict[str, list[tuple[int, int]]] = {}
        for i, node in enumerate(self.nodes):
            for out in node.output:
                if out:
                    self.producer.setdefault(out, i)
            for slot, name in enumerate(node.input):
                if name:
                    self.consumers.setdefault(name, []).append((i, slot))
            if node.op_type == "Constant" and node.domain in ("", "ai.onnx") and node.output:
                tensor = constant_value(node)
                if tensor is not None:
                    self.constants[node.output[0]] = tensor
        self.inputs = [v for v in self.graph.input if v.name not in self.initializers]
        self._strict_error: str | None = None
        self.opset = next((o.version for o in self.model.opset_import if o.domain in ("", "ai.onnx")), 0)

    # ---- names -------------------------------------------------------------------------
    @staticmethod
    def _name(index: int, node: NodeProto) -> str:
        if node.name:
            return node.name
        out = node.output[0] if node.output else ""
        return f"{node.op_type}_{index}({out})" if out else f"{node.op_type}_{index}"

    def name_of(self, index: int) -> str:
        """The node's name (a stable made-up one for unnamed nodes)."""
        return self.names[index]

    def producer_node(self, tensor: str) -> NodeProto | None:
        """The node that writes ``tensor``, or None for inputs, initializers and dangling names."""
        index = self.producer.get(tensor)
        return None if index is None else self.nodes[index]

    def consumer_nodes(self, tensor: str) -> list[tuple[NodeProto, int]]:
        """(node, input slot) for every node reading ``tensor``."""
        return [(self.nodes[i], slot) for i, slot in self.consumers.get(tensor, [])]

    def all_nodes(self) -> Iterator[tuple[str, NodeProto]]:
        """(name, node) for every node, subgraphs included (unnamed top-level nodes get made-up names)."""
        yield from zip(self.names, self.nodes, strict=True)
        for graph in list(iter_graphs(self.graph))[1:]:
            for node in graph.node:
                yield node.name or f"{node.op_type}({node.output[0] if node.output else ''})", node

    # ---- constants ---------------------------------------------------------------------
    def const_tensor(self, name: str) -> TensorProto | None:
        """The TensorProto behind an initializer or a Constant node output."""
        tensor = self.initializers.get(name)
        return tensor if tensor is not None else self.constants.get(name)

    def is_const(self, name: str) -> bool:
        """True for initializers, Constant outputs, and Identity / Cast of those."""
        seen = 0
        while seen < 8:
            if self.const_tensor(name) is not None:
                return True
            node = self.producer_node(name)
            if node is None or node.op_type not in ("Identity", "Cast") or not node.input:
                return False
            name = node.input[0]
            seen += 1
        return False

    def const_array(self, name: str) -> np.ndarray[Any, Any] | None:
        """Values of a small constant (through Identity / Cast), or None if not constant or too big."""
        tensor = self.const_tensor(name)
        if tensor is not None:
            return self.loaded.read_array(tensor)
        node = self.producer_node(name)
        if node is None or node.op_type not in ("Identity", "Cast") or not node.input:
            return None
        value = self.const_array(node.input[0])
        if value is None or node.op_type == "Identity":
            return value
        from onnx import helper

        to = next((a.i for a in node.attribute if a.name == "to"), 0)
        return value.astype(helper.tensor_dtype_to_np_dtype(to)) if to else value

    def is_weight(self, name: str) -> bool:
        """True when ``name`` is computed only from constants (weights, possibly through Q/DQ)."""
        for _ in range(16):
            if self.is_const(name):
                return True
            node = self.producer_node(name)
            if node is None or not node.input:
                return False
            if node.op_type not in PASS_THROUGH | {"QuantizeLinear", "DequantizeLinear"}:
                return False
            name = node.input[0]
        return False

    # ---- quantization ------------------------------------------------------------------
    def qdq_nodes(self) -> list[tuple[int, NodeProto]]:
        """Every QuantizeLinear / DequantizeLinear in the top-level graph."""
        return [
            (i, n)
            for i, n in enumerate(self.nodes)
            if n.op_type in ("QuantizeLinear", "DequantizeLinear") and n.domain in ("", "ai.onnx")
        ]

    @cached_property
    def has_qdq(self) -> bool:
        """True when the model uses explicit quantization."""
        return bool(self.qdq_nodes())

    @staticmethod
    def attr(node: NodeProto, name: str, default: Any = None) -> Any:
        """An attribute's value (int, float, string, ints...), or ``default``."""
        from onnx import helper

        for attribute in node.attribute:
            if attribute.name == name:
                return helper.get_attribute_value(attribute)
        return default

    def from_dq(self, tensor: str) -> NodeProto | None:
        """The DequantizeLinear producing ``tensor``, looking through Identity / Reshape / Transpose."""
        for _ in range(4):
            node = self.producer_node(tensor)
            if node is None:
                return None
            if node.op_type == "DequantizeLinear":
                return node
            if node.op_type not in PASS_THROUGH or not node.input:
                return None
            tensor = node.input[0]
        return None

    # ---- shapes ------------------------------------------------------------------------
    def shape(self, name: str) -> Shape | None:
        """Shape of a tensor: initializer dims, graph input / value_info, or inferred."""
        tensor = self.const_tensor(name)
        if tensor is not None:
            return list(tensor.dims)
        return self.inferred.get(name)

    @cached_property
    def strict_error(self) -> str | None:
        """The first error of strict shape inference, or None when it passed."""
        self.inferred  # noqa: B018 - runs inference
        return self._strict_error

    @cached_property
    def inferred(self) -> dict[str, Shape]:
        """Shapes from ONNX shape inference on a stripped, sorted copy of the model."""
        import onnx

        stripped = stripped_copy(self.loaded, self.sorted_nodes())
        try:
            result = onnx.shape_inference.infer_shapes(stripped, strict_mode=True, data_prop=True)
        except Exception as err:
            self._strict_error = " ".join(str(err).split())
            try:
                result = onnx.shape_inference.infer_shapes(stripped, strict_mode=False, data_prop=True)
            except Exception:
                result = stripped
        shapes: dict[str, Shape] = {}
        graph = result.graph
        for info in [*graph.input, *graph.value_info, *graph.output]:
            tensor_type = info.type.tensor_type
            if tensor_type.HasField("shape"):
                shapes[info.name] = [
                    d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in tensor_type.shape.dim
                ]
        return shapes

    # ---- order -------------------------------------------------------------------------
    def sorted_nodes(self) -> list[NodeProto]:
        """Nodes in topological order (Kahn, stable by position); dangling inputs count as available."""
        if self.is_sorted():
            return self.nodes
        import heapq

        waiting = [0] * len(self.nodes)
        users: dict[int, list[int]] = {}
        for i, node in enumerate(self.nodes):
            for name in set(self._needs(node)):
                producer = self.producer.get(name)
                if producer is not None and producer != i:
                    waiting[i] += 1
                    users.setdefault(producer, []).append(i)
        ready = [i for i, count in enumerate(waiting) if count == 0]
        heapq.heapify(ready)
        order: list[int] = []
        while ready:
            i = heapq.heappop(ready)
            order.append(i)
            for user in users.get(i, []):
                waiting[user] -= 1
                if waiting[user] == 0:
                    heapq.heappush(ready, user)
        if len(order) < len(self.nodes):  # a cycle: keep the original order for the rest
            placed = set(order)
            order.extend(i for i in range(len(self.nodes)) if i not in placed)
        return [self.nodes[i] for i in order]

    def _needs(self, node: NodeProto) -> list[str]:
        names = [t for t in node.input if t]
        for attribute in node.attribute:
            for sub in [attribute.g] if attribute.HasField("g") else list(attribute.graphs):
                for graph in iter_graphs(sub):
                    names.extend(t for n in graph.node for t in n.input if t)
        return names

    def is_sorted(self) -> bool:
        """True when every node's inputs are produced before it (or are inputs / initializers)."""
        return not self.late_inputs()

    @cached_property
    def _late(self) -> list[tuple[int, str]]:
        seen = {v.name for v in self.graph.input} | set(self.initializers)
        late = []
        for i, node in enumerate(self.nodes):
            for name in self._needs(node):
                if name not in seen and name in self.producer and self.producer[name] > i:
                    late.append((i, name))
            seen.update(node.output)
        return late

    def late_inputs(self) -> list[tuple[int, str]]:
        """(node index, tensor) for inputs produced later in the list: unsorted, harmless for TensorRT."""
        return self._late
