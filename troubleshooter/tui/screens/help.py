"""The help screen: what each step does and every key binding of the app."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from troubleshooter.tui.keys import APP_BINDINGS

STEPS = [
    "Paste or open: paste a log anywhere (the diagnosis starts), type a path and press Enter, or Ctrl+O.",
    ("What we found (the tree): diagnoses ranked root cause first; later errors fold under their root; "
     "unexplained error lines carry the closest known issues, labelled as suggestions."),
    "Then the report's tabs, each on its key:",
    "  1 Why: causes of the selected diagnosis; its evidence is highlighted in the log view (n jumps, b returns).",
    "  2 Your version: advice for your TensorRT; when the log does not say, pick your release.",
    "  3 Fix it: the steps as a checklist (space ticks); c copies the command, r the polygraphy reduce command.",
    ("  4 Check the model: Tab to the ONNX path box (or press l), Enter lints it; findings on the nodes the log "
     "names come first."),
]
"""The walk-through as the help tells it: the numbers are the tab keys (1-4), nothing else is numbered."""


def binding_rows(groups: Iterable[tuple[str, Iterable[BindingType]]], key_display) -> list[Content]:  # type: ignore[no-untyped-def]
    rows: list[Content] = []
    for title, bindings in groups:
        rows.append(Content.styled(title, "bold $text-accent"))
        for b in bindings:
            if not isinstance(b, Binding) or not b.description:
                continue
            keys = " / ".join(key_display(Binding(k.strip(), b.action)) for k in b.key.split(","))
            rows.append(Content.assemble((f"  {keys:<22}", "bold"), b.tooltip or b.description))
        rows.append(Content(""))
    return rows


class HelpScreen(ModalScreen[None]):
    """Every binding, grouped by where it works."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f1,question_mark", "dismiss", "Close"),
    ]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical { width: 100; max-width: 100%; height: 90%; border: thick $primary; background: $surface; }
    HelpScreen #help-text { padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        from troubleshooter.tui.dialogs.export import ExportDialog
        from troubleshooter.tui.dialogs.open_file import OpenFileDialog
        from troubleshooter.tui.screens.entry import EntryScreen
        from troubleshooter.tui.screens.input import InputScreen
        from troubleshooter.tui.screens.report import ReportScreen
        from troubleshooter.tui.widgets.fixes import FixChecklist
        from troubleshooter.tui.widgets.log_view import LogView

        log_keys = [Binding(b.key, b.action, b.description) for b in LogView.BINDINGS if isinstance(b, Binding)]
        groups: list[tuple[str, Iterable[BindingType]]] = [
            ("Everywhere", APP_BINDINGS),
            ("Paste or open", InputScreen.BINDINGS),
            ("Report", ReportScreen.BINDINGS),
            ("Fix checklist", [*FixChecklist.BINDINGS, Binding("enter", "select", "Tick or untick the step")]),
            ("Log view (when focused)", log_keys),
            ("Open file dialog", OpenFileDialog.BINDINGS),
            ("Export dialog", ExportDialog.BINDINGS),
            ("Help and KB entries", EntryScreen.BINDINGS),
            ("Lists and trees", [Binding("up,down", "x", "Move"), Binding("enter", "x", "Choose / jump to the line"),
                                 Binding("tab,shift+tab", "x", "Next / previous pane")]),
        ]
        text = [Content.styled("trt-why: why did my TensorRT build fail?", "bold"), Content("")]
        text += [Content(s) for s in STEPS] + [Content("")]
        text += binding_rows(groups, self.app.get_key_display)
        with Vertical(), VerticalScroll():
            yield Static(Content("\n").join(text), id="help-text")
        yield Footer(compact=True)
