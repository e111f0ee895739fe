"""opset-range: the model's opset is outside what the TensorRT parser supports
===============================================================================

Each TensorRT release documents the ONNX opsets its parser supports (onnx-tensorrt
``docs/operators.md``): up to 13 for 8.4, up to 17 for 8.5/8.6, 9 to 20 for 10.0, 9 to 24
for 10.15. Below the minimum the parser warns ``TensorRT supports ONNX graphs generated with
at least opset 7. Models using older opsets are not guaranteed to work.``; above the maximum
newer op versions may be rejected or misread.

**Level:** warning. **KB:** ``onnx-parser-assertion``.

**Fix:** re-export with ``opset_version`` in range (``torch.onnx.export(..., opset_version=17)``)
or convert with ``onnx.version_converter.convert_version``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint import optable
from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, trt_label

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "opset-range"
TITLE = "ONNX opset outside the parser's range"
LEVEL: LintLevel = "warning"
KB = "onnx-parser-assertion"


def check(ctx: LintContext) -> Iterator[Finding]:
    """Compare the default-domain opset with the table for the chosen TensorRT version."""
    opset = ctx.opset
    if not opset:
        yield finding(RULE, LEVEL, "the model imports no ai.onnx opset", [], KB)
        return
    snap = optable.snapshot_for(ctx.trt)
    label = trt_label(ctx)
    if opset < snap.opset_min:
        yield finding(
            RULE, LEVEL,
            f"opset {opset} is below {snap.opset_min}, the lowest {label} supports; re-export with a newer opset",
            [], KB, opset=opset,
        )
    elif opset > snap.opset_max:
        yield finding(
            RULE, LEVEL,
            f"opset {opset} is above {snap.opset_max}, the highest {label} documents "
            f"(operators.md for {snap.version}); re-export with opset {snap.opset_max} or lower",
            [], KB, opset=opset,
        )
    elif ctx.trt is None and opset > optable.SNAPSHOTS[2].opset_max:
        yield finding(
            RULE, "info", f"opset {opset} is fine for current releases; TensorRT 8.x supports only up to 17",
            [], KB, opset=opset,
        )
