"""Tie a log's diagnoses to the lint findings on the model (``trt-why build.log --model model.onnx``).

For each diagnosis, the node and tensor names it captured from the log ("Could not find any
implementation for node X", "Missing scale ... for tensor T") are looked up in the model:
exact node names, names inside TensorRT's fused layer names
(``/conv/Conv + PWN(PWN(/act/Sigmoid), /act/Mul)``), tensor names (resolved to the node that
produces them) and weight names (resolved to the nodes that read them). The diagnosis gets the
findings on those nodes plus the findings of its own ``lint`` rules anywhere in the model,
and its confidence moves: up a little when one of its rules fires on the named node and what it
found explains the failure, down when the node exists and none of its rules that could fire on
this kind of model does. A rule that cannot apply (a Q/DQ rule on a float model) is no evidence.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from troubleshooter.lint.report import Finding, LintReport

if TYPE_CHECKING:
    from troubleshooter.models import Diagnosis, Report

NAME_KEYS = (
    "node", "nodes", "node_name", "tensor", "tensors", "layer", "layers", "name", "input", "output", "weights",
    "conv", "sigmoid", "io_tensor", "binding",
)
"""Capture names whose values are node, layer or tensor names."""
OP_KEYS = ("op", "node_op")
"""Capture names whose values are ONNX op types (e.g. from 'No importer registered for op: X')."""

CONFIRM_BONUS = 0.05
CONTRADICT_FACTOR = 0.7

_SPLIT = re.compile(r"\s+\+\s+|PWN\(|\(|\)|,\s*|\s+\|\s+")


def candidate_names(value: str) -> list[str]:
    """The whole captured string and every name inside a fused layer name."""
    names = [value.strip()]
    for raw_part in _SPLIT.split(value):
        part = raw_part.strip().strip("[]{}'\"").rstrip(".")
        if part and part not in names and part not in ("PWN", "ForeignNode"):
            names.append(part)
    return names


def _captured(diagnosis: Diagnosis, keys: tuple[str, ...] = NAME_KEYS) -> list[str]:
    values: list[str] = []
    for key in keys:
        if diagnosis.captures.get(key):
            values.append(diagnosis.captures[key])
        values.extend(v for v in diagnosis.capture_values.get(key, []) if v)
    seen: list[str] = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen


def _resolve(lint_report: LintReport, captured: list[str], ops: list[str]) -> set[str]:
    index = lint_report.index
    nodes: set[str] = set()
    if index is not None and ops:
        nodes.update(name for name, op_type in index.op_types.items() if op_type in ops)
    for f in lint_report.findings:
        if ops and f.details.get("op_type") in ops:
            nodes.update(f.nodes)
    for value in captured:
        for name in candidate_names(value):
            if index is not None:
                nodes.update(index.resolve(name))
            elif any(name in f.nodes for f in lint_report.findings):
                nodes.add(name)
    return nodes


def _describe(finding: Finding) -> str:
    where = f" on {', '.join(finding.nodes[:3])}" if finding.nodes else ""
    return f"{finding.rule}{where}: {finding.message}"


QDQ_RULES = frozenset({"int8-grouped-conv-channels"})
"""Rules besides the `qdq-*` ones that look only at explicitly quantized (Q/DQ) models: on a float model
(an implicit-INT8 build, calibrated by TensorRT) they cannot fire, so their silence says nothing."""
QDQ_OPS = frozenset({"QuantizeLinear", "DequantizeLinear"})


def needs_qdq(rule: str) -> bool:
    """The rule checks Q/DQ placement or parameters: it can fire only on a model with Q/DQ nodes."""
    return rule.startswith("qdq-") or rule in QDQ_RULES


def can_apply(rule: str, lint_report: LintReport) -> bool:
    """Whether ``rule`` could have fired on this kind of model (its silence is evidence only then).

    A rule that fired could; without the model's index (a lint report read back from JSON) the kind of
    model is not known, so no rule's silence counts."""
    if any(f.rule == rule for f in lint_report.findings):
        return True
    index = lint_report.index
    if index is None:
        return False
    return not needs_qdq(rule) or any(op in QDQ_OPS for op in index.op_types.values())


def shows_only_context(finding: Finding) -> str | None:
    """Why a finding of one of the diagnosis's rules, on the node the log names, does not prove the failure
    (None: it does). The int8-grouped-conv-channels rule fires on every quantized depthwise conv (one channel
    per group), yet TensorRT does build such convolutions in INT8: there the rule alone does not explain
    the error (the KB's cause says so), it shows the node is a quantized depthwise conv."""
    if finding.rule == "int8-grouped-conv-channels" and finding.details.get("in_per_group") == 1:
        return ("it is a quantized depthwise convolution (one channel per group), which TensorRT does build in "
                "INT8: the channel rule alone does not explain the failure; look at what is fused with it")
    return None


