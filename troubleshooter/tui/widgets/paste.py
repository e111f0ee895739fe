"""The paste area: a text area that keeps a huge paste out of the editor and sees dropped files."""

from __future__ import annotations

import os
import shlex

from textual import events
from textual.message import Message
from textual.widgets import TextArea

LARGE_PASTE_CHARS = 512 * 1024
"""A paste longer than this is held as data and not inserted into the editor (which would crawl)."""


def dropped_path(text: str) -> str | None:
    """A terminal turns a dragged-in file into its quoted path: recognise one existing file."""
    text = text.strip()
    if not text or "\n" in text or len(text) > 4096:
        return None
    try:
        parts = shlex.split(text)
    except ValueError:
        parts = [text]
    if len(parts) != 1:
        return None
    path = os.path.expanduser(parts[0].removeprefix("file://"))
    return path if os.path.isfile(path) else None


def paste_lines(text: str) -> str:
    """A paste as lines: terminals send a paste's line breaks as CR (bracketed paste), some as CRLF.
    Left as CR, a whole log reads as one line and the report says nothing is wrong."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


class PasteArea(TextArea):
    """Where the log goes. A paste posts ``Pasted``; a dropped file posts ``FileDropped``."""

    class Pasted(Message):
        """Text was pasted; ``text`` is the whole log to diagnose (the area's text or a large paste)."""

        def __init__(self, text: str, large: bool) -> None:
            super().__init__()
            self.text = text
            self.large = large

    class FileDropped(Message):
        def __init__(self, path: str) -> None:
            super().__init__()
            self.path = path

    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        super().__init__(text, id=id, soft_wrap=False, show_line_numbers=True, tab_behavior="focus",
                         placeholder="Paste a TensorRT build log here (or drop a file).")
        self.large_text: str | None = None
        """A paste too large for the editor, held as data until the next edit."""
        self._pasted = ""
        """The area's text right after the last paste (a later paste replaces it while it is untouched)."""

    @property
    def log_text(self) -> str:
        """The text to diagnose."""
        return self.large_text if self.large_text is not None else self.text

    async def _on_paste(self, event: events.Paste) -> None:
        event.prevent_default()
        event.stop()
        path = dropped_path(event.text)
        if path is not None:
            self.post_message(self.FileDropped(path))
            return
        text = paste_lines(event.text)
        if len(text) > LARGE_PASTE_CHARS:
            self.large_text = text
            self.load_text("")
            self.post_message(self.Pasted(text, large=True))
            return
        self.large_text = None
        if "\n" in text.strip() and self.text and self.text == self._pasted:
            # A log pasted over the last pasted log, untouched since: the new log replaces it (appended, two
            # logs would be diagnosed as one).
            self.load_text(text)
        elif not self.read_only and (result := self._replace_via_keyboard(text, *self.selection)):
            self.move_cursor(result.end_location)
            self.focus()
        self._pasted = self.text
        self.post_message(self.Pasted(self.text, large=False))

    def clear_all(self) -> None:
        self.large_text = None
        self._pasted = ""
        self.load_text("")

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        if self.text:
            self.large_text = None
