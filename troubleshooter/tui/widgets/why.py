"""Why: the causes of the selected diagnosis, what decided it, and its evidence lines."""

from __future__ import annotations

from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from troubleshooter.models import Diagnosis, Report

CERTAINTY_STYLE = {
    "confirmed": "bold $text-success",
    "documented": "bold $text-primary",
    "reported": "$text-warning",
    "suggestion": "italic $text-secondary",
}
SEVERITY_STYLE = {"error": "bold $text-error", "warning": "bold $text-warning", "info": "bold $text-primary"}


def why_content(diag: Diagnosis | None, report: Report) -> Content:
    """The selected diagnosis explained: title, causes most likely first, clues, alternatives."""
    if diag is None:
        lines = [Content.styled("No known failure matched this log.", "bold")]
        if report.unexplained:
            lines.append(Content("Unexplained error lines are listed on the left with the closest known issues "
                                 "(suggestions, not verdicts)."))
        lines += [Content.styled(f"note: {n}", "$text-muted") for n in report.notes]
        return Content("\n").join(lines)
    parts: list[Content] = [
        Content.assemble((diag.severity.upper(), SEVERITY_STYLE[diag.severity]), " ",
                         (diag.title, "bold"), (f"  {diag.confidence:.0%} · {diag.id}", "$text-muted")),
        Content(""),
        Content.styled("Causes, most likely first", "bold $text-accent"),
    ]
    details = diag.cause_details or []
    if details:
        for i, cause in enumerate(details, 1):
            parts.append(Content.assemble(f"{i}. ", (f"[{cause.certainty}] ", CERTAINTY_STYLE.get(cause.certainty, "")),
                                          cause.text))
    else:
        parts += [Content(f"{i}. {c}") for i, c in enumerate(diag.causes, 1)]
    if diag.clues:
        parts += [Content(""), Content.styled("What decided it", "bold $text-accent")]
        parts += [Content.styled(f"· {c}", "$text-muted") for c in diag.clues]
    if diag.consequences:
        later = diag.consequences
        span = f"line {later[0]}" if len(later) == 1 else f"lines {later[0]}–{later[-1]}"
        parts += [Content(""), Content(f"{len(later)} later error(s) ({span}) are consequences of this one.")]
    if diag.alternatives:
        parts += [Content(""), Content.styled("The same lines also point to", "bold $text-accent")]
        parts += [Content.assemble("· ", (alt.title, ""), (f"  {alt.confidence:.0%} · {alt.id}", "$text-muted"))
                  for alt in diag.alternatives]
    return Content("\n").join(parts)


class WhyText(Static):
    """The explanation of the selected diagnosis."""

    def show(self, diag: Diagnosis | None, report: Report) -> None:
        self.update(why_content(diag, report))


class EvidenceList(OptionList):
    """The evidence lines of the selected diagnosis; choosing one jumps the log view to it."""

    class Chosen(Message):
        def __init__(self, line: int) -> None:
            super().__init__()
            self.line = line

    def show(self, diag: Diagnosis | None) -> None:
        self.clear_options()
        if diag is None:
            return
        for ev in diag.evidence:
            style = "bold $text-error" if ev.role == "trigger" else "$text-warning"
            prompt = Content.assemble((f"line {ev.line:<6}", "$text-muted"), (f"{ev.role:<8} ", style),
                                      ev.text.strip())
            self.add_option(Option(prompt, id=f"ev-{ev.line}-{ev.signature}"))
        if self.option_count:
            self.highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.Chosen(int(event.option.id.split("-")[1])))
