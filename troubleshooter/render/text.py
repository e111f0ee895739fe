"""The terminal report: what broke, the proof, why, what it means for this version, the next command.

The report is built as a list of `Line`s (a heading, labelled rows, commands, plain lines), then laid
out in one of two ways:

- `width=None` (piped, redirected, a program reads it): plain text, one line per paragraph, nothing
  cut or wrapped by us and no ANSI codes, unless colour is asked for (FORCE_COLOR);
- `width=N` (a terminal): fitted to N columns by rich (wrapped at spaces under a hanging label,
  coloured unless NO_COLOR). Commands are never wrapped or cut, so they stay copyable.

rich is imported only for the second (start-up of a piped run stays light); without rich, the
terminal layout falls back to textwrap, without colour.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from troubleshooter.models import Diagnosis, Environment, Report
from troubleshooter.render import words
from troubleshooter.render.fold import fit_code
from troubleshooter.render.words import headline

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

__all__ = ["LABEL", "Line", "headline", "layout", "render_text", "render_text_many"]

_ICON = {"error": "✖ error  ", "warning": "⚠ warning", "info": "ⓘ info   "}
_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold cyan"}
LABEL = 12
"""Columns before a row's text: two spaces, the label, padding."""
CODE_INDENT = LABEL + 3
MENU_SEP = " · "
"""Between the commands of a `menu` line: a terminal line breaks only there, never inside a command."""
CUT_AT = 160
"""A secondary evidence line is cut here when piped (the first one is always whole)."""


@dataclass(frozen=True)
class Line:
    """One element of the report, before layout."""

    kind: Literal["head", "row", "code", "plain", "blank", "menu"]
    text: str = ""
    label: str = ""
    style: str = ""
    cut: bool = False
    """A row whose text is cut (with …) to fit, rather than wrapped: secondary evidence."""
    severity: str = ""
    tail: str = ""
    """For a heading: the entry id and the confidence, dimmed after the title."""
    lang: str = ""
    """For code: its language, which says where a long line may break and still run (render/fold.py)."""


def _row(label: str, text: str, cut: bool = False) -> Line:
    return Line("row", " ".join(text.split()), label=label, cut=cut)


def _code(code: str, lang: str = "bash") -> list[Line]:
    """A command or snippet: one Line for the block (a terminal layout breaks its long lines where they still run)."""
    return [Line("code", code.rstrip("\n"), lang=lang)]


def _evidence_lines(d: Diagnosis, limit: int, lines_in_log: int, full: bool = False) -> list[Line]:
    """The trigger lines: the first one (every one with -v) whole, the others cut to fit."""
    shown = [e for e in d.evidence if e.role == "trigger"][:limit]
    out = [Line("row", e.text.strip(), label=f"line {e.line}", cut=not (i == 0 or full)) for i, e in enumerate(shown)]
    extra = words.trigger_lines(d, lines_in_log) - len(shown)
    if extra > 0:
        out.append(_row("", f"(+{words.plural(extra, 'more line')} like this)"))
    return out


_MAX_FORMS = 2
"""Forms of one step shown after its first (another release, another platform) without -v."""
_FOR_WHOM = re.compile(r"\((?:TensorRT [^)]*|Linux|Windows|WSL|Jetson)[^)]*\) ")
"""The label a step carries when the log does not say whether it applies (advice: the releases and platforms)."""


def _fix_lines(d: Diagnosis, max_steps: int = 3, full: bool = False) -> list[Line]:
    out: list[Line] = []
    n = 0
    # Without -v: the first steps, up to `max_steps`, read on into the next fix when the first has fewer steps
    # (a one-step remedy is followed by the next way out, not by nothing).
    for fix in d.fixes:
        if not full and n >= max_steps:
            break
        if full:
            out.append(_row("", f"— {fix.title}"))
        shown_here = forms = hidden = 0
        labels: set[str] = set()
        for step in fix.detail:
            m = _FOR_WHOM.match(step.text)
            label = m.group(0) if m else None
            # Steps labelled for other releases or platforms, one after another, are one step in several forms
            # (the log does not say which applies): one number, each form after "or". The same label again is
            # another step for the same users.
            alternative = label is not None and shown_here > 0 and bool(labels) and label not in labels
            labels = set() if label is None else (labels | {label}) if alternative else {label}
            if not full and not alternative and n >= max_steps:
                break
            if alternative:
                forms += 1
                if not full and forms > _MAX_FORMS:
                    hidden += 1
                    continue
                out.append(_row("", f"   or {step.text}"))
            else:
                if hidden:
                    out.append(_row("", f"   (+{words.plural(hidden, 'other form')}: trt-why -v)"))
                forms = hidden = 0
                n += 1
                shown_here += 1
                out.append(_row("fix" if n == 1 else "", f"{n}. {step.text}"))
            if step.command:
                code = words.fill_blanks(step.command.code, step.command.lang).splitlines()
                shown = code if full else code[:8]
                out += _code("\n".join(shown), step.command.lang)
                if len(code) > len(shown):
                    out += _code(f"(+{words.plural(len(code) - len(shown), 'more line')}: trt-why -v)", "text")
        if hidden:
            out.append(_row("", f"   (+{words.plural(hidden, 'other form')}: trt-why -v)"))
    return out


