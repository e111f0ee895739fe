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
    - {id: t, regex: 'Could not find any implementation for node (?P<node>[^()]*\\+ PWN\\(.*\\))\\.\\)', level: error, weight: 0.75, literals: ["Could not find any implementation for node "]}
    - {id: s, regex: 'Precision: FP32\\+INT8', role: support, weight: 0.1, literals: ["Precision: FP32+INT8"]}
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
    - {id: t, regex: 'Could not find any implementation for node (?P<node>.+?)\\.\\)', level: error, weight: 0.5, literals: ["Could not find any implementation for node "]}
""")
CASCADE = entry("""
id: cascade
title: Build failed
severity: error
cascade: true
match:
  signatures:
    - {id: t, regex: 'Engine could not be created from network', level: error, weight: 0.3, literals: ["Engine could not be created from network"]}
""")
FLOOD = entry("""
id: flood
title: Missing scale
severity: warning
match:
  signatures:
    - {id: t, regex: 'Missing scale and zero-point for tensor (?P<tensor>[^,]+),', level: warning, literals: ["Missing scale and zero-point for tensor "]}
""")
OOM = entry("""
id: oom
title: OOM
severity: error
match:
  signatures:
    - {id: t, regex: 'Requested amount of GPU memory \\((?P<bytes>\\d+) bytes\\) could not be allocated', literals: ["Requested amount of GPU memory ("]}
    - {id: built, regex: 'Engine built in', role: exclude, after_trigger: true, literals: ["Engine built in"]}
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


# Per-signature severity (`severity:` on a trigger): the diagnosis takes the severity of the triggers that
# fired it, the most severe of them; such a secondary finding is never folded as a neighbour's alternative.
PLUGIN_PATH = entry("""
id: plugin-path
title: Plugin path
severity: error
match:
  signatures:
    - {id: not-registered, regex: 'InstanceNormalization plugin was not found', level: error, weight: 0.8, literals: ["InstanceNormalization plugin was not found"]}
    - id: missing-scale-plugin
      regex: 'Missing scale and zero-point for tensor (?P<node>[^,]*InstanceNormalization[^,]*),'
      literals: ["Missing scale and zero-point for tensor "]
      level: warning
      weight: 0.3
      severity: warning
""")
SEV_ENGINE = Engine.from_kb(KnowledgeBase([PLUGIN_PATH, FLOOD, CASCADE, SPECIFIC]))
CALIBRATION = """[I] TensorRT version: 8.6.1
[I] Precision: FP32+INT8
[W] [TRT] Missing scale and zero-point for tensor /enc/InstanceNormalization_output_0, expect fall back
[W] [TRT] Missing scale and zero-point for tensor /enc/Conv_output_0, expect fall back
[E] Error[10]: [optimizer.cpp::computeCosts::3869] Error Code 10: Internal Error (Could not find any implementation for node /m/Conv + PWN(PWN(/m/Sigmoid), /m/Mul).)
[E] Engine could not be created from network
"""


def test_a_trigger_with_its_own_severity_sets_the_diagnosis_severity_and_ranks_after_errors() -> None:
    report = diagnose(CALIBRATION, engine=SEV_ENGINE)
    ids = [d.id for d in report.diagnoses]
    assert ids[0] == "specific-no-impl"
    plugin = next(d for d in report.diagnoses if d.id == "plugin-path")
    assert plugin.severity == "warning"
    assert ids.index("plugin-path") > max(i for i, d in enumerate(report.diagnoses) if d.severity == "error")
    # Its trigger line is also the flood's, yet it is a diagnosis of its own, not the flood's alternative.
    flood = next(d for d in report.diagnoses if d.id == "flood")
    assert "plugin-path" not in [a.id for a in flood.alternatives]
    assert report.exit_status == 1


def test_the_most_severe_fired_trigger_wins() -> None:
    log = CALIBRATION + "[E] [TRT] InstanceNormalization plugin was not found in the plugin registry!\n"
    plugin = next(d for d in diagnose(log, engine=SEV_ENGINE).diagnoses if d.id == "plugin-path")
    assert plugin.severity == "error"


