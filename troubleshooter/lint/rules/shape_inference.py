"""shape-inference: strict ONNX shape inference fails
=====================================================

Runs ``onnx.shape_inference.infer_shapes(strict_mode=True, data_prop=True)`` on a sorted copy
of the model with its large weights replaced by typed inputs (nothing is read from external
files). The TensorRT parser infers shapes as it imports each node; a model whose shapes do
not agree (a Reshape to an impossible size, a MatMul with mismatched dims, a ``value_info``
that contradicts the graph) fails there with an assertion or a wrong layer.

Errors about ops unknown to ONNX are left to ``unsupported-op`` / ``custom-domain-op``.

**Level:** error. **KB:** ``onnx-parser-assertion``.

**Fix:** find the node named in the message; re-export with static shapes or fix the
``value_info`` entries (``onnxsim`` or onnx-graphsurgeon's ``cleanup().toposort()`` plus
``onnx.shape_inference`` often repair stale annotations).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "shape-inference"
TITLE = "Strict shape inference fails"
LEVEL: LintLevel = "error"
KB = "onnx-parser-assertion"

_NODE = re.compile(r"node name:\s*([^)]+?)\)")
_SKIP = ("No Op registered", "is not a registered function/op", "Cannot find schema")


def check(ctx: LintContext) -> Iterator[Finding]:
    """Report the first strict shape-inference error."""
    error = ctx.strict_error
    if error is None or any(skip in error for skip in _SKIP):
        return
    match = _NODE.search(error)
    nodes = [match.group(1).strip()] if match else []
    yield finding(RULE, LEVEL, f"shape inference: {error[:400]}", nodes, KB)
