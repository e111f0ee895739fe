"""A report as an upstream issue draft (`trt-why --format issue LOG`): Markdown to paste into the tracker
that owns the failure.

It holds what maintainers ask for in their first reply: a title, the environment (every fact the log
does not give says "unknown: please fill in"), the failing line verbatim with a short excerpt and its
line numbers (the lines the report holds, not the whole log), the command when a shown line gives it,
what trt-why checked (the closest known issues with their references), the stack's reproduction step,
the attachments its tracker's template asks for, and search terms to find an existing issue first.
When the knowledge base already holds the failure with a confirmed cause and a fix, the draft says so
first: the user likely needs no issue.

Everything taken from the log is redacted (home-folder user names, host names, addresses: the
`--redact` machinery), and the draft fits in GitHub's limit for an issue body.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING
from urllib.parse import quote_plus

from troubleshooter.models import Diagnosis, Report
from troubleshooter.render.markdown import fence
from troubleshooter.render.redact import Redactor

if TYPE_CHECKING:
    from troubleshooter.kb.stacks import Stack

MAX_CHARS = 65_536
"""GitHub's limit for an issue body."""
MAX_EXCERPT_LINES = 24
MAX_LINE_CHARS = 600
UNKNOWN = "unknown: please fill in"

_COMMAND = re.compile(r"&&&& (?:RUNNING|FAILED|PASSED) .*?# (?P<a>.+)$|"
                      r"(?:^|[$#>] )(?P<b>(?:\S*/)?(?:trtexec|polygraphy (?:run|convert|debug)|trtllm-build|tritonserver|"
                      r"yolo (?:export|predict)|deepstream-app|detectnet|imagenet|segnet|python3? \S+\.py)\b.*)$")
_NOISE = re.compile(r"\S*[/\\]\S*|0x[0-9a-fA-F]+|<[\w-]+>|\b\d[\d.:,-]*\b|"
                    r"\[[\w./~-]+::[\w~:]+::\d+\]|[\"'`()\[\]{}]|\s+")
_CODE_PREFIX = re.compile(r"^(?:Error\[\d+\]:\s*|\d+:\s*)")


def render_issue(report: Report) -> str:
    """The issue draft for one report (Markdown, at most `MAX_CHARS` characters)."""
    from troubleshooter.kb.stacks import stack_for

    env = report.environment
    stack = stack_for(env.front_end)
    red = Redactor()
    lead_line, lead_text = _lead(report)
    for text in [report.source.name, lead_text, *(e.text for d in report.diagnoses for e in d.evidence),
                 *(u.text for u in report.unexplained)]:
        red.learn(text)
    known = known_fix(report)
    parts = [f"<!-- Drafted by trt-why from {red.scrub(report.source.name)}. Personal data from the log is "
             "redacted; review every section before posting. -->",
             f"# {_title(report, stack, red.scrub(lead_text))}"]
    if known is not None:
        parts.append(_known_block(known, red))
    parts.append(_where(stack, env.front_end, red.scrub(lead_text)))
    parts.append("## Description\n\n" + _description(report, lead_line, stack))
    parts.append("## Environment\n\n" + _environment_table(report, stack))
    excerpt = _excerpt(report, red)
    parts.append("## The failing line\n\n" + (fence(red.scrub(lead_text).strip(), "text") + f"\n\nLine {lead_line} of the log."
                                             if lead_text else "trt-why found no error line in this log."))
    if excerpt:
        parts.append("## Log excerpt\n\nThe decisive lines, with their line numbers (the whole log is attached).\n\n"
                     + fence("\n".join(excerpt), "text"))
    parts.append("## Command\n\n" + _command(report, red))
    parts.append("## What trt-why checked\n\n" + _checked(report))
    if stack is not None:
        repro = stack.reproduce
        parts.append("## Steps to reproduce\n\n" + repro.text
                     + ("\n\n" + fence(repro.code, repro.lang) if repro.code else "")
                     + f"\n\n(Source: {repro.source})")
        parts.append("## Attachments\n\n" + "\n".join(f"- [ ] {a}" for a in stack.attachments)
                     + "\n\nThe tracker's template also asks for:\n"
                     + "\n".join(f"- [ ] {a}" for a in stack.tracker.asks))
    return _fit("\n\n".join(parts).rstrip() + "\n")


def _lead(report: Report) -> tuple[int, str]:
    """The line the draft is about: the unexplained first error, else the top error diagnosis's first trigger."""
    if report.first_error is not None:
        return report.first_error.line, report.first_error.text
    for d in report.diagnoses:
        trigger = next((e for e in d.evidence if e.role == "trigger"), None)
        if trigger is not None and (d.severity == "error" or d is report.diagnoses[0]):
            return trigger.line, trigger.text
    if report.unexplained:
        return report.unexplained[0].line, report.unexplained[0].text
    return _NO_LINE


