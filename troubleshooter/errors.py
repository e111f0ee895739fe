"""The exception types trt-why raises. Everything a caller must handle derives from TroubleshooterError."""

from __future__ import annotations


class TroubleshooterError(Exception):
    """Base class of every error trt-why raises on purpose. ``str(err)`` is one line for the user."""


class InputError(TroubleshooterError):
    """The input (a log, a file, a model path) cannot be analysed. The CLI exits 2."""


class KBError(TroubleshooterError):
    """A knowledge-base entry is invalid. ``path`` and ``field`` say where."""

    def __init__(self, message: str, *, path: str | None = None, field: str | None = None) -> None:
        self.message = message
        """What is wrong, without where."""
        self.path = path
        self.field = field
        where = path or ""
        if field:
            where = f"{where}: {field}" if where else field
        super().__init__(f"{where}: {message}" if where else message)


class LintError(InputError):
    """A model file cannot be linted (missing, corrupt, outside its folder...)."""
