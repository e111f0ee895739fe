"""What several commands use: writing to stdout, a broken pipe, a missing extra."""

from __future__ import annotations

import importlib.util
import os
import sys

from troubleshooter.errors import InputError


def write(text: str) -> None:
    """`text` on stdout, flushed (a reader that leaves early raises BrokenPipeError here, not at exit)."""
    sys.stdout.write(text)
    sys.stdout.flush()


def silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the interpreter's final flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def need_extra(module: str, extra: str) -> None:
    """InputError (exit 2, one line) naming the extra to install when `module` is not installed."""
    if importlib.util.find_spec(module) is None:
        raise InputError(f"this needs the '{extra}' extra: pip install 'trt-why[{extra}]'")
