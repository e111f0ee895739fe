"""The MCP server's answer to diagnose_log: the report cut to what an assistant needs, a few KB.

The full report of a 59-line log is ~9 KB of JSON, and the SDK sends it twice (text and structured
content); a 1,400-line log's is 23 KB. An assistant's context is better spent on the answer: each
diagnosis with its id, title, severity, confidence, the evidence lines, its causes, the verdict for the
user's TensorRT version and the fix titles with their first command; the first error no KB entry
explains, with its next steps. ``detail="full"`` adds the whole report (``Report``, as
``trt-why --format json`` prints it).

Texts are never cut inside a sentence: a cause or an advice is given whole or left out (the full
report has everything), so an assistant never quotes half a sentence.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from troubleshooter.models import Command, Diagnosis, FixStep, Report, Unexplained
from troubleshooter.render import words

MAX_DIAGNOSES = 5
"""Diagnoses listed (root cause first); how many more there are is said."""
MAX_EVIDENCE = 3
"""Evidence lines of the root cause (one for the others)."""
MAX_CAUSES = 3
"""Causes of the root cause, most likely first (one for the others)."""
MAX_LINE_CHARS = 400
"""A log line longer than this is cut (marked with …); a KB sentence never is."""
MAX_COMMAND_LINES = 12
"""A fix's first command longer than this is left for the full report."""
MAX_UNEXPLAINED = 3

Detail = Literal["compact", "full"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class LogLine(_Frozen):
    """A line of the log: its number and its text."""

    line: int = Field(description="1-based line number in log_text.")
    text: str = Field(description="The line (cut with … past 400 characters).")


class FixSummary(_Frozen):
    """One fix: its title and the first command it runs (the full report has every step)."""

    title: str
    first_step: str = Field(description="The fix's first step, in words.")
    command: Command | None = Field(default=None, description="The first command among its steps, if any.")


class DiagnosisSummary(_Frozen):
    """A known failure found in the log."""

    id: str = Field(description="KB entry id; explain_issue gives the whole entry.")
    title: str
    severity: str = Field(description="error (the build fails), warning (it loses precision or speed) or info.")
    confidence: float = Field(description="0..1.")
    evidence: list[LogLine] = Field(description="The log lines that prove it.")
    causes: list[str] = Field(description="Why, most likely first, each ending with its certainty in brackets.")
    version: str | None = Field(default=None, description="What it means for the user's TensorRT version.")
    version_status: str | None = Field(
        default=None, description="affected, fixed, changed, not-applicable or unknown; None: the log does not say.")
    fixes: list[FixSummary] = Field(default_factory=list, description="What to do, in order.")
    would_decide: list[str] = Field(default_factory=list, description="Facts not in the log that would decide.")
    model_verdict: str | None = Field(default=None, description="With a linted model: what the model says of it.")
    later_errors: int = Field(default=0, description="Later error lines that are consequences of this one.")


class FirstError(_Frozen):
    """The earliest error line no KB entry explains, when it comes before every diagnosed error: the root as far
    as the log shows."""

    line: int
    text: str
    similar: list[str] = Field(default_factory=list, description="Closest known issues (ids): suggestions only.")
    next_steps: list[str] = Field(default_factory=list, description="What to do next, each with its command.")


class DiagnoseAnswer(_Frozen):
    """diagnose_log's answer: the diagnoses in brief, root cause first (``report`` holds the full report when
    asked with detail='full')."""

    log: str = Field(description="What was read: lines, TensorRT, GPU, tool, precisions.")
    environment: dict[str, Any] = Field(description="The facts the log gave (TensorRT, CUDA, GPU, platform...).")
    failure: bool = Field(description="The log shows a failure.")
    first_error: FirstError | None = Field(default=None)
    diagnoses: list[DiagnosisSummary] = Field(description="Root cause first; empty: no known failure matched.")
    more_diagnoses: int = Field(default=0, description="Diagnoses left out of this list (detail='full' has them).")
    unexplained: list[LogLine] = Field(default_factory=list, description="Error lines no diagnosis explains.")
    notes: list[str] = Field(default_factory=list)
    report: dict[str, Any] | None = Field(
        default=None, description="The full report (detail='full'): what `trt-why --format json` prints.")


def _line(line: int, text: str) -> LogLine:
    text = text.strip()
    return LogLine(line=line, text=text if len(text) <= MAX_LINE_CHARS else text[: MAX_LINE_CHARS - 1] + "…")


def _step_text(step: FixStep) -> str:
    if step.command is None:
        return step.text
    return f"{step.text}\n{step.command.code.rstrip()}"


def _fix(title: str, steps: list[FixStep], values: list[str]) -> FixSummary:
    first = steps[0].text if steps else (values[0] if values else "")
    command = next((s.command for s in steps if s.command is not None), None)
    shown = None
    if command is not None and len(command.code.rstrip().splitlines()) <= MAX_COMMAND_LINES:
        shown = Command(lang=command.lang, code=words.fill_blanks(command.code.rstrip(), command.lang))
    return FixSummary(title=title, first_step=first, command=shown)


def _diagnosis(d: Diagnosis, report: Report, root: bool) -> DiagnosisSummary:
    triggers = [e for e in d.evidence if e.role == "trigger"] or d.evidence
    causes = d.causes[:MAX_CAUSES] if root else d.causes[:1]
    return DiagnosisSummary(
        id=d.id, title=d.title, severity=d.severity, confidence=d.confidence,
        evidence=[_line(e.line, e.text) for e in triggers[: MAX_EVIDENCE if root else 1]],
        causes=causes,
        version=words.version_summary(d),
        version_status=d.version_status,
        fixes=[_fix(f.title, f.detail, f.steps) for f in (d.fixes if root else d.fixes[:1])],
        would_decide=words.open_asks(d, report.environment) if root else [],
        model_verdict=d.model_verdict_reason if d.model_verdict else None,
        later_errors=len(words.consequences(d)),
    )


def _first_error(u: Unexplained) -> FirstError:
    return FirstError(line=u.line, text=_line(u.line, u.text).text, similar=[s.id for s in u.similar],
                      next_steps=[_step_text(s) for s in u.next_steps])


def answer(report: Report, detail: Detail = "compact") -> DiagnoseAnswer:
    """The report in brief (and, for ``detail="full"``, whole in ``report``)."""
    env = report.environment.model_dump(exclude={"sources"}, exclude_none=True)
    env = {k: v for k, v in env.items() if v not in ([], {}, None)}
    lead = report.first_error
    shown = [d for d in report.diagnoses if not (lead is not None and d.cascade and d.severity == "error")]
    rest = [u for u in report.unexplained if lead is None or u.line != lead.line]
    return DiagnoseAnswer(
        log=words.headline(report, shared=True),
        environment=env,
        failure=report.failure,
        first_error=_first_error(lead) if lead is not None else None,
        diagnoses=[_diagnosis(d, report, i == 0) for i, d in enumerate(shown[:MAX_DIAGNOSES])],
        more_diagnoses=max(0, len(shown) - MAX_DIAGNOSES),
        unexplained=[_line(u.line, u.text) for u in rest[:MAX_UNEXPLAINED]],
        notes=words.shown_notes(report),
        report=report.model_dump(mode="json") if detail == "full" else None,
    )
