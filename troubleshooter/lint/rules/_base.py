"""Helpers shared by the rules: building findings, TensorRT version tests, Q/DQ parameters."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from troubleshooter.lint.report import Finding, LintLevel

if TYPE_CHECKING:
    import numpy as np
    from onnx import NodeProto

    from troubleshooter.lint.graph import LintContext, Shape


def finding(
    rule: str, level: LintLevel, message: str, nodes: list[str] | None = None, kb: str | None = None, **details: object
) -> Finding:
    """A Finding from a rule (source trt-why)."""
    return Finding(rule=rule, level=level, message=message, nodes=nodes or [], kb=kb, details=details)


def trt_before(ctx: LintContext, version: str) -> bool:
    """True when the user targets a TensorRT older than ``version``. False without --trt-version."""
    from packaging.version import Version

    return ctx.trt is not None and ctx.trt < Version(version)


def trt_label(ctx: LintContext) -> str:
    """'TensorRT 8.6.1' or 'current TensorRT releases'."""
    return f"TensorRT {ctx.trt}" if ctx.trt is not None else "current TensorRT releases"


def short(values: list[str], limit: int = 5) -> str:
    """'a, b, c and 4 more'."""
    head = ", ".join(values[:limit])
    return head if len(values) <= limit else f"{head} and {len(values) - limit} more"


@dataclass
class Qdq:
    """Parameters of one QuantizeLinear / DequantizeLinear node, as far as they can be read."""

    index: int
    node: NodeProto
    name: str
    x: str
    scale: str
    zero_point: str | None
    scale_value: np.ndarray[Any, Any] | None
    zero_point_value: np.ndarray[Any, Any] | None
    scale_shape: Shape | None
    x_shape: Shape | None
    axis: int | None
    """Normalized axis for per-axis quantization, None for per-tensor or block."""
    per_axis: bool
    block: bool
    weight: bool
    """True when the quantized tensor is a weight (built from constants only)."""


def qdq_params(ctx: LintContext) -> list[Qdq]:
    """Every Q/DQ node of the graph with its parameters (cached on the context)."""
    cached: list[Qdq] | None = getattr(ctx, "_qdq_cache", None)
    if cached is not None:
        return cached
    result: list[Qdq] = []
    for index, node in ctx.qdq_nodes():
        inputs = [*node.input, "", "", ""]
        x, scale, zp = inputs[0], inputs[1], inputs[2] or None
        scale_value = ctx.const_array(scale) if scale else None
        zp_value = ctx.const_array(zp) if zp else None
        scale_shape = list(scale_value.shape) if scale_value is not None else ctx.shape(scale)
        x_shape = ctx.shape(x)
        rank_s = len(scale_shape) if scale_shape is not None else 0
        size_s = 1
        for d in scale_shape or []:
            size_s *= d if isinstance(d, int) else 2
        x_rank = len(x_shape) if x_shape is not None else None
        block = rank_s >= 2 or (x_rank is not None and x_rank > 1 and rank_s == x_rank)
        per_axis = rank_s == 1 and size_s > 1 and not block
        axis: int | None = None
        if per_axis:
            axis = int(ctx.attr(node, "axis", 1))
            if axis < 0 and x_rank is not None:
                axis += x_rank
        result.append(
            Qdq(
                index=index,
                node=node,
                name=ctx.name_of(index),
                x=x,
                scale=scale,
                zero_point=zp,
                scale_value=scale_value,
                zero_point_value=zp_value,
                scale_shape=scale_shape,
                x_shape=x_shape,
                axis=axis,
                per_axis=per_axis,
                block=block,
                weight=ctx.is_weight(x),
            )
        )
    ctx._qdq_cache = result  # type: ignore[attr-defined]
    return result


def weight_dq(ctx: LintContext, tensor: str) -> Qdq | None:
    """The DequantizeLinear feeding ``tensor`` (through reshapes), with its parameters."""
    dq = ctx.from_dq(tensor)
    if dq is None:
        return None
    return next((q for q in qdq_params(ctx) if q.node is dq or (q.node.output and q.node.output == dq.output)), None)
