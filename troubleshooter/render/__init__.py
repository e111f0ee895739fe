"""Renderers: each turns a Report into a string. Only the CLI prints."""

from __future__ import annotations

from enum import Enum

from troubleshooter.models import Report


class OutputFormat(str, Enum):
    """Every output format of the one-shot report (a test renders each member)."""

    TEXT = "text"
    JSON = "json"
    MARKDOWN = "markdown"


def render(report: Report, fmt: OutputFormat | str, *, colour: bool = False, verbose: bool = False,
           width: int | None = None) -> str:
    """`width`: the text report fitted to a terminal of that many columns (None: not wrapped)."""
    fmt = OutputFormat(fmt)
    if fmt is OutputFormat.TEXT:
        from troubleshooter.render.text import render_text

        return render_text(report, colour=colour, verbose=verbose, width=width)
    if fmt is OutputFormat.JSON:
        from troubleshooter.render.json import render_json

        return render_json(report)
    from troubleshooter.render.markdown import render_markdown

    return render_markdown(report)
