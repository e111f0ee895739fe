"""A KB entry as a reader sees it, without a log: `trt-why kb show ID` (text, Markdown) and the TUI's KB browser.

The report's words and layout, applied to the entry itself: its title and severity, what it is, where
it applies, the causes with their certainty, the advice per range of TensorRT releases, the fixes with
their commands, what would decide, the lint rules that confirm it on a model, how it is recognised (the
signatures' notes, never their regexes) and its references. Placeholders the log would fill read as
‹name›; `trt-why kb show ID --format yaml` prints the entry as written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from troubleshooter.core.advice import PLATFORM_NAMES
from troubleshooter.core.ranking import CERTAINTY_LABEL
from troubleshooter.render import words
from troubleshooter.render.text import Line, layout

if TYPE_CHECKING:
    from troubleshooter.kb.schema import Entry, FixSpec, Step


def _prose(text: str) -> str:
    return words.kb_prose(" ".join(text.split()))


def _code(code: str) -> str:
    return words.kb_prose(code.rstrip("\n"))


def _for_whom(item: FixSpec | Step) -> str:
    """'(TensorRT from 8.4, before 11; Windows) ' for a gated fix or step, '' for an ungated one."""
    parts = []
    if item.versions:
        parts.append(f"TensorRT {words.version_range(item.versions)}")
    if item.platforms:
        parts.append(" / ".join(PLATFORM_NAMES[p] for p in item.platforms))
    if item.front_ends:
        parts.append(" / ".join(item.front_ends))
    return f"({'; '.join(parts)}) " if parts else ""


def applies(entry: Entry) -> str:
    """Where the entry applies, in words ('TensorRT from 8.0, before 9.2 · INT8'), or '' when everywhere."""
    parts = []
    if entry.applies.trt:
        parts.append(f"TensorRT {words.version_range(entry.applies.trt)}")
    if entry.applies.platforms:
        parts.append(" / ".join(PLATFORM_NAMES[p] for p in entry.applies.platforms))
    if entry.applies.precisions:
        parts.append(" / ".join(p.upper() for p in entry.applies.precisions))
    return " · ".join(parts)


def entry_lines(entry: Entry) -> list[Line]:
    """The entry as the text report's lines (see render.text.layout)."""
    out = [Line("head", entry.title, severity=entry.severity, tail=entry.id)]

    def row(label: str, text: str) -> Line:
        return Line("row", " ".join(text.split()), label=label)

    if entry.summary:
        out.append(row("what", _prose(entry.summary)))
    if applies(entry):
        out.append(row("applies", applies(entry)))
    for i, cause in enumerate(entry.causes, 1):
        out.append(row("why" if i == 1 else "", f"{i}. {_prose(cause.text)} [{CERTAINTY_LABEL[cause.certainty]}]"))
    for i, adv in enumerate(entry.version_advice):
        status = words.STATUS_WORDS.get(adv.status, adv.status)
        out.append(row("versions" if i == 0 else "",
                       f"TensorRT {words.version_range(adv.versions)} ({status}): "
                       f"{words.after_status(_prose(adv.text))}"))
    n = 0
    for fix in entry.fixes:
        out.append(row("fix" if n == 0 else "", f"— {_for_whom(fix)}{fix.title}"))
        for step in fix.steps:
            n += 1
            out.append(row("", f"{n}. {_for_whom(step)}{_prose(step.text)}"))
            if step.code:
                out.append(Line("code", _code(step.code), lang=(step.lang or "text")))
    for i, ask in enumerate(entry.asks):
        out.append(row("unknown" if i == 0 else "", ("would decide: " if i == 0 else "") + ask))
    if entry.lint:
        out.append(row("model", f"lint rules that confirm it: {', '.join(entry.lint)} "
                                f"(trt-why build.log --model model.onnx)"))
    notes = [s.note for s in entry.match.signatures if s.role == "trigger" and s.note]
    for i, note in enumerate(notes):
        out.append(row("seen as" if i == 0 else "", note))
    for i, ref in enumerate(entry.references):
        out.append(row("see" if i == 0 else "", ref.url + (f" ({ref.title})" if ref.title else "")))
    out += [Line("blank"), Line("menu", f"More: trt-why kb show {entry.id} --format yaml"
                                        f" · trt-why kb explain {entry.id} build.log", style="dim")]
    return out


def render_entry_text(entry: Entry, colour: bool = False, width: int | None = None) -> str:
    """`trt-why kb show ID`: the entry laid out as the text report (fitted to `width` columns when given)."""
    return layout(entry_lines(entry), width=width, colour=colour)


def entry_markdown(entry: Entry) -> str:
    """The entry in Markdown (`trt-why kb show ID --format markdown`, the TUI's KB browser)."""
    md = [f"# {entry.title}", "", f"`{entry.id}` · **{entry.severity}** · " + " ".join(f"`{t}`" for t in entry.tags)]
    if entry.summary:
        md += ["", _prose(entry.summary)]
    if applies(entry):
        md += ["", f"Applies to: {applies(entry)}"]
    md += ["", "## Causes"]
    md += [f"{i}. *{CERTAINTY_LABEL[c.certainty]}*: {_prose(c.text)}" for i, c in enumerate(entry.causes, 1)]
    if entry.version_advice:
        md += ["", "## Version advice"]
        md += [f"- TensorRT {words.version_range(a.versions)}: **{words.STATUS_WORDS.get(a.status, a.status)}**. "
               f"{words.after_status(_prose(a.text))}" for a in entry.version_advice]
    if entry.fixes:
        md += ["", "## Fixes"]
        for i, fix in enumerate(entry.fixes, 1):
            md += ["", f"**{i}. {_for_whom(fix)}{fix.title}**", ""]
            for step in fix.steps:
                md.append(f"- {_for_whom(step)}{_prose(step.text)}")
                if step.code:
                    md += ["", f"  ```{step.lang or 'text'}", *("  " + ln for ln in _code(step.code).splitlines()),
                           "  ```", ""]
    if entry.asks:
        md += ["", "## What would decide", *(f"- {a}" for a in entry.asks)]
    if entry.lint:
        md += ["", "## On the model", f"Lint rules that confirm it: {', '.join(f'`{r}`' for r in entry.lint)}"]
    md += ["", "## How it is recognised"]
    for sig in entry.match.signatures:
        note = f": {sig.note}" if sig.note else ""
        md.append(f"- *{sig.role}* `{sig.id}`{note}")
    if entry.references:
        md += ["", "## References"]
        md += [f"- {r.url}" + (f" ({r.title})" if r.title else "") for r in entry.references]
    return "\n".join(md)
