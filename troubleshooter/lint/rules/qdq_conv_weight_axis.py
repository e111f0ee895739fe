"""qdq-conv-weight-axis: Conv weights quantized along the wrong axis
====================================================================

Conv weights are ``[K, C/groups, kH, kW]``; TensorRT quantizes them per output channel, so a
per-channel Q/DQ on a Conv weight must use ``axis=0`` with K scales. Note that the ONNX
default for QuantizeLinear/DequantizeLinear is ``axis=1``: an exporter that forgets the
attribute quantizes along input channels. The parser then fails with ``The number of scales
is not equal to the number of output channels`` (or builds a wrong engine when C == K).

**Level:** error. **KB:** ``onnx-parser-assertion``.

**Fix:** export Conv weight quantizers with ``axis=0`` (the default of ModelOpt and
pytorch-quantization's ``QUANT_DESC_8BIT_CONV2D_WEIGHT_PER_CHANNEL``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, weight_dq

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "qdq-conv-weight-axis"
TITLE = "Conv weight quantized along the wrong axis"
LEVEL: LintLevel = "error"
KB = "onnx-parser-assertion"


def check(ctx: LintContext) -> Iterator[Finding]:
    """Per-axis DQ on Conv/Gemm-style weights with axis != 0."""
    for index, node in enumerate(ctx.nodes):
        if node.op_type != "Conv" or len(node.input) < 2:
            continue
        q = weight_dq(ctx, node.input[1])
        if q is None or not q.per_axis or q.axis == 0:
            continue
        conv = ctx.name_of(index)
        yield finding(
            RULE, LEVEL,
            f"Conv {conv}: weight {q.name} is quantized per channel along axis {q.axis}; TensorRT needs axis 0 "
            "(output channels) for Conv weights (the ONNX default axis is 1)",
            [conv, q.name], KB, axis=q.axis,
        )
