"""Where the text goes: a terminal (fit its width, colour) or a pipe (plain, unwrapped).

    width: shutil.get_terminal_size() clamped to 80..200 when stdout is a terminal; None when piped
    colour: a terminal, unless NO_COLOR or --no-color; FORCE_COLOR turns it on even when piped
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import TextIO

MIN_WIDTH = 80
MAX_WIDTH = 200


@dataclass(frozen=True)
class Terminal:
    width: int | None
    """Columns to fit, or None: do not wrap (a pipe or a file)."""
    colour: bool


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def terminal(stream: TextIO | None = None, no_color: bool = False) -> Terminal:
    stream = sys.stdout if stream is None else stream
    tty = _isatty(stream) and os.environ.get("TERM") != "dumb"
    colour = tty
    if os.environ.get("FORCE_COLOR", "") not in ("", "0"):
        colour = True
    if no_color or os.environ.get("NO_COLOR", ""):
        colour = False
    width = None
    if tty:
        import shutil  # only for a terminal (a piped run need not import it)

        columns = shutil.get_terminal_size((100, 24)).columns
        width = max(MIN_WIDTH, min(MAX_WIDTH, columns))
    return Terminal(width=width, colour=colour)
