"""fp16-range: float32 weights that do not fit FP16
===================================================

When an engine is built with FP16 enabled (``--fp16``, or a model converted to FP16),
FP32 weights are converted: values above 65504 in magnitude overflow to infinity, and values
below about 6e-5 become FP16 subnormals or zero. TensorRT warns ``Weights [name=...] had the
following issues when converted to FP16: - Subnormal FP16 values detected.`` (or
overflow/clamping variants). Overflow usually ruins the output; subnormals rarely matter.

Checks the float32 initializers and Constant values, except those consumed by Q/DQ (they
become INT8, not FP16). Weights are scanned in chunks of at most 16 MiB wherever they are
stored (inline, or in external data files inside the model's folder), so an inline and an
external copy of a model give the same findings and memory stays flat; a tensor that cannot be
read is skipped with a note saying why.

**Level:** warning for overflow, info for subnormals. **KB:** ``fp16-overflow``.

**Fix:** keep the affected layers in FP32 (strongly typed network or per-layer precision), or
retrain / rescale so the weights fit (an NVIDIA maintainer: retrain with regularization).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, short

if TYPE_CHECKING:
    import numpy as np
    from onnx import TensorProto

    from troubleshooter.lint.graph import LintContext

RULE = "fp16-range"
TITLE = "Float32 weights that do not fit FP16"
LEVEL: LintLevel = "warning"
KB = "fp16-overflow"

FP16_MAX = 65504.0
FP16_MIN_NORMAL = 6.103515625e-05


def _scan(values: np.ndarray[Any, Any], chunk: int = 1 << 18, tiny_known: bool = False) -> tuple[bool, bool]:
    """(any finite |v| > FP16_MAX, any 0 < |v| < FP16_MIN_NORMAL), in cache-sized chunks (no big temporaries).

    A chunk whose min and max are finite has no inf or NaN: its range decides overflow without
    building |v|; subnormals are looked for until one is found (``tiny_known``: already found)."""
    import numpy as np

    big, tiny = False, tiny_known
    for start in range(0, values.size, chunk):
        part = values[start : start + chunk]
        low, high = float(part.min()), float(part.max())
        if np.isfinite(low) and np.isfinite(high):
            big = big or high > FP16_MAX or -low > FP16_MAX
            if not tiny:
                magnitude = np.abs(part)
                tiny = bool(np.count_nonzero(magnitude < FP16_MIN_NORMAL) > np.count_nonzero(part == 0))
        else:
            magnitude = np.abs(part)
            magnitude = magnitude[np.isfinite(magnitude)]
            if magnitude.size and not big and float(magnitude.max()) > FP16_MAX:
                big = True
            if not tiny and np.count_nonzero(magnitude < FP16_MIN_NORMAL) > np.count_nonzero(magnitude == 0):
                tiny = True
        if big and tiny:
            break
    return big, tiny


def _scan_tensor(ctx: LintContext, tensor: TensorProto) -> tuple[bool, bool]:
    """_scan over every chunk of the tensor's values (read in bounded chunks when not in memory)."""
    big = tiny = False
    for part in ctx.loaded.iter_values(tensor):
        if part.size == 0:
            continue
        more_big, tiny = _scan(part, tiny_known=tiny)
        big = big or more_big
        if big:  # overflow is reported first; subnormals then do not matter
            break
    return big, tiny


def check(ctx: LintContext) -> Iterator[Finding]:
    """Overflowing (warning) and subnormal (info) float32 weights, wherever they are stored."""
    from onnx import TensorProto

    from troubleshooter.lint.model import UnreadableTensor

    overflow: list[str] = []
    subnormal: list[str] = []
    skipped: list[str] = []
    for name, tensor in {**ctx.constants, **ctx.initializers}.items():
        if tensor.data_type != TensorProto.FLOAT:
            continue
        if any(n.op_type in ("QuantizeLinear", "DequantizeLinear") for n, _ in ctx.consumer_nodes(name)):
            continue
        try:
            big, tiny = _scan_tensor(ctx, tensor)
        except (UnreadableTensor, OSError) as err:
            skipped.append(f"{name} ({err})")
            continue
        if big:
            overflow.append(name)
        elif tiny:
            subnormal.append(name)
    if skipped:
        ctx.notes.append(f"fp16-range: {len(skipped)} weight tensor(s) skipped, not readable: {short(skipped, 3)}")

    def users(names: list[str]) -> list[str]:
        found = {ctx.name_of(i) for n in names for i, _ in ctx.consumers.get(n, [])}
        return sorted(found, key=lambda n: ctx.position.get(n, 0))

    if overflow:
        yield finding(
            RULE, LEVEL,
            f"weights above 65504 in {short(overflow)}: they overflow to inf in an FP16 engine; keep these layers "
            "in FP32", users(overflow), KB, tensors=overflow,
        )
    if subnormal:
        yield finding(
            RULE, "info",
            f"weights below FP16's normal range in {short(subnormal)}: TensorRT warns 'Subnormal FP16 values "
            "detected' in FP16 builds; usually harmless", users(subnormal), KB, tensors=subnormal,
        )