def attach_one(diagnosis: Diagnosis, lint_report: LintReport) -> Diagnosis:
    """The diagnosis with its model findings, confidence, clues and verdict (``model_verdict``).

    The verdict follows what the rules can show: a rule that fires on the node the log names confirms it,
    unless what it found does not explain the failure (``shows_only_context``: then the model cannot tell);
    the node being in the model while none of the rules that could fire on this kind of model does argues
    against it; a rule that cannot apply to this kind of model (a Q/DQ rule on a float model) is no
    evidence either way."""
    captured = _captured(diagnosis)
    ops = _captured(diagnosis, OP_KEYS)
    named = _resolve(lint_report, captured, ops)
    rules = set(diagnosis.lint)
    applicable = {r for r in rules if can_apply(r, lint_report)}
    on_nodes = [f for f in lint_report.findings if named.intersection(f.nodes)]
    of_rules = [f for f in lint_report.findings if f.rule in rules]
    chosen: list[Finding] = []
    for f in on_nodes + of_rules:
        if f not in chosen:
            chosen.append(f)
    confidence = diagnosis.confidence
    clue: str | None = None
    verdict = "cannot-tell"
    confirming = [f for f in of_rules if named.intersection(f.nodes)]
    proving = [f for f in confirming if shows_only_context(f) is None]
    if proving:
        confidence = min(1.0, confidence + CONFIRM_BONUS)
        clue = f"confirmed on the model: {_describe(proving[0])}"
        verdict = "confirms"
    elif confirming:
        f = confirming[0]
        clue = (f"the model cannot tell: {f.rule} fires on {', '.join(f.nodes[:3])}, but {shows_only_context(f)}")
    elif named and applicable and not of_rules:
        confidence *= CONTRADICT_FACTOR
        clue = (
            f"the model contradicts it: {', '.join(sorted(named)[:3])} is in the model but none of the lint rules "
            f"{', '.join(sorted(applicable))} fires anywhere"
        )
        verdict = "refutes"
    elif named and rules and not of_rules:  # none of the rules could have fired on this model
        if lint_report.index is not None and all(needs_qdq(r) for r in rules):
            clue = (f"the model cannot tell: {', '.join(sorted(rules))} check only explicitly quantized (Q/DQ) "
                    "models and this one has no Q/DQ nodes (an implicit-INT8 build calibrates a float model): "
                    "their silence is no evidence")
        else:
            clue = (f"the model cannot tell: none of {', '.join(sorted(rules))} fires, and the lint report does not "
                    "say what kind of model it is (read back from JSON?)")
    elif named and of_rules:
        clue = f"on the model, {of_rules[0].rule} fires elsewhere but not on {', '.join(sorted(named)[:3])}"
    elif (captured or ops) and not named and lint_report.index is not None:
        clue = f"{(captured or ops)[0]!r} is not in the model {lint_report.model} (a different or re-exported model?)"
    elif not captured and not ops and of_rules:
        shown = next((f for f in of_rules if shows_only_context(f) is None), None)
        if shown is not None:
            clue = f"the model shows it: {_describe(shown)}"
            verdict = "confirms"
        else:
            clue = f"the model cannot tell: {of_rules[0].rule} fires, but {shows_only_context(of_rules[0])}"
    reason = clue or ("no lint rule can check this diagnosis on the model" if not rules
                      else f"none of {', '.join(sorted(rules))} fires, and the log names no node to check")
    return diagnosis.model_copy(
        update={
            "model_findings": list(chosen),
            "confidence": round(confidence, 4),
            "clues": [*diagnosis.clues, clue] if clue else list(diagnosis.clues),
            "model_verdict": verdict,
            "model_verdict_reason": reason,
        }
    )


def attach(report: Report, lint_report: LintReport) -> Report:
    """A new Report whose diagnoses carry the lint findings on the nodes they name."""
    diagnoses = [attach_one(d, lint_report) for d in report.diagnoses]
    notes = list(report.notes)
    notes.append(
        f"model {lint_report.model} linted: {len(lint_report.findings)} finding(s)"
        + (f" for TensorRT {lint_report.trt_version}" if lint_report.trt_version else "")
    )
    return report.model_copy(update={"diagnoses": diagnoses, "notes": notes})
