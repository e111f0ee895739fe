"""Fixtures for the lint tests: write a generated model to a temp folder and lint it.

Every model linted through ``lint_model`` is linted four ways, and the findings must be the same:
parsed whole by ``onnx.load`` (the reference), by the wire walker with the default threshold,
by the walker with every tensor payload left in the file (threshold 1 byte), and saved with its
weights as external data. The report of the reference run is returned.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import onnx
import pytest

from troubleshooter.lint import LintReport, lint_path
from troubleshooter.lint import model as lint_model_module

LintModel = Callable[..., LintReport]


def findings_of(report: LintReport) -> list[tuple[str, str, str, tuple[str, ...], str]]:
    """Findings as comparable tuples (rule, level, message, nodes, details)."""
    return [(f.rule, f.level, f.message, tuple(f.nodes), repr(sorted(f.details.items()))) for f in report.findings]


def lint_every_way(model: onnx.ModelProto, folder: Path, trt_version: str | None = None,
                   name: str = "model.onnx", external: bool = True) -> dict[str, LintReport]:
    """Lint ``model`` stored inline (reference load, default walker, walker stripping everything)
    and, unless ``external`` is False, with external data; returns the reports by way."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    onnx.save(model, str(path))
    reports: dict[str, LintReport] = {}
    saved = lint_model_module.LITE_TENSOR_BYTES
    try:
        for way, threshold in (("reference", None), ("walker", saved), ("walker-all", 1)):
            lint_model_module.LITE_TENSOR_BYTES = threshold
            reports[way] = lint_path(path, trt_version=trt_version)
        lint_model_module.LITE_TENSOR_BYTES = saved
        if not external:
            return reports
        external_dir = folder / "external"
        external_dir.mkdir(exist_ok=True)
        copy = onnx.ModelProto()
        copy.CopyFrom(model)
        onnx.save_model(copy, str(external_dir / name), save_as_external_data=True, all_tensors_to_one_file=True,
                        location="weights.bin", size_threshold=0)
        reports["external"] = lint_path(external_dir / name, trt_version=trt_version)
    finally:
        lint_model_module.LITE_TENSOR_BYTES = saved
    return reports


def assert_same_findings(reports: dict[str, LintReport]) -> None:
    """Every way gives the reference's findings, exactly."""
    reference = findings_of(reports["reference"])
    for way, report in reports.items():
        assert findings_of(report) == reference, f"{way} differs from the full onnx.load"


@pytest.fixture
def lint_model(tmp_path: Path) -> LintModel:
    """lint_model(model, trt_version=None, name='model.onnx') -> LintReport (checked four ways)."""
    runs = iter(range(1_000_000))

    def run(model: onnx.ModelProto, trt_version: str | None = None, name: str = "model.onnx") -> LintReport:
        reports = lint_every_way(model, tmp_path / f"run{next(runs)}", trt_version, name)
        assert_same_findings(reports)
        return reports["reference"]

    return run
