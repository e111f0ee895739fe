"""Step 1, paste or open: the paste area, a path box and the Ctrl+O file dialog."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Button, Header, Input, Static

from troubleshooter.tui.jobs import LogRequest
from troubleshooter.tui.messages import DiagnoseRequested
from troubleshooter.tui.widgets.footer import AppFooter
from troubleshooter.tui.widgets.paste import PasteArea
from troubleshooter.tui.widgets.status import RunStatus

INTRO = Content.assemble(
    ("Paste a TensorRT build log ", "bold"), "(trtexec, the Python API, Polygraphy, Torch-TensorRT...) below: ",
    "the diagnosis starts on paste. Or type a log's path and press Enter, or press ",
    ("Ctrl+O", "bold $text-accent"), " to pick a file. Big logs are fine: the work runs in the background.",
)


class InputScreen(Screen[None]):
    """Where a log comes in. A paste starts the diagnosis; a new paste replaces a running one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "diagnose", "Diagnose", priority=True),
        Binding("ctrl+o", "app.open_file", "Open file", priority=True),
        Binding("ctrl+l", "clear", "Clear", priority=True),
        Binding("ctrl+g", "app.show_report", "Report", priority=True),
    ]

    def __init__(self, text: str = "", path: str = "") -> None:
        super().__init__()
        self._text = text
        self._path = path

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="input-body"):
            yield Static(INTRO, id="intro")
            yield PasteArea(self._text, id="paste")
            yield Static("", id="paste-note")
            with Horizontal(id="path-row"):
                yield Input(self._path, placeholder="or a log's path, .gz too (Enter opens it)", id="path")
                yield Button("Open…", id="open")
                yield Button("Diagnose", variant="primary", id="diagnose")
        yield RunStatus()
        yield AppFooter()

    def on_mount(self) -> None:
        self.query_one(PasteArea).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "show_report":
            return getattr(self.app, "report", None) is not None
        return True

    # --- what starts a diagnosis --------------------------------------------------------------
    def on_paste_area_pasted(self, event: PasteArea.Pasted) -> None:
        note = self.query_one("#paste-note", Static)
        if event.large:
            lines = event.text.count("\n") + (not event.text.endswith("\n"))  # as the report counts them
            note.update(Content.styled(
                f"Large paste: {len(event.text) / 1e6:.1f} MB, {lines:,} lines, kept out of the editor "
                "(it shows in the log view). Typing here replaces it.", "$text-warning"))
            note.add_class("-shown")
        else:
            note.remove_class("-shown")
        self.post_message(DiagnoseRequested(LogRequest(text=event.text)))

    def on_paste_area_file_dropped(self, event: PasteArea.FileDropped) -> None:
        self.query_one("#path", Input).value = event.path
        self.post_message(DiagnoseRequested(LogRequest(path=event.path)))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.open_path(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "open":
            self.app.action_open_file()  # type: ignore[attr-defined]
        else:
            self.action_diagnose()

    def open_path(self, value: str) -> None:
        path = value.strip()
        if path:
            self.query_one("#path", Input).value = path
            self.post_message(DiagnoseRequested(LogRequest(path=path)))

    def action_diagnose(self) -> None:
        """Diagnose what is in the paste area (or, when it is empty, the path in the path box)."""
        area = self.query_one(PasteArea)
        text = area.log_text
        if text.strip():
            self.post_message(DiagnoseRequested(LogRequest(text=text)))
        elif self.query_one("#path", Input).value.strip():
            self.open_path(self.query_one("#path", Input).value)
        else:
            self.notify("Paste a log first (or type its path).", severity="warning")

    def action_clear(self) -> None:
        """Empty the paste area (Ctrl+L; Ctrl+N on the report screen comes back here through it)."""
        self.query_one(PasteArea).clear_all()
        self.query_one("#paste-note", Static).remove_class("-shown")
        self.query_one(PasteArea).focus()
