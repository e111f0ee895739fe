"""unsupported-op: ONNX ops the TensorRT parser has no importer for
==================================================================

Checks every node of the standard domain against the support matrix of onnx-tensorrt
(``docs/operators.md``, rows marked ``N``) for the chosen TensorRT version (see
``troubleshooter/lint/optable.py``). This includes ONNX Runtime's dynamic and QOperator
quantization (``DynamicQuantizeLinear``, ``MatMulInteger``, ``ConvInteger``, ``QLinearConv``,
``QLinearMatMul``): TensorRT wants Q/DQ (QuantizeLinear / DequantizeLinear) instead, e.g.
``onnxruntime.quantization.quantize_static(..., quant_format=QuantFormat.QDQ)`` or NVIDIA
ModelOpt. Ops of the ``ai.onnx.ml`` domain (classic ML) have no importers either.

The parser logs ``No importer registered for op: <Op>. Attempting to import as plugin.``
and then fails with ``Plugin not found``. Without ``--trt-version`` the current table is used
and ops that TensorRT 8.x lacks (e.g. LayerNormalization before 8.6) are noted as info.

**Level:** error (info when support is unknown for the chosen version, or only 8.x lacks it).
**KB:** ``onnx-unsupported-op``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint import optable
from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, short, trt_label

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "unsupported-op"
TITLE = "ONNX op with no TensorRT importer"
LEVEL: LintLevel = "error"
KB = "onnx-unsupported-op"

_ORT_QUANT = {"DynamicQuantizeLinear", "MatMulInteger", "ConvInteger", "QLinearConv", "QLinearMatMul"}


def check(ctx: LintContext) -> Iterator[Finding]:
    """One finding per unsupported op type."""
    from onnx import defs

    by_op: dict[tuple[str, str], list[str]] = {}
    for name, node in ctx.all_nodes():
        if node.domain in ("", "ai.onnx", "ai.onnx.ml"):
            by_op.setdefault((node.domain, node.op_type), []).append(name)
    local = {(f.domain, f.name) for f in ctx.model.functions}
    label = trt_label(ctx)
    for (domain, op_type), names in sorted(by_op.items()):
        where = f"{len(names)} node(s): {short(names)}"
        if (domain, op_type) in local:
            continue
        if domain == "ai.onnx.ml":
            yield finding(RULE, LEVEL, f"{op_type} (ai.onnx.ml) has no TensorRT importer ({where})", names, KB,
                          op_type=op_type)
            continue
        if not defs.has(op_type):
            yield finding(
                RULE, "warning",
                f"{op_type} is not an ONNX op; the parser will look for a TensorRT plugin of that name ({where})",
                names, KB, op_type=op_type,
            )
            continue
        status = optable.support(op_type, ctx.trt)
        hint = " Quantize with Q/DQ instead (QuantFormat.QDQ / ModelOpt)." if op_type in _ORT_QUANT else ""
        if status == "no":
            yield finding(RULE, LEVEL, f"{op_type} has no importer in {label} ({where}).{hint}", names, KB,
                          op_type=op_type)
        elif status == "unknown":
            yield finding(
                RULE, "info",
                f"{op_type}: support in {label} is not known here (no importer in 8.6, one in 10.15); "
                f"check operators.md of your release ({where})", names, KB, op_type=op_type,
            )
        elif ctx.trt is None and optable.missing_on_8x(op_type):
            yield finding(
                RULE, "info", f"{op_type} imports on current releases but TensorRT 8.x has no importer ({where})",
                names, KB, op_type=op_type,
            )
