"""Run every rule on a model and assemble the LintReport."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from troubleshooter.core.versions import parse_version
from troubleshooter.errors import LintError
from troubleshooter.lint.report import Finding, LintReport, ModelIndex, sort_findings

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext


def lint(
    path: str | os.PathLike[str],
    *,
    trt_version: str | None = None,
    polygraphy: bool = False,
    polygraphy_timeout: float = 120.0,
    input_shapes: dict[str, list[int]] | None = None,
) -> LintReport:
    """Lint one ONNX model. Raises LintError when the file cannot be linted at all.

    ``input_shapes`` (name -> dims) gives Polygraphy the shapes of dynamic inputs; without them it is
    not run on a model with dynamic inputs (it would silently substitute 1)."""
    from troubleshooter.lint.graph import LintContext
    from troubleshooter.lint.model import load_model
    from troubleshooter.lint.rules import all_rules

    # The parser diagnose uses (core/versions.py): both accept and refuse the same strings.
    trt = parse_version(trt_version)
    if trt is None and trt_version is not None and trt_version.strip():
        raise LintError(f"--trt-version {trt_version!r} is not a version (e.g. 8.6 or 10.3)")
    loaded = load_model(path)
    ctx = LintContext(loaded, trt)
    findings: list[Finding] = []
    for rule in all_rules():
        try:
            findings.extend(rule.check(ctx))
        except Exception as err:
            ctx.notes.append(f"rule {rule.id} could not run: {type(err).__name__}: {str(err)[:200]}")
    notes = _notes(ctx)
    if polygraphy:
        extra, more = _polygraphy(ctx, findings, polygraphy_timeout, input_shapes or {})
        findings.extend(extra)
        notes.extend(more)
    return LintReport(
        model=loaded.path,
        trt_version=str(trt) if trt is not None else None,
        findings=sort_findings(findings, ctx.position),
        notes=notes,
    ).with_index(_index(ctx))


def _notes(ctx: LintContext) -> list[str]:
    notes = []
    if ctx.trt is None:
        notes.append("no --trt-version given: checked for current TensorRT releases (10.x); 8.x differences are noted")
    late = ctx.late_inputs()
    if late:
        notes.append(
            f"nodes are not topologically sorted ({len(late)} input(s) produced later): TensorRT sorts them, "
            "but onnx.checker, ONNX Runtime and Polygraphy complain"
        )
    if ctx.loaded.external_count:
        megabytes = ctx.loaded.external_bytes / 1e6
        notes.append(
            f"{ctx.loaded.external_count} tensor(s) ({megabytes:.1f} MB) in external data files: checked, never "
            "loaded whole (weight values are scanned in chunks)"
        )
    notes.extend(ctx.notes)
    return notes


def _polygraphy(ctx: LintContext, findings: list[Finding], timeout: float,
                given: dict[str, list[int]]) -> tuple[list[Finding], list[str]]:
    from troubleshooter.lint.polygraphy import run_polygraphy
    from troubleshooter.lint.rules.custom_domain_op import custom_ops
    from troubleshooter.lint.rules.dynamic_inputs import dynamic_inputs

    custom = custom_ops(ctx)
    if custom:
        ops = ", ".join(sorted({op for _, op in custom}))
        return [], [f"--polygraphy: skipped, the model has custom ops ({ops}) that ONNX Runtime cannot run"]
    dynamic = [name for name in dynamic_inputs(ctx) if name not in given]
    if dynamic:
        names = ", ".join(dynamic)
        reason = (
            f"--polygraphy: skipped, dynamic input(s) {names}: Polygraphy would substitute 1 for unknown dims; "
            f"give their shapes, e.g. --input-shapes {dynamic[0]}:[1,3,640,640]"
        )
        return [], [reason]
    if any(f.level == "error" for f in findings):
        return [], ["--polygraphy: skipped, fix the errors above first (Polygraphy would stop at the first one)"]
    shapes: dict[str, list[int]] = {}
    for value in ctx.inputs:
        dims = value.type.tensor_type.shape.dim
        shapes[value.name] = given.get(value.name) or [d.dim_value for d in dims]
    return run_polygraphy(ctx.loaded.path, shapes, timeout=timeout)


def _index(ctx: LintContext) -> ModelIndex:
    consumers = {name: [ctx.name_of(i) for i, _ in users] for name, users in ctx.consumers.items()}
    return ModelIndex(
        nodes=list(ctx.names),
        op_types={name: node.op_type for name, node in zip(ctx.names, ctx.nodes, strict=True)},
        producers={tensor: ctx.name_of(i) for tensor, i in ctx.producer.items()},
        consumers=consumers,
        inputs=[v.name for v in ctx.inputs],
    )
