"""A progress bar on stderr for long scans: bytes, rate, ETA. Only on a terminal."""

from __future__ import annotations

import time
from typing import TextIO


class ProgressBar:
    def __init__(self, total: int | None, stream: TextIO, min_interval: float = 0.2) -> None:
        self.total = total
        self.stream = stream
        self.start = time.monotonic()
        self.last = 0.0
        self.min_interval = min_interval
        self.shown = False

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if now - self.last < self.min_interval:
            return
        self.last = now
        elapsed = max(now - self.start, 1e-6)
        rate = done / elapsed
        mib = done / 2**20
        if self.total:
            frac = min(done / self.total, 1.0)
            bar = "#" * int(frac * 30)
            eta = (self.total - done) / rate if rate > 0 else 0.0
            text = f"\r[{bar:<30}] {frac * 100:5.1f}%  {mib:,.0f} MiB  {rate / 2**20:,.0f} MiB/s  ETA {eta:4.0f}s"
        else:
            text = f"\r{mib:,.0f} MiB read  {rate / 2**20:,.0f} MiB/s"
        self.stream.write(text)
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * 78 + "\r")
            self.stream.flush()
