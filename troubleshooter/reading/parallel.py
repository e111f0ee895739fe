"""One large file on several cores: byte ranges split at line starts, scanned in a pool of forked worker
processes (`multiprocessing`), merged into exactly the state one pass would have built
(`core.state.merge_into`)."""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from troubleshooter.core.state import MAX_ERROR_LINES, MatchState, merge_into
from troubleshooter.envvars import env_int
from troubleshooter.reading.newlines import counter_for
from troubleshooter.reading.stream import BUFFER_BYTES

if TYPE_CHECKING:
    from troubleshooter.core.matcher import Matcher
    from troubleshooter.reading import Finders

PARALLEL_MIN_BYTES = 96 * 1024 * 1024
"""Files at least this big are scanned in parts on several cores (TRT_WHY_JOBS=1 turns it off)."""
PART_MIN_BYTES = 48 * 1024 * 1024
"""At least this many bytes per process."""
CHUNK_BYTES = 32 * 1024 * 1024
"""Processes take the file in parts of about this size (at least CHUNKS_PER_JOB parts each)."""
CHUNKS_PER_JOB = 4


def merge_parts(parts: Sequence[tuple[MatchState, int]]) -> MatchState:
    """One state from the states of consecutive parts (each with its number of lines): exactly the
    state a single pass over the whole would have built."""
    merge = PartsMerge()
    for state, lines in parts:
        merge.add((state, lines, 0, False))
    return merge.state


class PartsMerge:
    """The parts' results merged in file order, each as it comes: the state a single pass builds.

    A part's state holds up to the per-log caps (evidence, error lines) on its own; keeping every part's
    state until the end would multiply them by the number of parts (a log of long error lines took
    200 MiB). The pool hands its results over in order (`Pool.imap`), holding only the few that finished
    before an earlier one.
    """

    def __init__(self, errors_full: Any = None) -> None:
        self.errors_full = errors_full
        """A shared flag set once the merged state holds MAX_ERROR_LINES error lines."""
        self.state = MatchState()
        self.lines = 0
        self.nbytes = 0
        self.content = False
        self.merged = 0
        """Parts merged so far."""

    def add(self, result: tuple[MatchState, int, int, bool]) -> None:
        state, lines, nbytes, content = result
        merge_into(self.state, state, self.lines)
        self.lines += lines
        self.nbytes += nbytes
        self.content = self.content or content
        self.merged += 1
        if self.errors_full is not None and len(self.state.error_lines) >= MAX_ERROR_LINES:
            self.errors_full.value = 1


