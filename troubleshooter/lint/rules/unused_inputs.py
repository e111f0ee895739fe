"""unused-inputs: graph inputs that no node reads
================================================

A graph input that no node (and no subgraph) consumes still has to be bound at run time by
most front ends, and TensorRT warns about it or drops it from the engine, which then breaks
code that binds inputs by position or by name.

**Level:** info. **KB:** none.

**Fix (optional):** remove the input from the graph, or check that the exporter wired it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.model import iter_graphs
from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "unused-inputs"
TITLE = "Graph inputs that no node reads"
LEVEL: LintLevel = "info"
KB = None


def check(ctx: LintContext) -> Iterator[Finding]:
    """Inputs read by no node anywhere and not passed straight to an output."""
    used: set[str] = {o.name for o in ctx.graph.output}
    for graph in iter_graphs(ctx.graph):
        for node in graph.node:
            used.update(node.input)
    for value in ctx.inputs:
        if value.name not in used:
            yield finding(
                RULE,
                LEVEL,
                f"graph input {value.name!r} is read by no node; TensorRT drops it from the engine",
                [value.name],
                KB,
            )
