"""Exit codes of the command line: the only place these numbers live."""

from __future__ import annotations

OK = 0
"""Analysed; nothing of severity error or warning was found."""
FOUND = 1
"""At least one diagnosis (or lint finding) of severity error or warning."""
ERROR = 2
"""Usage or input error: one line on stderr, no report."""
INTERRUPTED = 130
"""Ctrl+C."""
