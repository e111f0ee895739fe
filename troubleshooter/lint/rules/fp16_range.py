"""fp16-range: float32 weights that do not fit FP16
===================================================

When an engine is built with FP16 enabled (``--fp16``, or a model converted to FP16),
FP32 weights are converted: values above 65504 in magnitude overflow to infinity, and values
below about 6e-5 become FP16 subnormals or zero. TensorRT warns ``Weights [name=...] had the
following issues when converted to FP16: - Subnormal FP16 values detected.`` (or
overflow/clamping variants). Overflow usually ruins the output; subnormals rarely matter.

Checks the float32 initializers stored in the model file (weights in external files are not
read, to keep lint cheap), except those consumed by Q/DQ (they become INT8, not FP16).

**Level:** warning for overflow, info for subnormals. **KB:** ``fp16-overflow``.

**Fix:** keep the affected layers in FP32 (strongly typed network or per-layer precision), or
retrain / rescale so the weights fit (an NVIDIA maintainer: retrain with regularization).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from troubleshooter.lint.report import Finding
from troubleshooter.lint.rules._base import finding, short

if TYPE_CHECKING:
    import numpy as np

    from troubleshooter.lint.graph import LintContext

RULE = "fp16-range"
TITLE = "Float32 weights that do not fit FP16"
LEVEL = "warning"
KB = "fp16-overflow"

FP16_MAX = 65504.0
FP16_MIN_NORMAL = 6.103515625e-05


def _scan(values: np.ndarray[Any, Any], chunk: int = 1 << 18) -> tuple[bool, bool]:
    """(any finite |v| > FP16_MAX, any 0 < |v| < FP16_MIN_NORMAL), in cache-sized chunks (no big temporaries)."""
    import numpy as np

    big = tiny = False
    for start in range(0, values.size, chunk):
        part = np.abs(values[start : start + chunk])
        finite = np.isfinite(part)
        if not finite.all():
            part = part[finite]
        if part.size and not big and float(part.max()) > FP16_MAX:
            big = True
        if not tiny and np.count_nonzero(part < FP16_MIN_NORMAL) > np.count_nonzero(part == 0):
            tiny = True
        if big and tiny:
            break
    return big, tiny


def check(ctx: LintContext) -> Iterator[Finding]:
    """Overflowing (warning) and subnormal (info) inline float32 weights."""
    from onnx import TensorProto

    overflow: list[str] = []
    subnormal: list[str] = []
    skipped = 0
    for name, tensor in {**ctx.constants, **ctx.initializers}.items():
        if tensor.data_type != TensorProto.FLOAT:
            continue
        if any(n.op_type in ("QuantizeLinear", "DequantizeLinear") for n, _ in ctx.consumer_nodes(name)):
            continue
        if tensor.data_location == TensorProto.EXTERNAL:
            skipped += 1
            continue
        array = ctx.loaded.read_array(tensor, limit=1 << 62)  # inline: already in memory
        if array is None:
            continue
        big, tiny = _scan(array.ravel())
        if big:
            overflow.append(name)
        elif tiny:
            subnormal.append(name)
    if skipped:
        ctx.notes.append(f"fp16-range: {skipped} weight tensor(s) in external files were not read")

    def users(names: list[str]) -> list[str]:
        found = {ctx.name_of(i) for n in names for i, _ in ctx.consumers.get(n, [])}
        return sorted(found, key=lambda n: ctx.position.get(n, 0))

    if overflow:
        yield finding(
            RULE, "warning",
            f"weights above 65504 in {short(overflow)}: they overflow to inf in an FP16 engine; keep these layers "
            "in FP32", users(overflow), KB, tensors=overflow,
        )
    if subnormal:
        yield finding(
            RULE, "info",
            f"weights below FP16's normal range in {short(subnormal)}: TensorRT warns 'Subnormal FP16 values "
            "detected' in FP16 builds; usually harmless", users(subnormal), KB, tensors=subnormal,
        )
