"""The work the app's workers do, kept apart from Textual so it can be tested and reused.

Everything here runs in a worker thread: it reads, diagnoses and lints, checks ``cancelled()``
between chunks (a new paste cancels the old run) and reports progress through callbacks.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from troubleshooter.errors import InputError, TroubleshooterError

if TYPE_CHECKING:
    from troubleshooter.api import Engine
    from troubleshooter.lint.report import LintReport
    from troubleshooter.models import Report

PASTE_NAME = "<paste>"
CHUNK_BYTES = 1024 * 1024
"""A paste is fed to the engine a MiB at a time: progress and cancellation happen per chunk."""
MAX_VIEW_BYTES = 256 * 1024 * 1024
"""The log view holds at most this much of a file; the diagnosis itself reads everything."""
MAX_VIEW_CHARS = 4000
"""A longer line is cut in the log view (the engine caps lines too)."""

ProgressFn = Callable[[int, "int | None"], None]
CancelledFn = Callable[[], bool]


class Cancelled(Exception):
    """Raised inside a worker when its run was replaced by a newer one."""


@dataclass(frozen=True, repr=False)
class LogRequest:
    """What to diagnose: pasted text or a file, and the TensorRT version the user gave, if any."""

    text: str | None = None
    path: str | None = None
    trt_version: str | None = None
    platform: str | None = None

    def __repr__(self) -> str:
        # Workers describe themselves with repr(arguments): never copy a 50 MB paste into a string.
        what = f"path={self.path!r}" if self.path is not None else f"text=<{len(self.text or '')} chars>"
        return f"LogRequest({what}, trt_version={self.trt_version!r})"

    @property
    def name(self) -> str:
        """What the header shows: the file's name (never its folder), or <paste>."""
        return os.path.basename(self.path) if self.path else PASTE_NAME

    def with_version(self, version: str | None) -> LogRequest:
        return replace(self, trt_version=version)

    def with_platform(self, platform: str | None) -> LogRequest:
        return replace(self, platform=platform)


@dataclass(frozen=True)
class LogText:
    """The log's lines as the log view shows them; ``lines[no - 1]`` is line ``no``."""

    lines: list[str]
    complete: bool = True
    """False when the file was longer than MAX_VIEW_BYTES and the view holds only its start."""

    def line(self, no: int) -> str | None:
        return self.lines[no - 1] if 0 < no <= len(self.lines) else None


def view_line(raw: str) -> str:
    """One line for display: ANSI removed, carriage-return redraws resolved, tabs expanded, capped."""
    text = raw[:MAX_VIEW_CHARS].rstrip("\r")
    if "\r" in text:  # a progress bar redrawn in place: keep what was drawn last
        parts = [p for p in text.split("\r") if p.strip()]
        text = parts[-1] if parts else ""
    from troubleshooter.api import strip_ansi  # the API loads on first use: the first screen stays quick

    return strip_ansi(text.expandtabs(4))


class _ChunkedReader(io.RawIOBase):
    """Bytes in memory, handed out a chunk at a time so the engine reports progress per chunk."""

    def __init__(self, data: bytes, cancelled: CancelledFn) -> None:
        self._data = memoryview(data)
        self._pos = 0
        self._cancelled = cancelled

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        if self._cancelled():
            raise Cancelled
        n = min(len(b), CHUNK_BYTES, len(self._data) - self._pos)
        b[:n] = self._data[self._pos:self._pos + n]
        self._pos += n
        return n


def _size_of(path: str) -> int | None:
    """Bytes the engine will read, when the file says (not for gzip: it is decompressed)."""
    try:
        with open(path, "rb") as fh:
            if fh.read(2) == b"\x1f\x8b":
                return None
        return os.path.getsize(path)
    except OSError:
        return None


def diagnose_request(request: LogRequest, engine: Engine, progress: ProgressFn, cancelled: CancelledFn) -> Report:
    """Diagnose a paste or a file. Raises Cancelled when ``cancelled()`` turns true, InputError on bad input."""
    from troubleshooter.api import diagnose_path, diagnose_stream

    if request.path is not None:
        total = _size_of(request.path)

        def on_bytes(done: int) -> None:
            if cancelled():
                raise Cancelled
            progress(done, total)

        return diagnose_path(request.path, trt_version=request.trt_version, platform=request.platform,
                             progress=on_bytes, engine=engine)
    data = (request.text or "").encode("utf-8", errors="surrogatepass")
    size = len(data)

    def on_chunk(done: int) -> None:
        if cancelled():
            raise Cancelled
        progress(done, size)

    if not data.strip():
        raise InputError("nothing to diagnose: the paste is empty")
    return diagnose_stream(_ChunkedReader(data, cancelled), name=PASTE_NAME,  # type: ignore[arg-type]
                           trt_version=request.trt_version, platform=request.platform, progress=on_chunk,
                           engine=engine)


def warm(engine: Engine) -> None:
    """Build now what a first diagnosis builds on its way (the line parser's patterns, the signatures'
    regexes, the suggester: ~0.3 s of a 1 MB paste's first report), by diagnosing the KB's own example
    lines: the app does it while it waits for the first paste."""
    from troubleshooter.api import diagnose

    text = "\n".join(example.log for entry in engine.kb.entries for example in entry.examples.match)
    if text.strip():
        diagnose(text, engine=engine)


def read_log_text(request: LogRequest, cancelled: CancelledFn) -> LogText:
    """The lines the log view shows, numbered as the engine numbers them (split on \\n only)."""
    if request.path is None:
        raw_lines = (request.text or "").split("\n")
        if raw_lines and raw_lines[-1] == "":
            raw_lines.pop()
        return LogText([view_line(line) for line in raw_lines])
    from troubleshooter.reading import ingest

    opened = ingest.open_path(request.path)
    chunks: list[bytes] = []
    read = 0
    try:
        while read < MAX_VIEW_BYTES:
            if cancelled():
                raise Cancelled
            chunk = opened.stream.read(min(CHUNK_BYTES * 8, MAX_VIEW_BYTES - read))
            if not chunk:
                break
            chunks.append(chunk)
            read += len(chunk)
        complete = not opened.stream.read(1)
    finally:
        opened.stream.close()
    data = b"".join(chunks)
    if not complete:
        data = data[: data.rfind(b"\n") + 1]
    raw = data.split(b"\n")
    if raw and raw[-1] == b"":
        raw.pop()
    from troubleshooter.api import decode_line

    return LogText([view_line(decode_line(line)) for line in raw], complete)


def lint_model(model: str, report: Report, trt_version: str | None) -> tuple[Report, LintReport]:
    """Lint the model and join its findings to the report's diagnoses (the nodes the log names).

    Raises TroubleshooterError (one line for the user) when the model cannot be linted.
    """
    from troubleshooter.api import lint

    try:
        lint_report = lint(model, trt_version=trt_version or report.environment.tensorrt_version)
    except ModuleNotFoundError as exc:
        raise TroubleshooterError(
            f"the model linter needs {exc.name or 'onnx'}: pip install 'trt-why[lint]'") from None
    from troubleshooter.lint.join import attach

    return attach(report, lint_report), lint_report


def one_line(exc: BaseException) -> str:
    """An exception as one line for the status bar."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if isinstance(exc, TroubleshooterError) else f"{type(exc).__name__}: {text}"
