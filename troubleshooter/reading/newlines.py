"""Counting newlines: line numbers for a large log cost one pass over every byte.

`bytes.count` of one byte is a plain loop in CPython (about 0.37 s per GiB here); numpy compares and
counts a long stretch about seven times faster. numpy takes some 60 ms to import, so it is only
used for inputs large enough to pay that back (and never for small logs, where start-up counts).
The numbers are the same either way: tests hold the two to that.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

NUMPY_MIN_BYTES = 512 * 1024 * 1024
"""Inputs at least this big count newlines with numpy when it is installed (TRT_WHY_NUMPY=0: never)."""
NUMPY_MIN_SPAN = 8 * 1024
"""Shorter stretches are counted by `bytes.count` (numpy's per-call cost is higher there)."""
NUMPY_MAX_SPAN = 1024 * 1024
"""Longer stretches are counted in pieces of this size (numpy compares into a temporary array)."""


def numpy_for(size: int | None) -> Any:
    """The numpy module if an input of this size should use it, else None."""
    if size is None or size < NUMPY_MIN_BYTES or os.environ.get("TRT_WHY_NUMPY", "1") == "0":
        return None
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def newline_counter(buf: bytearray | bytes, numpy: Any) -> Callable[[bytes, int, int], int]:
    """`buf.count` for b"\\n" between two offsets, with numpy on long stretches."""
    arr = numpy.frombuffer(buf, numpy.uint8)  # a view: no copy (released with the counter)
    count_nonzero = numpy.count_nonzero
    bcount = buf.count

    def count(_nl: bytes, start: int, stop: int) -> int:
        if stop - start < NUMPY_MIN_SPAN:
            return bcount(b"\n", start, stop)
        total = 0
        for at in range(start, stop, NUMPY_MAX_SPAN):  # the comparison's temporary stays small
            total += int(count_nonzero(arr[at:min(stop, at + NUMPY_MAX_SPAN)] == 10))
        return total

    return count


def counter_for(size: int | None) -> Callable[[Any], Callable[[bytes, int, int], int]] | None:
    """The matcher's newline counter for an input of this size (`Matcher.feed_region`'s `counter`):
    numpy's when it pays, else None (`bytes.count`)."""
    numpy = numpy_for(size)
    if numpy is None:
        return None
    return lambda buf: newline_counter(buf, numpy)
