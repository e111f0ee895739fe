"""The run status line: what is running (diagnosis, lint), how far it got, or what went wrong."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Label, ProgressBar


class RunStatus(Horizontal):
    """Hidden when idle; a progress bar and a label while a worker runs; the error when one failed."""

    DEFAULT_CSS = """
    RunStatus { height: 1; display: none; padding: 0 1; background: $panel; }
    RunStatus.-busy, RunStatus.-error { display: block; }
    RunStatus.-error { background: $error 30%; }
    RunStatus ProgressBar { width: 36; }
    RunStatus.-error ProgressBar { display: none; }
    RunStatus #status-label { width: 1fr; padding-left: 1; }
    """

    def compose(self) -> ComposeResult:
        yield ProgressBar(total=None, show_eta=False, id="status-bar")
        yield Label("", id="status-label")

    def start(self, label: str, total: int | None = None) -> None:
        self.set_class(True, "-busy")
        self.set_class(False, "-error")
        bar = self.query_one(ProgressBar)
        bar.update(total=total, progress=0)
        self.query_one("#status-label", Label).update(Content(label))

    def progress(self, done: int, total: int | None, label: str | None = None) -> None:
        bar = self.query_one(ProgressBar)
        bar.update(total=total, progress=done)
        if label is not None:
            self.query_one("#status-label", Label).update(Content(label))

    def finish(self) -> None:
        self.set_class(False, "-busy")
        self.set_class(False, "-error")

    def error(self, message: str) -> None:
        self.set_class(False, "-busy")
        self.set_class(True, "-error")
        self.query_one("#status-label", Label).update(Content(message))

    @property
    def busy(self) -> bool:
        return self.has_class("-busy")