def render_diagnosis(d: Diagnosis, primary: bool, full: bool = False, lines_in_log: int = 0,  # noqa: C901, PLR0912  # one branch per optional part of a diagnosis
                     env: Environment | None = None) -> list[Line]:
    out = [Line("head", d.title, severity=d.severity, tail=f"{d.id}  {d.confidence:.2f}")]
    out += _evidence_lines(d, 3 if primary else 1, lines_in_log, full)
    for label, vals in words.capture_lists(d):
        out.append(_row("", words.capture_sentence(label, vals)))
    if d.causes:
        out.append(_row("why", d.causes[0]))
        if full:
            out += [_row("or", cause) for cause in d.causes[1:]]
        elif primary and len(d.causes) > 1:
            others = words.plural(len(d.causes) - 1, "other possible cause")
            out.append(_row("", f"(+{others}: trt-why -v, or --format markdown)"))
    advice = words.version_summary(d)
    if advice:
        out.append(_row("you", advice))
    if full and d.version_status is None:
        for adv in d.version_advice_all:
            status = words.STATUS_WORDS.get(adv.status, adv.status)
            out.append(_row("", f"TensorRT {words.version_range(adv.versions)} ({status}): {adv.text}"))
    if d.model_verdict and d.model_verdict_reason:
        out.append(_row("model", d.model_verdict_reason))
    if primary:
        out += _fix_lines(d, full=full)
        if d.reduce_command:
            out.append(_row("repro", "minimal model that still fails:"))
            out += _code(d.reduce_command)
    elif d.fixes:
        out.append(_row("fix", d.fixes[0].title))
    clues = words.clues(d)
    if clues and primary:
        out.append(_row("clues", "; ".join(clues if full else clues[:2])))
    if d.alternatives:
        alts = ", ".join(f"{a.id} ({a.confidence:.2f})" for a in d.alternatives)
        out.append(_row("also", f"the same lines could be: {alts}"))
    asks = words.open_asks(d, env or Environment())
    if asks and primary:
        out.append(_row("unknown", "would decide: " + asks[0]))
    for f in d.model_findings[:3]:
        out.append(_row("", f"{f.level} {f.rule}: {f.message}"))
    later_lines = words.consequences(d)
    if later_lines:
        span = f"{later_lines[0]}–{later_lines[-1]}" if len(later_lines) > 1 else str(later_lines[0])
        later = words.plural(len(later_lines), "later error line")
        lines = "line" if len(later_lines) == 1 else "lines"
        verb = "is a consequence" if len(later_lines) == 1 else "are consequences"
        out.append(_row("then", f"{later} ({lines} {span}) {verb} of this one."))
    return out


def render_first_error(report: Report) -> list[Line]:
    """The root as far as the log shows: the first error line no KB entry explains, in full."""
    u = report.first_error
    assert u is not None
    out = [Line("head", "First error, not in the knowledge base", severity="error"),
           Line("row", u.text.strip(), label=f"line {u.line}")]
    if u.count > 1:
        out.append(_row("", f"(x{u.count} in the log)"))
    if u.similar:
        sims = ", ".join(f"{s.id} ({s.score:.0f})" for s in u.similar)
        out.append(_row("similar", f"suggestions, not a diagnosis: {sims} (trt-why kb show ID)"))
    for n, step in enumerate(u.next_steps, 1):
        out.append(_row("next" if n == 1 else "", f"{n}. {step.text}"))
        if step.command:
            out += _code(step.command.code, step.command.lang)
    cascade = [d for d in report.diagnoses if d.cascade and d.severity == "error"]
    lines = sorted({e.line for d in cascade for e in d.evidence if e.line > u.line})
    if lines:
        span = f"{lines[0]}–{lines[-1]}" if len(lines) > 1 else str(lines[0])
        names = ", ".join(d.id for d in cascade)
        count = words.plural(len(lines), "line")
        out.append(_row("then", f"later errors follow from it: {count} ({'line' if len(lines) == 1 else 'lines'} "
                                f"{span}; {names})."))
    return out