def test_a_warning_trigger_alone_still_exits_1() -> None:
    log = "[W] [TRT] Missing scale and zero-point for tensor /enc/InstanceNormalization_output_0, expect fall back\n"
    report = diagnose(log, engine=Engine.from_kb(KnowledgeBase([PLUGIN_PATH])))
    assert [(d.id, d.severity) for d in report.diagnoses] == [("plugin-path", "warning")]
    assert report.exit_status == 1


@pytest.mark.parametrize(("signatures", "refused"), [
    # `severity:` is for triggers only, and only the entry severities
    ("""    - {id: t, regex: 'boom happened', literals: ["boom happened"]}
    - {id: s, regex: 'context line', role: support, severity: warning, literals: ["context line"]}""", "triggers only"),
    ("""    - {id: t, regex: 'boom happened', severity: fatal, literals: ["boom happened"]}""", "severity"),
    # a trigger's `requires:` names a support signature of the same entry
    ("""    - {id: t, regex: 'x failed', requires: [nowhere], literals: ["x failed"]}""", "requires"),
], ids=["severity-on-support", "severity-value", "requires-unknown"])
def test_signature_options_the_schema_refuses(signatures: str, refused: str) -> None:
    from troubleshooter.errors import KBError

    with pytest.raises(KBError, match=refused):
        entry("id: bad\ntitle: Bad\nseverity: error\nmatch:\n  signatures:\n" + signatures + "\n")


# The seed scenario on the real KB: an INT8 calibration failure on 8.6 where InstanceNormalization went
# through the plugin (trtexec's options dump says so) and its output is in the "Missing scale" flood. The
# lines are written in TensorRT 8.6's format (the tensor names are ours).
SEED = """[11/24/2026-10:00:00] [I] TensorRT version: 8.6.1
[11/24/2026-10:00:00] [I] Precision: FP32+INT8
[11/24/2026-10:00:00] [I] ONNX Native InstanceNorm: Disabled
[11/24/2026-10:00:05] [W] [TRT] Calibrator is not being used. Users must provide dynamic range for all tensors that are not Int32 or Bool.
[11/24/2026-10:00:05] [W] [TRT] Missing scale and zero-point for tensor /enc/norm1/InstanceNormalization_output_0, expect fall back to non-int8 implementation for any layer consuming or producing given tensor
[11/24/2026-10:00:05] [W] [TRT] Missing scale and zero-point for tensor /enc/conv1/Conv_output_0, expect fall back to non-int8 implementation for any layer consuming or producing given tensor
[11/24/2026-10:00:06] [E] Error[4]: [standardEngineBuilder.cpp::initCalibrationParams::1460] Error Code 4: Internal Error (Calibration failure occurred with no scaling factors detected. This could be due to no int8 calibrator or insufficient custom scales for network layers. Please see int8 sample to setup calibration correctly.)
[11/24/2026-10:00:06] [E] Error[2]: [builder.cpp::buildSerializedNetwork::751] Error Code 2: Internal Error (Assertion engine != nullptr failed. )
[11/24/2026-10:00:06] [E] Engine could not be created from network
"""


def test_seed_instancenorm_plugin_in_calibration_failure_is_a_lower_ranked_reported_warning() -> None:
    report = diagnose(SEED)
    ids = [d.id for d in report.diagnoses]
    assert ids[0] == "calibration-no-scales"
    inorm = next(d for d in report.diagnoses if d.id == "instancenorm-native-flag")
    assert inorm.severity == "warning"
    errors = [i for i, d in enumerate(report.diagnoses) if d.severity == "error"]
    assert ids.index("instancenorm-native-flag") > max(errors)
    assert inorm.causes[0].endswith("[reported, not confirmed]")
    assert "/enc/norm1/InstanceNormalization_output_0" in inorm.causes[0]
    assert report.exit_status == 1


