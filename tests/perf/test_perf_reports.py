"""The fast paths change nothing in a report: Hyperscan or pure finder, the remembered-line path or
line by line, any buffer size, a warm or a cold memory, file, gzip or stdin."""

from __future__ import annotations

import gzip
import io
import itertools
import json
import random
from pathlib import Path

import pytest
from perf_helpers import HAVE_HYPERSCAN, SAMPLES, engine, generate_log, report_json, sample_logs

from troubleshooter import api
from troubleshooter.core.logs import parse_line
from troubleshooter.core.state import MAX_ERROR_LINES, MAX_EVIDENCE, MAX_VALUE_CHARS, MAX_VALUES, MatchState
from troubleshooter.reading import ingest
from troubleshooter.reading import stream as scan

SAMPLES_LOG = SAMPLES / "yolov8-int8-orin-silu.log"
needs_hyperscan = pytest.mark.skipif(not HAVE_HYPERSCAN, reason="hyperscan is not installed (the `fast` extra)")


def per_line_report(path: Path, eng: api.Engine, buffer_bytes: int = scan.BUFFER_BYTES) -> str:
    """The report through the plain per-line interface (`Matcher.feed`), as the engine was first written."""
    state = MatchState()
    opened = ingest.open_path(path)
    lines, nbytes, _content = scan.scan_stream(
        opened, eng.finders.for_size(None), lambda no, raw, nxt: eng.matcher.feed(state, no, raw, nxt),
        buffer_bytes=buffer_bytes)
    return _finish_from_state(opened, state, lines, nbytes, eng)


def region_report(path: Path, eng: api.Engine, buffer_bytes: int) -> str:
    state = MatchState()
    opened = ingest.open_path(path)
    lines, nbytes, _content = scan.scan_stream(opened, eng.finders.for_size(None), on_region=eng.matcher.region_sink(state),
                                              buffer_bytes=buffer_bytes)
    return _finish_from_state(opened, state, lines, nbytes, eng)


def _finish_from_state(opened: ingest.Opened, state: MatchState, lines: int, nbytes: int, eng: api.Engine) -> str:
    from troubleshooter.core.ranking import rank

    env = state.env.result(None)
    diagnoses = rank(eng.matcher.entries, state, env)
    hits = {k: [(s, h.count, h.first_line, h.last_line, [e.line for e in h.evidence], h.captures, h.values)
                for s, h in v.by_sig.items()] for k, v in state.hits.items()}
    return repr((lines, nbytes, env, [d.id for d in diagnoses], hits,
                 [(ln.no, ln.text, sorted(ids)) for ln, ids in state.error_lines], state.error_lines_seen))


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_log(tmp_path_factory.mktemp("gen") / "gen.log", "6M", seed=3)


@needs_hyperscan
def test_hyperscan_and_pure_reports_are_identical_on_sample_logs() -> None:
    fast, pure = engine("hyperscan"), engine("python")
    for path in sample_logs():
        assert report_json(path, fast) == report_json(path, pure), path.name


@needs_hyperscan
def test_hyperscan_and_pure_reports_are_identical_on_a_generated_log(generated: Path) -> None:
    assert report_json(generated, engine("hyperscan")) == report_json(generated, engine("python"))


def test_remembered_lines_change_nothing(generated: Path) -> None:
    """The region path (with its memory of repeated lines) against `feed` line by line; then again
    with the memory warm."""
    eng = engine("python")
    expected = per_line_report(generated, engine("python"))
    assert region_report(generated, eng, scan.BUFFER_BYTES) == expected
    assert region_report(generated, eng, scan.BUFFER_BYTES) == expected  # warm memory


def test_reports_do_not_depend_on_the_buffer_size(generated: Path, tmp_path: Path) -> None:
    # Wrapped lines (an open parenthesis continued on the next line) land on every buffer boundary.
    wrapped = tmp_path / "wrapped.log"
    block = (b"[08/07/2024-12:27:04] [E] [TRT] 10: [optimizer.cpp::computeCosts::3869] Error Code 10: Internal Error "
             b"(Could not find any implementation for node /model.22/Conv_\n"
             b"quantized.)\n" + b"[08/07/2024-12:27:04] [V] [TRT] filler line\n" * 7)
    wrapped.write_bytes(block * 400)
    for path in (generated, wrapped, *sample_logs()[:20]):
        expected = region_report(path, engine("python"), scan.BUFFER_BYTES)
        for size in (4096, 65536):
            assert region_report(path, engine("python"), size) == expected, (path.name, size)
    assert per_line_report(wrapped, engine("python"), 4096) == region_report(wrapped, engine("python"), 4096)


