"""custom-domain-op: ops outside the ONNX domain need a TensorRT plugin
=======================================================================

The TensorRT ONNX parser has importers only for the standard ``ai.onnx`` domain. For any
other op it logs ``No importer registered for op: <Op>. Attempting to import as plugin.``
and looks for a plugin creator named after the op type; without one the parse fails with
``Plugin not found, are the plugin name, version, and namespace correct?``.

* ``com.microsoft`` ops are ONNX Runtime contrib ops (fused attention, ``QGemm``...): export
  without ORT-specific fusions/optimizations, or write a plugin.
* Names ending in ``_TRT`` (``EfficientNMS_TRT``...) are TensorRT's own plugins: they work
  once ``libnvinfer_plugin`` is loaded (``initLibNvInferPlugins``; trtexec loads it).
* Anything else needs your plugin library: trtexec ``--staticPlugins=lib.so`` (8.6+) or
  ``--dynamicPlugins`` (10.x), or ``ctypes.CDLL`` plus ``init_libnvinfer_plugins`` in Python.

Polygraphy's lint takes its slow node-by-node path on such models, so ``--polygraphy`` is
skipped for them.

**Level:** warning (info for TensorRT's bundled ``_TRT`` plugins). **KB:** ``onnx-unsupported-op``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintLevel
from troubleshooter.lint.rules._base import finding, short

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext

RULE = "custom-domain-op"
TITLE = "Op outside the ONNX domain needs a TensorRT plugin"
LEVEL: LintLevel = "warning"
KB = "onnx-unsupported-op"

STANDARD_DOMAINS = ("", "ai.onnx")


def custom_ops(ctx: LintContext) -> dict[tuple[str, str], list[str]]:
    """(domain, op_type) -> node names, for every node outside the standard domains."""
    local = {(f.domain, f.name) for f in ctx.model.functions}
    found: dict[tuple[str, str], list[str]] = {}
    for name, node in ctx.all_nodes():
        if node.domain in STANDARD_DOMAINS or node.domain == "ai.onnx.ml":
            continue
        if (node.domain, node.op_type) in local:
            continue
        found.setdefault((node.domain, node.op_type), []).append(name)
    return found


def check(ctx: LintContext) -> Iterator[Finding]:
    """One finding per (domain, op type)."""
    for (domain, op_type), names in sorted(custom_ops(ctx).items()):
        level: LintLevel = LEVEL
        if op_type.endswith("_TRT"):
            level = "info"
            advice = "a TensorRT plugin, it imports once libnvinfer_plugin is loaded (trtexec does this)"
        elif domain == "com.microsoft":
            advice = "an ONNX Runtime contrib op; export without ORT fusions, or provide a TensorRT plugin"
        else:
            advice = "TensorRT needs a plugin registered under this name (--staticPlugins / --dynamicPlugins)"
        yield finding(
            RULE,
            level,
            f"{op_type} (domain {domain}) on {len(names)} node(s) ({short(names)}): {advice}",
            names,
            KB,
            op_type=op_type,
            domain=domain,
        )
