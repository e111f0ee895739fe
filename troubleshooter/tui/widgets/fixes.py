"""Fix it: the fix steps of the selected diagnosis as a checklist; each command copies with one key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Label, ListItem, ListView, Static

from troubleshooter.models import Diagnosis
from troubleshooter.render.fold import fit_code


@dataclass(frozen=True)
class Step:
    """One line of the checklist."""

    key: str
    """Stable id: '<fix>.<step>' or 'reduce'."""
    text: str
    code: str | None = None
    lang: str = "text"


def steps_of(diag: Diagnosis) -> list[tuple[str, list[Step]]]:
    """The checklist: (fix title, steps), the reduce command last."""
    out: list[tuple[str, list[Step]]] = []
    for i, fix in enumerate(diag.fixes, 1):
        steps: list[Step] = []
        if fix.detail:
            for j, st in enumerate(fix.detail, 1):
                cmd = st.command
                steps.append(Step(f"{i}.{j}", st.text, cmd.code if cmd else None, cmd.lang if cmd else "text"))
        else:
            steps = [Step(f"{i}.{j}", s) for j, s in enumerate(fix.steps, 1)]
        out.append((f"{i}. {fix.title}", steps))
    if diag.reduce_command:
        out.append(("Make a minimal repro", [Step(
            "reduce", "Bisect the model down to the smallest graph that still fails, to attach to a bug report.",
            diag.reduce_command, "bash")]))
    return out


COPIED_FOR = 3.0
"""Seconds a step says "copied" after its command went to the clipboard."""


class CodeBlock(Static):
    """A command or snippet, its long lines broken where they still run (render/fold.py) at the width it is
    given, never wrapped inside an argument or a string literal; what still does not fit is clipped."""

    def __init__(self, code: str, lang: str, *, classes: str | None = None) -> None:
        super().__init__(Content(code.rstrip("\n")), classes=classes)
        self.code = code.rstrip("\n")
        self.lang = lang
        self._width = 0

    def on_resize(self, event: events.Resize) -> None:
        width = self.content_size.width
        if width > 0 and width != self._width:
            self._width = width
            self.update(Content("\n".join(fit_code(self.code, self.lang, width))))


class StepItem(ListItem):
    """A step: a checkbox, the instruction, and its command (if any)."""

    DEFAULT_CSS = """
    StepItem { height: auto; padding: 0 1 1 1; layout: horizontal; }
    StepItem .step-box { width: auto; padding-right: 1; color: $text-accent; text-style: bold; }
    StepItem .step-body { width: 1fr; height: auto; }
    StepItem .step-text { width: 1fr; }
    StepItem .step-code { background: $boost; color: $text; padding: 0 1; text-wrap: nowrap; text-overflow: clip; }
    StepItem.-done .step-text { color: $text-muted; text-style: strike; }
    """

    def __init__(self, step: Step, done: bool) -> None:
        super().__init__(classes="-done" if done else "")
        self.step = step

    def compose(self) -> ComposeResult:
        yield Static(self._box(), classes="step-box")
        with Vertical(classes="step-body"):
            yield Static(self._text(), classes="step-text")
            if self.step.code:
                yield CodeBlock(self.step.code, self.step.lang, classes="step-code")

    def _text(self, copied: bool = False) -> Content:
        key = "" if self.step.key == "reduce" else f"{self.step.key} "
        if copied:
            return Content.assemble((key, "$text-muted"), self.step.text, ("  copied\u00a0✓", "bold $text-success"))
        hint = "  (c\u00a0copies)" if self.step.code else ""  # a hint never split over two lines
        return Content.assemble((key, "$text-muted"), self.step.text, (hint, "$text-muted"))

    def show_copied(self) -> None:
        """Say on the step itself that its command was copied (a toast would cover the checklist)."""
        text = self.query_one(".step-text", Static)
        text.update(self._text(copied=True))
        self.set_timer(COPIED_FOR, lambda: text.update(self._text()))

    def _box(self) -> Content:
        return Content("[x]" if self.has_class("-done") else "[ ]")

    @property
    def done(self) -> bool:
        return self.has_class("-done")

    def toggle(self) -> None:
        self.toggle_class("-done")
        self.query_one(".step-box", Static).update(self._box())


class FixTitle(ListItem):
    """The title of one fix (not selectable)."""

    DEFAULT_CSS = """
    FixTitle { height: auto; padding: 0 1; }
    FixTitle Label { text-style: bold; color: $text-accent; width: 1fr; }
    FixTitle:disabled { opacity: 1; }
    """

    def __init__(self, title: str) -> None:
        super().__init__(disabled=True)
        self.title = title

    def compose(self) -> ComposeResult:
        yield Label(Content(self.title))


class FixChecklist(ListView):
    """Space or Enter ticks a step; ``c`` copies the highlighted step's command (see the report screen)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("space", "toggle_step", "Done", show=False)]

    class StepToggled(Message):
        def __init__(self, key: str, done: bool) -> None:
            super().__init__()
            self.key = key
            self.done = done

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._done: dict[str, set[str]] = {}
        self._diag_id: str | None = None

    def show(self, diag: Diagnosis | None) -> None:
        self.clear()
        self._diag_id = diag.id if diag else None
        if diag is None:
            # A clean log (or nothing selected): say so instead of an empty pane.
            self.append(FixTitle("Nothing to fix: no known failure matched this log. Unexplained error lines, if "
                                 "any, are listed on the left with the closest known issues."))
            return
        done = self._done.setdefault(diag.id, set())
        items: list[ListItem] = []
        for title, steps in steps_of(diag):
            items.append(FixTitle(title))
            items += [StepItem(step, step.key in done) for step in steps]
        if not diag.fixes and not diag.reduce_command:
            items.append(FixTitle("No fix recorded for this entry."))
        self.extend(items)
        first = next((i for i, item in enumerate(items) if isinstance(item, StepItem)), None)
        if first is not None:
            self.call_after_refresh(setattr, self, "index", first)

    def item_of(self, step: Step) -> StepItem | None:
        return next((item for item in self.query(StepItem) if item.step == step), None)

    @property
    def current_step(self) -> Step | None:
        item = self.highlighted_child
        return item.step if isinstance(item, StepItem) else None

    def steps(self) -> list[StepItem]:
        return list(self.query(StepItem))

    def toggle_current(self) -> None:
        item = self.highlighted_child
        if isinstance(item, StepItem) and self._diag_id is not None:
            item.toggle()
            done = self._done.setdefault(self._diag_id, set())
            (done.add if item.done else done.discard)(item.step.key)
            self.post_message(self.StepToggled(item.step.key, item.done))

    def action_toggle_step(self) -> None:
        self.toggle_current()

    def on_list_view_selected(self, event: ListView.Selected) -> None:
        event.stop()
        self.toggle_current()
