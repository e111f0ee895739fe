"""Progress while a large paste arrives: the terminal's bytes are counted before the paste is whole.

A terminal sends a paste as one bracketed paste (``ESC[200~ ... ESC[201~``); Textual's input parser
posts it as a single ``Paste`` event once the end marker has been read, a character at a time (1.5 s a
MB). ``PasteWatchParser`` is Textual's parser that reads a paste's body whole (60 ms for 20 MB) and
reports, every ``EVERY`` characters, how much of an unfinished paste has come in; ``install`` makes the
Linux/macOS driver use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from textual import events
from textual._xterm_parser import XTermParser
from textual.message import Message

START, END = "\x1b[200~", "\x1b[201~"
EVERY = 64 * 1024
"""Characters between two progress reports (the driver reads 4 KiB at a time)."""


class PasteArriving(Message):
    """``received`` characters of a paste have come in and it is not complete yet."""

    def __init__(self, received: int) -> None:
        super().__init__()
        self.received = received


class PasteWatchParser(XTermParser):
    """XTermParser that reads a bracketed paste whole instead of a character at a time, and calls
    ``notify(received)`` while a paste is still coming in.

    Textual's parser takes every character of a paste through its generator: 1.5 s a MB, 30 s for 20 MB,
    while the terminal delivers them in a fraction of that. Here a paste's body is found with ``str.find``
    (its end marker) and posted as the same ``events.Paste`` (NULs removed, as Textual does); everything
    outside a paste (keys, mouse, resizes) still goes through Textual's parser.
    """

    def __init__(self, debug: bool = False, notify: Callable[[int], None] | None = None) -> None:
        super().__init__(debug)
        self._notify = notify
        self._paste: list[str] | None = None
        """The body of the paste being read (None: not in a paste)."""
        self._received = 0
        self._reported = 0
        self._held = ""
        """The end of the last chunk when it may be the start of a marker split between two reads."""

    def feed(self, data: str) -> Iterable[Message]:
        if not data:  # end of input
            yield from super().feed(data)
            return
        data, self._held = self._held + data, ""
        while data:
            if self._paste is None:
                at = data.find(START)
                if at < 0:
                    # Outside a paste, ESC or ESC[ alone may be a key (Escape, Alt+[): only ESC[2... is held.
                    keep = _partial(data, START, least=3)
                    data, self._held = data[:len(data) - keep], data[len(data) - keep:]
                    if data:
                        yield from super().feed(data)
                    return
                if at:
                    yield from super().feed(data[:at])
                data = data[at + len(START):]
                self._paste, self._received, self._reported = [], 0, 0
                continue
            end = data.find(END)
            if end < 0:
                keep = _partial(data, END)
                body, self._held = data[:len(data) - keep], data[len(data) - keep:]
                self._paste.append(body)
                self._received += len(body)
                if self._received - self._reported >= EVERY and self._notify is not None:
                    self._reported = self._received
                    self._notify(self._received)
                return
            self._paste.append(data[:end])
            text = "".join(self._paste).replace("\x00", "")  # as Textual's parser does (textual#1661)
            self._paste = None
            yield events.Paste(text)
            data = data[end + len(END):]


def _partial(data: str, marker: str, least: int = 1) -> int:
    """How many characters (at least ``least``) at the end of ``data`` are the start of ``marker`` (0 when
    none): held back until the next read says whether the marker follows."""
    longest = min(len(marker) - 1, len(data))
    return next((n for n in range(longest, least - 1, -1) if data.endswith(marker[:n])), 0)


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
