"""qdq-mixed-add-concat: Add or Concat mixes quantized and float inputs
=======================================================================

TensorRT fuses an element-wise Add into the preceding INT8 convolution (the residual add of
a ResNet block) only when the *other* input of the Add is quantized too; NVIDIA's Q/DQ
placement guidance is to put Q/DQ on residual connections. When one branch of the Add comes
from a DequantizeLinear (or a quantized conv) and the other is a plain float tensor, the add
runs in float and the surrounding INT8 fusions break. A Concat with some inputs dequantized
and others float cannot stay in INT8 either.

Only checked in models that use Q/DQ. Constant inputs (biases) are ignored.

**Level:** warning. **KB:** none.

**Fix:** quantize the float branch (add a Q/DQ pair on the residual / skip connection), as the
TensorFlow quantization toolkit's "residual connection" case and ModelOpt do.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, short

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "qdq-mixed-add-concat"
TITLE = "Add or Concat mixes quantized and float inputs"
LEVEL: LintLevel = "warning"
KB = None

_WEIGHTED = {"Conv", "ConvTranspose", "Gemm", "MatMul"}
_FUSABLE = {"Relu", "BatchNormalization", "Clip", "LeakyRelu"}


def _kind(ctx: LintContext, tensor: str) -> str:
    """'const', 'dq', 'qop' (output of a quantized weighted op) or 'float'."""
    if ctx.is_const(tensor):
        return "const"
    if ctx.from_dq(tensor) is not None:
        return "dq"
    node = ctx.producer_node(tensor)
    for _ in range(3):
        if node is None or node.op_type not in _FUSABLE or not node.input:
            break
        node = ctx.producer_node(node.input[0])
    if node is not None and node.op_type in _WEIGHTED and any(ctx.from_dq(t) for t in node.input[:2]):
        return "qop"
    return "float"


def check(ctx: LintContext) -> Iterator[Finding]:
    """Add / Concat nodes with quantized and float non-constant inputs."""
    if not ctx.has_qdq:
        return
    for index, node in enumerate(ctx.nodes):
        if node.op_type not in ("Add", "Concat"):
            continue
        kinds = {t: _kind(ctx, t) for t in node.input if t}
        floats = [t for t, k in kinds.items() if k == "float"]
        quantized = [t for t, k in kinds.items() if k in ("dq", "qop")]
        if node.op_type == "Concat":
            quantized = [t for t, k in kinds.items() if k == "dq"]
            floats = [t for t, k in kinds.items() if k in ("float", "qop")]
        if not floats or not quantized:
            continue
        name = ctx.name_of(index)
        what = "residual Add" if node.op_type == "Add" else "Concat"
        yield finding(
            RULE, LEVEL,
            f"{what} {name}: input(s) {short(quantized, 3)} are quantized but {short(floats, 3)} are float; "
            "quantize the float branch too, or this runs in float and breaks the INT8 fusion",
            [name], KB, quantized=quantized, float=floats,
        )