OPSET = entry("""
id: opset-warning
title: The model's opset is newer than this parser
severity: warning
explains: [parser-assert]
match:
  signatures:
    - {id: t, regex: 'Your ONNX model has been generated with opset (?P<opset>\\d+)', level: warning, literals: ["Your ONNX model has been generated with opset "]}
""")
ASSERT = entry("""
id: parser-assert
title: The parser asserted
severity: error
match:
  signatures:
    - {id: t, regex: 'Assertion failed: (?P<cond>.+)', level: error, literals: ["Assertion failed: "]}
""")


def test_a_warning_that_explains_an_error_leads_it_at_its_severity() -> None:
    engine = Engine.from_kb(KnowledgeBase([OPSET, ASSERT]))
    log = ("[E] [TRT] Assertion failed: inputs.at(0) is a tensor\n"
           "[W] [TRT] Your ONNX model has been generated with opset 17, parser supports 13\n")
    report = diagnose(log, engine=engine)
    assert [d.id for d in report.diagnoses] == ["opset-warning", "parser-assert"]
    assert report.diagnoses[0].severity == "error"


def test_causes_with_their_evidence_in_the_log_first_then_the_better_established() -> None:
    two = parse_entry(textwrap.dedent("""
    id: two-causes
    title: Two causes
    severity: error
    last_verified: 2026-11-22
    references: [{url: "https://example.com/x"}]
    match:
      signatures:
        - {id: t, regex: 'boom', level: error, literals: ["boom"]}
        - {id: here, regex: 'the line that proves it', role: support, literals: ["the line that proves it"]}
    causes:
      - {text: "general and reported", certainty: reported}
      - {text: "general and confirmed", certainty: confirmed}
      - {text: "specific and reported", certainty: reported, when: [here]}
      - {text: "specific and confirmed", certainty: confirmed, when: [here]}
    fixes:
      - {title: "general fix", steps: [{text: "general"}]}
      - {title: "fix for what this log shows", when: [here], steps: [{text: "specific"}]}
    examples:
      match: [{name: a, log: "[E] boom"}]
      no_match: [{name: b, log: "y"}]
    """), "<test>")
    report = diagnose("[E] boom\nthe line that proves it\n", engine=Engine.from_kb(KnowledgeBase([two])))
    d = report.diagnoses[0]
    assert [c.split(" [")[0] for c in d.causes] == ["specific and confirmed", "specific and reported",
                                                    "general and confirmed", "general and reported"]
    assert [f.title for f in d.fixes] == ["fix for what this log shows", "general fix"]


def test_a_sentence_the_log_contradicts_is_not_said() -> None:
    """The plugin entry's "trtexec registers those itself" is not said to a user whose trtexec failed."""
    line = ("[E] [TRT] 1: [pluginV2Runner.cpp::load::300] Error Code 1: Serialization (Serialization assertion "
            "creator failed.Cannot deserialize plugin since corresponding IPluginCreator not found in Plugin Registry)")
    from_trtexec = diagnose("&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --loadEngine=m.engine\n" + line)
    from_python = diagnose("[TRT] TensorRT version: 8.6.1\n" + line)
    said = {r.environment.front_end: " ".join(r.diagnoses[0].causes) for r in (from_trtexec, from_python)}
    assert "trtexec registers those itself" not in said["trtexec"] and "trtexec found no creator" in said["trtexec"]
    assert "trtexec registers those itself" in said[None]


def test_a_wrapped_line_keeps_trying_its_joinings_until_a_trigger_matches() -> None:
    """A support signature that matches the line joined one way must not hide the trigger that matches it
    joined the other way (a terminal cut mid-word vs an editor's wrap)."""
    wrapped = entry("""
    id: wrapped-trigger
    title: Wrapped
    severity: error
    match:
      signatures:
        - {id: t, regex: 'the quick brown fox jumps over', literals: ["the quick brown"], level: error}
        - {id: s, regex: 'brownfox', literals: ["brownfox"], role: support}
    """)
    engine = Engine.from_kb(KnowledgeBase([wrapped]))
    head = "[E] [TRT] " + "x" * 70 + " the quick brown"
    report = diagnose(head + "\nfox jumps over the lazy dog\n", engine=engine)
    assert [d.id for d in report.diagnoses] == ["wrapped-trigger"]


