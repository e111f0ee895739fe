"""Open a log: type a path or pick it in the folder tree (Ctrl+O)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, DirectoryTree, Footer, Input, Label, Static


class LogFileTree(DirectoryTree):
    """Folders and files, hidden ones left out."""

    def filter_paths(self, paths):  # type: ignore[no-untyped-def]
        return [p for p in paths if not p.name.startswith(".")]


class OpenFileDialog(ModalScreen[str | None]):
    """Returns the chosen file's path, or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("tab", "app.focus_next", "Path / buttons / folder tree"),
    ]

    DEFAULT_CSS = """
    OpenFileDialog { align: center middle; }
    OpenFileDialog > Vertical { width: 90; max-width: 100%; height: 30; max-height: 100%; border: thick $primary;
                                background: $surface; padding: 0 1; }
    OpenFileDialog #open-tree { height: 1fr; }
    OpenFileDialog #open-row { height: auto; }
    OpenFileDialog #open-path { width: 1fr; }
    OpenFileDialog #open-error { color: $text-error; height: auto; }
    """

    def __init__(self, start: str | os.PathLike[str] = ".") -> None:
        super().__init__()
        self._start = Path(start)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Content.styled("Open a log file", "bold"))
            with Horizontal(id="open-row"):
                yield Input(placeholder="path/to/build.log (.gz ok), Enter opens", id="open-path")
                yield Button("Open", variant="primary", id="open-ok")
                yield Button("Cancel", id="open-cancel")
            yield Static("", id="open-error")
            yield LogFileTree(str(self._start), id="open-tree")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#open-path", Input).focus()

    def on_directory_tree_file_selected(self, event: DirectoryTree.FileSelected) -> None:
        event.stop()
        self._choose(str(event.path))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._choose(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "open-ok":
            self._choose(self.query_one("#open-path", Input).value)
        else:
            self.dismiss(None)

    def _choose(self, value: str) -> None:
        path = os.path.expanduser(value.strip())
        error = self.query_one("#open-error", Static)
        if not path:
            error.update("Type a path, or pick a file in the tree.")
        elif not os.path.exists(path):
            error.update(Content(f"{path}: no such file"))
        elif os.path.isdir(path):
            error.update(Content(f"{path}: is a folder; pick a log file in it"))
            tree = self.query_one(LogFileTree)
            tree.path = path
            tree.focus()
        else:
            self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)
