"""Ranking on a small KB built here: root cause first, cascades folded, floods collapsed,
neighbours as alternatives, version demotion, excludes."""

from __future__ import annotations

import textwrap

import pytest

from troubleshooter.api import Engine, diagnose
from troubleshooter.kb.loader import KnowledgeBase, parse_entry

_BASE = """
last_verified: 2026-11-22
references: [{{url: "https://example.com/x"}}]
causes: [{{text: "because {{node}}", certainty: reported}}]
fixes: [{{title: "do it", steps: [{{text: "run it", code: "trtexec --onnx=model.onnx", lang: bash}}]}}]
examples:
  match: [{{name: a, log: "x"}}]
  no_match: [{{name: b, log: "y"}}]
"""


def entry(yaml_text: str):  # type: ignore[no-untyped-def]
    text = textwrap.dedent(yaml_text) + _BASE.format()
    return parse_entry(text, "<test>")


SPECIFIC = entry("""
id: specific-no-impl
title: Specific
severity: error
applies: {trt: ">=8.0,<9.2"}
match:
  signatures:
    - {id: t, regex: 'Could not find any implementation for node (?P<node>[^()]*\\+ PWN\\(.*\\))\\.\\)', level: error, weight: 0.75}
    - {id: s, regex: 'Precision: FP32\\+INT8', role: support, weight: 0.1}
version_advice:
  - {versions: "<9.2", status: affected, text: "{tensorrt_version} is affected"}
  - {versions: ">=9.2", status: fixed, text: "fixed in {tensorrt_version}"}
""")
GENERIC = entry("""
id: generic-no-impl
title: Generic
severity: error
match:
  signatures:
    - {id: t, regex: 'Could not find any implementation for node (?P<node>.+?)\\.\\)', level: error, weight: 0.5}
""")
CASCADE = entry("""
id: cascade
title: Build failed
severity: error
cascade: true
match:
  signatures:
    - {id: t, regex: 'Engine could not be created from network', level: error, weight: 0.3}
""")
FLOOD = entry("""
id: flood
title: Missing scale
severity: warning
match:
  signatures:
    - {id: t, regex: 'Missing scale and zero-point for tensor (?P<tensor>[^,]+),', level: warning}
""")
OOM = entry("""
id: oom
title: OOM
severity: error
match:
  signatures:
    - {id: t, regex: 'Requested amount of GPU memory \\((?P<bytes>\\d+) bytes\\) could not be allocated'}
    - {id: built, regex: 'Engine built in', role: exclude, after_trigger: true}
""")

ENGINE = Engine.from_kb(KnowledgeBase([SPECIFIC, GENERIC, CASCADE, FLOOD, OOM]))

FAILED = """[I] TensorRT version: 8.6.1
[I] Precision: FP32+INT8
[W] [TRT] Missing scale and zero-point for tensor /a/Shape_output_0, expect fall back
[W] [TRT] Missing scale and zero-point for tensor /b/Shape_output_0, expect fall back
[W] [TRT] Missing scale and zero-point for tensor /a/Shape_output_0, expect fall back
[E] Error[10]: [optimizer.cpp::computeCosts::3869] Error Code 10: Internal Error (Could not find any implementation for node /m/Conv + PWN(PWN(/m/Sigmoid), /m/Mul).)
[E] Engine could not be created from network
[E] Building engine failed
"""


def run(text: str, **kw: str):  # type: ignore[no-untyped-def]
    return diagnose(text, engine=ENGINE, **kw)


def test_root_cause_first_with_alternative_and_consequences() -> None:
    report = run(FAILED)
    ids = [d.id for d in report.diagnoses]
    assert ids == ["specific-no-impl", "flood"]
    top = report.diagnoses[0]
    assert top.captures["node"] == "/m/Conv + PWN(PWN(/m/Sigmoid), /m/Mul)"
    assert [a.id for a in top.alternatives] == ["generic-no-impl"]
    assert top.consequences == [7]
    assert top.confidence == pytest.approx(0.85)
    assert top.version_advice == "8.6.1 is affected"
    assert top.version_status == "affected"
    assert top.causes[0].startswith("because /m/Conv + PWN")
    assert top.evidence[0].line == 6