def test_one_joiner_for_unfinished_and_long_lines() -> None:
    """`matcher._joinings` joins both kinds of wrapped line: an unfinished one (an open parenthesis) with
    the one next line, whatever its length, one way; a long one with every long-enough tail, both ways.
    Neither takes a line that carries a prefix of its own (a level, a wrapper, a bracket)."""
    from troubleshooter.core.logs import parse_parts
    from troubleshooter.core.matcher import WRAP_MIN_CHARS, _joinings, _Line

    def line(raw: str) -> _Line:
        level, origin, text, raw = parse_parts(raw)
        return _Line(1, level, origin, text, raw)

    short = line("[E] bad node (conv")
    assert _joinings(short, [b"", b"1)", b"more"], unfinished=True) == ["bad node (conv 1)"]
    assert _joinings(short, [b"1)"], unfinished=False) == []  # short and finished: nothing to join
    cut = line("[E] " + "x" * WRAP_MIN_CHARS + " node (co")
    assert _joinings(cut, [b"nv1)", b"y" * WRAP_MIN_CHARS], unfinished=True) == [cut.text + "nv1)"]
    long = line("[E] " + "x" * WRAP_MIN_CHARS)
    tail = "y" * WRAP_MIN_CHARS
    assert _joinings(long, [tail.encode(), b"z"], unfinished=False) == [long.text + tail + "z", f"{long.text} {tail} z"]
    for prefixed in (b"[W] more", b"svc-1  | more", b"ERROR: more"):
        assert _joinings(short, [prefixed], unfinished=True) == []
        assert _joinings(long, [prefixed], unfinished=False) == []


def test_an_int8_entry_is_ruled_out_by_the_logs_own_fp16_trtexec_command() -> None:
    """NVIDIA-AI-IOT/Lidar_AI_Solution#34 (first-sight batch 8): trtexec's own command line says --fp16 only, so the
    missing kernel cannot be an INT8 one; the same lines with --int8 keep the INT8 entry."""
    from troubleshooter import diagnose

    log = ("[05/25/2023-10:19:15] [E] Error[10]: [optimizer.cpp::computeCosts::1855] Error Code 10: Internal Error (Could "
           "not find any implementation for node /neck/deblocks.1/deblocks.1.0/ConvTranspose + "
           "/neck/deblocks.1/deblocks.1.1/BatchNormalization + /neck/deblocks.1/deblocks.1.2/Relu.)\n"
           "[05/25/2023-10:19:15] [E] Error[2]: [builder.cpp::buildSerializedNetwork::417] Error Code 2: Internal Error "
           "(Assertion enginePtr != nullptr failed.)\n"
           "&&&& FAILED TensorRT.trtexec [TensorRT v8503] # /home/lin/workspace/TensorRT-8.5.3.1/bin/trtexec "
           "--onnx=model/rpn_centerhead_sim_export.onnx --saveEngine=model/rpn_centerhead_sim.plan.8503 --workspace=4096 "
           "--fp16 --outputIOFormats=fp16:chw --inputIOFormats=fp16:chw\n")
    assert "int8-grouped-conv-alignment" not in [d.id for d in diagnose(log).diagnoses]
    assert "int8-grouped-conv-alignment" in [d.id for d in diagnose(log.replace("--fp16 ", "--fp16 --int8 ")).diagnoses]


