"""A progress bar on stderr for long scans: bytes, rate, ETA. Only on a terminal.

The CLI decides whether to show one (stderr is a terminal, the output is not JSON, the input is
large); this module only draws it. It draws at most five times a second, waits half a second before
drawing at all (a fast scan shows nothing), and erases itself when done.
"""

from __future__ import annotations

import time
from typing import TextIO

WIDTH = 24


def _size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:,.0f} {unit}" if unit in ("B", "KiB") else f"{n:,.1f} {unit}"
        n /= 1024
    return f"{n:,.1f} GiB"  # pragma: no cover


def _duration(seconds: float) -> str:
    seconds = max(0, int(seconds + 0.5))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class ProgressBar:
    """Call it with the number of bytes read so far; `close()` erases it."""

    def __init__(self, total: int | None, stream: TextIO, min_interval: float = 0.2, delay: float = 0.5,
                 label: str = "") -> None:
        self.total = total
        self.stream = stream
        self.start = time.monotonic()
        self.last = 0.0
        self.min_interval = min_interval
        self.delay = delay
        self.label = label
        self.shown = False
        self.width = 0
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        self.fill, self.empty = ("█", "░") if encoding == "utf8" else ("#", "-")

    def line(self, done: int, now: float | None = None) -> str:
        """The text of the bar after `done` bytes."""
        now = time.monotonic() if now is None else now
        elapsed = max(now - self.start, 1e-6)
        rate = done / elapsed
        head = f"{self.label} " if self.label else ""
        if self.total and done <= self.total:
            frac = done / self.total
            filled = int(frac * WIDTH)
            bar = self.fill * filled + self.empty * (WIDTH - filled)
            eta = (self.total - done) / rate if rate > 0 else 0.0
            return (f"{head}{bar} {frac * 100:3.0f}%  {_size(done)} / {_size(self.total)}  "
                    f"{_size(rate)}/s  ETA {_duration(eta)}")
        return f"{head}{_size(done)} read  {_size(rate)}/s  {_duration(elapsed)}"

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if now - self.start < self.delay or now - self.last < self.min_interval:
            return
        self.last = now
        text = self.line(done, now)
        pad = max(0, self.width - len(text))
        self.width = len(text)
        try:
            self.stream.write("\r" + text + " " * pad)
            self.stream.flush()
        except (OSError, ValueError):
            return
        self.shown = True

    def close(self) -> None:
        if self.shown:
            try:
                self.stream.write("\r" + " " * self.width + "\r")
                self.stream.flush()
            except (OSError, ValueError):
                pass
            self.shown = False
