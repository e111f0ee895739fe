"""qdq-silu-split: Q/DQ placed inside a SiLU (Sigmoid · Mul)
===========================================================

SiLU / Swish is exported as ``y = x * Sigmoid(x)``. TensorRT fuses Conv + Sigmoid + Mul into
one layer (shown in logs as ``Conv + PWN(PWN(Sigmoid), Mul)``). A Q/DQ pair between the
Sigmoid and the Mul, or on only one of the two branches, splits the activation: the fusion
changes, the Mul runs on its own, and on TensorRT 8.5/8.6 (notably Jetson Orin) INT8 builds of
such models fail with ``Could not find any implementation for node ... + PWN(...)``
(NVIDIA/TensorRT #3640, #3385).

**Level:** warning. **KB:** ``conv-act-fusion-no-impl``.

**Fix:** do not quantize inside the activation: quantize the SiLU's input (the conv output)
once and its output, not the Sigmoid output or a Mul input alone (ModelOpt's default
placement). On TensorRT 8.x, marking the Sigmoid as an output breaks the fusion as a
workaround; the problem is fixed in 9.2 and later per NVIDIA.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "qdq-silu-split"
TITLE = "Q/DQ placed inside a SiLU (Sigmoid · Mul)"
LEVEL: LintLevel = "warning"
KB = "conv-act-fusion-no-impl"


def _origin(ctx: LintContext, tensor: str) -> tuple[str, int]:
    """The tensor before any Q/DQ chain, and how many Q/DQ nodes were crossed."""
    crossed = 0
    for _ in range(8):
        node = ctx.producer_node(tensor)
        if node is None or node.op_type not in ("QuantizeLinear", "DequantizeLinear") or not node.input:
            break
        tensor = node.input[0]
        crossed += 1
    return tensor, crossed


def check(ctx: LintContext) -> Iterator[Finding]:
    """Mul(x, Sigmoid(x)) with Q/DQ between the shared x and the Mul on any path."""
    if not ctx.has_qdq:
        return
    for index, node in enumerate(ctx.nodes):
        if node.op_type != "Mul" or len(node.input) != 2:
            continue
        for a, b in ((node.input[0], node.input[1]), (node.input[1], node.input[0])):
            sig_out, crossed_sig_out = _origin(ctx, b)
            sigmoid = ctx.producer_node(sig_out)
            if sigmoid is None or sigmoid.op_type != "Sigmoid" or not sigmoid.input:
                continue
            sig_in, crossed_sig_in = _origin(ctx, sigmoid.input[0])
            x, crossed_x = _origin(ctx, a)
            if x != sig_in or not (crossed_sig_out or crossed_sig_in or crossed_x):
                continue
            name = ctx.name_of(index)
            sig_name = ctx.name_of(ctx.producer[sig_out])
            where = "between the Sigmoid and the Mul" if crossed_sig_out else "on one branch of the SiLU"
            yield finding(
                RULE, LEVEL,
                f"SiLU {sig_name} · {name} has Q/DQ {where}; this splits the Conv + Sigmoid + Mul fusion "
                "(TensorRT 8.5/8.6 INT8: 'Could not find any implementation for node ... PWN(...)')",
                [name, sig_name], KB,
            )
            break
