"""How much of a line is looked at: the bounds every layer that reads lines shares."""

from __future__ import annotations

MAX_LINE_BYTES = 16 * 1024
"""Only this much of a line is handed to the matcher (the line keeps its number)."""
MAX_LINE_CHARS = 8192
"""Lines are matched on at most this many characters; the report keeps the line number."""
