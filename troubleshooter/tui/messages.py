"""Messages the workers post to the app; the app routes them to the screens.

Every message of a run carries the run's id: a result whose id is not the current one is stale
(a newer paste replaced it) and is dropped.
"""

from __future__ import annotations

from textual.message import Message

from troubleshooter.models import Report
from troubleshooter.tui.jobs import LogRequest, LogText


class DiagnosisProgress(Message):
    """Bytes read so far by the diagnosis run ``run_id``; ``total`` is None when unknown (gzip)."""

    def __init__(self, run_id: int, done: int, total: int | None) -> None:
        super().__init__()
        self.run_id = run_id
        self.done = done
        self.total = total


class DiagnosisReady(Message):
    """A finished diagnosis, with the log's lines for the log view."""

    def __init__(self, run_id: int, request: LogRequest, report: Report, log: LogText) -> None:
        super().__init__()
        self.run_id = run_id
        self.request = request
        self.report = report
        self.log = log


class DiagnosisFailed(Message):
    """The run could not read or diagnose the input; ``error`` is one line for the user."""

    def __init__(self, run_id: int, error: str) -> None:
        super().__init__()
        self.run_id = run_id
        self.error = error


class LintProgress(Message):
    """What the lint run ``run_id`` is doing now."""

    def __init__(self, run_id: int, stage: str) -> None:
        super().__init__()
        self.run_id = run_id
        self.stage = stage


class LintReady(Message):
    """A finished lint run: the report with the findings joined to its diagnoses, and the lint report."""

    def __init__(self, run_id: int, model: str, report: Report, lint_report: object) -> None:
        super().__init__()
        self.run_id = run_id
        self.model = model
        self.report = report
        self.lint_report = lint_report


class LintFailed(Message):
    """The lint run could not load or check the model; ``error`` is one line for the user."""

    def __init__(self, run_id: int, error: str) -> None:
        super().__init__()
        self.run_id = run_id
        self.error = error


class DiagnoseRequested(Message):
    """A screen asks the app to diagnose a paste or a file."""

    def __init__(self, request: LogRequest) -> None:
        super().__init__()
        self.request = request


class VersionChosen(Message):
    """The user answered "which TensorRT?"; None means "use what the log says"."""

    def __init__(self, version: str | None) -> None:
        super().__init__()
        self.version = version


class PlatformChosen(Message):
    """The user answered "where does TensorRT run?"; None means "use what the log says"."""

    def __init__(self, platform: str | None) -> None:
        super().__init__()
        self.platform = platform


class LintRequested(Message):
    """The user asks to lint an ONNX model against the current report."""

    def __init__(self, model: str) -> None:
        super().__init__()
        self.model = model