def test_gzip_and_stdin_give_the_file_report(tmp_path: Path) -> None:
    eng = engine("python")
    for path in sample_logs()[:15]:
        expected = api.diagnose_path(path, engine=eng)
        packed = tmp_path / (path.name + ".gz")
        packed.write_bytes(gzip.compress(path.read_bytes()))
        from_gz = api.diagnose_path(packed, engine=eng)
        from_stdin = api.diagnose_stream(io.BytesIO(path.read_bytes()), name=str(path), engine=eng)
        assert from_gz.diagnoses == expected.diagnoses and from_gz.environment == expected.environment
        assert from_gz.source.lines == expected.source.lines
        assert from_stdin.model_dump_json() == expected.model_dump_json()


def test_lines_of_any_length(tmp_path: Path) -> None:
    """A line longer than the buffer is matched on its head and keeps its number."""
    log = tmp_path / "long.log"
    head = b"[08/07/2024-12:27:04] [E] [TRT] 1: [defaultAllocator.cpp::deallocateAsync::64] Error Code 1: Cuda Runtime (operation not supported)"
    log.write_bytes(b"first line\n" + head + b" " + b"x" * (3 * 1024 * 1024) + b"\nlast line\n" + head + b"\n")
    state = MatchState()
    eng = engine("python")
    lines, _nbytes, _ = scan.scan_stream(ingest.open_path(log), eng.finders.for_size(None),
                                        on_region=eng.matcher.region_sink(state), buffer_bytes=1024 * 1024)
    assert lines == 4
    sh = state.hits["cuda-dealloc-async-unsupported"]
    lines_seen = sorted({e.line for h in sh.by_sig.values() for e in h.evidence})
    assert lines_seen == [2, 4]
    assert all(len(e.text) <= 8192 for h in sh.by_sig.values() for e in h.evidence)


def test_timestamps_never_change_how_a_line_reads() -> None:
    """The memory of repeated lines sets a trtexec timestamp aside; reading must not depend on it."""
    rests = [" [E] [TRT] 10: x", " [TRT] [W] y", "[W] z", " ERROR: [TRT]: w", "] [TRT] [E] v", ""]
    for rest in rests:
        a = parse_line(1, "[08/07/2024-12:27:04]" + rest)
        b = parse_line(1, "[11/30/1999-23:59:59]" + rest)
        assert (a.level, a.origin, a.text) == (b.level, b.origin, b.text), rest


def test_bounded_per_log_state(tmp_path: Path) -> None:
    """A flood of matching lines: counts keep going, what is kept is capped."""
    log = tmp_path / "flood.log"
    lines = [f"[08/07/2024-12:27:04] [W] [TRT] Missing scale and zero-point for tensor t{i}, expect fall back "
             f"to non-int8 implementation for any layer consuming or producing given tensor" for i in range(5000)]
    lines += [f"[08/07/2024-12:27:04] [E] [TRT] unknown failure number {i}" for i in range(1000)]
    lines += [f"[W] [TRT] Missing scale and zero-point for tensor {i}{'y' * 2000}, expect fall back to non-int8 "
              "implementation for any layer consuming or producing given tensor" for i in range(3)]
    log.write_text("\n".join(lines) + "\n")
    state = MatchState()
    eng = engine("python")
    scan.scan_stream(ingest.open_path(log), eng.finders.for_size(None), on_region=eng.matcher.region_sink(state))
    sh = state.hits["int8-missing-scale"].by_sig["missing-scale"]
    assert sh.count == 5003 and sh.first_line == 1 and sh.last_line == 6003
    assert len(sh.evidence) == MAX_EVIDENCE
    assert all(len(v) == MAX_VALUES for v in sh.values.values())
    # A runaway capture on a long line is cut: what is kept per value stays small.
    long_line = MatchState()
    eng.matcher.feed(long_line, 1, lines[-1].encode())
    (value,) = long_line.hits["int8-missing-scale"].by_sig["missing-scale"].values["tensor"]
    assert len(value) == MAX_VALUE_CHARS and value.startswith("2yyy")
    assert len(state.error_lines) == MAX_ERROR_LINES and state.error_lines_seen == 1000


