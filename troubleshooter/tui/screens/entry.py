"""A KB entry, as the KB browser (the command palette) or a suggestion opens it."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown

from troubleshooter.kb.schema import Entry
from troubleshooter.render.entry import entry_markdown


class EntryScreen(ModalScreen[None]):
    """One KB entry, read-only."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "dismiss", "Close")]

    DEFAULT_CSS = """
    EntryScreen { align: center middle; }
    EntryScreen > VerticalScroll { width: 100; max-width: 100%; height: 90%; border: thick $primary; background: $surface; }
    EntryScreen Markdown { padding: 0 1; }
    """

    def __init__(self, entry: Entry) -> None:
        super().__init__()
        self.entry = entry

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="entry-scroll"):
            yield Markdown(entry_markdown(self.entry), id="entry-md")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()
