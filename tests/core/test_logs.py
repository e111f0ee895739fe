"""Prefix recognition on the line formats users actually paste."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from troubleshooter.core import logs as _logs
from troubleshooter.core.logs import parse_line
from troubleshooter.models import Level

CASES = [
    ("[08/07/2024-12:27:04] [E] Error[10]: [optimizer.cpp::computeCosts::3897] Error Code 10: Internal Error (x)",
     Level.ERROR, None, "Error[10]: [optimizer.cpp::computeCosts::3897] Error Code 10: Internal Error (x)"),
    ("[06/26/2023-14:33:12] [TRT] [E] 6: The engine plan file is not compatible", Level.ERROR, "python",
     "6: The engine plan file is not compatible"),
    ("[06/06/2023-15:09:18] [W] [TRT] onnx2trt_utils.cpp:374: Your ONNX model has been generated with INT64 weights",
     Level.WARNING, "trtexec", "onnx2trt_utils.cpp:374: Your ONNX model has been generated with INT64 weights"),
    ("[TensorRT] ERROR: Network must have at least one output", Level.ERROR, "trt7", "Network must have at least one output"),
    ("ERROR: [TRT]: 3: [builder.cpp::buildSerializedNetwork::609] Error Code 3: API Usage Error (x)", Level.ERROR,
     "python", "3: [builder.cpp::buildSerializedNetwork::609] Error Code 3: API Usage Error (x)"),
    (("2023-05-10 10:12:31.123 [W:onnxruntime:Default, tensorrt_execution_provider.h:63 log] "
      "[2023-05-10 02:12:31 ERROR] 10: [optimizer.cpp::computeCosts::3728] Error Code 10: Internal Error (y)"),
     Level.ERROR, "onnxruntime", "10: [optimizer.cpp::computeCosts::3728] Error Code 10: Internal Error (y)"),
    ("ERROR: [Torch-TensorRT TorchScript Conversion Context] - 4: [network.cpp::validate::2891] Error Code 4: x",
     Level.ERROR, "torch-tensorrt", "4: [network.cpp::validate::2891] Error Code 4: x"),
    ("E0305 12:00:00.123456 1 model_repository_manager.cc:1152] failed to load 'yolo'", Level.ERROR, "glog",
     "failed to load 'yolo'"),
    ("trt-1  | [11/22/2024-01:25:55] [E] [TRT] 1: [defaultAllocator.cpp::deallocateAsync::64] Error Code 1: Cuda",
     Level.ERROR, "trtexec", "1: [defaultAllocator.cpp::deallocateAsync::64] Error Code 1: Cuda"),
    ("\x1b[31m[E]\x1b[0m [TRT] 3: API Usage Error", Level.ERROR, "trtexec", "3: API Usage Error"),
    ("AttributeError: 'tensorrt_bindings.tensorrt.Builder' object has no attribute 'build_engine'", Level.ERROR,
     "traceback", "AttributeError: 'tensorrt_bindings.tensorrt.Builder' object has no attribute 'build_engine'"),
    ("[!] Invalid Engine. Please ensure the engine was built correctly", Level.ERROR, None,
     "Invalid Engine. Please ensure the engine was built correctly"),
    ("[V] [TRT] Registered plugin creator - ::BatchedNMS_TRT version 1", Level.VERBOSE, "trtexec",
     "Registered plugin creator - ::BatchedNMS_TRT version 1"),
    ("2024-03-01 10:00:00,123 - root - ERROR - build failed", Level.ERROR, "python-logging", "build failed"),
    ("[E] 3: [network.cpp::addInput::1514] Error Code 3: API Usage Error", Level.ERROR, None,
     "3: [network.cpp::addInput::1514] Error Code 3: API Usage Error"),
    ("0:00:02.912203384  4121 0xaaaae1c0e460 ERROR                nvinfer gstnvinfer.cpp:676:gst_nvinfer_logger:"
     "<primary-inference> NvDsInferContext[UID 1]: build engine file failed", Level.ERROR, None,
     "NvDsInferContext[UID 1]: build engine file failed"),
    ("WARN                 nvinfer gstnvinfer.cpp:515:gst_nvinfer_logger:<primary_gie_classifier> NvDsInferContext[UID 1]:"
     "useEngineFile(): Failed to read from model engine file", Level.WARNING, None,
     "NvDsInferContext[UID 1]:useEngineFile(): Failed to read from model engine file"),
    ("0:00:02.99 4121 0xaaaae1c0e460 WARN                 nvinfer gstnvinfer.cpp:898:gst_nvinfer_start:<primary-inference> "
     "error: Failed to create NvDsInferContext instance", Level.ERROR, None,
     "error: Failed to create NvDsInferContext instance"),
    ("6: [runtime.cpp::isCudaInstalledCorrectly::41] Error Code 6: Internal Error (CUDA initialization failure)",
     Level.ERROR, None, "6: [runtime.cpp::isCudaInstalledCorrectly::41] Error Code 6: Internal Error (CUDA initialization failure)"),
]


@pytest.mark.parametrize("raw,level,origin,text", CASES, ids=[c[0][:40] for c in CASES])
def test_prefixes(raw: str, level: Level, origin: str | None, text: str) -> None:
    line = parse_line(7, raw)
    assert line.no == 7
    assert line.level == level
    assert line.origin == origin
    assert line.text == text


def test_wrapper_warning_tag_with_error_payload_is_an_error() -> None:
    # Severity tags lie: Torch-TensorRT and ORT sometimes log TensorRT errors under a warning tag.
    line = parse_line(1, "WARNING: [Torch-TensorRT] - 10: [optimizer.cpp::computeCosts::3869] Error Code 10: x")
    assert line.level == Level.ERROR


def test_verbose_tag_is_not_promoted() -> None:
    line = parse_line(1, "[V] [TRT] Tactic: 0x0000 Error Code 10: printed while tuning")
    assert line.level == Level.VERBOSE


def test_crlf_and_carriage_returns() -> None:
    assert parse_line(1, "[E] boom\r").text == "boom"
    assert parse_line(1, "progress 10%\rprogress 100%\r[I] done").text == "done"


def test_long_line_is_capped() -> None:
    line = parse_line(1, "[E] " + "x" * 100_000)
    assert len(line.raw) <= 8192


def test_prefix_rules_match_in_place() -> None:
    """The prefix rules run as one alternation matched at a position (not on a slice): read from each
    regex, none anchors at a start, tests a word boundary or looks behind, and none can match nothing
    (which would end the prefix loop early); the reading tells such rules apart."""
    from troubleshooter.core import logs
    from troubleshooter.core.regexes import looks_behind

    assert [src for src, *_ in logs._RULES if looks_behind(src, 0)] == []
    assert [src for src, *_ in logs._RULES if re.compile(src).match("") is not None] == []
    assert all(looks_behind(bad) for bad in (r"^\[E\] ", r"\bERROR: ", r"(?<=x)\[W\] ", r"(?:\[W\] |\A)x"))
    assert not any(looks_behind(good) for good in (r"\[(?P<lvl>[VIWEF!])\]\s*", r"[^\s\]]+:\d+\] $"))
    # each rule reads its level in its one named group
    assert all(re.compile(src).groupindex.keys() <= {"lvl"} for src, *_ in logs._RULES)


def test_every_error_line_holds_a_finder_marker() -> None:
    """The failure vocabulary lives in two forms in logs.py: the regexes that make a line an error line
    and the literals (ERROR_MARKERS, MARKER_PATTERNS) by which the finders pick candidate lines. A
    wording added to the regexes without a marker would be parsed right and never looked at: every
    error line of every sample log, real and written, holds a marker."""
    from pathlib import Path

    from troubleshooter.core.logs import ERROR_MARKERS, MARKER_PATTERNS, decode_line, is_error_line

    markers = [re.compile(m) for m in MARKER_PATTERNS]
    root = Path(__file__).resolve().parents[2] / "sample_logs"
    missing = []
    checked = 0
    for path in sorted(root.glob("**/*.log")):
        for raw in path.read_bytes().splitlines():
            line = parse_line(1, decode_line(raw))
            if not is_error_line(line):
                continue
            checked += 1
            if not any(m in line.raw for m in ERROR_MARKERS) and not any(p.search(line.raw) for p in markers):
                missing.append((path.name, line.raw[:120]))
    assert checked > 2000
    assert not missing, missing[:10]


def test_warning_lines_are_checked_for_an_error_payload_by_literal_first() -> None:
    """A warning line is searched for an error payload (`_PAYLOAD_ERROR`, a long alternation) only when it
    holds one of the payload's literals: if the literals cannot be derived, every warning line of a verbose
    log pays for the whole search (it did, unnoticed, once the payload grew a 3-character branch)."""
    from troubleshooter.core import logs
    from troubleshooter.core.regexes import derive_literals

    literals = derive_literals(logs._PAYLOAD_ERROR.pattern, 3)
    assert literals is not None and "Error Code " in literals
    assert parse_line(1, "[W] [TRT] 2: [x.cpp::f::1] Error Code 2: Internal Error (y)").level is Level.ERROR
    assert parse_line(1, "[W] [TRT] Tactic failed to time, skipping").level is Level.WARNING


def test_prefix_rules_can_start_with_what_they_match() -> None:
    """The characters a prefix rule can start with are read from its regex (`regexes.can_start`): every
    match of a rule on a sample line starts with a character the reading allows."""
    from pathlib import Path

    from troubleshooter.core import logs
    from troubleshooter.core.regexes import can_start

    root = Path(__file__).resolve().parents[2] / "sample_logs"
    lines = [logs.strip_ansi(logs.decode_line(raw)) for p in sorted(root.glob("**/*.log"))
             for raw in p.read_bytes().splitlines()]
    matched = 0
    for src, *_ in logs._RULES:
        rule = re.compile(src)
        for line in lines:
            for start in range(min(len(line), 40)):
                m = rule.match(line, start)
                if m is not None and m.end() > start:
                    matched += 1
                    assert can_start(src, line[start]), (src, line[start:start + 40])
    assert matched > 10_000
    assert not can_start(r"\[(?P<lvl>[VIWEF!])\]", "E") and can_start(r"(?:\d+ )?x", "7") and can_start(r"(?:\d+ )?x", "x")


def test_first_character_dispatch_changes_no_line() -> None:
    """Every line of every sample log, real and written, reads the same with the rules tried by first
    character and with every rule tried at every step."""
    from pathlib import Path

    from troubleshooter.core import logs

    fast = logs._make_parser(dispatch_after=0)
    every_rule = logs._make_parser(dispatch_after=10**9)
    root = Path(__file__).resolve().parents[2] / "sample_logs"
    lines = [logs.decode_line(raw) for p in sorted(root.glob("**/*.log")) for raw in p.read_bytes().splitlines()]
    lines += [prefix + "rest" for prefix in ("trt-1  | ", "E0305 12:00:00.1 1 a.cc:1] ", "- x - ERROR - ", ": W a.cc:1] ")]
    assert len(lines) > 15_000
    for line in lines:
        assert fast(line) == every_rule(line), line


def test_every_marker_pattern_is_anchored_at_a_line_start() -> None:
    """The pure-Python finder searches a `^...` marker only right after a newline (`fold_marker`); an
    unanchored one is tried at every position of every buffer, and one (a TensorFlow marker starting
    with a digit class) made the pure finder half again as slow on a verbose log. A wording that needs
    no anchor belongs in ERROR_MARKERS as a literal."""
    from troubleshooter.core.logs import MARKER_PATTERNS
    from troubleshooter.core.regexes import fold_marker

    assert [m for m in MARKER_PATTERNS if fold_marker(m) is None] == []


_FRAGMENTS = ["[08/07/2024-12:27:04]", " ", "[E]", "[W]", "[TRT]", "[TRT]:", "ERROR:", "WARNING -", "trt-1  |",
              "E0305 12:00:00.123456 1 x.cc:12]", "[TensorRT]", "Error Code 4:", "Traceback (most recent call last):",
              "\x1b[31m", "\r", "\t", "x", "[6] Invalid Node", "&&&& FAILED", "[!]", "ValueError: ", "2024-01-01 10:00:00",
              "2023-01-27 14:05:53.348636: W a.cc:64]", "#36 235.7 ", "(gst:7): GStreamer-WARNING **: ", "[mmdeploy] [error]",
              "[libprotobuf ERROR a.cc:1]", "- root - INFO - ", "INFO:root:", "é", "ü", "\u6bb5\u9519\u8bef", ":", "-"]


_DISPATCHED = _logs._make_parser(dispatch_after=0)
_EVERY_RULE = _logs._make_parser(dispatch_after=10**9)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=8))
def test_first_character_dispatch_on_any_mix_of_prefixes(parts: list[str]) -> None:
    """Random mixes of every wrapper's prefix read the same with and without the first-character dispatch."""
    text = "".join(parts)
    assert _DISPATCHED(text) == _EVERY_RULE(text)


def test_no_marker_pattern_repeats_before_its_literal_part() -> None:
    # Hyperscan (SOM_LEFTMOST) crashed the process on a marker `^(?:\S*/)?ld...` (2026-11-28): keep markers plain
    from troubleshooter.core.logs import MARKER_PATTERNS

    for marker in MARKER_PATTERNS:
        assert not re.search(r"\\S\*|\.\*|\\S\+|\.\+", marker), marker
