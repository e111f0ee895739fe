"""Check the model: the ONNX path, the lint run, and what the findings say about the diagnosis."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Input, Static

from troubleshooter.models import Diagnosis
from troubleshooter.tui.messages import LintRequested
from troubleshooter.tui.widgets.text import Bullet, Heading

LEVEL_STYLE = {"error": "bold $text-error", "warning": "bold $text-warning", "info": "$text-primary"}


def _get(finding: Any, key: str, default: Any = None) -> Any:
    if isinstance(finding, Mapping):
        return finding.get(key, default)
    return getattr(finding, key, default)


class FindingView(Vertical):
    """One lint finding: level, rule and nodes, then the message indented under them."""

    DEFAULT_CSS = """
    FindingView { height: auto; }
    FindingView > .finding-message { padding-left: 8; height: auto; }
    """

    def __init__(self, finding: Any) -> None:
        super().__init__()
        self.finding = finding

    def compose(self) -> ComposeResult:
        f = self.finding
        level = str(_get(f, "level", "info"))
        nodes = list(_get(f, "nodes", []) or [])
        shown = ", ".join(nodes[:3]) + (f" (+{len(nodes) - 3})" if len(nodes) > 3 else "")
        yield Static(Content.assemble((f"{level:<8}", LEVEL_STYLE.get(level, "")), (str(_get(f, "rule", "?")), "bold"),
                                      (f"  {shown}", "$text-muted")))
        yield Static(Content(str(_get(f, "message", ""))), classes="finding-message")


def log_names(diag: Diagnosis) -> list[str]:
    """Node and tensor names the log gave for this diagnosis, fused layer names split into their parts."""
    from troubleshooter.lint.join import candidate_names

    values: list[str] = list(diag.captures.values())
    for more in diag.capture_values.values():
        values += more
    names: list[str] = []
    for value in values:
        for name in candidate_names(value):
            if name not in names:
                names.append(name)
    return names


def on_log_nodes(diag: Diagnosis, lint_report: Any) -> list[Any]:
    """The lint findings on the nodes the log names for this diagnosis."""
    return list(lint_report.findings_for_nodes(log_names(diag)))


def verdict(diag: Diagnosis, lint_report: Any) -> tuple[str, str]:
    """(confirms | refutes | cannot-tell, why) for a diagnosis once its model was linted.

    The verdict is the linter's own (troubleshooter.lint.join), so the app, the CLI and the JSON agree.
    """
    from troubleshooter.lint.join import attach_one

    joined = attach_one(diag, lint_report)
    return joined.model_verdict or "cannot-tell", joined.model_verdict_reason or ""


VERDICT_STYLE = {"confirms": "bold $text-success", "refutes": "bold $text-error", "cannot-tell": "bold $text-warning"}
VERDICT_WORDS = {"confirms": "The model confirms", "refutes": "The model argues against",
                 "cannot-tell": "The model cannot tell about"}
_VERDICT_SAID = re.compile(r"^(?:confirmed on the model|the model contradicts it|the model cannot tell|"
                           r"the model shows it):\s*")


def _without_verdict(reason: str) -> str:
    """The reason without its first words when they only say the verdict again (shown on the line above)."""
    rest = _VERDICT_SAID.sub("", reason, count=1)
    first = rest.split(" ", 1)[0]
    return rest[:1].upper() + rest[1:] if first.isalpha() else rest  # a rule id or a node name stays as it is


class LintResult(Vertical):
    """The verdict on the selected diagnosis, the findings on the nodes the log names, then the rest."""

    DEFAULT_CSS = """
    LintResult { height: auto; padding: 1 1; }
    LintResult > Static { height: auto; }
    """

    INTRO = Content.styled(
        "Give the ONNX model that was built (Tab or l to the path box, Enter lints it): the linter checks it for "
        "what TensorRT refuses, and ties its findings to the nodes named in the log.", "$text-muted")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._message: Content = self.INTRO
        self._result: tuple[Diagnosis | None, Any, str] | None = None

    def say(self, message: Content) -> None:
        self._message, self._result = message, None
        self.refresh(recompose=True)

    def show(self, diag: Diagnosis | None, lint_report: Any, model: str) -> None:
        self._result = (diag, lint_report, model)
        self.refresh(recompose=True)

    def compose(self) -> ComposeResult:
        if self._result is None:
            yield Static(self._message)
            return
        diag, lint_report, model = self._result
        findings = list(getattr(lint_report, "findings", []) or [])
        yield Static(Content.assemble(("model ", "$text-muted"), (model, "bold"),
                                      (f" · {len(findings)} finding(s)", "$text-muted")))
        first: list[Any] = []
        if diag is not None:
            word, why = verdict(diag, lint_report)
            yield Static(Content.assemble("\n", (VERDICT_WORDS[word], VERDICT_STYLE[word]), " ", (diag.id, "bold")))
            yield Static(Content(_without_verdict(why)))
            first = on_log_nodes(diag, lint_report)
            yield Heading(Content("On the nodes named in the log"))
            for f in first:
                yield FindingView(f)
            if not first:
                yield Static(Content.styled("none", "$text-muted"))
        keys = {(str(_get(f, "rule")), tuple(_get(f, "nodes") or [])) for f in first}
        rest = [f for f in findings if (str(_get(f, "rule")), tuple(_get(f, "nodes") or [])) not in keys]
        yield Heading(Content("Other findings"))
        for f in rest:
            yield FindingView(f)
        if not rest:
            yield Static(Content.styled("none", "$text-muted"))
        for note in list(getattr(lint_report, "notes", []) or []):
            yield Bullet(Content.styled("note", "$text-muted"), Content(note))


class ModelPanel(VerticalScroll):
    """An input for the ONNX path (Enter lints), then the verdict and findings, log nodes first."""

    DEFAULT_CSS = """
    ModelPanel #model-row { height: auto; }
    ModelPanel #model-path { width: 1fr; }
    """

    def __init__(self, model: str | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._initial = model or ""

    def compose(self) -> ComposeResult:
        with Horizontal(id="model-row"):
            yield Input(self._initial, placeholder="path/to/model.onnx (Enter lints it)", id="model-path")
            yield Button("Lint", id="model-lint", variant="primary")
        yield LintResult(id="model-result")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.request_lint()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.request_lint()

    def request_lint(self) -> None:
        path = self.query_one("#model-path", Input).value.strip()
        if path:
            self.post_message(LintRequested(path))
            # Out of the box: the report's keys (1-4, n, b...) must work again, not type into the path.
            self.focus()
        else:
            self.query_one(LintResult).say(Content.styled("Type the model's path first.", "$text-warning"))
            self.query_one("#model-path", Input).focus()

    @property
    def has_path(self) -> bool:
        """The path box holds a path (so the tab need not put the cursor there)."""
        return bool(self.query_one("#model-path", Input).value.strip())

    def reset(self, model: str | None = None) -> None:
        """A new log: the path box shows ``model`` (or nothing) and no lint result."""
        self.query_one("#model-path", Input).value = model or ""
        self.query_one(LintResult).say(LintResult.INTRO)

    def show_pending(self, model: str) -> None:
        self.query_one(LintResult).say(Content.styled(f"Linting {model}…", "$text-muted"))

    def show_error(self, message: str) -> None:
        self.query_one(LintResult).say(Content.styled(message, "$text-error"))

    def show(self, diag: Diagnosis | None, lint_report: Any, model: str | None) -> None:
        if lint_report is None or model is None:
            return
        self.query_one(LintResult).show(diag, lint_report, model)