def test_memory_of_lines_is_bounded(monkeypatch: pytest.MonkeyPatch, generated: Path) -> None:
    from troubleshooter.core import matcher

    expected = report_json(generated, engine("python"))
    monkeypatch.setattr(matcher, "MEMO_LINES", 100)
    eng = engine("python")
    assert report_json(generated, eng) == expected
    assert len(eng.matcher._memo_ts) <= 200 and len(eng.matcher._memo) <= 200  # two generations


def test_parallel_parts_give_the_single_pass_report(monkeypatch: pytest.MonkeyPatch, generated: Path,
                                                     tmp_path: Path) -> None:
    """A large file scanned in parts on several processes: the same report as one pass."""
    from troubleshooter.reading import parallel

    # Every kind of line near every part boundary: wrapped lines, NUL bytes, environment facts.
    mixed = tmp_path / "mixed.log"
    block = (b"[08/07/2024-12:27:04] [I] TensorRT version: 8.6.1\n"
             b"[08/07/2024-12:27:04] [E] [TRT] 10: [optimizer.cpp::computeCosts::3869] Error Code 10: Internal Error "
             b"(Could not find any implementation for node /model.22/Conv_\n"
             b"quantized.)\n"
             b"[08/07/2024-12:27:04] [W] [TRT] Missing scale and zero-point for tensor t\x00x, expect fall back to "
             b"non-int8 implementation for any layer consuming or producing given tensor\n"
             b"&&&& PASSED TensorRT.trtexec [TensorRT v8601] # trtexec --int8\n")
    mixed.write_bytes(block * 3000 + (SAMPLES_LOG.read_bytes() if SAMPLES_LOG.exists() else b""))
    for path in (generated, mixed):
        monkeypatch.setenv("TRT_WHY_JOBS", "1")
        expected = report_json(path, engine("python"))
        monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 1024)
        monkeypatch.setattr(parallel, "PART_MIN_BYTES", 1024)
        for jobs in ("2", "3"):
            monkeypatch.setenv("TRT_WHY_JOBS", jobs)
            assert parallel.parallel_jobs(path.stat().st_size) == int(jobs)
            eng = engine("python")
            assert report_json(path, eng) == expected, (path.name, jobs)
            # ... and the parts really ran (no silent fall-back to one pass).
            eng = engine("python")
            done = parallel.scan_file_parallel(str(path), eng.matcher, eng.finders, path.stat().st_size, int(jobs))
            assert done is not None and done[1] == json.loads(expected)["source"]["lines"]
        monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 96 * 1024 * 1024)


def _part_states(eng: api.Engine, lines: list[bytes], cut: list[int]) -> list[tuple[MatchState, int]]:
    """The state of each slice lines[a:b] between consecutive cut points, fed line by line."""
    parts = []
    for a, b in itertools.pairwise(cut):
        st = MatchState()
        for i in range(a, b):
            eng.matcher.feed(st, i - a + 1, lines[i], lines[i + 1:i + 3])
        parts.append((st, b - a))
    return parts


def test_merged_parts_equal_one_state() -> None:
    """`merge_parts` over states built from consecutive slices of lines equals one state."""
    from troubleshooter.reading.parallel import merge_parts

    eng = engine("python")
    lines = []
    for path in sample_logs():
        lines += path.read_bytes().split(b"\n")
    whole = MatchState()
    for no, raw in enumerate(lines, 1):
        eng.matcher.feed(whole, no, raw, lines[no:no + 2])
    rng = random.Random(7)
    for n_parts in (2, 3, 17):
        cut = sorted({0, len(lines), *rng.sample(range(1, len(lines)), n_parts - 1)})
        merged = merge_parts(_part_states(eng, lines, cut))
        assert merged.env == whole.env, n_parts  # every collector field, with its line numbers
        assert merged.env.result() == whole.env.result()
        assert repr(merged.hits) == repr(whole.hits)
        assert merged.error_lines == whole.error_lines and merged.error_lines_seen == whole.error_lines_seen


