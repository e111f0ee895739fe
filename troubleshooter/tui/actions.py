"""The app's actions that open a dialog or a screen: open a file, export, help, a KB entry, the theme.

A mixin of ``TrtWhyApp`` (kept apart so the app module stays about routing runs to screens).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from troubleshooter.tui.jobs import LogRequest
from troubleshooter.tui.themes import DARK, LIGHT

if TYPE_CHECKING:
    from textual.app import App

    _Base = App[int]
else:
    _Base = object


class DialogActions(_Base):
    """Ctrl+O, Ctrl+E, F1, KB entries and Ctrl+T. Expects ``request``, ``report``, ``diagnose`` and ``kb_engine``."""

    request: LogRequest | None
    report: Any

    def diagnose(self, request: LogRequest) -> Any: ...  # provided by the app

    def kb_engine(self) -> Any: ...  # provided by the app

    def action_open_file(self) -> None:
        from troubleshooter.tui.dialogs.open_file import OpenFileDialog

        start = Path(self.request.path).parent if self.request and self.request.path else Path.cwd()

        def opened(path: str | None) -> None:
            if path:
                self.diagnose(LogRequest(path=path))

        self.push_screen(OpenFileDialog(start), opened)

    def action_export(self) -> None:
        from troubleshooter.tui.dialogs.export import ExportDialog

        if self.report is None:
            self.notify("Nothing to export yet.", severity="warning")
            return
        stem = "trt-why-report"
        if self.request and self.request.path:
            stem = Path(self.request.name).name.split(".")[0] + "-trt-why"
        self.push_screen(ExportDialog(stem), self._export_to)

    def _export_to(self, choice: tuple[str, str] | None) -> None:
        if choice is None or self.report is None:
            return
        fmt, path = choice
        from troubleshooter.render import render

        try:
            Path(path).write_text(render(self.report, fmt), encoding="utf-8")
        except OSError as exc:
            self.notify(f"{path}: {exc.strerror or exc}", title="Cannot export", severity="error")
            return
        self.notify(f"Saved the report as {fmt} to {path}", title="Exported")

    def action_help(self) -> None:
        from troubleshooter.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def show_entry(self, entry_id: str) -> None:
        """Open a KB entry (from the palette or a suggestion)."""
        from troubleshooter.tui.screens.entry import EntryScreen

        entry = self.kb_engine().kb.get(entry_id)
        if entry is None:
            self.notify(f"No KB entry {entry_id!r}.", severity="error")
            return
        self.push_screen(EntryScreen(entry))

    def action_toggle_theme(self) -> None:
        self.theme = LIGHT if self.theme == DARK else DARK
