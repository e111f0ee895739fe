"""One large file on several cores: byte ranges split at line starts, scanned in worker processes,
merged into exactly the state one pass would have built (`core.state.merge_into`)."""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

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
"""Processes take the file in chunks of about this size (at least CHUNKS_PER_JOB chunks each)."""
CHUNKS_PER_JOB = 4


def merge_parts(parts: Sequence[tuple[MatchState, int]]) -> MatchState:
    """One state from the states of consecutive parts (each with its number of lines): exactly the
    state a single pass over the whole would have built."""
    merge = OrderedMerge()
    for k, (state, lines) in enumerate(parts):
        merge.add(k, (state, lines, 0, False))
    return merge.state


class OrderedMerge:
    """Chunk results merged in file order as they arrive, each as soon as every earlier chunk is in.

    A chunk's state holds up to the per-log caps (evidence, error lines) on its own; keeping every
    chunk's state until the end would multiply them by the number of chunks (a log of long error
    lines took 200 MiB). Chunks are handed out in order, so only the few still waiting for an
    earlier one are held. Thread-safe: the results of other processes arrive on receiver threads.
    """

    def __init__(self, errors_full: Any = None) -> None:
        self.errors_full = errors_full
        """A shared flag set once the merged state holds MAX_ERROR_LINES error lines."""
        self.state = MatchState()
        self.lines = 0
        self.nbytes = 0
        self.content = False
        self.merged = 0
        """Chunks merged so far (all of 0 .. merged-1)."""
        self.failed = False
        self._waiting: dict[int, tuple[MatchState, int, int, bool]] = {}
        self._lock = threading.Lock()

    def add(self, k: int, result: tuple[MatchState, int, int, bool]) -> None:
        with self._lock:
            self._waiting[k] = result
            while self.merged in self._waiting:
                state, lines, nbytes, content = self._waiting.pop(self.merged)
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


def scan_file_parallel(path: str, matcher: Matcher, finders: Finders, size: int, jobs: int,  # noqa: C901, PLR0915  # process pool life cycle in one place
                       encoding: str = "utf-8", progress: Callable[[int], None] | None = None
                       ) -> tuple[MatchState, int, int, bool] | None:
    """Scan a file on `jobs` processes: this one and `jobs - 1` forked ones.

    The file is cut into chunks (byte ranges split at line starts, several per process) that the
    processes take in turn from a shared counter, so a process that meets slower lines simply takes
    fewer chunks and all finish together. Each chunk is opened through `ingest` as a stream of its
    own, so it reads exactly the bytes a single pass reads there (NUL bytes are dropped, nothing else
    changes inside a plain UTF-8 file; a chunk that opens any other way makes the whole fall back).
    Returns (state, lines, bytes, content) as a single pass would, or None when a chunk failed or a
    signature timed out (the caller then scans in one pass: the notes name line numbers).
    """
    import gc
    import multiprocessing
    import os

    from troubleshooter.reading import ingest
    from troubleshooter.reading.stream import FileRange, line_start_at_or_after, scan_stream, whole_lines

    finder = finders.for_size(None)  # built once, before forking
    counter = counter_for(size)

    fd = os.open(path, os.O_RDONLY)
    shared = contextlib.ExitStack()
    try:
        n_chunks = chunk_count(size, jobs)
        bounds = sorted({line_start_at_or_after(fd, size * k // n_chunks, size) for k in range(n_chunks)} | {size})
        if len(bounds) < 3:
            return None
        chunks = len(bounds) - 1
        jobs = min(jobs, chunks)
        shared.enter_context(matcher.shared_by(jobs))  # each process remembers its share of lines
        gc.freeze()  # the collector leaves the inherited objects alone: fewer pages copied in the children
        ctx = multiprocessing.get_context("fork")
        counters = ctx.RawArray("q", chunks)
        next_chunk = ctx.Value("q", 0)
        errors_full = ctx.Value("b", 0)
        spare: list[bytearray] = []  # one read buffer per process, reused from chunk to chunk

        def run(k: int) -> tuple[MatchState, int, int, bool]:
            opened = ingest.open_stream(FileRange(fd, bounds[k], bounds[k + 1]), path)  # type: ignore[arg-type]
            if opened.encoding != (encoding if k == 0 else "utf-8") or (k and opened.notes):
                raise ValueError("this chunk does not open as plain text")  # a BOM or NUL run mid-file
            # Once the merged chunks hold every error line a report keeps, later chunks need none.
            state = MatchState(error_line_cap=0 if errors_full.value else MAX_ERROR_LINES)

            def report(done: int) -> None:
                counters[k] = done
                if progress is not None and multiprocessing.parent_process() is None:
                    progress(sum(counters))

            def after() -> bytes:
                tail = ingest.open_stream(FileRange(fd, bounds[k + 1], size), path)  # type: ignore[arg-type]
                return whole_lines(tail.stream)

            lines, nbytes, content = scan_stream(opened, finder, progress=report,
                                                 on_region=matcher.region_sink(state, counter),
                                                 context_after=after if k + 1 < chunks else None,
                                                 initial_bytes=BUFFER_BYTES // jobs, spare=spare)
            if errors_full.value:
                state.error_lines = []  # filled meanwhile: the merge would drop them (counted all the same)
            return state, lines, nbytes, content

        def work(deliver: Callable[[int, tuple[MatchState, int, int, bool]], None],
                 stop: Callable[[], bool] = lambda: False) -> None:
            while not stop():
                with next_chunk.get_lock():
                    k = next_chunk.value
                    next_chunk.value = k + 1
                if k >= chunks:
                    return
                deliver(k, run(k))

        def child(conn: Any) -> None:
            try:
                work(lambda k, result: conn.send((k, result)))  # each chunk as soon as it is done
                conn.send("done")
            except BaseException as exc:
                with contextlib.suppress(Exception):
                    conn.send(exc.__class__.__name__)
            finally:
                conn.close()

        merge = OrderedMerge(errors_full)

        def receive(conn: Any) -> None:
            try:
                while True:
                    got = conn.recv()
                    if got == "done":
                        return
                    if not isinstance(got, tuple):
                        merge.failed = True  # the child's error, by name
                        return
                    merge.add(*got)
            except Exception:
                merge.failed = True

        procs = []
        for _ in range(1, jobs):
            here, there = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=child, args=(there,), daemon=True)
            proc.start()
            there.close()
            procs.append((proc, here))
        receivers = [threading.Thread(target=receive, args=(conn,), daemon=True) for _proc, conn in procs]
        for thread in receivers:
            thread.start()
        finished = False
        try:
            work(merge.add, lambda: merge.failed)  # a child failed: the caller scans in one pass anyway
            finished = True
        except (OSError, ValueError):
            merge.failed = True
        finally:
            if not finished or merge.failed:
                for proc, _conn in procs:
                    proc.terminate()  # no point in finishing: the caller scans in one pass (or is stopping)
            for thread in receivers:
                thread.join()
            for proc, conn in procs:
                conn.close()
                proc.join(timeout=5)
                if proc.is_alive():
                    proc.terminate()
    finally:
        os.close(fd)
        gc.unfreeze()
        shared.close()
    if merge.failed or merge.merged != chunks or merge.state.slow_signatures:
        return None
    return merge.state, merge.lines, merge.nbytes, merge.content
