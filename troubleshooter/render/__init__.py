"""Renderers: each turns a Report (or a lint report, or a fleet summary) into a string. Only the ways in print.

The formats and which product each renders are listed once, in `troubleshooter.render.formats`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from troubleshooter.render import formats

if TYPE_CHECKING:
    from troubleshooter.models import Report


def render(report: Report, fmt: str, *, colour: bool = False, verbose: bool = False,
           width: int | None = None) -> str:
    """One report in the format `fmt` (see `formats.names("report")`); ValueError for another.

    `width`: the text report fitted to a terminal of that many columns (None: not wrapped)."""
    return formats.render(fmt, "report", report, colour=colour, verbose=verbose, width=width)


def render_many(reports: list[Report], fmt: str, *, colour: bool = False, verbose: bool = False,
                width: int | None = None) -> str:
    """Several reports as one document (a JSON list; text and Markdown one after the other)."""
    return formats.render(fmt, "reports", reports, colour=colour, verbose=verbose, width=width)