def test_below_level_shortcut_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """`_analyse` skips the signature loop for a line below the level of every signature its literals
    lead to; with the shortcut turned off the loop gives the same line info and the same state."""
    eng = engine("python")
    m = eng.matcher
    tags = ["", "[V] ", "[I] ", "[W] ", "[E] ", "[V] [TRT] ", "[TRT] [I] ", "VERBOSE: ", "[TensorRT] INFO: ",
            "[W:onnxruntime:Default, x.cc:1 log] ", "I0305 12:00:00.123456 1 m.cc:1] "]
    payloads = [f"Skipping tactic 0x3 {lit} on requested size of 4194304 (x" if i % 3 == 0 else
                f"node /m/Conv_{i} {lit} Error Code 2: detail" if i % 3 == 1 else f"{lit}"
                for i, lit in enumerate(sorted([*m.by_literal, *m.caseless]))]
    lines = [f"[08/07/2024-12:27:04] {tag}{p}".encode() for tag in tags for p in payloads]
    for path in sample_logs():
        for raw in path.read_bytes().splitlines():
            lines += [raw, b"[08/07/2024-12:27:04] [V] " + raw, b"[I] " + raw]
    sig_lists = 0
    real_sig_list = m._sig_list

    def counting(*args: object) -> object:
        nonlocal sig_lists
        sig_lists += 1
        return real_sig_list(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(m, "_sig_list", counting)

    def run() -> tuple[list[object], str, int]:
        nonlocal sig_lists
        sig_lists = 0
        state = MatchState()
        infos = []
        for no, raw in enumerate(lines, 1):
            m.feed(state, no, raw)
            infos.append(m._analyse(MatchState(), no, raw, ())[0])
        return infos, repr((state.hits, state.env, state.error_lines, state.error_lines_seen)), sig_lists

    fast = run()
    monkeypatch.setattr(m, "_floor", dict.fromkeys(m._floor, -1))
    monkeypatch.setattr(m, "_cfloor", dict.fromkeys(m._cfloor, -1))
    slow = run()
    assert fast[1] == slow[1]
    assert fast[0] == slow[0]
    assert fast[2] < slow[2] - 100  # the shortcut did skip the loop on many lines


def test_numpy_newline_counting_gives_the_same_report(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Line numbers counted with numpy (large inputs) are the ones `bytes.count` gives."""
    numpy = pytest.importorskip("numpy")
    from troubleshooter.reading import newlines

    log = tmp_path / "all.log"
    log.write_bytes(b"".join(p.read_bytes() + b"\n\n" for p in sample_logs()))
    eng = engine("python")
    expected = region_report(log, eng, 1 << 16)
    monkeypatch.setattr(newlines, "NUMPY_MIN_SPAN", 16)  # numpy on nearly every stretch
    calls = 0
    real = numpy.count_nonzero

    def counting(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(numpy, "count_nonzero", counting)
    for size in (1 << 16, 1 << 20):
        state = MatchState()
        opened = ingest.open_path(log)
        lines, nbytes, _ = scan.scan_stream(opened, eng.finders.for_size(None), on_region=eng.matcher.region_sink(state, lambda buf: newlines.newline_counter(buf, numpy)),
                                            buffer_bytes=size)
        assert _finish_from_state(opened, state, lines, nbytes, eng) == expected
    assert calls > 100
    monkeypatch.setenv("TRT_WHY_NUMPY", "0")
    assert newlines.numpy_for(newlines.NUMPY_MIN_BYTES) is None
    monkeypatch.delenv("TRT_WHY_NUMPY")
    assert newlines.numpy_for(newlines.NUMPY_MIN_BYTES) is numpy and newlines.numpy_for(1 << 20) is None


def test_memory_of_long_lines_is_bounded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Long candidate lines that never repeat: the remembered lines stay within the byte bound (a
    count bound alone let 16,384 lines of 16 KiB each pile up), and the report does not change."""
    from troubleshooter.core import matcher

    log = tmp_path / "long.log"
    log.write_bytes(b"".join(
        b"[08/07/2024-12:27:04] [W] [TRT] Missing scale and zero-point for tensor t%d_%s, expect fall back to "
        b"non-int8 implementation for any layer consuming or producing given tensor\n" % (i, b"x" * 3000)
        for i in range(2000)))
    expected = report_json(log, engine("python"))
    monkeypatch.setattr(matcher, "MEMO_BYTES", 64 * 1024)
    eng = engine("python")
    assert report_json(log, eng) == expected
    for memo in (eng.matcher._memo_ts, eng.matcher._memo):
        for generation in (memo.new, memo.old):
            held = sum(memo.cost(key, info) for key, info in generation.items())
            assert held <= 64 * 1024 + 3 * 3200  # the bound, plus the line that crossed it
    assert len(eng.matcher._memo_ts) > 10  # lines were remembered, within the bound


def test_parts_merge_raises_the_flag_once_every_error_line_is_in() -> None:
    """Part results merged as they come (in file order: `Pool.imap` keeps it) give the one-pass state; the
    shared flag goes up once the merged parts hold every error line a report keeps (later parts keep none)."""
    from troubleshooter.reading.parallel import PartsMerge, merge_parts

    eng = engine("python")
    lines = []
    for path in sample_logs():
        lines += path.read_bytes().split(b"\n")
    lines += [b"[E] unknown failure number %d" % i for i in range(500)]  # past MAX_ERROR_LINES in all
    cut = [*range(0, len(lines), max(1, len(lines) // 12)), len(lines)]
    parts = _part_states(eng, lines, cut)
    expected = merge_parts(parts)

    class Flag:
        value = 0

    flag = Flag()
    merge = PartsMerge(flag)
    for state, n in parts:
        merge.add((state, n, 10, True))
    assert merge.merged == len(parts) and merge.lines == len(lines) and merge.nbytes == 10 * len(parts)
    assert repr(merge.state.hits) == repr(expected.hits) and merge.state.env == expected.env
    assert merge.state.error_lines == expected.error_lines
    assert len(expected.error_lines) == MAX_ERROR_LINES and flag.value == 1


def test_parallel_falls_back_to_one_pass_when_a_chunk_is_not_plain(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    """A chunk that does not open as plain UTF-8 (here every line starts with a byte-order mark) makes
    the parts give up, and the report is the single pass's."""
    from troubleshooter.reading import parallel

    log = tmp_path / "bom.log"
    log.write_bytes(b"".join(b"\xef\xbb\xbf" + line + b"\n" for line in SAMPLES_LOG.read_bytes().splitlines()) * 3)
    monkeypatch.setenv("TRT_WHY_JOBS", "1")
    expected = report_json(log, engine("python"))
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 1024)
    monkeypatch.setattr(parallel, "PART_MIN_BYTES", 1024)
    monkeypatch.setenv("TRT_WHY_JOBS", "2")
    eng = engine("python")
    assert parallel.scan_file_parallel(str(log), eng.matcher, eng.finders, log.stat().st_size, 2) is None
    assert report_json(log, engine("python")) == expected


def test_no_parts_while_other_threads_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forking beside other threads is not safe: a process that runs them scans in one pass."""
    import threading

    from troubleshooter.reading import parallel

    monkeypatch.setenv("TRT_WHY_JOBS", "2")
    big = 4 * parallel.PARALLEL_MIN_BYTES
    assert parallel.parallel_jobs(big) == 2
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert parallel.parallel_jobs(big) == 1
    finally:
        stop.set()
        other.join()


def test_kept_error_lines_are_cut(tmp_path: Path) -> None:
    """A long error line is kept cut (its start, marked), the same through every path; the report
    still counts it and names its line."""
    from troubleshooter.core.matcher import MAX_ERROR_LINE_CHARS

    long_line = "[08/07/2024-12:27:04] [E] [TRT] 2: [x.cpp::f::1] Error Code 2: Internal Error (" + "q" * 6000 + ")"
    log = tmp_path / "long-error.log"
    log.write_text(f"[08/07/2024-12:27:04] [I] start\n{long_line}\n{long_line}\n[I] end\n")
    for prefer in ("python", "hyperscan") if HAVE_HYPERSCAN else ("python",):
        report = json.loads(report_json(log, engine(prefer)))
        (u,) = report["unexplained"]
        assert u["line"] == 2 and u["count"] == 2
        assert len(u["text"]) == MAX_ERROR_LINE_CHARS + len(" [...]") and u["text"].endswith("qqq [...]")
