"""`trt-why eval`'s figures (`cli.eval.EvalResult`) as text or JSON. Each function returns a string."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from troubleshooter.cli.eval import EvalResult


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def render_eval_json(result: EvalResult) -> str:
    """The figures and every case, as JSON (`trt-why eval --format json`)."""
    data = result.summary()
    data["cases"] = [asdict(c) | {"ok": c.ok, "seen": c.seen} for c in result.cases]
    return json.dumps(data, indent=2) + "\n"


def render_eval_text(result: EvalResult, **_terminal: object) -> str:
    """The figures and the confusion list, as text (plain at any width and colour)."""
    n_unc, n_unr = len(result.by_label("uncovered")), len(result.by_label("unresolved"))
    lines = [
        f"logs: {len(result.cases)} ({len(result.positives)} with a known failure, {n_unc} uncovered, "
        f"{n_unr} unresolved, {len(result.negatives)} negative)",
        f"top-1 accuracy: {_pct(result.top1)}",
        f"top-1 as the report reads (no unexplained error line leads ahead of it): {_pct(result.top1_as_read)}",
        f"top-3 accuracy: {_pct(result.top3)}",
    ]
    if result.failing:
        lines.append(f"failure seen (exit 1): {_pct(result.seen)} of {len(result.failing)} failing logs")
    if result.failure_not_in_paste:
        lines.append(f"failing logs whose paste shows no failure: {len(result.failure_not_in_paste)}, not scored "
                     f"for 'seen' (a failure reported on {result.invented_failures} of them)")
    if n_unc:
        lines.append(f"uncovered, no confident claim and listed as unexplained: {_pct(result.uncovered_ok)}")
    if n_unr:
        n_shown = sum(1 for c in result.by_label("unresolved") if c.failure_in_paste)
        lines.append(f"unresolved, failure seen: {_pct(result.unresolved_ok)} of {n_shown} whose paste shows it")
    n_printed = sum(c.release_printed for c in result.cases)
    if n_printed:
        lines.append(f"TensorRT release read: {_pct(result.release_read)} of {n_printed} logs that print it")
    lines += [
        f"false errors on negative logs: {result.false_errors}",
        f"logs with no diagnosis: {_pct(result.no_diagnosis)}",
    ]
    for half, figures in (result.summary().get("halves") or {}).items():
        lines.append(f"  {half} half: {figures['logs']} logs, top-1 {_pct(figures['top1'])}, "
                     f"top-3 {_pct(figures['top3'])}, seen {_pct(figures['seen'])}, "
                     f"false errors {figures['false_errors']}")
    bad = [c for c in result.cases if not c.ok]
    if bad:
        lines.append("")
        lines.append("confusion (expected -> got):")
        for c in bad:
            exp = {"negative": "no error (negative)", "uncovered": "uncovered", "unresolved": "unresolved"}.get(
                c.label, str(c.top))
            got = ", ".join(c.got[:3]) or "nothing"
            extra = f"  [{'; '.join(c.violations)}]" if c.violations else ""
            lines.append(f"  {c.name}: {exp} -> {got}{extra}")
    return "\n".join(lines) + "\n"
