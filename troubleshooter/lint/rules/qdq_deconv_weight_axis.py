"""qdq-deconv-weight-axis: ConvTranspose weights quantized along axis 1
=======================================================================

ConvTranspose weights are ``[C_in, K/groups, kH, kW]`` (input channels first, unlike Conv).
For TensorRT 8.x NVIDIA's maintainers said the deconvolution kernels assume per-*input*-channel
quantization (``axis=0``) and that per-output-channel (``axis=1``) quantization of
ConvTranspose weights is not supported: such engines build but give wrong results
(NVIDIA/TensorRT #1694, #1699, #2380). pytorch-quantization switched its ConvTranspose default
to ``axis=0`` in 2022 and back to ``axis=1`` with TensorRT 10.2 (NVIDIA/TensorRT #3998),
without a statement that 10.x kernels changed; ONNX Runtime's quantizer moved ConvTranspose
to axis 1 (microsoft/onnxruntime #19996). So for 10.x axis 1 is *unconfirmed*, not known-good.

The parser's scale-count check (``The number of scales is not equal to the number of output
channels``) can also trip on a ConvTranspose, and Torch-TensorRT < 2.4 miscounted the output
channels of quantized deconvolutions (pytorch/TensorRT #2678).

**Level:** warning (error for axes other than 0 and 1). **KB:** ``deconv-qdq-output-channels``.

**Fix:** for TensorRT 8.x quantize ConvTranspose weights with ``axis=0``
(``QuantDescriptor(num_bits=8, axis=(0))``) or per tensor; on 10.x compare the engine's output
with ONNX Runtime (``polygraphy run model.onnx --trt --int8 --onnxrt``) before trusting axis 1.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, trt_before, weight_dq

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "qdq-deconv-weight-axis"
TITLE = "ConvTranspose weight quantized along axis 1"
LEVEL: LintLevel = "warning"
KB = "deconv-qdq-output-channels"


def check(ctx: LintContext) -> Iterator[Finding]:
    """Per-axis DQ on ConvTranspose weights with axis != 0."""
    for index, node in enumerate(ctx.nodes):
        if node.op_type != "ConvTranspose" or len(node.input) < 2:
            continue
        q = weight_dq(ctx, node.input[1])
        if q is None or not q.per_axis or q.axis == 0:
            continue
        deconv = ctx.name_of(index)
        if q.axis != 1:
            yield finding(
                RULE, "error",
                f"ConvTranspose {deconv}: weight {q.name} quantized along axis {q.axis}; only axis 0 (input "
                "channels) or per-tensor scales make sense for TensorRT",
                [deconv, q.name], KB, axis=q.axis,
            )
            continue
        if ctx.trt is not None and trt_before(ctx, "10"):
            known = (f"TensorRT {ctx.trt} does not support per-output-channel ConvTranspose weights "
                     "(NVIDIA: use axis 0); expect wrong results")
        elif ctx.trt is not None:
            known = (f"for TensorRT {ctx.trt} this is unconfirmed (pytorch-quantization returned to axis 1 in "
                     "10.2, no kernel change announced); verify the output against ONNX Runtime")
        else:
            known = ("TensorRT 8.x does not support this (NVIDIA: use axis 0, else wrong results); on 10.x it is "
                     "unconfirmed: verify the output against ONNX Runtime")
        yield finding(
            RULE, LEVEL,
            f"ConvTranspose {deconv}: weight {q.name} is quantized per output channel (axis 1); {known}",
            [deconv, q.name], KB, axis=1,
        )
