"""render_lint in every format: the JSON contract, SARIF 2.1.0 structure, text and Markdown."""

from __future__ import annotations

import json
from pathlib import Path

import lint_factory as fx
import numpy as np
import pytest

from troubleshooter.lint.report import Finding, LintReport
from troubleshooter.lint.rules import all_rules
from troubleshooter.render.lint import FORMATS, render_lint


@pytest.fixture
def report(lint_model) -> LintReport:  # type: ignore[no-untyped-def]
    model = fx.qdq_conv(act_zp=3, c=8, k=8, group=8, zp_dtype=np.int8)
    model.graph.input.append(fx.vi("unused|pipe", [1]))
    return lint_model(model)


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_renders(fmt: str, report: LintReport) -> None:
    out = render_lint(report, fmt)
    assert out.endswith("\n") and "qdq-zero-point" in out


def test_unknown_format(report: LintReport) -> None:
    with pytest.raises(ValueError, match="sarif"):
        render_lint(report, "yaml")


def test_json_contract(report: LintReport) -> None:
    data = json.loads(render_lint(report, "json"))
    assert data["schema_version"] == 1
    assert data["model"].endswith("model.onnx")
    assert data["trt_version"] is None
    assert "index" not in data
    first = data["findings"][0]
    assert {"rule", "level", "message", "nodes", "kb"} <= set(first)
    assert first["rule"] == "qdq-zero-point" and first["level"] == "error" and first["kb"] == "qdq-nonzero-zero-point"
    assert isinstance(first["nodes"], list) and all(isinstance(n, str) for n in first["nodes"])
    assert LintReport.model_validate(data).findings == report.findings


def test_sarif_structure(report: LintReport) -> None:
    sarif = json.loads(render_lint(report, "sarif"))
    assert sarif["version"] == "2.1.0" and "sarif-2.1.0" in sarif["$schema"]
    (run,) = sarif["runs"]
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    assert len(ids) == len(set(ids)) and set(ids) >= {r.id for r in all_rules()}
    for rule in rules:
        assert rule["help"]["text"] and rule["shortDescription"]["text"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
    zp_rule = rules[ids.index("qdq-zero-point")]
    assert "symmetric" in zp_rule["help"]["text"]
    assert len(run["results"]) == len(report.findings)
    for result, finding in zip(run["results"], report.findings, strict=True):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == finding.rule
        assert result["level"] == {"error": "error", "warning": "warning", "info": "note"}[finding.level]
        assert result["message"]["text"] == finding.message
        (location,) = result["locations"]
        assert location["physicalLocation"]["artifactLocation"]["uri"] == Path(report.model).as_uri()
        assert [loc["name"] for loc in location["logicalLocations"]] == finding.nodes[:20]


def test_sarif_validates_against_a_minimal_schema(report: LintReport) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = {
        "type": "object",
        "required": ["version", "runs"],
        "properties": {
            "version": {"const": "2.1.0"},
            "runs": {"type": "array", "minItems": 1, "items": {
                "type": "object", "required": ["tool", "results"],
                "properties": {
                    "tool": {"type": "object", "required": ["driver"], "properties": {"driver": {
                        "type": "object", "required": ["name", "rules"]}}},
                    "results": {"type": "array", "items": {
                        "type": "object", "required": ["ruleId", "message", "level", "locations"],
                        "properties": {"level": {"enum": ["none", "note", "warning", "error"]},
                                       "message": {"type": "object", "required": ["text"]}}}},
                }}},
        },
    }
    jsonschema.validate(json.loads(render_lint(report, "sarif")), schema)


def test_text_and_markdown(report: LintReport) -> None:
    text = render_lint(report, "text")
    assert text.splitlines()[0].startswith(report.model) and "error" in text
    markdown = render_lint(report, "markdown")
    assert "| level | rule |" in markdown and "unused\\|pipe" in markdown


def test_empty_report_renders() -> None:
    empty = LintReport(model="m.onnx", trt_version="10.3", findings=[])
    assert "No problems" in render_lint(empty, "text")
    assert json.loads(render_lint(empty, "sarif"))["runs"][0]["results"] == []
    polygraphy = LintReport(model="m.onnx", trt_version=None, findings=[
        Finding(rule="polygraphy", level="error", message="boom", nodes=["n"], kb=None, source="polygraphy:onnxruntime")])
    rules = json.loads(render_lint(polygraphy, "sarif"))["runs"][0]["tool"]["driver"]["rules"]
    assert rules[-1]["id"] == "polygraphy" and "ONNX Runtime" in rules[-1]["help"]["text"]


def test_exit_status_and_findings_for_nodes(report: LintReport) -> None:
    assert report.exit_status == 1
    assert {f.rule for f in report.findings_for_nodes(["x_q"])} == {"qdq-zero-point"}
    assert report.findings_for_nodes(["xq"])  # a tensor name resolves to its producer x_q
    info_only = LintReport(model="m", trt_version=None, findings=[
        Finding(rule="dead-nodes", level="info", message="m", nodes=[], kb=None)])
    assert info_only.exit_status == 0


def test_sarif_relative_model_path() -> None:
    relative = LintReport(model="models/net.onnx", trt_version=None, findings=[
        Finding(rule="dead-nodes", level="info", message="m", nodes=["a"], kb=None)])
    run = json.loads(render_lint(relative, "sarif"))["runs"][0]
    assert run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "models/net.onnx"
