"""dynamic-inputs: inputs with dynamic dimensions need an optimization profile
==============================================================================

A TensorRT engine built from a model with dynamic input dimensions (a ``dim_param`` such as
``batch`` or ``height``, or an unknown dim) needs an optimization profile giving min, opt and
max shapes for every such input; otherwise the build fails with ``Network has dynamic or
shape inputs, but no optimization profile has been defined.``. Tools that silently put 1 in
every dynamic dimension (Polygraphy's lint does) test a model nobody runs.

This is not a defect: it lists what to pass, e.g. ``trtexec --minShapes=images:1x3x320x320
--optShapes=images:1x3x640x640 --maxShapes=images:8x3x1280x1280``.

**Level:** info. **KB:** ``dynamic-shape-no-profile``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "dynamic-inputs"
TITLE = "Inputs with dynamic dimensions need an optimization profile"
LEVEL: LintLevel = "info"
KB = "dynamic-shape-no-profile"


def dynamic_inputs(ctx: LintContext) -> dict[str, list[int | str | None]]:
    """Input name -> dims (int static, str named, None unknown), for inputs with a non-static dim."""
    found: dict[str, list[int | str | None]] = {}
    for value in ctx.inputs:
        tensor_type = value.type.tensor_type
        if not tensor_type.HasField("shape"):
            found[value.name] = []
            continue
        dims: list[int | str | None] = [
            d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in tensor_type.shape.dim
        ]
        if any(not isinstance(d, int) for d in dims):
            found[value.name] = dims
    return found


def check(ctx: LintContext) -> Iterator[Finding]:
    """One finding for all dynamic inputs, with a trtexec shape template."""
    found = dynamic_inputs(ctx)
    if not found:
        return
    parts = []
    template = []
    for name, dims in found.items():
        if not dims:
            parts.append(f"{name} [rank unknown]")
            continue
        parts.append(f"{name} [{', '.join('?' if d is None else str(d) for d in dims)}]")
        template.append(f"{name}:" + "x".join(str(d) if isinstance(d, int) else "N" for d in dims))
    example = f" (e.g. --minShapes={','.join(template)} with N replaced, likewise --optShapes/--maxShapes)" if template else ""
    yield finding(
        RULE, LEVEL,
        f"dynamic input(s) {'; '.join(parts)}: give min/opt/max shapes for each (trtexec --minShapes/--optShapes/"
        f"--maxShapes or an optimization profile){example}",
        list(found), KB, inputs={k: [d if d is not None else "?" for d in v] for k, v in found.items()},
    )
