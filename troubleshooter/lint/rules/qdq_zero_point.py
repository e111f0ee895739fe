"""qdq-zero-point: Q/DQ zero point is not zero (asymmetric quantization)
=========================================================================

TensorRT supports symmetric quantization only: the zero point of every QuantizeLinear and
DequantizeLinear must be all zeros and a build-time constant. The parser stops with

* 10.x: ``TensorRT only supports symmetric quantization. The zero point for the
  QuantizeLinear/DequantizeLinear operator must be all zeros.``
* 8.x: ``Assertion failed: shiftIsAllZeros(zeroPoint) && "TensorRT only supports symmetric
  quantization..."``

Asymmetric models usually come from ONNX Runtime's quantizer (``QuantType.QUInt8``
activations), PyTorch FX / eager quantization or TF QAT defaults.

**Level:** error. **KB:** ``qdq-nonzero-zero-point``.

**Fix:** quantize symmetrically: ``onnxruntime.quantization.quantize_static(...,
activation_type=QuantType.QInt8, weight_type=QuantType.QInt8,
extra_options={"ActivationSymmetric": True, "WeightSymmetric": True})``, or NVIDIA ModelOpt /
pytorch-quantization, which export TensorRT-ready Q/DQ.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, qdq_params

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "qdq-zero-point"
TITLE = "Q/DQ zero point is not zero"
LEVEL: LintLevel = "error"
KB = "qdq-nonzero-zero-point"


def check(ctx: LintContext) -> Iterator[Finding]:
    """Non-zero or non-constant zero points."""
    for q in qdq_params(ctx):
        if q.zero_point is None:
            continue
        op = q.node.op_type
        if not ctx.is_const(q.zero_point):
            yield finding(
                RULE, LEVEL,
                f"{op} {q.name}: zero point {q.zero_point!r} is computed at run time; TensorRT needs a constant "
                "zero point of 0",
                [q.name], KB, zero_point=q.zero_point,
            )
            continue
        value = q.zero_point_value
        if value is None:
            continue
        flat = value.ravel()
        bad = flat[flat.astype("float64") != 0]
        if bad.size:
            sample = ", ".join(str(v) for v in sorted(set(bad.tolist()))[:4])
            yield finding(
                RULE, LEVEL,
                f"{op} {q.name}: zero point {sample} (not 0); TensorRT only supports symmetric quantization "
                "and the parser rejects this node",
                [q.name], KB, zero_point=q.zero_point, values=sorted(set(bad.tolist()))[:8],
            )
