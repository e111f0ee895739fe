"""check-model: the ONNX checker rejects the model
=================================================

Runs ``onnx.checker.check_model`` on the file path (external data resolved beside the
model, models over 2 GB supported, weights not loaded). When big inline weights were left in
the file by the loader, the checker runs in memory on the parsed model, each such tensor
replaced by a one-element stand-in of the same type and field (the loader has already checked
that its values have the size its dims need). A model the checker rejects is
malformed: the TensorRT ONNX parser usually fails on it too, with a less helpful message.

Two checker complaints are *not* reported here because TensorRT accepts them:

* nodes that are not topologically sorted (TensorRT sorts the graph itself); the checker then
  runs on a sorted copy so that real problems behind the ordering still show;
* an input that no node produces: the ``dangling-inputs`` rule reports it with the node name.

Ops the checker does not know are left to ``unsupported-op`` and ``custom-domain-op``.

**Level:** error. **KB:** ``onnx-parser-assertion``.

**Fix:** re-export the model with a current exporter, or repair it with onnx-graphsurgeon;
``python -c "import onnx; onnx.checker.check_model('model.onnx', full_check=True)"`` shows the
full message.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "check-model"
TITLE = "The ONNX checker rejects the model"
LEVEL: LintLevel = "error"
KB = "onnx-parser-assertion"

_SKIP = ("topologically sorted", "No Op registered", "is not a registered function/op")
_NODE = re.compile(r"node(?: name)?:\s*(?:name:\s*)?([^\s,)]+)")


def check(ctx: LintContext) -> Iterator[Finding]:
    """Run the ONNX checker on the model path (or on a sorted copy when nodes are unsorted)."""
    import onnx

    from troubleshooter.lint.protos import checker_copy, stripped_copy

    target: str | onnx.ModelProto = ctx.loaded.path
    if not ctx.is_sorted():
        target = stripped_copy(ctx.loaded, ctx.sorted_nodes())
    if ctx.loaded.payloads:
        target = checker_copy(ctx.loaded, ctx.model if isinstance(target, str) else target)
    try:
        onnx.checker.check_model(target)
    except (onnx.checker.ValidationError, ValueError, RuntimeError) as err:
        text = " ".join(str(err).split())
        if any(skip in text for skip in _SKIP):
            return
        match = _NODE.search(text)
        nodes = [match.group(1)] if match else []
        yield finding(RULE, LEVEL, f"onnx.checker: {text[:400]}", nodes, KB)
