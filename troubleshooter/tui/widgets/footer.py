"""The footer: Textual's compact footer, whose minor keys step aside on narrow terminals.

At 80 columns the report screen's keys do not fit on one line; the ones marked minor here are hidden
under the -narrow breakpoint (app.tcss) and stay listed in the help (F1), and they still work.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

MINOR_ACTIONS = frozenset({"back", "copy_command", "copy_reduce", "toggle_theme"})
"""Actions whose keys the footer leaves out on narrow terminals."""


class AppFooter(Footer):
    """A compact footer; keys of MINOR_ACTIONS carry the class -minor (hidden when the screen is -narrow)."""

    def __init__(self) -> None:
        super().__init__(compact=True)

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.action in MINOR_ACTIONS:
                widget.add_class("-minor")
            yield widget
