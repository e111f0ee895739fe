"""The report as Markdown (GitHub-flavoured): for issues, PRs and wikis."""

from __future__ import annotations

from collections.abc import Sequence

from troubleshooter.models import Diagnosis, Environment, Report, Unexplained
from troubleshooter.render import words
from troubleshooter.render.words import headline

_BADGE = {"error": "❌ **error**", "warning": "⚠️ **warning**", "info": "ℹ️ info"}


def fence(code: str, lang: str = "") -> str:
    """A code fence that survives backticks inside the code."""
    ticks = "```"
    while ticks in code:
        ticks += "`"
    return f"{ticks}{lang}\n{code.rstrip()}\n{ticks}"


def diagnosis_md(d: Diagnosis, full: bool = True, lines_in_log: int = 0,  # noqa: C901, PLR0912  # one branch per optional part of a diagnosis
                 env: Environment | None = None) -> str:
    count = words.plural(words.trigger_lines(d, lines_in_log), "line")
    parts = [f"### {_BADGE[d.severity]}: {d.title}",
             f"`{d.id}` · confidence {d.confidence:.2f} · {count}"]
    ev = [e for e in d.evidence if e.role == "trigger"][: 4 if full else 2]
    if ev:
        parts.append("**Evidence**\n" + fence("\n".join(f"{e.line}: {e.text.strip()}" for e in ev), "text"))
    for label, vals in words.capture_lists(d):
        sentence = words.capture_sentence(label, vals, limit=10, quote="`")
        parts.append(sentence[0].upper() + sentence[1:])
    if d.causes:
        parts.append("**Why**\n" + "\n".join(f"- {c}" for c in (d.causes if full else d.causes[:1])))
    advice = words.version_summary(d)
    if advice:
        parts.append(f"**Your version**: {advice}")
    if d.version_status is None and d.version_advice_all and full:
        rows = ["| TensorRT | status | advice |", "| --- | --- | --- |"]
        rows += [f"| {words.version_range(a.versions)} | {words.STATUS_WORDS.get(a.status, a.status)} | "
                 f"{a.text.replace('|', '/')} |" for a in d.version_advice_all]
        parts.append("\n".join(rows))
    if d.fixes:
        lines = ["**Fix**"]
        n = 0
        for fix in d.fixes if full else d.fixes[:1]:
            for step in fix.detail:
                n += 1
                lines.append(f"{n}. {step.text}")
                if step.command:
                    code = words.fill_blanks(step.command.code, step.command.lang)
                    lines.append("\n".join("   " + x for x in fence(code, step.command.lang).splitlines()))
        parts.append("\n".join(lines))
    if d.reduce_command and full:
        parts.append("**Minimal repro**\n" + fence(d.reduce_command, "bash"))
    clues = words.clues(d, width=200)
    if clues and full:
        parts.append("**Clues**: " + "; ".join(clues))
    if d.alternatives:
        parts.append("**Also possible**: " + ", ".join(f"`{a.id}` ({a.confidence:.2f})" for a in d.alternatives))
    asks = words.open_asks(d, env or Environment())
    if asks and full:
        parts.append("**Would decide**: " + "; ".join(asks))
    if d.model_verdict:
        rows = [f"**On the model**: {d.model_verdict_reason or d.model_verdict}"]
        for f in d.model_findings[:5]:
            names = ", ".join(f"`{n}`" for n in f.nodes[:3])
            rows.append(f"- {f.level} `{f.rule}` on {names or 'the model'}: {f.message}")
        parts.append("\n".join(rows))
    if words.consequences(d):
        n = len(words.consequences(d))
        parts.append(f"_{words.plural(n, 'later error line')} {'is a consequence' if n == 1 else 'are consequences'} "
                     "of this one._")
    if d.references and full:
        parts.append("**References**: " + " · ".join(f"<{r}>" for r in d.references[:4]))
    return "\n\n".join(parts)


def first_error_md(u: Unexplained) -> str:
    """The first error line no KB entry explains, in full, with the generic next steps."""
    parts = ["### ❌ **error**: First error, not in the knowledge base",
             fence(f"{u.line}: {u.text.strip()}", "text")]
    if u.similar:
        parts.append("**Similar known issues** (suggestions, not a diagnosis): "
                     + ", ".join(f"`{s.id}` ({s.score:.0f})" for s in u.similar))
    if u.next_steps:
        lines = ["**Next**"]
        for n, step in enumerate(u.next_steps, 1):
            lines.append(f"{n}. {step.text}")
            if step.command:
                lines.append("\n".join("   " + x for x in fence(step.command.code, step.command.lang).splitlines()))
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def nothing_found(report: Report) -> str:
    if report.unexplained:
        return "No known failure matched."
    if report.environment.build_succeeded:
        return "No known failure: the build succeeded, nothing here needs action."
    return "No known failure and no error line found."


def render_markdown(report: Report) -> str:
    parts = [f"## trt-why: {headline(report, shared=True)}"]
    lead = report.first_error
    if lead is not None:
        parts.append(first_error_md(lead))
    elif not report.diagnoses:
        parts.append(nothing_found(report))
    for d in report.diagnoses:
        if lead is not None and d.cascade and d.severity == "error":
            parts.append(f"_{d.title} (`{d.id}`, lines {', '.join(str(e.line) for e in d.evidence[:4])}): "
                         "a consequence of the first error above._")
            continue
        parts.append(diagnosis_md(d, full=d.severity == "error" or d is report.diagnoses[0],
                                  lines_in_log=report.source.lines, env=report.environment))
    rest = [u for u in report.unexplained if lead is None or u.line != lead.line]
    if rest:
        rows = ["### Unexplained error lines", "_Closest known issues are suggestions, not diagnoses._", ""]
        for u in rest:
            sims = ", ".join(f"`{s.id}` ({s.score:.0f})" for s in u.similar) or "none"
            rows.append(f"- line {u.line}{f' (x{u.count})' if u.count > 1 else ''}: `{u.text.strip()[:200]}` — closest: {sims}")
        parts.append("\n".join(rows))
    if words.shown_notes(report):
        parts.append("\n".join(f"> note: {n}" for n in words.shown_notes(report)))
    return "\n\n".join(parts).rstrip() + "\n"


def render_markdown_many(reports: Sequence[Report]) -> str:
    """Several reports, one after the other, a blank line between two."""
    return "\n".join(render_markdown(r) for r in reports)
