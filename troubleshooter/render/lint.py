"""Lint reports as text, JSON, Markdown or SARIF 2.1.0. Each function returns a string; nothing prints.

The formats are listed, with these functions, in `troubleshooter.render.formats` (product "lint")."""

from __future__ import annotations

import json
from pathlib import Path, PurePath

from troubleshooter.lint.report import Finding, LintReport
from troubleshooter.render import formats

FORMATS = formats.names("lint")
"""The formats a lint report renders in (read from the registry)."""

_ICON = {"error": "✖", "warning": "⚠", "info": "ⓘ"}
_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFO_URI = "https://pypi.org/project/trt-why/"


def render_lint(report: LintReport, fmt: str, *, width: int | None = None, colour: bool = False) -> str:
    """The report in ``fmt`` (one of FORMATS: text, json, markdown or sarif). Raises ValueError for other formats.

    ``width`` / ``colour``: the text fitted to a terminal of that many columns, coloured (None: unwrapped).
    """
    return formats.render(fmt, "lint", report, width=width, colour=colour)


def _counts(report: LintReport) -> str:
    counts = {level: sum(f.level == level for f in report.findings) for level in ("error", "warning", "info")}
    return ", ".join(f"{n} {level}{'s' if n != 1 and level != 'info' else ''}" for level, n in counts.items())


def _nodes(finding: Finding, limit: int = 6) -> str:
    nodes = finding.nodes
    head = ", ".join(nodes[:limit])
    return head + (f" (+{len(nodes) - limit} more)" if len(nodes) > limit else "")


def render_lint_text(report: LintReport, width: int | None = None, colour: bool = False) -> str:
    """One heading per finding (its rule), the message under it; laid out like the log report."""
    from troubleshooter.render.text import Line, layout

    target = f"TensorRT {report.trt_version}" if report.trt_version else "current TensorRT"
    lines = [Line("plain", f"{report.model} · {target} · {_counts(report)}", style="bold"), Line("blank")]
    if not report.findings:
        lines.append(Line("plain", "No problems found for TensorRT."))
    for f in report.findings:
        lines.append(Line("head", f.rule, severity=f.level))
        lines.append(Line("row", " ".join(f.message.split())))
        if f.nodes:
            lines.append(Line("row", _nodes(f), label="nodes"))
        if f.kb:
            lines.append(Line("row", f"{f.kb} (trt-why kb show {f.kb})", label="kb"))
    if report.notes:
        lines.append(Line("blank"))
        lines.extend(Line("plain", f"note: {note}", style="dim") for note in report.notes)
    return layout(lines, width=width, colour=colour)


def render_lint_json(report: LintReport) -> str:
    return report.model_dump_json(indent=2) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_lint_markdown(report: LintReport) -> str:
    target = f"TensorRT {report.trt_version}" if report.trt_version else "current TensorRT releases"
    lines = [f"## trt-why lint: `{report.model}`", "", f"Target: {target}. Findings: {_counts(report)}.", ""]
    if report.findings:
        lines += ["| level | rule | message | nodes | KB |", "| --- | --- | --- | --- | --- |"]
        for f in report.findings:
            nodes = ", ".join(f"`{n}`" for n in f.nodes[:6]) + (" …" if len(f.nodes) > 6 else "")
            kb = f"`{f.kb}`" if f.kb else ""
            lines.append(f"| {f.level} | `{f.rule}` | {_md_escape(f.message)} | {_md_escape(nodes)} | {kb} |")
    else:
        lines.append("No problems found for TensorRT.")
    if report.notes:
        lines += ["", *(f"> {_md_escape(note)}" for note in report.notes)]
    return "\n".join(lines) + "\n"


def _rule_descriptor(rule_id: str) -> dict[str, object]:
    from troubleshooter.lint.rules import rules_by_id

    rule = rules_by_id().get(rule_id)
    if rule is not None:
        title, doc, level = rule.title, rule.doc, rule.level
    elif rule_id == "polygraphy":
        from troubleshooter.lint import polygraphy

        title, doc, level = polygraphy.TITLE, (polygraphy.__doc__ or "").strip(), "warning"
    else:
        title, doc, level = rule_id, rule_id, "warning"
    return {
        "id": rule_id,
        "name": "".join(part.capitalize() for part in rule_id.split("-")),
        "shortDescription": {"text": title},
        "fullDescription": {"text": title},
        "help": {"text": doc, "markdown": doc},
        "defaultConfiguration": {"level": _SARIF_LEVEL.get(level, "warning")},
    }


def _artifact_uri(model: str) -> str:
    """A relative path as given (forward slashes), an absolute one as a file:// URI."""
    path = PurePath(model)
    if path.is_absolute():
        return Path(model).as_uri()
    return model.replace("\\", "/")


def render_lint_sarif(report: LintReport) -> str:
    from troubleshooter.lint.rules import all_rules

    rule_ids = [rule.id for rule in all_rules()]
    rule_ids += sorted({f.rule for f in report.findings} - set(rule_ids))
    index = {rule_id: i for i, rule_id in enumerate(rule_ids)}
    results = []
    for f in report.findings:
        result: dict[str, object] = {
            "ruleId": f.rule,
            "ruleIndex": index[f.rule],
            "level": _SARIF_LEVEL[f.level],
            "message": {"text": f.message},
            "locations": [
                {
                    "physicalLocation": {"artifactLocation": {"uri": _artifact_uri(report.model)}},
                    "logicalLocations": [{"name": node, "kind": "object"} for node in f.nodes[:20]],
                }
            ],
            "properties": {"kb": f.kb, "source": f.source, "nodes": f.nodes},
        }
        results.append(result)
    sarif = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "trt-why",
                        "informationUri": INFO_URI,
                        "version": _version(),
                        "rules": [_rule_descriptor(rule_id) for rule_id in rule_ids],
                    }
                },
                "artifacts": [{"location": {"uri": _artifact_uri(report.model)}}],
                "results": results,
                "properties": {"trt_version": report.trt_version, "notes": report.notes},
            }
        ],
    }
    return json.dumps(sarif, indent=2) + "\n"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("trt-why")
    except PackageNotFoundError:
        return "0.0.0"
