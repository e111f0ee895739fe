"""The output formats: the one list that `trt-why --format`, `trt-why lint --format`, `trt-why scan --format`
and the TUI's export dialog read.

A format is a name, the suffix of a file holding it, a label for people, and, for each product it can
render, the function that renders it, named as "module:function" and imported on first use (reading this
list imports no renderer, so building the command line stays fast). The products:

=============  ==============================================  =====================================
product        what                                            the renderer's signature
=============  ==============================================  =====================================
report         one log's diagnosis (`models.Report`)           fn(report, **terminal) -> str
reports        several logs' reports as one document           fn(reports, **terminal) -> str
lint           an ONNX model's lint (`lint.report.LintReport`) fn(lint_report, **terminal) -> str
fleet-log      one log's record in `trt-why scan`              fn(record: dict) -> str
fleet-summary  the summary that ends `trt-why scan`            fn(summary: dict) -> str
eval           `trt-why eval`'s figures (`cli.eval.EvalResult`) fn(result, **terminal) -> str
=============  ==============================================  =====================================

``**terminal`` is given only to a format marked ``terminal`` (laid out for a screen): ``colour``,
``width`` (columns; None: not wrapped) and, for reports, ``verbose``.

Adding a format: one module with its functions (`troubleshooter/render/<name>.py`) and one `Format`
below. The CLI's choices, the TUI's export choices and the file suffixes follow.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Product = Literal["report", "reports", "lint", "fleet-log", "fleet-summary", "eval"]


@dataclass(frozen=True)
class Format:
    """One output format."""

    name: str
    """What `--format` takes."""
    suffix: str
    """The file suffix of a file in this format (the TUI's export names the file with it)."""
    label: str
    """The name people read (the export dialog's choice)."""
    renderers: Mapping[str, str] = field(default_factory=dict)
    """Product -> "module:function" that renders it (see the module's docstring)."""
    terminal: bool = False
    """Laid out for a terminal: its renderers take colour=, width= (and verbose= for reports)."""
    export: bool = False
    """Offered by the TUI's export dialog (a document to keep or share; the terminal layout is not)."""

    def can_render(self, product: Product) -> bool:
        return product in self.renderers

    def renderer(self, product: Product) -> Callable[..., str]:
        """The function that renders `product` in this format (imported now). KeyError if it cannot."""
        module, _, name = self.renderers[product].partition(":")
        fn: Callable[..., str] = getattr(importlib.import_module(module), name)
        return fn


FORMATS: tuple[Format, ...] = (
    Format("text", ".txt", "Text", {
        "report": "troubleshooter.render.text:render_text",
        "reports": "troubleshooter.render.text:render_text_many",
        "lint": "troubleshooter.render.lint:render_lint_text",
        "fleet-summary": "troubleshooter.render.fleet:render_fleet_text",
        "eval": "troubleshooter.render.eval:render_eval_text",
    }, terminal=True),
    Format("markdown", ".md", "Markdown", {
        "report": "troubleshooter.render.markdown:render_markdown",
        "reports": "troubleshooter.render.markdown:render_markdown_many",
        "lint": "troubleshooter.render.lint:render_lint_markdown",
    }, export=True),
    Format("json", ".json", "JSON", {
        "report": "troubleshooter.render.json:render_json",
        "reports": "troubleshooter.render.json:render_json_many",
        "lint": "troubleshooter.render.lint:render_lint_json",
        "eval": "troubleshooter.render.eval:render_eval_json",
    }, export=True),
    Format("issue", ".issue.md", "Issue draft", {
        "report": "troubleshooter.render.issue:render_issue",
    }, export=True),
    Format("sarif", ".sarif", "SARIF 2.1.0", {
        "lint": "troubleshooter.render.lint:render_lint_sarif",
    }),
    Format("jsonl", ".jsonl", "JSON Lines", {
        "fleet-log": "troubleshooter.render.fleet:render_fleet_jsonl_record",
        "fleet-summary": "troubleshooter.render.fleet:render_fleet_jsonl_summary",
    }),
)
"""Every output format, in the order choices are listed."""

CHAT_LIMITS: Mapping[str, int] = {"slack": 3000, "discord": 2000, "github": 65536}
"""`--chat` flavours of the Markdown report -> characters per message (Slack section text, Discord message,
GitHub comment body); `render.chat` splits the report to fit."""

_BY_NAME = {f.name: f for f in FORMATS}


def get(name: str) -> Format:
    """The format called `name`. ValueError when there is none."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown format {name!r}; choose one of {', '.join(_BY_NAME)}") from None


def names(product: Product) -> tuple[str, ...]:
    """The names of the formats that render `product` (what a `--format` of that command accepts)."""
    return tuple(f.name for f in FORMATS if f.can_render(product))


def exportable() -> tuple[Format, ...]:
    """The formats the TUI's export dialog offers (each renders a report)."""
    return tuple(f for f in FORMATS if f.export and f.can_render("report"))


def render(fmt: str, product: Product, obj: Any, **terminal: Any) -> str:
    """`obj` (a `product`) rendered in the format `fmt`. ValueError when that format cannot render it.

    `terminal` options (colour, width, verbose) reach only a format laid out for a terminal."""
    format_ = _BY_NAME.get(fmt)
    if format_ is None or not format_.can_render(product):
        raise ValueError(f"unknown {product} format {fmt!r}; choose one of {', '.join(names(product))}")
    fn = format_.renderer(product)
    return fn(obj, **terminal) if format_.terminal else fn(obj)
