"""int8-grouped-conv-channels: INT8 grouped conv with channels per group not a multiple of 4
============================================================================================

TensorRT's ``IConvolutionLayer::setNbGroups`` (and the deconvolution one) documents: "When
using groups in int8 mode, the size of the groups (i.e. the channel count divided by the group
count) must be a multiple of 4 for both input and output." A depthwise convolution has one
channel per group, so it never meets the rule. On TensorRT 8.x quantized grouped/depthwise
convolutions fail with ``Could not find any implementation for node ...`` (NVIDIA/TensorRT
#4060, #3385); on 10.x they build, reportedly with the layer in float (unconfirmed), and
grouped INT8 can be slower than FP16 (#4529).

Checked on Conv / ConvTranspose with ``group > 1`` whose input or weights come through a
DequantizeLinear.

**Level:** warning (error for TensorRT < 10). **KB:** ``int8-grouped-conv-alignment``.

**Fix:** leave depthwise/grouped convs unquantized (remove their Q/DQ so they run in FP16), pad
the channels per group to a multiple of 4, or move to TensorRT 10.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, trt_before

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "int8-grouped-conv-channels"
TITLE = "INT8 grouped conv with channels per group not a multiple of 4"
LEVEL: LintLevel = "warning"
KB = "int8-grouped-conv-alignment"


def check(ctx: LintContext) -> Iterator[Finding]:
    """Quantized grouped convs with C/g or K/g not a multiple of 4."""
    for index, node in enumerate(ctx.nodes):
        if node.op_type not in ("Conv", "ConvTranspose") or len(node.input) < 2:
            continue
        group = int(ctx.attr(node, "group", 1))
        if group <= 1:
            continue
        if ctx.from_dq(node.input[0]) is None and ctx.from_dq(node.input[1]) is None:
            continue
        w = ctx.shape(node.input[1])
        if not w or len(w) < 2 or not all(isinstance(d, int) for d in w[:2]):
            continue
        d0, d1 = int(w[0]), int(w[1])  # type: ignore[arg-type]
        if node.op_type == "Conv":
            in_per_group, out_per_group = d1, d0 // group
        else:
            in_per_group, out_per_group = d0 // group, d1
        if in_per_group % 4 == 0 and out_per_group % 4 == 0:
            continue
        name = ctx.name_of(index)
        depthwise = " (depthwise)" if in_per_group == 1 else ""
        old = trt_before(ctx, "10")
        outcome = ("this TensorRT fails with 'Could not find any implementation'" if old else
                   "TensorRT 8.x fails with 'Could not find any implementation'; 10.x builds, maybe in float")
        yield finding(
            RULE, "error" if old else "warning",
            f"{node.op_type} {name}{depthwise}: {group} groups with {in_per_group} input and {out_per_group} "
            f"output channels per group, not multiples of 4 as INT8 requires; {outcome}",
            [name], KB, group=group, in_per_group=in_per_group, out_per_group=out_per_group,
        )