def _payload(text: str) -> str:
    from troubleshooter.core.logs import parse_line

    return _CODE_PREFIX.sub("", parse_line(0, text).text.strip())


def _title(report: Report, stack: Stack | None, lead_text: str) -> str:
    what = _payload(lead_text) if lead_text else "no error line found"
    if len(what) > 110:
        what = what[:107].rstrip() + "..."
    where = stack.name.split(" (")[0] if stack is not None and report.environment.front_end else "TensorRT"
    version = f" (TensorRT {report.environment.tensorrt_version})" if report.environment.tensorrt_version else ""
    return f"{where}: {what}{version}"


def known_fix(report: Report) -> Diagnosis | None:
    """The top diagnosis when the KB holds it with a confirmed cause and a fix (and no unexplained error leads)."""
    if report.first_error is not None or not report.diagnoses:
        return None
    top = report.diagnoses[0]
    confirmed = bool(top.cause_details) and top.cause_details[0].certainty == "confirmed"
    if (top.matched_by != "signature" or top.cascade or not top.fixes or not confirmed or top.confidence < 0.6
            or not top.references):
        return None
    return top


_THREAD = re.compile(r"github\.com/[\w.-]+/[\w.-]+/(?:issues|discussions|pull)/\d+|forums\.developer\.nvidia\.com/t/")


_NO_LINE = (0, "")
"""No line to draft the issue about (line 0, no text)."""


def _known_block(d: Diagnosis, red: Redactor) -> str:
    first_fix = d.fixes[0]
    thread = next((r for r in d.references if _THREAD.search(r)), None)
    link = f"Known thread: {thread}" if thread else f"Reference: {d.references[0]}"
    steps: list[str] = []
    # The fix is filled with the log's own values (an engine path, a node): redacted like the log lines.
    for n, step in enumerate(first_fix.detail[:3] or [], 1):
        steps.append(f"{n}. {red.scrub(step.text)}")
        if step.command:
            steps += fence(red.scrub(step.command.code), step.command.lang).splitlines()
    if not steps:
        steps = [f"{n}. {red.scrub(text)}" for n, text in enumerate(first_fix.steps[:3], 1)]
    return (f"> [!NOTE]\n> **You likely need no new issue.** trt-why matched this failure to a known cause with a "
            f"confirmed fix: **{d.title}** (`{d.id}`, confidence {d.confidence:.2f}).\n"
            f"> {link}\n>\n> Try its fix first: **{first_fix.title}**\n>\n"
            + "\n".join("> " + line for line in steps)
            + "\n>\n> File an issue only if the fix does not help; then say that you tried it.")


def _search_terms(lead_text: str) -> str:
    """A query for the tracker's search: the message's words without paths, numbers and names that vary."""
    words = [w for w in _NOISE.sub(" ", _payload(lead_text)).split() if len(w) > 1]
    return " ".join(words[:9])


def _where(stack: Stack | None, front_end: str | None, lead_text: str) -> str:
    terms = _search_terms(lead_text) if lead_text else ""
    if stack is None:
        return ("**Where to file:** the tracker of the tool that ran TensorRT (the stack is unknown: trt-why could "
                "not read its stack files)." + (f"\n\n**Search first** for: `{terms}`" if terms else ""))
    t = stack.tracker
    head = (f"**Stack unknown**: the log does not show which tool ran TensorRT. If it was trtexec, Polygraphy or the "
            f"TensorRT API, file it at **{t.name}** ({t.new_issue}); if another tool ran TensorRT, file it at that "
            "tool's tracker instead." if front_end is None
            else f"**Where to file:** {stack.name} failures go to **{t.name}**: {t.new_issue}")
    lines = [head]
    lines += [f"- or **{a.name}** ({a.new_issue}) {a.when}" for a in stack.also if a.when]
    if terms:
        lines.append(f"\n**Search for an existing issue first**: [{terms}]({t.search}{quote_plus(terms)}) "
                     f"(search terms: `{terms}`)")
    return "\n".join(lines)


def _description(report: Report, lead_line: int, stack: Stack | None) -> str:
    name = stack.name if stack is not None and report.environment.front_end else "TensorRT"
    if report.first_error is not None:
        return (f"Running {name}, the log's first error (line {lead_line}) is one trt-why's knowledge base does not "
                "explain; the lines after it are probably its consequences. "
                "<!-- Say what you ran, what you expected, and what happened instead. -->")
    if report.diagnoses:
        d = report.diagnoses[0]
        return (f"Running {name}, the run fails with: {d.title} (trt-why's diagnosis `{d.id}`, confidence "
                f"{d.confidence:.2f}). <!-- Say what you ran, what you expected, and what happened instead. -->")
    return "<!-- trt-why found no failure in this log: say what you ran, what you expected, and what happened. -->"


