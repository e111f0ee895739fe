"""The streaming pass: find the lines worth looking at without decoding every line.

A *finder* takes a buffer of whole lines and returns the start offsets of the lines that contain
one of the prefilter literals (or marker patterns). Two finders give the same answer: the
pure-Python one (one `re` alternation over the buffer) and, where the `hyperscan` package is
installed, a much faster one. The driver reads into one reused buffer, counts lines, and hands
each candidate line (with the two lines after it, for wrapped lines) to a callback.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from typing import Protocol

from troubleshooter.core.ingest import Opened

BUFFER_BYTES = 8 * 1024 * 1024
MAX_LINE_BYTES = 16 * 1024
"""Only this much of a line is handed on for matching (the line keeps its number)."""

CandidateFn = Callable[[int, bytes, Sequence[bytes]], None]
ProgressFn = Callable[[int], None]


class Finder(Protocol):
    name: str

    def line_starts(self, buf: bytearray, end: int) -> list[int]:
        """Sorted, unique offsets of the starts of lines in buf[:end] that contain a needle."""
        ...


def _needle_regex(literals: Sequence[str], caseless: Sequence[str], markers: Sequence[str]) -> bytes:
    parts = [re.escape(lit.encode("utf-8")) for lit in sorted(set(literals), key=lambda s: (-len(s), s))]
    parts += [b"(?i:" + re.escape(lit.encode("utf-8")) + b")" for lit in sorted(set(caseless))]
    parts += [m.encode("utf-8") for m in markers]
    return b"|".join(parts) if parts else b"(?!)"


class PythonFinder:
    """Pure Python: one compiled alternation searched over the whole buffer."""

    name = "python"

    def __init__(self, literals: Sequence[str], caseless: Sequence[str] = (), markers: Sequence[str] = ()) -> None:
        self.pattern = re.compile(_needle_regex(literals, caseless, markers), re.MULTILINE)

    def line_starts(self, buf: bytearray, end: int) -> list[int]:
        out: list[int] = []
        search = self.pattern.search
        pos = 0
        while pos < end:
            m = search(buf, pos, end)
            if m is None:
                break
            start = buf.rfind(b"\n", 0, m.start()) + 1
            out.append(start)
            nl = buf.find(b"\n", m.end() if m.end() > m.start() else m.start(), end)
            if nl < 0:
                break
            pos = nl + 1
        return out


def make_finder(literals: Sequence[str], caseless: Sequence[str] = (), markers: Sequence[str] = (),
                prefer: str | None = None) -> Finder:
    """The fastest finder available (TRT_WHY_MATCHER=python forces the pure-Python one)."""
    choice = prefer or os.environ.get("TRT_WHY_MATCHER", "auto")
    if choice in ("auto", "hyperscan"):
        try:
            from troubleshooter.core.hsfinder import HyperscanFinder
        except ImportError:
            if choice == "hyperscan":
                raise
        else:
            try:
                return HyperscanFinder(literals, caseless, markers)
            except Exception:  # noqa: BLE001 - any hyperscan failure falls back to the pure path
                if choice == "hyperscan":
                    raise
    return PythonFinder(literals, caseless, markers)


def scan_stream(opened: Opened, finder: Finder, on_candidate: CandidateFn,
                progress: ProgressFn | None = None, buffer_bytes: int = BUFFER_BYTES) -> tuple[int, int, bool]:
    """Read the whole stream once. Returns (lines, bytes, whether any non-blank byte was seen)."""
    buf = bytearray(buffer_bytes)
    mv = memoryview(buf)
    stream = opened.stream
    filled = 0
    line_base = 0
    total = 0
    skipping = False  # inside an over-long line whose head was already handed on
    content = False
    try:
        while True:
            n = stream.readinto(mv[filled:])  # type: ignore[attr-defined]
            if not n:
                break
            total += n
            if progress is not None:
                progress(total)
            end = filled + n
            start = 0
            if not content:
                content = bool(bytes(mv[filled:end]).strip())
            if skipping:
                nl = buf.find(b"\n", 0, end)
                if nl < 0:
                    filled = 0
                    continue
                skipping = False
                line_base += 1
                start = nl + 1
            last = buf.rfind(b"\n", start, end)
            if last < 0:
                if end - start >= len(buf) - 1024:
                    # One line fills the buffer: match its head, skip the rest of it.
                    _region(buf, start, start + MAX_LINE_BYTES, line_base, finder, on_candidate, partial=True)
                    skipping = True
                    filled = 0
                else:
                    if start:
                        buf[0:end - start] = buf[start:end]
                    filled = end - start
                continue
            line_base = _region(buf, start, last + 1, line_base, finder, on_candidate)
            rest = end - (last + 1)
            if rest:
                buf[0:rest] = buf[last + 1:end]
            filled = rest
        if filled and not skipping:
            buf[filled:filled + 1] = b"\n"
            line_base = _region(buf, 0, filled + 1, line_base, finder, on_candidate)
        elif skipping:
            line_base += 1
    finally:
        mv.release()
        close = getattr(stream, "close", None)
        if close is not None:
            close()
    return line_base, total, content


def _region(buf: bytearray, start: int, end: int, line_base: int, finder: Finder,
            on_candidate: CandidateFn, partial: bool = False) -> int:
    """Hand on the candidate lines of buf[start:end] (whole lines). Returns the new line count."""
    if partial:
        head = bytearray(buf[start:end])
        if head.rfind(b"\n") >= 0:
            head = head.replace(b"\n", b" ")
        head += b"\n"
        if finder.line_starts(head, len(head)):
            on_candidate(line_base + 1, bytes(head[:-1]), ())
        return line_base
    if start:
        view = bytearray(buf[start:end])  # rare: only after a skipped over-long line
        return _region(view, 0, len(view), line_base, finder, on_candidate)
    starts = finder.line_starts(buf, end)
    count = line_base
    prev = 0
    for s in starts:
        count += buf.count(b"\n", prev, s)
        prev = s
        e = buf.find(b"\n", s, end)
        if e < 0:
            e = end
        raw = bytes(buf[s:min(e, s + MAX_LINE_BYTES)])
        following: list[bytes] = []
        pos = e + 1
        for _ in range(2):
            if pos >= end:
                break
            e2 = buf.find(b"\n", pos, end)
            if e2 < 0:
                e2 = end
            following.append(bytes(buf[pos:min(e2, pos + MAX_LINE_BYTES)]))
            pos = e2 + 1
        on_candidate(count + 1, raw, following)
    return line_base + buf.count(b"\n", 0, end)
