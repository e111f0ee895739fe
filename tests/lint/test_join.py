"""attach(): a log's diagnoses confirmed or contradicted by the lint findings on the model."""

from __future__ import annotations

import lint_factory as fx
import onnx
import pytest

from troubleshooter.lint.join import CONTRADICT_FACTOR, attach, candidate_names
from troubleshooter.lint.report import LintReport
from troubleshooter.models import Diagnosis, Environment, Evidence, Report, Source

FUSED = "/model.1/conv/Conv + PWN(PWN(/model.1/act/Sigmoid), /model.1/act/Mul)"
RENAME = {"conv": "/model.1/conv/Conv", "act_sigmoid": "/model.1/act/Sigmoid", "act_mul": "/model.1/act/Mul"}


def _yolo_block(split: bool) -> onnx.ModelProto:
    model = fx.qdq_silu(split)
    for node in model.graph.node:
        node.name = RENAME.get(node.name, node.name)
    return model


def _diagnosis(id: str, captures: dict[str, str], lint: list[str], confidence: float = 0.8) -> Diagnosis:
    return Diagnosis(
        id=id, title=id, severity="error", confidence=confidence, occurrences=1,
        evidence=[Evidence(line=3, text="...")], captures=captures, causes=["..."], version_advice=None,
        fixes=[], references=[], lint=lint,
    )


def _report(*diagnoses: Diagnosis) -> Report:
    return Report(source=Source(name="build.log", lines=10), environment=Environment(), diagnoses=list(diagnoses))


@pytest.fixture
def split_model(lint_model) -> LintReport:  # type: ignore[no-untyped-def]
    return lint_model(_yolo_block(split=True))


def test_candidate_names_split_fused_layers() -> None:
    assert candidate_names(FUSED)[1:] == ["/model.1/conv/Conv", "/model.1/act/Sigmoid", "/model.1/act/Mul"]
    assert "node_of_output" in candidate_names("weights + node_of_weights_quantized + node_of_output")


def test_confirmed_on_the_fused_node(split_model: LintReport) -> None:
    diag = _diagnosis("conv-act-fusion-no-impl", {"node": FUSED}, ["qdq-silu-split", "int8-grouped-conv-channels"])
    joined = attach(_report(diag), split_model)
    (out,) = joined.diagnoses
    assert out.confidence == pytest.approx(0.85)
    assert any(c.startswith("confirmed on the model: qdq-silu-split") for c in out.clues)
    assert [f.rule for f in out.model_findings] == ["qdq-silu-split"]
    assert out.model_findings[0].kb == "conv-act-fusion-no-impl"
    assert joined.notes[-1].startswith("model ")
    assert _report(diag).diagnoses[0].model_findings == []  # the input is untouched


def test_contradicted_when_the_node_exists_and_no_rule_fires(lint_model) -> None:  # type: ignore[no-untyped-def]
    clean = lint_model(_yolo_block(split=False))
    diag = _diagnosis("conv-act-fusion-no-impl", {"node": FUSED}, ["qdq-silu-split", "int8-grouped-conv-channels"])
    (out,) = attach(_report(diag), clean).diagnoses
    assert out.confidence == pytest.approx(0.8 * CONTRADICT_FACTOR)
    assert any("contradicts" in c for c in out.clues)


def test_node_not_in_the_model(split_model: LintReport) -> None:
    diag = _diagnosis("conv-act-fusion-no-impl", {"node": "/model.99/conv/Conv + PWN(/model.99/act/Sigmoid)"},
                      ["qdq-silu-split"])
    (out,) = attach(_report(diag), split_model).diagnoses
    assert out.confidence == 0.8
    assert any("not in the model" in c for c in out.clues)
    assert [f.rule for f in out.model_findings] == ["qdq-silu-split"]  # the rule still fires elsewhere


def test_tensor_name_resolves_to_its_producer(lint_model) -> None:  # type: ignore[no-untyped-def]
    lint = lint_model(fx.qdq_conv(act_zp=5))
    diag = _diagnosis("int8-missing-scale", {"tensor": "xq"}, [])
    (out,) = attach(_report(diag), lint).diagnoses
    assert {f.rule for f in out.model_findings} == {"qdq-zero-point"}
    assert out.model_findings[0].nodes == ["x_q"]


def test_capture_values_and_lint_rules_anywhere(lint_model) -> None:  # type: ignore[no-untyped-def]
    lint = lint_model(fx.qdq_conv(act_zp=5))
    diag = _diagnosis("qdq-nonzero-zero-point", {}, ["qdq-zero-point"]).model_copy(
        update={"capture_values": {"node": ["x_dq"]}})
    (out,) = attach(_report(diag), lint).diagnoses
    assert out.confidence == pytest.approx(0.85)
    assert len(out.model_findings) == 2
    plain = _diagnosis("qdq-nonzero-zero-point", {}, ["qdq-zero-point"])
    (out,) = attach(_report(plain), lint).diagnoses
    assert out.confidence == 0.8 and any("the model shows it" in c for c in out.clues)