def _environment_table(report: Report, stack: Stack | None) -> str:
    env = report.environment
    gpu = env.gpu + (f" (compute capability {env.compute_capability})" if env.compute_capability else "") if env.gpu \
        else (f"compute capability {env.compute_capability}; GPU {UNKNOWN}" if env.compute_capability else None)
    if env.front_end is None:
        stack_cell = "stack unknown: please fill in (the tool that ran TensorRT and its version)"
    else:
        name = stack.name if stack is not None else env.front_end
        version = env.stack_versions.get(env.front_end)
        stack_cell = f"{name} {version}" if version else f"{name} (version {UNKNOWN})"
    rows = [("TensorRT", env.tensorrt_version), ("CUDA", env.cuda_version), ("NVIDIA driver", env.driver_version),
            ("GPU", gpu), ("OS / platform", env.platform and (f"Jetson, JetPack {env.jetpack}" if env.platform == "jetson"
                                                             and env.jetpack else env.platform)),
            ("Container or bare metal", None), ("Stack", stack_cell)]
    if env.precisions:
        rows.append(("Precision flags", ", ".join(env.precisions)))
    if env.onnx_opset or env.onnx_producer:
        rows.append(("ONNX model", ", ".join(x for x in (env.onnx_opset and f"opset {env.onnx_opset}",
                                                          env.onnx_producer and f"producer {env.onnx_producer}") if x)))
    return "\n".join(["| | |", "| --- | --- |", *(f"| {k} | {(v or UNKNOWN).replace('|', '/')} |" for k, v in rows)])


def _excerpt(report: Report, red: Redactor) -> list[str]:
    """The lines the report holds (the first error, the diagnoses' evidence, the unexplained lines), by line number."""
    lines: dict[int, str] = {}
    if report.first_error is not None:
        lines[report.first_error.line] = report.first_error.text
    for d in report.diagnoses:
        for e in d.evidence:
            lines.setdefault(e.line, e.text)
    for u in report.unexplained:
        lines.setdefault(u.line, u.text)
    chosen = sorted(lines)[:MAX_EXCERPT_LINES]
    width = len(str(chosen[-1])) if chosen else 1
    out = []
    for no in chosen:
        text = red.scrub(lines[no].rstrip())
        if len(text) > MAX_LINE_CHARS:
            text = text[:MAX_LINE_CHARS] + " [...]"
        out.append(f"{no:>{width}} | {text}")
    if len(lines) > len(chosen):
        out.append(f"... {len(lines) - len(chosen)} more lines the report holds")
    return out


def _command(report: Report, red: Redactor) -> str:
    if report.environment.command:
        return fence(red.scrub(report.environment.command), "bash")
    texts = [e.text for d in report.diagnoses for e in d.evidence] + [u.text for u in report.unexplained]
    if report.first_error is not None:
        texts.insert(0, report.first_error.text)
    for text in texts:
        m = _COMMAND.search(text.strip())
        if m:
            return fence(red.scrub((m.group("a") or m.group("b")).strip()), "bash")
    return "<!-- The exact command or script you ran (the log does not show it): please fill in. -->"


@functools.cache
def _references() -> dict[str, tuple[str, ...]]:
    """Each built-in KB entry's references (for the closest known issues)."""
    from troubleshooter.errors import KBError

    try:
        from troubleshooter.kb.cache import load_kb_cached

        kb, _derived = load_kb_cached()  # the engine's cache, written by the run that made the report
    except (KBError, OSError, ValueError):  # a draft without references beats no draft
        return {}
    return {e.id: tuple(r.url for r in e.references) for e in kb.entries}


def _checked(report: Report) -> str:
    rows: list[str] = []
    signature = [d for d in report.diagnoses if d.matched_by == "signature" and not d.cascade]
    if report.first_error is not None:
        rows.append(f"- No entry of trt-why's knowledge base explains line {report.first_error.line}.")
        similar = report.first_error.similar
        if similar:
            rows.append("- Closest known issues (resemblances, not diagnoses):")
            refs = _references()
            for s in similar:
                links = ", ".join(refs.get(s.id, ())[:2])
                rows.append(f"  - `{s.id}`: {s.title} (similarity {s.score:.0f}/100)" + (f"; see {links}" if links else ""))
        else:
            rows.append("- No known issue resembles it.")
    for d in signature[:3]:
        refs_d: Sequence[str] = d.references[:2]
        rows.append(f"- Matched `{d.id}`: {d.title} (confidence {d.confidence:.2f})"
                    + (f"; see {', '.join(refs_d)}" if refs_d else ""))
    if not rows:
        rows.append("- No known failure matched and no error line was found.")
    rows.append("\n_Checked with trt-why (`trt-why --format issue <log>`); its full report: `trt-why <log>`._")
    return "\n".join(rows)


def _fit(text: str) -> str:
    """At most `MAX_CHARS` characters (the excerpt's long lines were already cut; this is the last guard)."""
    if len(text) <= MAX_CHARS:
        return text
    note = "\n\n_(draft cut to fit GitHub's 65,536-character limit)_\n"
    return text[: MAX_CHARS - len(note)] + note
