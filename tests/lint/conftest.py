"""Fixtures for the lint tests: write a generated model to a temp folder and lint it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import onnx
import pytest

from troubleshooter.lint import LintReport, lint_path

LintModel = Callable[..., LintReport]


@pytest.fixture
def lint_model(tmp_path: Path) -> LintModel:
    """lint_model(model, trt_version=None, name='model.onnx') -> LintReport."""

    def run(model: onnx.ModelProto, trt_version: str | None = None, name: str = "model.onnx") -> LintReport:
        path = tmp_path / name
        onnx.save(model, str(path))
        return lint_path(path, trt_version=trt_version)

    return run