def report_lines(report: Report, verbose: bool = False) -> list[Line]:
    lines = [Line("plain", headline(report), style="bold"), Line("blank")]
    lead = report.first_error
    if lead is not None:
        lines += render_first_error(report)
        lines.append(Line("blank"))
    elif not report.diagnoses:
        if report.unexplained:
            lines.append(Line("plain", "No known failure matched. Error lines trt-why cannot explain:"))
        elif report.environment.build_succeeded:
            lines.append(Line("plain", "No known failure: the build succeeded, nothing here needs action."))
        else:
            lines.append(Line("plain", "No known failure and no error line found."))
    # Under an unexplained root, generic consequences (build failed, crashed) were said in one line.
    shown = [d for d in report.diagnoses if not (lead is not None and d.cascade and d.severity == "error")]
    for i, d in enumerate(shown):
        primary = i == 0 or verbose or d.severity == "error"
        lines += render_diagnosis(d, primary=primary, full=verbose, lines_in_log=report.source.lines,
                                  env=report.environment)
        lines.append(Line("blank"))
    rest = [u for u in report.unexplained if lead is None or u.line != lead.line]
    if rest:
        if report.diagnoses or lead is not None:
            lines.append(Line("plain", "Other error lines no diagnosis explains:" if lead is not None else
                              "Error lines no diagnosis explains:"))
        for u in rest[:6]:
            count = f" (x{u.count})" if u.count > 1 else ""
            lines.append(Line("row", u.text.strip(), label=f"line {u.line}{count}", cut=True))
            if u.similar:
                sims = ", ".join(f"{s.id} ({s.score:.0f})" for s in u.similar)
                lines.append(_row("", f"suggestion, not a diagnosis: closest known issues: {sims}"))
        lines.append(Line("blank"))
    lines += [Line("plain", f"note: {note}", style="dim") for note in words.shown_notes(report)]
    name = report.source.name if not report.source.name.startswith("<") else "build.log"
    more = f"More: trt-why --format markdown {name}{MENU_SEP}trt-why tui {name}{MENU_SEP}trt-why lint model.onnx"
    lines.append(Line("menu", more, style="dim"))
    return lines


def render_text(report: Report, colour: bool = False, verbose: bool = False, width: int | None = None) -> str:
    """The report; `width`: fit a terminal of that many columns (None: one line per paragraph)."""
    return layout(report_lines(report, verbose), width=width, colour=colour)


def render_text_many(reports: Sequence[Report], colour: bool = False, verbose: bool = False,
                     width: int | None = None) -> str:
    """Several reports, one after the other, a blank line between two."""
    return "\n".join(render_text(r, colour=colour, verbose=verbose, width=width) for r in reports)


# --- layout -------------------------------------------------------------------------------------


def _label(label: str) -> str:
    return "  " + (label.ljust(LABEL - 2) if len(label) < LABEL - 2 else label + " ")


def _plain(lines: list[Line]) -> str:
    out = []
    for x in lines:
        if x.kind == "head":
            out.append(f"{_ICON[x.severity]} {x.text}" + (f"  {x.tail}" if x.tail else ""))
        elif x.kind == "row":
            text = x.text if not x.cut or len(x.text) <= CUT_AT else x.text[: CUT_AT - 1] + "…"
            out.append(_label(x.label) + text)
        elif x.kind == "code":
            out += [" " * CODE_INDENT + c for c in x.text.split("\n")]
        else:
            out.append(x.text)
    return "\n".join(out).rstrip() + "\n"


def layout(lines: list[Line], width: int | None = None, colour: bool = False) -> str:
    """Lay `lines` out: plain when `width` is None and there is no colour, else through rich."""
    if width is None and not colour:
        return _plain(lines)
    try:
        from rich.console import Console
    except ImportError:  # the base install: no rich, no colour; wrap with the standard library
        return _wrapped_plain(lines, width)
    console = Console(width=width or 100_000, force_terminal=colour, no_color=not colour,
                      color_system="standard" if colour else None, highlight=False, emoji=False, markup=False,
                      legacy_windows=False, _environ={})
    return _rich(lines, console, width)


