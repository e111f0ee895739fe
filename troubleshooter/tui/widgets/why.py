"""Why: the causes of the selected diagnosis, what decided it, and its evidence lines."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from troubleshooter.models import Diagnosis, Report
from troubleshooter.render.words import consequences
from troubleshooter.tui.widgets.text import Bullet, Heading

CERTAINTY_STYLE = {
    "confirmed": "bold $text-success",
    "documented": "bold $text-primary",
    "reported": "$text-warning",
    "suggestion": "italic $text-secondary",
}
SEVERITY_STYLE = {"error": "bold $text-error", "warning": "bold $text-warning", "info": "bold $text-primary"}


class WhyPanel(VerticalScroll):
    """The explanation of the selected diagnosis: causes most likely first, what decided it, alternatives."""

    DEFAULT_CSS = """
    WhyPanel { padding: 0 1; }
    WhyPanel > .why-title { height: auto; }
    """

    def __init__(self, diag: Diagnosis | None = None, report: Report | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._diag = diag
        self._report = report
        """Given here, the first report is composed once, when the panel is mounted (not composed empty, then
        again: the first report comes up sooner)."""

    def show(self, diag: Diagnosis | None, report: Report) -> None:
        if self.is_mounted and diag is self._diag and report is self._report:
            return  # composed with them already
        self._diag, self._report = diag, report
        self.refresh(recompose=True)
        self.scroll_home(animate=False)

    def compose(self) -> ComposeResult:
        diag, report = self._diag, self._report
        if report is None:
            return
        if diag is None:
            yield Static(Content.styled("No known failure matched this log.", "bold"), classes="why-title")
            if report.unexplained:
                yield Static(Content("Unexplained error lines are listed on the left with the closest known issues "
                                     "(suggestions, not verdicts)."))
            for note in report.notes:
                yield Bullet(Content.styled("note", "$text-muted"), Content(note))
            return
        yield Static(Content.assemble((diag.severity.upper(), SEVERITY_STYLE[diag.severity]), " ", (diag.title, "bold"),
                                      (f"  {diag.confidence:.0%} · {diag.id}", "$text-muted")), classes="why-title")
        yield Heading(Content("Causes, most likely first"))
        if diag.cause_details:
            for i, cause in enumerate(diag.cause_details, 1):
                yield Bullet(Content(f"{i}."), Content.assemble(
                    (f"[{cause.certainty}] ", CERTAINTY_STYLE.get(cause.certainty, "")), cause.text))
        else:
            for i, line in enumerate(diag.causes, 1):
                yield Bullet(Content(f"{i}."), Content(line))
        later = consequences(diag)
        if later:
            span = f"line {later[0]}" if len(later) == 1 else f"lines {later[0]}–{later[-1]}"
            yield Heading(Content("Then"))
            yield Bullet(Content("↳"), Content(f"{len(later)} later error(s) ({span}) are consequences of this one; "
                                               "they are folded under it on the left."))
        if diag.clues:
            yield Heading(Content("What decided it"))
            for clue in diag.clues:
                yield Bullet(Content.styled("·", "$text-muted"), Content.styled(clue, "$text-muted"))
        if diag.alternatives:
            yield Heading(Content("The same lines also point to"))
            for alt in diag.alternatives:
                yield Bullet(Content("·"), Content.assemble(alt.title, (f"  {alt.confidence:.0%} · {alt.id}", "$text-muted")))


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

    def follow(self, line: int) -> None:
        """Highlight the evidence on ``line`` (the log view's cursor moved there: n, p, b, a click)."""
        index = next((i for i in range(self.option_count)
                      if (self.get_option_at_index(i).id or "").startswith(f"ev-{line}-")), None)
        if index is not None and index != self.highlighted:
            self.highlighted = index

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.Chosen(int(event.option.id.split("-")[1])))
