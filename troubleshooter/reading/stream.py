"""The streaming pass: read a log once, in one reused buffer, and hand each buffer of whole lines
with its candidate line starts (from a finder, `troubleshooter.reading.finders`) to a sink (the
matcher). Lines are counted as they go; a line longer than the buffer is matched on its head and
keeps its number. Also the pieces a scan of one part of a file needs (`FileRange`, line starts).
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Sequence
from typing import Any

from troubleshooter.core.limits import MAX_LINE_BYTES
from troubleshooter.core.matcher import CONTEXT_LINES, following_lines
from troubleshooter.reading.finders import Finder
from troubleshooter.reading.ingest import Opened

BUFFER_BYTES = 8 * 1024 * 1024
MIN_BUFFER_BYTES = 256 * 1024
"""Small inputs start with a buffer this big (it grows up to BUFFER_BYTES)."""

CandidateFn = Callable[[int, bytes, Sequence[bytes]], None]
RegionFn = Callable[[bytearray, list[int], int, int, int], "int | None"]
"""(buffer, candidate line starts, end of the whole lines to process, lines before the buffer, end of
the lines after them that are context only) -> the number of newlines in buffer[:end] if the callback
counted them (it had to, to number its lines)."""
ProgressFn = Callable[[int], None]


# -- the driver -------------------------------------------------------------------------------------

def scan_stream(opened: Opened, finder: Finder | Callable[[], Finder], on_candidate: CandidateFn | None = None,  # noqa: C901, PLR0912, PLR0913, PLR0915  # the streaming driver, one loop
                progress: ProgressFn | None = None, buffer_bytes: int = BUFFER_BYTES, *,
                on_region: RegionFn | None = None, context_after: Callable[[], bytes] | None = None,
                initial_bytes: int | None = None, spare: list[bytearray] | None = None) -> tuple[int, int, bool]:
    """Read the whole stream once. Returns (lines, bytes, whether any non-blank byte was seen).

    Candidates go to `on_region` (a buffer of whole lines at a time, the fast way) or, one line at a
    time with the CONTEXT_LINES lines after it, to `on_candidate`. `finder` may be a finder or a function
    that makes one (called once, after the first read, so that tiny inputs can skip building it).

    What is found never depends on where reads fall: the last CONTEXT_LINES whole lines of a buffer
    wait for the next one, so every candidate sees the lines after it; a line counts as over-long
    (matched on its head) only when it fills a buffer of `buffer_bytes`. The buffer starts small
    for small inputs (or at `initial_bytes`) and grows to `buffer_bytes`. `context_after` gives the
    lines that follow the stream (a part of a larger one), for its last lines' context. `spare` (a
    list of at most one buffer) lends the buffer and gets the last one back, so that consecutive scans
    in one process reuse its pages instead of faulting in fresh ones.
    """
    if on_region is None:
        if on_candidate is None:
            raise TypeError("scan_stream needs on_candidate or on_region")
        on_region = _per_line(on_candidate)
    hint = opened.size_hint
    size = buffer_bytes if hint is None else min(buffer_bytes, max(MIN_BUFFER_BYTES, hint + 2))
    if initial_bytes is not None:
        size = min(size, max(MIN_BUFFER_BYTES, initial_bytes))
    buf = spare.pop() if spare and len(spare[-1]) >= size else bytearray(size)
    mv = memoryview(buf)
    stream = opened.stream
    read_at = getattr(stream, "readinto_at", None)  # reads into our buffer without a copy (ingest's streams)
    filled = 0
    line_base = 0
    total = 0
    skipping = False  # inside an over-long line whose head was already handed on
    content = False
    the_finder: Finder | None = None if callable(finder) and not hasattr(finder, "line_starts") else finder  # type: ignore[assignment]
    try:
        while True:
            if filled == len(buf) and len(buf) < buffer_bytes:
                grown = bytearray(min(buffer_bytes, 2 * len(buf)))
                grown[:filled] = buf[:filled]
                mv.release()
                buf, mv = grown, memoryview(grown)
            # Fill the buffer (a first read may return only a sniffed head; a pipe what it has).
            got = 0
            while filled + got < len(buf):
                n = read_at(buf, filled + got) if read_at is not None else stream.readinto(mv[filled + got:])  # type: ignore[attr-defined]
                if not n:
                    break
                got += n
                total += n
                if progress is not None:
                    progress(total)
            if not got:
                break
            n = got
            if the_finder is None:
                the_finder = finder()  # type: ignore[operator]
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
            full = len(buf) >= buffer_bytes and end == len(buf)
            last = buf.rfind(b"\n", start, end)
            if last < 0:
                if full and end - start >= len(buf) - 1024:
                    # One line fills the buffer: match its head, skip the rest of it.
                    _head(buf, start, line_base, the_finder, on_region)
                    skipping = True
                    filled = 0
                else:
                    if start:
                        buf[0:end - start] = buf[start:end]
                    filled = end - start
                continue
            # Hold back the last CONTEXT_LINES whole lines: the lines before them need them.
            cut = last + 1
            p = last
            for _ in range(CONTEXT_LINES):
                p = buf.rfind(b"\n", start, p) if p > start else -1
                if p < 0:
                    break
            if p >= 0:
                cut = p + 1
            elif not full:
                cut = start  # too few lines yet: wait for more
            if cut > start:
                line_base = _region(buf, start, cut, last + 1, line_base, the_finder, on_region)
            rest = end - cut
            if rest and cut:
                buf[0:rest] = buf[cut:end]
            filled = rest
        if filled and not skipping and the_finder is not None:
            if buf[filled - 1] != 10:
                if filled < len(buf):
                    buf[filled] = 10  # b"\n"
                    filled += 1
                else:
                    mv.release()
                    buf = bytearray(buf[:filled]) + b"\n"
                    mv = memoryview(buf)
                    filled += 1
            after = context_after() if context_after is not None else b""
            if after and filled + len(after) <= len(buf):
                buf[filled:filled + len(after)] = after  # the buffer keeps its size (and can be lent again)
            elif after:
                mv.release()
                buf = bytearray(buf[:filled]) + after
                mv = memoryview(buf)
            line_base = _region(buf, 0, filled, filled + len(after), line_base, the_finder, on_region)
        elif skipping:
            line_base += 1
    finally:
        mv.release()
        if spare is not None and not spare:
            spare.append(buf)
        close = getattr(stream, "close", None)
        if close is not None:
            close()
    return line_base, total, content


def _head(buf: bytearray, start: int, line_base: int, finder: Finder, on_region: RegionFn) -> None:
    """The first MAX_LINE_BYTES of a line longer than the buffer, as a one-line region."""
    head = bytearray(buf[start:start + MAX_LINE_BYTES])
    if head.find(b"\n") >= 0:
        head = head.replace(b"\n", b" ")
    head += b"\n"
    starts = finder.line_starts(head, len(head))
    if starts:
        on_region(head, starts, len(head), line_base, len(head))


def _region(buf: bytearray, start: int, end: int, context_end: int, line_base: int, finder: Finder,
            on_region: RegionFn) -> int:
    """Hand on the candidate lines of buf[start:end] (whole lines; buf[end:context_end] are the whole
    lines after them). Returns the new line count."""
    if start:
        view = bytearray(buf[start:context_end])  # rare: only after a skipped over-long line
        return _region(view, 0, end - start, context_end - start, line_base, finder, on_region)
    starts = finder.line_starts(buf, end)
    counted = on_region(buf, starts, end, line_base, context_end) if starts else None
    return line_base + (counted if counted is not None else buf.count(b"\n", 0, end))


def _per_line(on_candidate: CandidateFn) -> RegionFn:
    """Adapt a per-line callback to the region interface: each candidate with the CONTEXT_LINES lines after it."""

    def region(buf: bytearray, starts: list[int], end: int, line_base: int, context_end: int) -> int:
        count = line_base
        prev = 0
        for s in starts:
            count += buf.count(b"\n", prev, s)
            prev = s
            e = buf.find(b"\n", s, end)
            if e < 0:
                e = end
            raw = bytes(buf[s:min(e, s + MAX_LINE_BYTES)])
            on_candidate(count + 1, raw, following_lines(buf, e + 1, context_end))
        return count - line_base + buf.count(b"\n", prev, end)

    return region


class FileRange(io.RawIOBase):
    """Bytes [start, stop) of an open file (positional reads: many ranges may share the descriptor)."""

    def __init__(self, fd: int, start: int, stop: int) -> None:
        self.fd = fd
        self.pos = start
        self.stop = stop

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        mv = memoryview(b).cast("B")
        want = min(len(mv), self.stop - self.pos)
        if want <= 0:
            return 0
        if hasattr(os, "preadv"):
            n = os.preadv(self.fd, [mv[:want]], self.pos)  # straight into the caller's buffer
        else:  # pragma: no cover - platforms without preadv
            data = os.pread(self.fd, want, self.pos)
            n = len(data)
            mv[:n] = data
        self.pos += n
        return n


def line_start_at_or_after(fd: int, offset: int, size: int) -> int:
    """The offset of the first line start at or after `offset` in a file (`size` if none)."""
    if offset <= 0:
        return 0
    pos = offset - 1
    while pos < size:
        chunk = os.pread(fd, 64 * 1024, pos)
        if not chunk:
            break
        nl = chunk.find(b"\n")
        if nl >= 0:
            return pos + nl + 1
        pos += len(chunk)
    return size


def whole_lines(stream: Any, lines: int = CONTEXT_LINES, limit: int = BUFFER_BYTES - 1024) -> bytes:
    """The first whole lines of a stream, as a single pass would have them in its buffer for
    context: none past a line too long to fit; each cut at MAX_LINE_BYTES."""
    out = bytearray()
    pending = bytearray()
    chunk = bytearray(64 * 1024)
    done = 0
    while done < lines:
        nl = pending.find(b"\n")
        if nl < 0:
            if len(pending) > limit:
                break
            n = int(stream.readinto(chunk) or 0)
            if not n:
                break
            pending += memoryview(chunk)[:n]
            continue
        if nl + 1 > limit:
            break
        line = pending[:nl]
        out += line[:MAX_LINE_BYTES] + b"\n"
        del pending[:nl + 1]
        done += 1
    return bytes(out)
