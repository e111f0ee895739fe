"""qdq-scale-constant: Q/DQ scale is computed at run time
=========================================================

TensorRT builds its INT8 kernels with the quantization scales fixed: the scale (and zero
point) of a QuantizeLinear / DequantizeLinear must be a build-time constant, i.e. an
initializer or a ``Constant`` node (possibly through ``Cast`` / ``Identity``). A scale
computed by the graph (ONNX Runtime's dynamic quantization, ``DynamicQuantizeLinear``
patterns) fails to import.

**Level:** error. **KB:** ``onnx-parser-assertion``.

**Fix:** use static quantization (calibrated scales stored as initializers); fold constant
subgraphs with ``polygraphy surgeon sanitize --fold-constants`` or ``onnxsim``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, qdq_params

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "qdq-scale-constant"
TITLE = "Q/DQ scale is not a build-time constant"
LEVEL: LintLevel = "error"
KB = "onnx-parser-assertion"


def check(ctx: LintContext) -> Iterator[Finding]:
    """Scales that are not initializers or Constant outputs."""
    for q in qdq_params(ctx):
        if q.scale and not ctx.is_const(q.scale):
            producer = ctx.producer_node(q.scale)
            origin = f"the output of {producer.op_type}" if producer is not None else "a graph input"
            yield finding(
                RULE, LEVEL,
                f"{q.node.op_type} {q.name}: scale {q.scale!r} is {origin}, not a constant; "
                "TensorRT needs scales fixed at build time (fold constants or quantize statically)",
                [q.name], KB, scale=q.scale,
            )
