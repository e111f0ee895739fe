"""duplicate-node-names: several nodes share a name
===================================================

ONNX requires unique node names, and ONNX Runtime, onnx-graphsurgeon and Polygraphy's
``check lint`` reject duplicates. The TensorRT parser does not care: it makes layer names
unique itself. This is reported as information only, so that a Polygraphy error on such a
model is not mistaken for a TensorRT problem.

**Level:** info. **KB:** none.

**Fix (optional):** rename the nodes, e.g. with onnx-graphsurgeon, if you also run the
model in ONNX Runtime.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, short

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "duplicate-node-names"
TITLE = "Several nodes share a name"
LEVEL: LintLevel = "info"
KB = None


def check(ctx: LintContext) -> Iterator[Finding]:
    """One finding listing every duplicated node name."""
    counts = Counter(n.name for n in ctx.nodes if n.name)
    duplicated = sorted((name for name, count in counts.items() if count > 1), key=lambda n: ctx.position[n])
    if duplicated:
        yield finding(
            RULE,
            LEVEL,
            f"{len(duplicated)} node name(s) used more than once ({short(duplicated)}): harmless for TensorRT, "
            "which renames layers; ONNX Runtime and Polygraphy reject it",
            duplicated,
            KB,
        )
