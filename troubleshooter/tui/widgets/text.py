"""Small building blocks for readable text: a bullet with a hanging indent, a section heading."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content, ContentType
from textual.widget import Widget
from textual.widgets import Static


class Heading(Static):
    """A section title inside a pane."""

    DEFAULT_CSS = """
    Heading { text-style: bold; color: $text-accent; margin-top: 1; height: auto; }
    Heading.-first { margin-top: 0; }
    """


class Bullet(Horizontal):
    """A marker (1., ·, [ ]) and its text; wrapped lines stay indented under the text."""

    DEFAULT_CSS = """
    Bullet { height: auto; }
    Bullet > .bullet-marker { width: auto; min-width: 2; padding-right: 1; }
    Bullet > .bullet-text { width: 1fr; }
    """

    def __init__(self, marker: ContentType, text: ContentType, *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self._marker = marker
        self._text = text

    def compose(self) -> ComposeResult:
        yield Static(self._marker, classes="bullet-marker")
        yield Static(self._text, classes="bullet-text")


def plain_text(widget: Widget) -> str:
    """Every Static's text under ``widget``, one per line (for tests and for copying)."""
    statics = ([widget] if isinstance(widget, Static) else []) + list(widget.query(Static))
    return "\n".join(str(s.render()) for s in statics)


def text(value: str) -> Content:
    """User or KB text, never parsed as markup."""
    return Content(value)