def test_a_crash_alone_gets_the_alone_cause_and_steps_and_one_after_an_error_does_not() -> None:
    """`@alone` (kb.schema.FACTS): no error line before the finding's first trigger - a lone segfault is not told to
    "fix the error above", and one after an error line is (lines from mmdetection#4731 and a written error line)."""
    alone = diagnose("Segmentation fault (core dumped)\n")
    d = alone.diagnoses[0]
    assert d.id == "process-crash" and d.causes[0].startswith("No error line comes before the crash")
    assert "get the lines before the crash" in d.fixes[0].title
    assert not any("fix that one" in s for f in d.fixes for s in f.steps)
    after = diagnose("[E] [TRT] 1: [stdArchiveReader.cpp::StdArchiveReader::40] Error Code 1: Serialization (x)\n"
                     "Segmentation fault (core dumped)\n")
    crash = next(x for x in after.diagnoses if x.id == "process-crash") if any(
        x.id == "process-crash" for x in after.diagnoses) else None
    assert crash is None or not crash.causes[0].startswith("No error line")


def test_a_fact_id_is_accepted_in_when_and_an_unknown_one_is_not() -> None:
    text = textwrap.dedent("""
    id: facts
    title: Facts
    severity: error
    last_verified: 2026-11-22
    references: [{url: "https://example.com/x"}]
    match:
      signatures:
        - {id: t, regex: 'boom', level: error, literals: ["boom"]}
    causes:
      - {text: "alone", certainty: reported, when: ['@alone']}
      - {text: "not alone", certainty: reported, unless: ['@alone']}
    fixes:
      - {title: "fix", steps: [{text: "x"}]}
    examples:
      match: [{name: a, log: "[E] boom"}]
      no_match: [{name: b, log: "y"}]
    """)
    facts = parse_entry(text, "<test>")
    engine = Engine.from_kb(KnowledgeBase([facts]))
    assert diagnose("[E] boom\n", engine=engine).diagnoses[0].causes[0].startswith("alone")
    assert diagnose("[E] other\n[E] boom\n", engine=engine).diagnoses[0].causes[0].startswith("not alone")
    with pytest.raises(Exception, match="@lonely"):
        parse_entry(text.replace("'@alone'", "'@lonely'", 1), "<test>")


# A trigger with `requires:` counts only beside one of those supports. Real lines: jetson-inference#1591 (first-sight
# batch 19), an unquantized GoogLeNet on a Maxwell GPU; the INT8 flag line is trtexec's, as batch 15's logs print it.
PLAIN_NO_IMPL = ("[TRT]    10: [optimizer.cpp::computeCosts::3873] Error Code 10: Internal Error (Could not find any "
                 "implementation for node conv1/7x7_s2 + conv1/relu_7x7.)\n[TRT]    device GPU, failed to build CUDA engine\n")


def test_a_trigger_that_requires_a_clue_does_not_fire_without_it() -> None:
    ids = [d.id for d in diagnose(PLAIN_NO_IMPL).diagnoses]
    assert "int8-grouped-conv-alignment" not in ids
    with_int8 = "[11/02/2023-10:11:12] [I] Precision: FP32+INT8\n" + PLAIN_NO_IMPL
    assert "int8-grouped-conv-alignment" in [d.id for d in diagnose(with_int8).diagnoses]


def test_a_line_is_not_promoted_to_an_entry_whose_example_names_another_layer_type() -> None:
    # Lidar_AI_Solution#34 (first-sight batch 8): a ConvTranspose + BatchNormalization + Relu node resembles
    # conv-act-fusion-no-impl's Conv + PWN example (94/100) but is not that fusion: it stays unexplained
    line = ("[05/25/2023-10:19:15] [E] Error[10]: [optimizer.cpp::computeCosts::1855] Error Code 10: Internal Error "
            "(Could not find any implementation for node /neck/deblocks.1/deblocks.1.0/ConvTranspose + "
            "/neck/deblocks.1/deblocks.1.1/BatchNormalization + /neck/deblocks.1/deblocks.1.2/Relu.)\n")
    report = diagnose(line)
    assert "conv-act-fusion-no-impl" not in [d.id for d in report.diagnoses]
    assert report.first_error is not None and report.first_error.line == 1