def _rich(lines: list[Line], console: Console, width: int | None) -> str:
    from rich.text import Text

    def wrap(text: Text, room: int) -> list[Text]:
        if width is None:
            return [text]
        return list(text.wrap(console, max(room, 20), overflow="fold")) or [Text("")]

    out: list[Text] = []
    for x in lines:
        if x.kind == "head":
            icon = Text(_ICON[x.severity] + " ", style=_STYLE[x.severity])
            tail = Text(x.tail, style="dim")
            pad = len(icon)
            title = wrap(Text(x.text, style="bold"), (width or 0) - pad)
            first = True
            for part in title:
                out.append(Text.assemble(icon if first else " " * pad, part))
                first = False
            if x.tail:
                last = out[-1]
                if width is None or len(last) + 2 + len(tail) <= width:
                    last.append("  ")
                    last.append_text(tail)
                else:
                    out.append(Text.assemble(" " * pad, tail))
        elif x.kind == "row":
            head = _label(x.label)
            body = Text(x.text)
            if x.cut and width is not None and len(x.text) > width - len(head):
                body.truncate(width - len(head), overflow="ellipsis")
                parts = [body]
            else:
                parts = wrap(body, (width or 0) - len(head))
            out.append(Text.assemble((head, "dim"), parts[0]))
            out += [Text.assemble(" " * len(head), p) for p in parts[1:]]
        elif x.kind == "code":
            out += [Text(" " * CODE_INDENT + c, style="bold") for c in _fit_code(x, width)]
        elif x.kind == "blank":
            out.append(Text(""))
        elif x.kind == "menu":
            out += [Text(part, style=x.style) for part in _menu(x.text, width)]
        else:
            out += wrap(Text(x.text, style=x.style), width or 0)
    with console.capture() as cap:
        console.print(Text("\n").join(out), soft_wrap=True, end="")
    text = "\n".join(line.rstrip() for line in cap.get().split("\n"))
    return text.rstrip() + "\n"


def _fit_code(line: Line, width: int | None) -> list[str]:
    """A code block's lines, long ones broken where they still paste and run (render/fold.py)."""
    return fit_code(line.text, line.lang, None if width is None else width - CODE_INDENT)


def _menu(text: str, width: int | None) -> list[str]:
    """Commands separated by MENU_SEP, packed into lines of `width`; a command too long for a line is broken
    between its arguments with a shell continuation (it still pastes and runs), never elsewhere."""
    if width is None:
        return [text]
    out: list[str] = []
    parts = text.split(MENU_SEP)
    head = ""
    if parts[0].startswith("More: "):
        head, parts[0] = "More: ", parts[0][len("More: "):]
    pad = " " * len("More: ")
    for part in parts:
        if out and not out[-1].endswith("\\") and len(out[-1]) + len(MENU_SEP) + len(part) <= width:
            out[-1] += MENU_SEP + part
            continue
        lines = fit_code(part, "bash", width - len(pad))
        out.append((pad if out else head) + lines[0])
        out += [pad + x for x in lines[1:]]
    return out


def _wrapped_plain(lines: list[Line], width: int | None) -> str:
    if width is None:
        return _plain(lines)
    out = []

    def wrap(text: str, room: int) -> list[str]:
        return textwrap.wrap(text, max(room, 20), break_on_hyphens=False) or [""]

    for x in lines:
        if x.kind == "head":
            tail = f"  {x.tail}" if x.tail else ""
            parts = wrap(x.text + tail, width - 10)
            out += [(_ICON[x.severity] + " " if i == 0 else " " * 10) + p for i, p in enumerate(parts)]
        elif x.kind == "row":
            head = _label(x.label)
            room = width - len(head)
            cut = [x.text if len(x.text) <= room else x.text[: room - 1] + "…"]
            parts = cut if x.cut else wrap(x.text, room)
            out += [(head if i == 0 else " " * len(head)) + p for i, p in enumerate(parts)]
        elif x.kind == "code":
            out += [" " * CODE_INDENT + c for c in _fit_code(x, width)]
        elif x.kind == "blank":
            out.append("")
        elif x.kind == "menu":
            out += _menu(x.text, width)
        else:
            out += wrap(x.text, width)
    return "\n".join(out).rstrip() + "\n"



