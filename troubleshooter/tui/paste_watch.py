"""Progress while a large paste arrives: the terminal's bytes are counted before the paste is whole.

A terminal sends a paste as one bracketed paste (``ESC[200~ ... ESC[201~``); Textual's input parser
posts it as a single ``Paste`` event once the end marker has been read, which for a few MB takes
seconds. ``PasteWatchParser`` is Textual's parser that also reports, every ``EVERY`` characters,
how much of an unfinished paste has come in; ``install`` makes the Linux/macOS driver use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from textual._xterm_parser import XTermParser
from textual.message import Message

START, END = "\x1b[200~", "\x1b[201~"
EVERY = 64 * 1024
"""Characters between two reports (the driver reads 4 KiB at a time)."""


class PasteArriving(Message):
    """``received`` characters of a paste have come in and it is not complete yet."""

    def __init__(self, received: int) -> None:
        super().__init__()
        self.received = received


class PasteWatchParser(XTermParser):
    """XTermParser, and ``notify(received)`` while a bracketed paste is being read."""

    def __init__(self, debug: bool = False, notify: Callable[[int], None] | None = None) -> None:
        super().__init__(debug)
        self._notify = notify
        self._in_paste = False
        self._received = 0
        self._reported = 0
        self._tail = ""
        """The end of the last chunk: a marker can be split between two reads."""

    def feed(self, data: str) -> Iterable[Message]:
        if self._notify is not None and data:
            self._watch(data)
        return super().feed(data)

    def _watch(self, data: str) -> None:
        seen = self._tail + data
        self._tail = seen[-(len(START) - 1):]
        if not self._in_paste:
            at = seen.find(START)
            if at < 0:
                return
            self._in_paste, self._reported = True, 0
            self._received = len(seen) - at - len(START)
        else:
            self._received += len(data)
        if END in seen:
            self._in_paste = False  # the Paste event follows
            return
        if self._received - self._reported >= EVERY and self._notify is not None:
            self._reported = self._received
            self._notify(self._received)


def install(app: Any) -> bool:
    """Make the terminal driver (Linux, macOS) parse input with PasteWatchParser, reporting to ``app``.

    Returns False where the driver is another one (Windows, headless): pastes then arrive without it."""
    try:
        from textual.drivers import linux_driver
    except ImportError:  # pragma: no cover - Windows
        return False

    def parser(debug: bool = False) -> PasteWatchParser:
        return PasteWatchParser(debug, notify=lambda received: app.post_message(PasteArriving(received)))

    linux_driver.XTermParser = parser  # type: ignore[attr-defined,assignment]
    return True
