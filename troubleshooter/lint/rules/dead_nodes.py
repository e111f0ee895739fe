"""dead-nodes: nodes whose results reach no graph output
========================================================

A node none of whose outputs contributes to a graph output is dead weight. TensorRT drops
such layers silently, so this never breaks a build; it often shows an export leftover
(a debugging branch, an unused shape computation) or an output that was meant to be kept.

**Level:** info. **KB:** none.

**Fix (optional):** ``onnx-graphsurgeon``: ``graph.cleanup()``, or ``onnxsim``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, short

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "dead-nodes"
TITLE = "Nodes whose results reach no graph output"
LEVEL: LintLevel = "info"
KB = None


def check(ctx: LintContext) -> Iterator[Finding]:
    """Walk back from the graph outputs; report the nodes never reached."""
    live: set[int] = set()
    stack = [o.name for o in ctx.graph.output]
    seen: set[str] = set()
    while stack:
        tensor = stack.pop()
        if tensor in seen:
            continue
        seen.add(tensor)
        index = ctx.producer.get(tensor)
        if index is None or index in live:
            continue
        live.add(index)
        stack.extend(ctx._needs(ctx.nodes[index]))
    dead = [ctx.name_of(i) for i in range(len(ctx.nodes)) if i not in live]
    if dead:
        yield finding(
            RULE,
            LEVEL,
            f"{len(dead)} node(s) contribute to no graph output ({short(dead)}); TensorRT drops them",
            dead,
            KB,
        )
