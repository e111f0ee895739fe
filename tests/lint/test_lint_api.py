"""The public API: no onnx at import time, a one-line LintError without onnx, rule docs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

from troubleshooter.lint.report import LintLevel
from troubleshooter.lint.rules import RULE_IDS, all_rules

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60,
                          check=False)


def test_importing_lint_does_not_import_onnx() -> None:
    code = (
        "import sys\n"
        "import troubleshooter.lint, troubleshooter.render.lint, troubleshooter.lint.join\n"
        "from troubleshooter.lint.rules import RULE_IDS, all_rules; all_rules()\n"
        "assert 'onnx' not in sys.modules and 'numpy' not in sys.modules, sorted(m for m in sys.modules if 'onnx' in m)\n"
    )
    result = _python(code)
    assert result.returncode == 0, result.stderr


def test_lint_without_onnx_says_what_to_install(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['onnx'] = None\n"
        "from troubleshooter.errors import LintError\n"
        "from troubleshooter.lint import lint_path\n"
        "try:\n    lint_path('model.onnx')\n"
        "except LintError as err:\n    print(err)\n"
    )
    result = _python(code)
    assert result.stdout.strip() == "onnx is not installed: pip install 'trt-why[lint]'", result.stderr


def test_rule_modules_follow_the_conventions() -> None:
    ids = [rule.id for rule in all_rules()]
    assert len(ids) == len(set(ids)) and tuple(ids) == RULE_IDS
    for rule in all_rules():
        module = rule.check.__module__.rsplit(".", 1)[-1]
        assert module == rule.id.replace("-", "_"), rule.id
        assert rule.doc.startswith(f"{rule.id}:"), rule.id
        assert rule.level in get_args(LintLevel)
        # the documented level is the one the rule's findings usually carry (LEVEL)
        assert f"**Level:** {rule.level}" in rule.doc and "**KB:**" in rule.doc, rule.id


KB_IDS = {
    "int8-grouped-conv-alignment", "conv-act-fusion-no-impl", "deconv-qdq-output-channels", "int8-missing-scale",
    "qdq-nonzero-zero-point", "qdq-scale-not-positive", "int64-weights-cast", "fp16-overflow",
    "onnx-unsupported-op", "onnx-parser-assertion", "instancenorm-native-flag", "dynamic-shape-no-profile",
}


def test_kb_ids_are_known() -> None:
    for rule in all_rules():
        assert rule.kb is None or rule.kb in KB_IDS, rule.id


def test_kb_lint_lists_name_existing_rules() -> None:
    yaml = pytest.importorskip("yaml")
    ids = {rule.id for rule in all_rules()}
    for path in sorted((ROOT / "kb").glob("*.yaml")):
        entry = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        unknown = set(entry.get("lint", []) or []) - ids
        assert not unknown, f"{path.name}: lint rules {sorted(unknown)} do not exist"


def test_json_schema_has_no_private_index() -> None:
    from troubleshooter.lint.report import LintReport

    schema = LintReport.model_json_schema()
    assert "index" not in schema["properties"] and not any(k.startswith("_") for k in schema["properties"])
    assert "findings" in schema["properties"]