def test_fires_elsewhere_is_said_but_not_scored(lint_model) -> None:  # type: ignore[no-untyped-def]
    lint = lint_model(fx.qdq_conv(act_zp=5))
    diag = _diagnosis("qdq-nonzero-zero-point", {"node": "conv"}, ["qdq-zero-point"])
    (out,) = attach(_report(diag), lint).diagnoses
    assert out.confidence == 0.8 and any("fires elsewhere" in c for c in out.clues)


def test_op_type_capture_confirms_unsupported_op(lint_model) -> None:  # type: ignore[no-untyped-def]
    lint = lint_model(fx.ort_dynamic_quant())
    diag = _diagnosis("onnx-unsupported-op", {"op": "MatMulInteger"}, ["unsupported-op", "custom-domain-op"])
    (out,) = attach(_report(diag), lint).diagnoses
    assert out.confidence == pytest.approx(0.85)
    assert [f.nodes for f in out.model_findings if "MatMulInteger" in f.message] == [["mmi"]]


def test_dynamic_input_binding_is_resolved(lint_model) -> None:  # type: ignore[no-untyped-def]
    lint = lint_model(fx.dynamic_hw())
    diag = _diagnosis("dynamic-shape-no-profile", {"binding": "x"}, ["dynamic-inputs"])
    (out,) = attach(_report(diag), lint).diagnoses
    assert out.confidence == pytest.approx(0.85) and out.model_findings[0].rule == "dynamic-inputs"


def test_lint_report_from_json_still_joins(split_model: LintReport) -> None:
    restored = LintReport.model_validate_json(split_model.model_dump_json())
    assert restored.index is None
    diag = _diagnosis("conv-act-fusion-no-impl", {"node": FUSED}, ["qdq-silu-split"])
    (out,) = attach(_report(diag), restored).diagnoses
    assert out.confidence == pytest.approx(0.85)


def _float_yolo_block() -> onnx.ModelProto:
    """The same Conv + SiLU, in float: no Q/DQ (what `trtexec --int8` calibrates itself)."""
    from onnx import helper

    model = fx.conv(c=4, k=4)
    graph = model.graph
    graph.node[0].name = RENAME["conv"]
    graph.output[0].name = "out"
    graph.node.append(helper.make_node("Sigmoid", ["y"], ["sig"], name=RENAME["act_sigmoid"]))
    graph.node.append(helper.make_node("Mul", ["y", "sig"], ["out"], name=RENAME["act_mul"]))
    return model


def test_rules_that_cannot_apply_to_a_float_model_are_no_evidence(lint_model) -> None:  # type: ignore[no-untyped-def]
    """Issue #25: Q/DQ rules cannot fire on a float model; their silence must not contradict the diagnosis."""
    lint = lint_model(_float_yolo_block())
    assert lint.index is not None and RENAME["conv"] in lint.index.op_types
    diag = _diagnosis("conv-act-fusion-no-impl", {"node": FUSED}, ["qdq-silu-split", "int8-grouped-conv-channels"],
                      confidence=0.93)
    (out,) = attach(_report(diag), lint).diagnoses
    assert out.confidence == 0.93 and out.model_verdict == "cannot-tell"
    assert "Q/DQ" in (out.model_verdict_reason or "") and not any("contradict" in c for c in out.clues)


def test_a_rule_that_applies_still_refutes_on_a_float_model(lint_model) -> None:  # type: ignore[no-untyped-def]
    """A rule that does look at float models (dynamic inputs) still counts when it stays silent."""
    lint = lint_model(_float_yolo_block())
    diag = _diagnosis("some-entry", {"node": RENAME["conv"]}, ["qdq-silu-split", "dynamic-inputs"])
    (out,) = attach(_report(diag), lint).diagnoses
    assert out.model_verdict == "refutes" and "dynamic-inputs" in (out.model_verdict_reason or "")
    assert "qdq-silu-split" not in (out.model_verdict_reason or "")


def test_without_the_model_index_silence_is_no_evidence(lint_model) -> None:  # type: ignore[no-untyped-def]
    restored = LintReport.model_validate_json(lint_model(_yolo_block(split=False)).model_dump_json())
    diag = _diagnosis("conv-act-fusion-no-impl", {"node": FUSED}, ["qdq-silu-split"])
    (out,) = attach(_report(diag), restored).diagnoses
    assert out.confidence == 0.8 and out.model_verdict == "cannot-tell"


def test_a_diagnosis_carries_the_lint_finding_itself() -> None:
    """`Diagnosis.model_findings` holds the lint report's own `Finding` (one model, defined in models): the JSON of
    a joined report shows the finding as `trt-why lint --format json` does."""
    from troubleshooter import models
    from troubleshooter.lint import report

    assert report.Finding is models.Finding
    assert models.Diagnosis.model_fields["model_findings"].annotation == list[models.Finding]
