"""qdq-axis-length: per-channel scale count differs from the channel count
==========================================================================

For per-channel (per-axis) quantization the 1-D scale must have exactly ``dim[axis]``
values, and the zero point the same shape as the scale. The parser stops with
``The number of scales is not equal to the number of output channels. Number of output
channels = K, number of scales = S.`` or ``The scale and zero point must have the same
volume.``

A count that matches another dimension usually means the wrong ``axis`` was written
(see also ``qdq-conv-weight-axis`` and ``qdq-deconv-weight-axis``).

**Level:** error. **KB:** ``onnx-parser-assertion`` (``deconv-qdq-output-channels`` on a
ConvTranspose weight).

**Fix:** re-export with the right axis, or fix the scale tensor's length.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, qdq_params

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "qdq-axis-length"
TITLE = "Per-channel scale count differs from the channel count"
LEVEL: LintLevel = "error"
KB = "onnx-parser-assertion"


def _feeds_deconv(ctx: LintContext, tensor: str) -> bool:
    return any(node.op_type == "ConvTranspose" and slot == 1 for node, slot in ctx.consumer_nodes(tensor))


def check(ctx: LintContext) -> Iterator[Finding]:
    """Per-axis scales whose length is not dim[axis]; zero points of another size than the scale."""
    for q in qdq_params(ctx):
        op = q.node.op_type
        kb = "deconv-qdq-output-channels" if any(_feeds_deconv(ctx, o) for o in q.node.output) else KB
        scale, zero = q.scale_value, q.zero_point_value
        if scale is not None and zero is not None and scale.size != zero.size:
            yield finding(
                RULE, LEVEL,
                f"{op} {q.name}: {scale.size} scale(s) but {zero.size} zero point(s); TensorRT requires the same volume",
                [q.name], kb,
            )
            continue
        if not q.per_axis or q.x_shape is None or q.axis is None or q.scale_shape is None:
            continue
        count = q.scale_shape[0]
        if not 0 <= q.axis < len(q.x_shape):
            yield finding(
                RULE, LEVEL, f"{op} {q.name}: axis {q.axis} is out of range for a rank-{len(q.x_shape)} input",
                [q.name], kb, axis=q.axis,
            )
            continue
        dim = q.x_shape[q.axis]
        if isinstance(dim, int) and isinstance(count, int) and dim != count:
            others = [i for i, d in enumerate(q.x_shape) if d == count]
            hint = f"; axis {others[0]} has {count}: wrong axis?" if others else ""
            yield finding(
                RULE, LEVEL,
                f"{op} {q.name}: {count} scales for axis {q.axis}, which has {dim} channels "
                f"(input shape {q.x_shape}){hint}",
                [q.name], kb, axis=q.axis, scales=count, channels=dim,
            )
