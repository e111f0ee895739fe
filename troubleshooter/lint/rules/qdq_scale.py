"""qdq-scale: Q/DQ scale is zero, negative, or not finite
=========================================================

Every scale of a QuantizeLinear / DequantizeLinear must be a finite number greater than zero.
The parser stops with ``Scale coefficients must all be positive``. Zero scales typically come
from channels whose weights are all zero (pruned or dead channels) during calibration;
NaN/inf from a calibration that saw inf activations.

**Level:** error. **KB:** ``qdq-scale-not-positive``.

**Fix:** clamp scales to a small positive minimum before export (ModelOpt and
pytorch-quantization do this; for a hand-made export, ``scale = max(scale, 1e-8)``), or drop the
Q/DQ of the dead channel's layer; recalibrate if there are NaN/inf values.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, qdq_params

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "qdq-scale"
TITLE = "Q/DQ scale is not a positive finite number"
LEVEL: LintLevel = "error"
KB = "qdq-scale-not-positive"


def check(ctx: LintContext) -> Iterator[Finding]:
    """Scales <= 0, NaN or inf."""
    import numpy as np

    for q in qdq_params(ctx):
        if q.scale_value is None:
            continue
        values = q.scale_value.astype("float64").ravel()
        bad = ~np.isfinite(values) | (values <= 0)
        if bad.any():
            positions = np.flatnonzero(bad)[:8].tolist()
            sample = ", ".join(repr(float(values[i])) for i in positions[:4])
            where = f" at channel(s) {positions}" if values.size > 1 else ""
            yield finding(
                RULE, LEVEL,
                f"{q.node.op_type} {q.name}: scale {sample}{where} ({int(bad.sum())} of {values.size} bad); "
                "TensorRT requires every scale to be positive ('Scale coefficients must all be positive')",
                [q.name], KB, scale=q.scale, channels=positions,
            )
