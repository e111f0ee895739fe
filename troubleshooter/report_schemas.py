"""The published JSON Schemas of trt-why's JSON output (``docs/schema/``).

``report.schema.json`` describes ``trt-why --format json`` and ``Report.model_dump_json()``;
``lint-report.schema.json`` describes ``trt-why lint --format json``. Both are generated from the
pydantic models in serialization mode (fields excluded from the JSON are left out).

    python -m troubleshooter.report_schemas            # rewrite docs/schema/*.json
    python -m troubleshooter.report_schemas --check    # exit 1 when a file is stale
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from troubleshooter import exit_codes

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _schema(model: type[BaseModel], title: str) -> dict[str, Any]:
    schema = model.model_json_schema(mode="serialization")
    schema["$schema"] = SCHEMA_DIALECT
    schema["title"] = title
    return schema


def report_schema() -> dict[str, Any]:
    """JSON Schema of a diagnosis report (``Report``)."""
    from troubleshooter.models import Report

    return _schema(Report, "trt-why report")


def lint_report_schema() -> dict[str, Any]:
    """JSON Schema of a model-lint report (``LintReport``)."""
    from troubleshooter.lint.report import LintReport

    return _schema(LintReport, "trt-why lint report")


def published_schemas() -> dict[str, str]:
    """File name -> file content of every published schema, exactly as stored in docs/schema/."""
    return {
        "report.schema.json": _dump(report_schema()),
        "lint-report.schema.json": _dump(lint_report_schema()),
    }


def _dump(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def default_dir() -> Path:
    """docs/schema of the source checkout."""
    return Path(__file__).resolve().parent.parent / "docs" / "schema"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    folder = default_dir()
    stale = []
    for name, text in published_schemas().items():
        path = folder / name
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current == text:
            continue
        stale.append(name)
        if not check:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if check and stale:
        sys.stderr.write(f"stale schemas in {folder}: {', '.join(stale)} (run python -m troubleshooter.report_schemas)\n")
        return exit_codes.FOUND
    return exit_codes.OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
