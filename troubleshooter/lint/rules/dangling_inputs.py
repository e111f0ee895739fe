"""dangling-inputs: a node reads a tensor that nothing produces
==============================================================

Every node input must be a graph input, an initializer, or the output of some node. The
TensorRT parser stops with ``Node input was not registered.``; ONNX Runtime and Polygraphy
report it as "Nodes in a graph must be topologically sorted", the same message they give for
a graph that is merely out of order. This rule tells the two apart: nodes that are only out
of order are fine for TensorRT (it sorts them) and are not reported.

Graph outputs that no node produces are reported here too.

**Level:** error. **KB:** ``onnx-parser-assertion``.

**Fix:** the exporter dropped a node or renamed a tensor; re-export, or reconnect the input
with onnx-graphsurgeon.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.model import iter_graphs
from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "dangling-inputs"
TITLE = "A node reads a tensor that nothing produces"
LEVEL: LintLevel = "error"
KB = "onnx-parser-assertion"


def check(ctx: LintContext) -> Iterator[Finding]:
    """Inputs and graph outputs with no producer anywhere in the model."""
    known: set[str] = set()
    for graph in iter_graphs(ctx.graph):
        known.update(v.name for v in graph.input)
        known.update(t.name for t in graph.initializer)
        known.update(s.values.name for s in graph.sparse_initializer)
        for node in graph.node:
            known.update(node.output)
    for graph in iter_graphs(ctx.graph):
        top = graph is ctx.graph
        for index, node in enumerate(graph.node):
            missing = [name for name in node.input if name and name not in known]
            if missing:
                name = ctx.name_of(index) if top else (node.name or node.op_type)
                yield finding(
                    RULE,
                    LEVEL,
                    f"node {name} ({node.op_type}) reads {', '.join(repr(m) for m in missing)}, which no node, "
                    "input or initializer provides; TensorRT fails with 'Node input was not registered.'",
                    [name],
                    KB,
                    tensors=missing,
                )
    for output in ctx.graph.output:
        if output.name not in known:
            yield finding(
                RULE, LEVEL, f"graph output {output.name!r} is produced by no node", [output.name], KB
            )
