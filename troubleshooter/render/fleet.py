"""`trt-why scan`'s output: one record per log and the summary, as JSON Lines or text."""

from __future__ import annotations

import json
from typing import Any


def render_fleet_jsonl_record(record: dict[str, Any]) -> str:
    """One log's record as a line of JSON."""
    return json.dumps(record, separators=(",", ":")) + "\n"


def render_fleet_jsonl_summary(summary: dict[str, Any]) -> str:
    """The summary as the last line of JSON: ``{"summary": {...}}``."""
    return json.dumps({"summary": summary}, separators=(",", ":")) + "\n"


def render_fleet_text(summary: dict[str, Any]) -> str:
    """The summary for a person."""
    out = [f"trt-why scan · {summary['logs']} logs · {summary['lines']:,} lines · {summary['seconds']:.1f} s"]
    if summary["unreadable"]:
        out.append(f"  {summary['unreadable']} could not be read")
    rate = summary["classification_rate"]
    out.append(f"  failed builds: {summary['failed']}; with a known diagnosis: {summary['failed_with_known_diagnosis']}"
               + (f" (classification rate {rate * 100:.1f}%)" if rate is not None else ""))
    out.append(f"  logs with an error or warning diagnosis: {summary['logs_with_findings']}")
    if summary["families"]:
        out.append("")
        out.append("Top diagnosis per log, by family:")
        width = max(len(k) for k in summary["families"])
        for fam, n in summary["families"].items():
            out.append(f"  {fam:<{width}}  {n:>6}")
    if summary["top_unexplained"]:
        out.append("")
        out.append("Unexplained error lines seen most often (the next KB entries to write):")
        for item in summary["top_unexplained"]:
            ex = item["example"]
            out.append(f"  {item['logs']:>5} logs  {item['text'][:110]}")
            out.append(f"         e.g. {ex['file']}:{ex['line']}")
    return "\n".join(out) + "\n"
