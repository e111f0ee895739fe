"""The report and KB classes are pydantic models: built from outside data they validate, and they round-trip."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from troubleshooter.api import diagnose_path
from troubleshooter.kb.loader import builtin_kb_dir, load_folders
from troubleshooter.kb.schema import Entry, Step
from troubleshooter.kb.stacks import Stack
from troubleshooter.models import Diagnosis, Evidence, Report

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "sample_logs" / "yolov8-int8-orin-silu.log"


def test_result_and_kb_classes_are_pydantic_models() -> None:
    for cls in (Report, Diagnosis, Evidence, Entry, Step, Stack):
        assert issubclass(cls, BaseModel), cls.__name__
        assert cls.model_config.get("frozen") and cls.model_config.get("extra") == "forbid", cls.__name__


def test_building_checks_types() -> None:
    with pytest.raises(ValidationError) as caught:
        Evidence(line="not a number", text=5, signature=None)  # type: ignore[arg-type]
    assert {e["loc"] for e in caught.value.errors()} == {("line",), ("text",), ("signature",)}
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        Evidence(line=1, text="x", nmae="y")  # type: ignore[call-arg]
    assert Evidence(line=3, text="x") == Evidence(line=3, text="x", signature="", role="trigger")


def test_checks_beyond_types_are_kept() -> None:
    with pytest.raises(ValidationError, match="a step with `code` needs `lang`"):
        Step.model_validate({"text": "run it", "code": "trtexec"})
    with pytest.raises(ValidationError, match="is not a version range"):
        Step.model_validate({"text": "run it", "versions": ">=eight"})
    with pytest.raises(ValidationError, match="less than or equal to 1"):
        Diagnosis.model_validate({**_a_diagnosis().model_dump(), "confidence": 1.5})


def _a_diagnosis() -> Diagnosis:
    top = diagnose_path(LOG).top
    assert top is not None
    return top


def test_a_report_round_trips_through_dict_json_and_pickle() -> None:
    report = diagnose_path(LOG)
    again = Report.model_validate(report.model_dump())
    assert again == report and again is not report
    assert Report.model_validate_json(report.model_dump_json()) == report
    assert json.loads(Report.model_validate_json(report.model_dump_json()).model_dump_json()) == \
        json.loads(report.model_dump_json())
    assert pickle.loads(pickle.dumps(report)) == report


def test_kb_entries_round_trip() -> None:
    for entry in load_folders([builtin_kb_dir()]).entries:
        assert Entry.model_validate(entry.model_dump()) == entry, entry.id
        assert Entry.model_validate_json(entry.model_dump_json()) == entry, entry.id


def test_a_text_report_builds_no_validator() -> None:
    """The models are declared with defer_build and the engine builds them with model_construct: a text report
    builds no validator or serializer (JSON output does)."""
    code = ("import sys\n"
            "from troubleshooter.api import diagnose_path\n"
            "from troubleshooter.render.formats import render\n"
            "from troubleshooter.models import Report\n"
            "from troubleshooter.kb.schema import Entry\n"
            f"report = diagnose_path({str(LOG)!r})\n"
            "render('text', 'report', report, colour=False, width=None, verbose=False)\n"
            "print(Report.__pydantic_complete__, Entry.__pydantic_complete__)\n"
            "report.model_dump_json()\n"
            "print(Report.__pydantic_complete__)\n")
    # the KB cache warm first (as after a first run): a cold one validates the YAML, which builds Entry's validator
    warm = subprocess.run([sys.executable, "-c", "from troubleshooter.api import get_engine; get_engine()"],
                          capture_output=True, text=True, timeout=120, check=False, cwd=str(ROOT))
    assert warm.returncode == 0, warm.stderr[-2000:]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False,
                          cwd=str(ROOT))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["False", "False", "True"]
