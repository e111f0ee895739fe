"""The reading layer: bytes in, candidate lines out, into the core's matcher.

Owns everything about bytes: opening files, gzip, stdin and encodings (`ingest`), the streaming
pass in one reused buffer (`stream`), finding the lines worth matching (`finders`, `hsfinder`),
counting newlines (`newlines`), and cutting a large file across processes (`parallel`). The core
(`troubleshooter.core`) never imports from here: it takes candidate lines and returns a report.

`scan` is the one entry: an opened log and a matcher in, the matcher's state and the log's size out.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from troubleshooter.core.state import MatchState
from troubleshooter.reading.finders import HYPERSCAN_MIN_BYTES, Finder, PythonFinder

if TYPE_CHECKING:
    from troubleshooter.core.matcher import LiteralSet, Matcher, Prefilter
    from troubleshooter.reading.ingest import Opened

MATCHERS = ("auto", "python", "hyperscan")
"""How candidate lines are found: `auto` (Hyperscan when installed and the input is large enough),
`python` (the pure finder, everywhere), `hyperscan` (required). Every choice finds the same lines."""


def matcher_choice(prefer: str | None = None) -> str:
    """`prefer`, else the TRT_WHY_MATCHER environment variable, else auto."""
    choice = prefer or os.environ.get("TRT_WHY_MATCHER", "auto")
    if choice not in MATCHERS:
        raise ValueError(f"matcher {choice!r}: one of {', '.join(MATCHERS)}")
    return choice


def make_finder(prefilter: Prefilter, choice: str = "auto") -> Finder:
    """The fastest finder available for this choice (python forces the pure one)."""
    if choice in ("auto", "hyperscan"):
        try:
            from troubleshooter.reading.hsfinder import HyperscanFinder
        except ImportError:
            if choice == "hyperscan":
                raise
        else:
            try:
                return HyperscanFinder(prefilter.literals, prefilter.caseless, prefilter.markers)
            except Exception:
                if choice == "hyperscan":
                    raise
    return PythonFinder(prefilter.literals, prefilter.caseless, prefilter.markers)


def literal_index_factory(choice: str) -> Callable[[Sequence[str]], LiteralSet] | None:
    """A faster literal index for the matcher (Hyperscan), or None (the matcher keeps its own)."""
    if choice == "python":
        return None
    try:
        from troubleshooter.reading.hsfinder import HyperscanLiteralSet
    except ImportError:
        return None
    return HyperscanLiteralSet


class Finders:
    """The finders of one matcher, built on first use and shared between threads."""

    def __init__(self, prefilter: Prefilter, prefer: str | None = None) -> None:
        self.prefilter = prefilter
        self.choice = matcher_choice(prefer)
        self._built: dict[str, Finder] = {}
        self._inputs = 0
        self._lock = threading.Lock()

    def for_size(self, size_hint: int | None) -> Finder:
        """The finder for an input of about this many bytes (None: unknown or large).

        With `auto`, small inputs get the pure finder: it has nothing to build, and every finder gives
        the same line starts. After many inputs (fleet mode) building the fast one pays.
        """
        choice = self.choice
        self._inputs += 1
        if choice == "auto" and size_hint is not None and size_hint < HYPERSCAN_MIN_BYTES and self._inputs <= 16:
            choice = "python"
        finder = self._built.get(choice)
        if finder is None:
            with self._lock:
                finder = self._built.get(choice)
                if finder is None:
                    finder = self._built[choice] = make_finder(self.prefilter, choice)
        return finder


class Scanned(NamedTuple):
    """What one pass over a log found."""

    state: MatchState
    lines: int
    bytes: int
    content: bool
    """Whether any non-blank byte was seen."""


def scan(opened: Opened, matcher: Matcher, finders: Finders, progress: Callable[[int], None] | None = None,
         path: str | None = None) -> Scanned:
    """The streaming pass: large plain files in parts on several cores, everything else in one pass.
    `path`: the file `opened` was opened from (a file can be cut into parts; a stream cannot)."""
    from troubleshooter.reading import ingest
    from troubleshooter.reading.newlines import counter_for
    from troubleshooter.reading.stream import scan_stream

    if path is not None and opened.encoding in ("utf-8", "utf-8-sig") and not opened.compressed:
        from troubleshooter.reading.parallel import parallel_jobs, scan_file_parallel

        jobs = parallel_jobs(opened.size_hint)
        if jobs > 1:
            done = scan_file_parallel(path, matcher, finders, opened.size_hint or 0, jobs, opened.encoding, progress)
            if done is not None:
                opened.stream.close()
                return Scanned(*done)
            opened = ingest.open_path(path)  # a part failed or a regex timed out: one pass
    state = MatchState()
    lines, nbytes, content = scan_stream(opened, lambda: finders.for_size(opened.size_hint), progress=progress,
                                         on_region=matcher.region_sink(state, counter_for(opened.size_hint)))
    return Scanned(state, lines, nbytes, content)
