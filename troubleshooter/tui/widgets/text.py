"""Small building blocks for readable text: a bullet with a hanging indent, a section heading."""

from __future__ import annotations

from rich.style import Style
from textual.app import ComposeResult
from textual.color import Color
from textual.containers import Horizontal
from textual.content import Content, ContentType
from textual.widget import Widget
from textual.widgets import Static


def advice_text(text: str) -> str:
    """Version advice shown after its status, without a first sentence restating it (render.words.after_status)."""
    from troubleshooter.render.words import after_status

    return after_status(text)


def kb_prose(text: str) -> str:
    """KB prose read without a log (the KB browser), worded as `trt-why kb show` words it (render.words)."""
    from troubleshooter.render.words import kb_prose as words

    return words(text)


MUTED = 0.3
"""How far muted text (line numbers, scores) moves from the text colour to the background: 4.5:1 in both themes."""


def muted_style(base: Style) -> Style:
    """Muted text on ``base``'s background, blended from its colours.

    ``$text-muted`` is ``auto 60%``: in a component class (a Line-API gutter, a tree label) Textual cannot
    resolve ``auto`` and draws it white, which is invisible on the light theme's grey panels."""
    if base.color is None or base.bgcolor is None:
        return Style()
    fg, bg = Color.from_rich_color(base.color), Color.from_rich_color(base.bgcolor)
    return Style(color=fg.blend(bg, MUTED).rich_color)


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
