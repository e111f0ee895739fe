"""Export the report to a file, in one of the formats the registry offers for it (Markdown, JSON, the issue draft)."""

from __future__ import annotations

import os
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, RadioButton, RadioSet, Static

from troubleshooter.render import formats

FORMATS = {f.name: f.suffix for f in formats.exportable()}
"""Format name -> file suffix, in the order offered (read from `troubleshooter.render.formats`)."""
_LABELS = {f.name: f.label for f in formats.exportable()}


class ExportDialog(ModalScreen[tuple[str, str] | None]):
    """Returns (format, path), or None when cancelled. An existing file is replaced only on a second Enter."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("ctrl+f", "toggle_format", "/".join(_LABELS.values()), priority=True),
    ]

    DEFAULT_CSS = """
    ExportDialog { align: center middle; }
    ExportDialog > Vertical { width: 80; max-width: 100%; height: auto; max-height: 100%; border: thick $primary;
                              background: $surface; padding: 0 1; }
    ExportDialog RadioSet { width: 1fr; layout: horizontal; }
    ExportDialog #export-row { height: auto; }
    ExportDialog #export-path { width: 1fr; }
    ExportDialog #export-note { height: auto; color: $text-warning; }
    """

    def __init__(self, stem: str = "trt-why-report", fmt: str | None = None) -> None:
        super().__init__()
        self._stem = stem
        self._fmt = fmt if fmt in FORMATS else next(iter(FORMATS))
        self._confirm: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Content.styled("Export the report", "bold"))
            with RadioSet(id="export-format"):
                for name, label in _LABELS.items():
                    yield RadioButton(label, value=self._fmt == name, id=f"fmt-{name}")
            with Horizontal(id="export-row"):
                yield Input(self._stem + FORMATS[self._fmt], id="export-path")
                yield Button("Save", variant="primary", id="export-ok")
                yield Button("Cancel", id="export-cancel")
            yield Static("", id="export-note")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#export-path", Input).focus()

    @property
    def fmt(self) -> str:
        """The chosen format's name."""
        return self._fmt

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        event.stop()
        if event.pressed.id:
            self._fmt = event.pressed.id.removeprefix("fmt-")
        self._set_suffix()

    def action_toggle_format(self) -> None:
        """The next format (the last one wraps round to the first)."""
        names = list(FORMATS)
        self._fmt = names[(names.index(self._fmt) + 1) % len(names)]
        self.query_one(f"#fmt-{self._fmt}", RadioButton).value = True
        self._set_suffix()

    def _set_suffix(self) -> None:
        box = self.query_one("#export-path", Input)
        root, ext = os.path.splitext(box.value)
        if ext in FORMATS.values():
            box.value = root + FORMATS[self.fmt]
        self._confirm = None

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._save()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "export-ok":
            self._save()
        else:
            self.dismiss(None)

    def action_save(self) -> None:
        self._save()

    def _save(self) -> None:
        path = os.path.expanduser(self.query_one("#export-path", Input).value.strip())
        note = self.query_one("#export-note", Static)
        if not path:
            note.update("Type a file name.")
            return
        if os.path.isdir(path):
            note.update(Content(f"{path} is a folder; add a file name."))
            return
        if os.path.exists(path) and self._confirm != path:
            self._confirm = path
            note.update(Content(f"{path} exists: press Enter again to replace it."))
            return
        self.dismiss((self.fmt, path))

    def action_cancel(self) -> None:
        self.dismiss(None)
