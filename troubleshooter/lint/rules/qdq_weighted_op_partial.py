"""qdq-weighted-op-partial: a weighted op has only half of its inputs quantized
===============================================================================

In explicit quantization TensorRT runs a Conv, ConvTranspose, Gemm or MatMul in INT8 only
when *both* its activation input and its weights come through a DequantizeLinear. When only
one of them does, the build succeeds but the layer silently runs in FP16/FP32 (the DQ is
applied and the layer computed in float): the model is slower than expected and the
quantization of that layer is wasted.

Only checked in models that use Q/DQ. MatMul between two activations (attention) counts
both inputs as activations.

**Level:** warning. **KB:** none (the build log shows nothing; compare layer precisions with
``trtexec --verbose --profilingVerbosity=detailed`` or ``polygraphy inspect model engine``).

**Fix:** add the missing Q/DQ pair (ModelOpt and pytorch-quantization quantize both inputs of
these ops), or remove the lone one if the layer is meant to stay in float.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "qdq-weighted-op-partial"
TITLE = "Weighted op with only its weights or only its activation quantized"
LEVEL: LintLevel = "warning"
KB = None

WEIGHTED = {"Conv": (0, 1), "ConvTranspose": (0, 1), "Gemm": (0, 1), "MatMul": (0, 1)}


def check(ctx: LintContext) -> Iterator[Finding]:
    """Weighted ops where exactly one of data / weight is dequantized."""
    if not ctx.has_qdq:
        return
    for index, node in enumerate(ctx.nodes):
        if node.op_type not in WEIGHTED or len(node.input) < 2:
            continue
        data, weight = node.input[0], node.input[1]
        data_q = ctx.from_dq(data) is not None
        weight_q = ctx.from_dq(weight) is not None
        if data_q == weight_q:
            continue
        name = ctx.name_of(index)
        if data_q:
            missing = f"its weights {weight!r}" if ctx.is_weight(weight) else f"its second input {weight!r}"
        else:
            missing = f"its input {data!r}"
        yield finding(
            RULE, LEVEL,
            f"{node.op_type} {name}: only one input is quantized; {missing} has no Q/DQ, so TensorRT runs this "
            "layer in float instead of INT8",
            [name], KB, quantized="data" if data_q else "weight",
        )
