"""The JSON Schemas published in docs/schema are current and describe real output."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from troubleshooter import diagnose
from troubleshooter.lint.report import Finding, LintReport
from troubleshooter.report_schemas import default_dir, lint_report_schema, main, published_schemas, report_schema

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "docs" / "schema"

LOG = (
    "[03/01/2022-10:00:00] [TRT] [W] Calibrator is not being used. Users must provide dynamic range for all "
    "tensors that are not Int32 or Bool.\n"
    "[03/01/2022-10:00:05] [TRT] [E] 4: [standardEngineBuilder.cpp::initCalibrationParams::1402] Error Code 4: "
    "Internal Error (Calibration failure occurred with no scaling factors detected. This could be due to no int8 "
    "calibrator or insufficient custom scales for network layers. Please see int8 sample to setup calibration "
    "correctly.)\n"
)


def test_default_dir_is_docs_schema() -> None:
    assert default_dir() == SCHEMA_DIR


@pytest.mark.parametrize("name", sorted(published_schemas()))
def test_published_schema_is_current(name: str) -> None:
    path = SCHEMA_DIR / name
    assert path.is_file(), f"{path} is missing: run python -m troubleshooter.report_schemas"
    assert path.read_text(encoding="utf-8") == published_schemas()[name], (
        f"{path} is stale: run python -m troubleshooter.report_schemas"
    )


def test_check_mode_reports_current_files() -> None:
    assert main(["--check"]) == 0


@pytest.mark.parametrize("schema", [report_schema(), lint_report_schema()], ids=["report", "lint-report"])
def test_schemas_are_valid_draft_2020_12(schema: dict[str, object]) -> None:
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_report_json_validates_against_schema() -> None:
    report = diagnose(LOG)
    assert report.diagnoses, "the sample log should produce a diagnosis"
    jsonschema.validate(json.loads(report.model_dump_json()), report_schema())


def test_lint_report_json_validates_against_schema() -> None:
    report = LintReport(model="m.onnx", trt_version="8.6.1",
                        findings=[Finding(rule="qdq-zero-point", level="error", message="zero point not 0",
                                          nodes=["/q/QuantizeLinear"], kb="int8-missing-scale")])
    data = json.loads(report.model_dump_json())
    assert "index" not in data and "index" not in lint_report_schema()["properties"]  # type: ignore[operator]
    jsonschema.validate(data, lint_report_schema())


def test_schema_rejects_unknown_fields() -> None:
    data = json.loads(diagnose(LOG).model_dump_json())
    data["surprise"] = 1
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, report_schema())
