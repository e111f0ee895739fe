"""The report as Markdown (GitHub-flavoured): for issues, PRs and wikis."""

from __future__ import annotations

from troubleshooter.models import Diagnosis, Report, Unexplained
from troubleshooter.render.text import headline

_BADGE = {"error": "❌ **error**", "warning": "⚠️ **warning**", "info": "ℹ️ info"}


def fence(code: str, lang: str = "") -> str:
    """A code fence that survives backticks inside the code."""
    ticks = "```"
    while ticks in code:
        ticks += "`"
    return f"{ticks}{lang}\n{code.rstrip()}\n{ticks}"


def diagnosis_md(d: Diagnosis, full: bool = True) -> str:  # noqa: C901, PLR0912  # one branch per optional part of a diagnosis; the renderers are reworked in #16
    parts = [f"### {_BADGE[d.severity]}: {d.title}",
             f"`{d.id}` · confidence {d.confidence:.2f} · {d.occurrences} line(s)"]
    ev = [e for e in d.evidence if e.role == "trigger"][: 4 if full else 2]
    if ev:
        parts.append("**Evidence**\n" + fence("\n".join(f"{e.line}: {e.text.strip()}" for e in ev), "text"))
    for name, vals in d.capture_values.items():
        parts.append(f"**{name}** ({len(vals)} distinct): " + ", ".join(f"`{v}`" for v in vals[:10])
                     + (" …" if len(vals) > 10 else ""))
    if d.causes:
        parts.append("**Why**\n" + "\n".join(f"- {c}" for c in (d.causes if full else d.causes[:1])))
    if d.version_advice:
        parts.append(f"**Your version**: {d.version_advice}")
    if d.version_status is None and d.version_advice_all and full:
        rows = ["| TensorRT | status | advice |", "| --- | --- | --- |"]
        rows += [f"| `{a.versions}` | {a.status} | {a.text.replace('|', '/')} |" for a in d.version_advice_all]
        parts.append("\n".join(rows))
    if d.fixes:
        lines = ["**Fix**"]
        n = 0
        for fix in d.fixes if full else d.fixes[:1]:
            for step in fix.detail:
                n += 1
                lines.append(f"{n}. {step.text}")
                if step.command:
                    lines.append("\n".join("   " + x for x in fence(step.command.code, step.command.lang).splitlines()))
        parts.append("\n".join(lines))
    if d.reduce_command and full:
        parts.append("**Minimal repro**\n" + fence(d.reduce_command, "bash"))
    if d.clues and full:
        parts.append("**Clues**: " + "; ".join(d.clues))
    if d.alternatives:
        parts.append("**Also possible**: " + ", ".join(f"`{a.id}` ({a.confidence:.2f})" for a in d.alternatives))
    if d.asks and full:
        parts.append("**Would decide**: " + "; ".join(d.asks))
    if d.model_verdict:
        rows = [f"**On the model**: {d.model_verdict}: {d.model_verdict_reason or ''}"]
        for f in d.model_findings[:5]:
            nodes = f.get("nodes")
            names = ", ".join(f"`{n}`" for n in (nodes if isinstance(nodes, list) else [])[:3])
            rows.append(f"- {f.get('level')} `{f.get('rule')}` on {names or 'the model'}: {f.get('message')}")
        parts.append("\n".join(rows))
    if d.consequences:
        parts.append(f"_{len(d.consequences)} later error line(s) are consequences of this one._")
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


def render_markdown(report: Report) -> str:
    parts = [f"## trt-why: {headline(report)}"]
    lead = report.first_error
    if lead is not None:
        parts.append(first_error_md(lead))
    elif not report.diagnoses:
        parts.append("No known failure matched." if report.unexplained else "No known failure and no error line found.")
    for d in report.diagnoses:
        if lead is not None and d.cascade and d.severity == "error":
            parts.append(f"_{d.title} (`{d.id}`, lines {', '.join(str(e.line) for e in d.evidence[:4])}): "
                         "a consequence of the first error above._")
            continue
        parts.append(diagnosis_md(d, full=d.severity == "error" or d is report.diagnoses[0]))
    rest = [u for u in report.unexplained if lead is None or u.line != lead.line]
    if rest:
        rows = ["### Unexplained error lines", "_Closest known issues are suggestions, not diagnoses._", ""]
        for u in rest:
            sims = ", ".join(f"`{s.id}` ({s.score:.0f})" for s in u.similar) or "none"
            rows.append(f"- line {u.line}{f' (x{u.count})' if u.count > 1 else ''}: `{u.text.strip()[:200]}` — closest: {sims}")
        parts.append("\n".join(rows))
    if report.notes:
        parts.append("\n".join(f"> note: {n}" for n in report.notes))
    return "\n\n".join(parts).rstrip() + "\n"