def parallel_jobs(size: int | None) -> int:
    """How many parts to scan a file of this size in (1: one pass)."""
    import os

    if size is None or size < PARALLEL_MIN_BYTES:
        return 1
    jobs = env_int("TRT_WHY_JOBS", 0)  # 0: one per core, up to 4
    if jobs <= 0:
        try:
            jobs = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            jobs = os.cpu_count() or 1
        jobs = min(jobs, 4)
    import multiprocessing

    if sys.platform != "linux" or "fork" not in multiprocessing.get_all_start_methods():
        return 1  # parts are forked (they inherit the compiled engine); elsewhere forking is not safe
    if threading.active_count() > 1:
        # Forking a process that runs other threads (the TUI's worker, a bot's server) can leave a
        # lock held in the child for ever: one pass, slower but safe.
        return 1
    return max(1, min(jobs, size // PART_MIN_BYTES))


def chunk_count(size: int, jobs: int) -> int:
    """How many chunks to cut a file into for `jobs` processes: small enough that the processes
    finish together (a process that meets slower lines takes fewer), large enough to cost nothing."""
    return max(jobs, jobs * CHUNKS_PER_JOB, min(size // CHUNK_BYTES, 1024))


PROGRESS_SECONDS = 0.1
"""While waiting for the next part, the parent reports the bytes the workers have read this often."""


class _Scan(NamedTuple):
    """What the workers of one parallel scan need: set before the pool forks, inherited by its workers."""

    path: str
    fd: int
    bounds: list[int]
    encoding: str
    jobs: int
    finder: Any
    matcher: Matcher
    counter: Any
    counters: Any
    """Bytes read by each part so far (shared memory: the parent sums them for the progress bar)."""
    errors_full: Any
    stop: Any
    """Set by the parent when it gives up (a part failed, Ctrl+C): the parts still queued or under way end at
    once (`_Stopped`), so the pool can be closed and joined instead of killed mid-write."""
    spare: list[bytearray]
    """One read buffer per process, reused from part to part (each worker has its own copy)."""


class _Stopped(Exception):
    """A part that ends early because the parent gave up on the scan."""


_SCAN: list[_Scan] = []
"""The scan under way (at most one: a pool's workers are forked from the scanning thread)."""


def _scan_part(k: int) -> tuple[MatchState, int, int, bool]:
    """Part `k` of the scan under way, in a worker: its state, lines, bytes, and whether it held content."""
    from troubleshooter.reading import ingest
    from troubleshooter.reading.stream import FileRange, scan_stream, whole_lines

    scan = _SCAN[0]
    start, end, size = scan.bounds[k], scan.bounds[k + 1], scan.bounds[-1]
    opened = ingest.open_stream(FileRange(scan.fd, start, end), scan.path)  # type: ignore[arg-type]
    if opened.encoding != (scan.encoding if k == 0 else "utf-8") or (k and opened.notes):
        raise ValueError("this part does not open as plain text")  # a BOM or NUL run mid-file
    # Once the merged parts hold every error line a report keeps, later parts need none.
    state = MatchState(error_line_cap=0 if scan.errors_full.value else MAX_ERROR_LINES)

    if scan.stop.value:
        raise _Stopped

    def report(done: int) -> None:
        scan.counters[k] = done
        if scan.stop.value:
            raise _Stopped

    def after() -> bytes:
        tail = ingest.open_stream(FileRange(scan.fd, end, size), scan.path)  # type: ignore[arg-type]
        return whole_lines(tail.stream)

    lines, nbytes, content = scan_stream(opened, scan.finder, progress=report,
                                         on_region=scan.matcher.region_sink(state, scan.counter),
                                         context_after=after if end < size else None,
                                         initial_bytes=BUFFER_BYTES // scan.jobs, spare=scan.spare)
    if scan.errors_full.value:
        state.error_lines = []  # filled meanwhile: the merge would drop them (counted all the same)
    return state, lines, nbytes, content


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl+C to the parent, which stops the pool (no traceback from every worker). It was
    forked with SIGINT blocked (`_interrupts_held`): an interrupt already pending is dropped here."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """SIGINT blocked while the pool forks its workers (and starts its threads, which inherit the mask): a
    Ctrl+C then cannot land in a worker before it ignores it; this process gets it on leaving."""
    import signal

    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def scan_file_parallel(path: str, matcher: Matcher, finders: Finders, size: int, jobs: int,
                       encoding: str = "utf-8", progress: Callable[[int], None] | None = None
                       ) -> tuple[MatchState, int, int, bool] | None:
    """Scan a file on `jobs` forked worker processes (`multiprocessing`'s pool), merging in this one.

    The file is cut into parts (byte ranges split at line starts, several per process) that the workers
    take in turn (`Pool.imap`, one part a task), so a worker that meets slower lines simply takes fewer
    parts and all finish together; the results come back in file order and are merged as they come. Each
    part is opened through `ingest` as a stream of its own, so it reads exactly the bytes a single pass
    reads there (NUL bytes are dropped, nothing else changes inside a plain UTF-8 file; a part that opens
    any other way makes the whole fall back). Returns (state, lines, bytes, content) as a single pass
    would, or None when a part failed or a signature timed out (the caller then scans in one pass: the
    notes name line numbers). Ctrl+C stops the workers and reaches the caller as KeyboardInterrupt.
    """
    import gc
    import multiprocessing
    import os

    from troubleshooter.reading.stream import line_start_at_or_after

    finder = finders.for_size(None)  # built once, before forking
    fd = os.open(path, os.O_RDONLY)
    try:
        n_parts = chunk_count(size, jobs)
        bounds = sorted({line_start_at_or_after(fd, size * k // n_parts, size) for k in range(n_parts)} | {size})
        parts = len(bounds) - 1
        if parts < 2:
            return None
        jobs = min(jobs, parts)
        ctx = multiprocessing.get_context("fork")
        counters = ctx.RawArray("q", parts)
        merge = PartsMerge(ctx.Value("b", 0))
        stop = ctx.RawValue("b", 0)
        _SCAN[:] = [_Scan(path, fd, bounds, encoding, jobs, finder, matcher, counter_for(size), counters,
                          merge.errors_full, stop, [])]
        with matcher.shared_by(jobs):  # each process remembers its share of lines
            gc.freeze()  # the collector leaves the inherited objects alone: fewer pages copied in the workers
            try:
                pool = None
                try:
                    # A Ctrl+C held while the pool starts lands as the mask is lifted, inside this try: the pool is
                    # then closed and joined below like any other (it was not, when it landed before the try, and the
                    # interpreter's exit then terminated the workers: the hang `Pool.terminate` brings, seen under load)
                    with _interrupts_held():
                        pool = ctx.Pool(jobs, initializer=_ignore_interrupts)
                    results = pool.imap(_scan_part, range(parts))
                    while merge.merged < parts:
                        with contextlib.suppress(multiprocessing.TimeoutError):
                            merge.add(results.next(timeout=PROGRESS_SECONDS))
                        if progress is not None:
                            progress(sum(counters))
                finally:
                    # Never Pool.terminate(): a worker killed while it writes a result holds the result queue's
                    # lock for ever, and the pool's own shutdown then waits on that lock (a hang seen under
                    # load). The parts left end at once (`stop`), and the pool closes as after a full scan.
                    stop.value = int(merge.merged < parts)
                    if pool is not None:
                        pool.close()
                        pool.join()
            except Exception:  # a part that fails (not plain text, unreadable): the caller scans in one pass
                return None
            finally:
                gc.unfreeze()
    finally:
        _SCAN.clear()
        os.close(fd)
    if merge.state.slow_signatures:
        return None
    return merge.state, merge.lines, merge.nbytes, merge.content
