"""The report as JSON: the contract in the README (schema_version 1)."""

from __future__ import annotations

from collections.abc import Sequence

from troubleshooter.models import Report


def render_json(report: Report) -> str:
    return report.model_dump_json(indent=2) + "\n"


def render_json_many(reports: Sequence[Report]) -> str:
    """Several input files: a JSON list of reports."""
    return "[\n" + ",\n".join(r.model_dump_json(indent=2) for r in reports) + "\n]\n"
