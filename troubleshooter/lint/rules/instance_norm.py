"""instance-norm: InstanceNormalization (plugin on 8.x/9.x, native on 10.x)
===========================================================================

Up to 9.x the ONNX parser imports InstanceNormalization through the
``InstanceNormalization_TRT`` plugin unless the ``NATIVE_INSTANCENORM`` parser flag is set
(8.6+): ``libnvinfer_plugin`` must be loaded, and version- or hardware-compatible engines fail
("the plugin cannot be used for VC/HC engines"). From 10.0 the flag is on by default and the
native layer is used; unset it (``parser.clear_flag(trt.OnnxParserFlag.NATIVE_INSTANCENORM)``)
only to benchmark the plugin.

The parser also requires a 3D-5D input and FLOAT or FLOAT16 for input, scale and bias
(``TensorRT only supports InstanceNormalization on 3D, 4D, or 5D tensors!``), and scale and
bias as initializers.

**Level:** info (error for an input rank outside 3-5 or non-constant scale/bias).
**KB:** ``instancenorm-native-flag``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, short, trt_before

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "instance-norm"
TITLE = "InstanceNormalization: plugin on 8.x/9.x, native on 10.x"
LEVEL: LintLevel = "info"
KB = "instancenorm-native-flag"


def check(ctx: LintContext) -> Iterator[Finding]:
    """One info finding for all InstanceNormalization nodes; errors for unsupported ranks."""
    names = []
    for index, node in enumerate(ctx.nodes):
        if node.op_type != "InstanceNormalization":
            continue
        name = ctx.name_of(index)
        names.append(name)
        shape = ctx.shape(node.input[0]) if node.input else None
        if shape is not None and not 3 <= len(shape) <= 5:
            yield finding(
                RULE, "error",
                f"InstanceNormalization {name}: input has rank {len(shape)}; TensorRT supports 3D, 4D or 5D only",
                [name], "onnx-parser-assertion", rank=len(shape),
            )
        if any(not ctx.is_const(t) for t in node.input[1:3] if t):
            yield finding(
                RULE, "error",
                f"InstanceNormalization {name}: scale and bias must be initializers for TensorRT",
                [name], "onnx-parser-assertion",
            )
    if not names:
        return
    if trt_before(ctx, "10"):
        text = (f"TensorRT {ctx.trt} imports it as the InstanceNormalization_TRT plugin unless the "
                "NATIVE_INSTANCENORM parser flag is set (8.6+); the plugin needs libnvinfer_plugin and is "
                "refused in version/hardware-compatible builds")
    else:
        text = ("imported as a native layer (NATIVE_INSTANCENORM is on by default since 10.0); on 8.x/9.x it "
                "is the InstanceNormalization_TRT plugin unless that flag is set")
    yield finding(RULE, LEVEL, f"{len(names)} InstanceNormalization node(s) ({short(names)}): {text}", names, KB)
