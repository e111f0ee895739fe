"""int64-initializers: INT64 weights (cast to INT32 by TensorRT 8.x)
====================================================================

TensorRT 8.x has no INT64: its parser warns once ``Your ONNX model has been generated with
INT64 weights, while TensorRT does not natively support INT64. Attempting to cast down to
INT32.`` and clamps values outside the INT32 range (``One or more weights outside the range
of INT32 was clamped``). That is harmless for shape constants and indices, which is what INT64
initializers almost always are. Since 9.0 the parser keeps INT64 (inputs and outputs of INT64
type then need INT64 bindings).

Values outside INT32 matter only on 8.x. The ``INT64_MAX`` / ``INT64_MIN`` sentinels that
exporters write into Slice ``starts`` / ``ends`` ("to the end") clamp harmlessly and are not
counted. Values are scanned in chunks of at most 16 MiB wherever they are stored (inline or
external data), so big INT64 tensors never sit in memory whole; one that cannot be read is
named in the finding.

**Level:** info (warning on TensorRT < 9 when values would be clamped). **KB:** ``int64-weights-cast``.

**Fix:** nothing, unless a clamped value is real data; then cast it to INT32/float in the
exporter, or use TensorRT 9+.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, short, trt_before

if TYPE_CHECKING:
    from onnx import TensorProto

    from troubleshooter.lint.graph import LintContext

RULE = "int64-initializers"
TITLE = "INT64 weights (cast to INT32 by TensorRT 8.x)"
LEVEL: LintLevel = "info"
KB = "int64-weights-cast"

_I32 = (-(2**31), 2**31 - 1)


def _sentinel_only(ctx: LintContext, name: str) -> bool:
    """True when every consumer reads ``name`` as Slice starts/ends (where huge values mean 'to the end')."""
    users = ctx.consumer_nodes(name)
    return bool(users) and all(n.op_type == "Slice" and slot in (1, 2) for n, slot in users)


def _outside_int32(ctx: LintContext, tensor: TensorProto) -> bool:
    """True when any value is outside the INT32 range (read chunk by chunk)."""
    return any(part.size and (part.min() < _I32[0] or part.max() > _I32[1]) for part in ctx.loaded.iter_values(tensor))


def check(ctx: LintContext) -> Iterator[Finding]:
    """One info finding for INT64 initializers, one more for values outside INT32."""
    from onnx import TensorProto

    from troubleshooter.lint.model import UnreadableTensor

    tensors = {**ctx.constants, **ctx.initializers}
    int64 = [name for name, t in tensors.items() if t.data_type == TensorProto.INT64]
    if not int64:
        return
    out_of_range: list[str] = []
    unread: list[str] = []
    for name in int64:
        try:
            outside = _outside_int32(ctx, tensors[name])
        except (UnreadableTensor, OSError):
            unread.append(name)
            continue
        if outside and not _sentinel_only(ctx, name):
            out_of_range.append(name)
    users = sorted({ctx.name_of(i) for name in int64 for i, _ in ctx.consumers.get(name, [])},
                   key=lambda n: ctx.position.get(n, 0))
    old = trt_before(ctx, "9")
    when = "this TensorRT casts them to INT32" if old else "TensorRT 8.x casts them to INT32; 9.0+ keeps INT64"
    note = f" ({len(unread)} unreadable one(s) not checked)" if unread else ""
    yield finding(
        RULE, LEVEL, f"{len(int64)} INT64 initializer(s) ({short(int64)}): {when}{note}", users, KB,
        tensors=int64,
    )
    if out_of_range:
        users = sorted({ctx.name_of(i) for name in out_of_range for i, _ in ctx.consumers.get(name, [])},
                       key=lambda n: ctx.position.get(n, 0))
        yield finding(
            RULE, "warning" if old else "info",
            f"INT64 value(s) outside the INT32 range in {short(out_of_range)}: "
            + ("this TensorRT clamps them ('One or more weights outside the range of INT32 was clamped')" if old
               else "TensorRT 8.x would clamp them; fine on 9.0+"),
            users, KB, tensors=out_of_range,
        )