def test_flood_is_one_diagnosis_with_count_and_values() -> None:
    flood = next(d for d in run(FAILED).diagnoses if d.id == "flood")
    assert flood.occurrences == 3
    assert flood.capture_values["tensor"] == ["/a/Shape_output_0", "/b/Shape_output_0"]


def test_version_outside_range_is_demoted_and_explained() -> None:
    report = run(FAILED, trt_version="10.3")
    # Demoted below the generic neighbour, it stays visible as an alternative.
    top = report.diagnoses[0]
    assert top.id == "generic-no-impl"
    alt = next(a for a in top.alternatives if a.id == "specific-no-impl")
    assert alt.confidence < 0.5
    only = diagnose(FAILED, trt_version="10.3", engine=Engine.from_kb(KnowledgeBase([SPECIFIC])))
    demoted = only.diagnoses[0]
    assert any("outside" in c for c in demoted.clues)
    assert demoted.version_advice == "fixed in 10.3"


def test_cascade_alone_is_reported() -> None:
    report = run("[E] Engine could not be created from network\n")
    assert [d.id for d in report.diagnoses] == ["cascade"]


def test_unknown_version_asks_for_it() -> None:
    report = run(FAILED.replace("[I] TensorRT version: 8.6.1\n", ""))
    top = report.diagnoses[0]
    assert top.version_status is None
    assert "--trt-version" in (top.version_advice or "")
    assert [a.status for a in top.version_advice_all] == ["affected", "fixed"]
    assert any("TensorRT version" in a for a in top.asks)


def test_exclude_after_trigger_for_a_build_that_finished() -> None:
    warn = "[W] [TRT] Requested amount of GPU memory (4294967296 bytes) could not be allocated.\n"
    assert [d.id for d in run(warn + "[E] Building engine failed\n").diagnoses] == ["oom"]
    assert run(warn + "[I] Engine built in 41.2 sec.\n").diagnoses == []


def test_same_words_at_info_level_do_not_match() -> None:
    line = "[I] Could not find any implementation for node /m/Conv + PWN(PWN(/m/Sigmoid), /m/Mul).)\n"
    assert run(line).diagnoses == []


def test_unexplained_errors_are_listed_with_suggestions_not_verdicts() -> None:
    report = run("[E] [TRT] 2: [foo.cpp::bar::12] Error Code 2: Internal Error (Could not find any implementation)\n")
    assert report.diagnoses == []
    assert report.unexplained and report.unexplained[0].line == 1


def test_noise_does_not_change_the_top_diagnosis() -> None:
    noise = "[V] [TRT] Tactic: 0x0000000000000000 Time: 0.0123\n" * 500
    report = run(noise + FAILED + noise)
    assert report.diagnoses[0].id == "specific-no-impl"
    assert report.diagnoses[0].evidence[0].line == 506


def test_windows_paste_with_blank_lines_keeps_original_line_numbers() -> None:
    pasted = "\r\n\r\n".join(FAILED.splitlines()) + "\r\n"
    report = run(pasted)
    assert report.diagnoses[0].id == "specific-no-impl"
    assert report.diagnoses[0].evidence[0].line == 11


def test_wrapped_line_is_joined() -> None:
    wrapped = ("[E] Error[10]: [optimizer.cpp::computeCosts::3869] Error Code 10: Internal Error (Could not find any "
               "implementation for node /m/Conv + PWN(PWN(/m/Sig\nmoid), /m/Mul).)\n")
    report = run(wrapped)
    assert report.diagnoses[0].captures["node"] == "/m/Conv + PWN(PWN(/m/Sigmoid), /m/Mul)"


def test_deterministic() -> None:
    assert run(FAILED).model_dump_json() == run(FAILED).model_dump_json()


def test_success_of_an_earlier_run_does_not_hide_a_later_failure() -> None:
    warn = "[W] [TRT] Requested amount of GPU memory (4294967296 bytes) could not be allocated.\n"
    log = warn + "[I] Engine built in 41.2 sec.\n" + "[V] noise\n" * 5 + warn + "[E] Building engine failed\n"
    assert [d.id for d in run(log).diagnoses] == ["oom"]
