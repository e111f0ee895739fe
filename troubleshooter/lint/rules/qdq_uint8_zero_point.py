"""qdq-uint8-zero-point: Q/DQ in UINT8 (or with no zero point, which means UINT8)
==================================================================================

TensorRT quantizes to signed INT8. A UINT8 zero point makes the parser warn
``TensorRT doesn't support QuantizeLinear/DequantizeLinear with UINT8 zero_point. TensorRT
will use INT8 instead.``: values the model meant as 128..255 are clipped to 127, so accuracy
drops even when the build succeeds (and a non-zero UINT8 zero point, typically 128, is an
error reported by ``qdq-zero-point``).

A QuantizeLinear without a zero point input also means UINT8 in ONNX (unless
``output_dtype`` says otherwise). TensorRT 8.x requires the third input:
``This version of TensorRT requires 3 inputs for the INT8 QuantizeLinear/DequantizeLinear
operator.``

**Level:** warning (error for a missing zero point on TensorRT < 9). **KB:** ``qdq-nonzero-zero-point``.

**Fix:** quantize with INT8 types (``QuantType.QInt8`` for activations and weights) and always
write an INT8 zero point of 0.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, qdq_params, trt_before

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "qdq-uint8-zero-point"
TITLE = "Q/DQ uses UINT8"
LEVEL: LintLevel = "warning"
KB = "qdq-nonzero-zero-point"


def check(ctx: LintContext) -> Iterator[Finding]:
    """UINT8 zero points, and QuantizeLinear nodes without one."""
    from onnx import TensorProto

    for q in qdq_params(ctx):
        op = q.node.op_type
        if q.zero_point is None:
            if op != "QuantizeLinear" or ctx.attr(q.node, "output_dtype", 0):
                continue
            old = trt_before(ctx, "9")
            yield finding(
                RULE, "error" if old else "warning",
                f"QuantizeLinear {q.name} has no zero point, which ONNX defines as UINT8 output; "
                + ("this TensorRT requires 3 inputs (give an INT8 zero point of 0)" if old
                   else "TensorRT quantizes to INT8: add an INT8 zero point of 0 (TensorRT 8.x rejects this node)"),
                [q.name], KB,
            )
            continue
        tensor = ctx.const_tensor(q.zero_point)
        if tensor is not None and tensor.data_type == TensorProto.UINT8:
            yield finding(
                RULE, LEVEL,
                f"{op} {q.name}: UINT8 zero point; TensorRT uses INT8 instead and clips values above 127",
                [q.name], KB, zero_point=q.zero_point,
            )
