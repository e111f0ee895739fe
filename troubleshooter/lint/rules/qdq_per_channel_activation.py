"""qdq-per-channel-activation: an activation is quantized per channel
=====================================================================

TensorRT supports per-channel (per-axis) quantization for weights only; activations must
use one scale per tensor ("Activations cannot be quantized per-channel", ``IQuantizeLayer``
documentation). A per-axis Q/DQ on a tensor computed at run time is rejected or, in some
releases, imported as something other than intended.

Weights are recognised as tensors computed only from constants (initializers, Constant
nodes, possibly through Q/DQ, Cast, Transpose or Reshape).

**Level:** error. **KB:** ``onnx-parser-assertion``.

**Fix:** quantize activations per tensor (ONNX Runtime: ``per_channel=True`` applies to weights
only with the QDQ format; ModelOpt does this by default).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, qdq_params

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "qdq-per-channel-activation"
TITLE = "Activation quantized per channel"
LEVEL: LintLevel = "error"
KB = "onnx-parser-assertion"


def check(ctx: LintContext) -> Iterator[Finding]:
    """Per-axis Q/DQ on tensors that are not weights."""
    for q in qdq_params(ctx):
        if q.per_axis and not q.weight:
            yield finding(
                RULE, LEVEL,
                f"{q.node.op_type} {q.name}: per-channel scale (axis {q.axis}) on activation {q.x!r}; "
                "TensorRT quantizes activations per tensor only",
                [q.name], KB, axis=q.axis,
            )
