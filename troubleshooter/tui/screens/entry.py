"""A KB entry, as the KB browser (the command palette) or a suggestion opens it."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown

from troubleshooter.kb.schema import Entry
from troubleshooter.tui.widgets.text import advice_text, kb_prose


def _words(text: str) -> str:
    """KB prose on one line, readable without a log (see kb_prose)."""
    return kb_prose(" ".join(text.split()))


def entry_markdown(entry: Entry) -> str:
    """The entry for reading: what it is, why it happens, per-version advice, fixes, how it is recognised."""
    md = [f"# {entry.title}", "", f"`{entry.id}` · **{entry.severity}** · " + " ".join(f"`{t}`" for t in entry.tags)]
    summary = getattr(entry, "summary", None)
    if summary:
        md += ["", _words(summary)]
    md += ["", "## Causes"]
    md += [f"{i}. *{c.certainty}*: {_words(c.text)}" for i, c in enumerate(entry.causes, 1)]
    if entry.version_advice:
        md += ["", "## Version advice"]
        md += [f"- TensorRT `{a.versions}`: **{a.status}**. {advice_text(_words(a.text))}" for a in entry.version_advice]
    if entry.fixes:
        md += ["", "## Fixes"]
        for i, fix in enumerate(entry.fixes, 1):
            md += ["", f"**{i}. {fix.title}**", ""]
            for step in fix.steps:
                md.append(f"- {_words(step.text)}")
                if step.code:
                    md += ["", f"  ```{step.lang or 'text'}", *("  " + ln for ln in step.code.rstrip().splitlines()),
                           "  ```", ""]
    md += ["", "## How it is recognised"]
    for sig in entry.match.signatures:
        note = f": {sig.note}" if sig.note else ""
        md.append(f"- *{sig.role}* `{sig.id}`{note}")
    if entry.references:
        md += ["", "## References"]
        md += [f"- {r.url}" + (f" ({r.title})" if getattr(r, 'title', None) else "") for r in entry.references]
    return "\n".join(md)


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
