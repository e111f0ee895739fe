"""conv-channels: Conv / ConvTranspose channels do not match the weights
========================================================================

ONNX shape inference does not check that a convolution's input channels agree with its
weights, but TensorRT does: for Conv the input must have ``W.shape[1] * group`` channels and
``W.shape[0]`` must divide by ``group``; for ConvTranspose the input must have ``W.shape[0]``
channels. A bias must have one value per output channel. TensorRT fails with messages like
``kernel weights has count 288 but 9216 was expected`` or ``number of kernel weights does not
match tensor dimensions``.

**Level:** error. **KB:** ``onnx-parser-assertion`` (``deconv-qdq-output-channels`` for
ConvTranspose).

**Fix:** the exporter wrote the wrong ``group`` or a transposed weight layout; re-export, or
fix ``group`` / the weight shape.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "conv-channels"
TITLE = "Conv / ConvTranspose channels do not match the weights"
LEVEL: LintLevel = "error"
KB = "onnx-parser-assertion"


def _weight_shape(ctx: LintContext, name: str) -> list[int] | None:
    shape = ctx.shape(name)
    if shape is None or len(shape) < 3 or not all(isinstance(d, int) for d in shape):
        return None
    return [int(d) for d in shape]  # type: ignore[arg-type]


def check(ctx: LintContext) -> Iterator[Finding]:
    """Compare input channels, weight dims, group and bias length."""
    for index, node in enumerate(ctx.nodes):
        if node.op_type not in ("Conv", "ConvTranspose") or len(node.input) < 2:
            continue
        w = _weight_shape(ctx, node.input[1])
        if w is None:
            continue
        name = ctx.name_of(index)
        kb = "deconv-qdq-output-channels" if node.op_type == "ConvTranspose" else KB
        group = int(ctx.attr(node, "group", 1))
        x = ctx.shape(node.input[0])
        channels = x[1] if x is not None and len(x) > 1 and isinstance(x[1], int) else None
        if node.op_type == "Conv":
            expected_in, out = w[1] * group, w[0]
            problems = [] if w[0] % group == 0 else [f"{w[0]} output channels do not divide by group {group}"]
        else:
            expected_in, out = w[0], w[1] * group
            problems = [] if w[0] % group == 0 else [f"{w[0]} input channels do not divide by group {group}"]
        if channels is not None and channels != expected_in:
            problems.append(
                f"input has {channels} channels but weights {w} with group {group} expect {expected_in}"
            )
        if len(node.input) > 2 and node.input[2]:
            bias = ctx.shape(node.input[2])
            if bias is not None and len(bias) == 1 and isinstance(bias[0], int) and bias[0] != out:
                problems.append(f"bias has {bias[0]} values for {out} output channels")
        for problem in problems:
            yield finding(RULE, LEVEL, f"{node.op_type} {name}: {problem}", [name], kb, weights=w, group=group)
