"""Your version: the advice for the detected TensorRT, and the question when the log does not say."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Label, Select, Static

from troubleshooter.core.versions import KNOWN_RELEASES
from troubleshooter.models import Diagnosis, Report
from troubleshooter.tui.messages import VersionChosen

UNKNOWN_LEAD = "Your TensorRT version is not in the log"
STATUS_STYLE = {
    "affected": "bold $text-error",
    "fixed": "bold $text-success",
    "changed": "bold $text-warning",
    "not-applicable": "$text-muted",
    "unknown": "$text-warning",
}


def needs_version(report: Report, user_version: str | None) -> bool:
    """Ask for the version when the log lacks it and some advice depends on it (or the user already answered)."""
    if user_version is not None:
        return True
    if report.environment.tensorrt_version is not None:
        return False
    return any(d.version_advice and d.version_status is None for d in report.diagnoses)


def advice_content(diag: Diagnosis | None, report: Report, user_version: str | None) -> Content:
    env = report.environment
    parts: list[Content] = []
    if env.tensorrt_version is None:
        parts.append(Content.assemble(("TensorRT ", "$text-muted"), ("unknown", "italic $text-warning"),
                                      (": the log does not say which release built it.", "$text-muted")))
    else:
        where = "you said" if user_version and user_version == env.tensorrt_version else "from the log"
        line = env.sources.get("tensorrt_version")
        parts.append(Content.assemble(("TensorRT ", "$text-muted"), (env.tensorrt_version, "bold"),
                                      (f" ({where}{f', line {line}' if line and where == 'from the log' else ''})",
                                       "$text-muted")))
    for field, label in (("gpu", "GPU"), ("platform", "platform")):
        if getattr(env, field) is None:
            parts.append(Content.assemble((f"{label} ", "$text-muted"), ("unknown", "italic $text-warning")))
    parts.append(Content(""))
    if diag is None:
        parts.append(Content.styled("No diagnosis selected.", "$text-muted"))
        return Content("\n").join(parts)
    parts.append(Content.styled(diag.title, "bold"))
    if diag.version_advice is None:
        parts.append(Content.styled("This diagnosis does not depend on the TensorRT version.", "$text-muted"))
    elif diag.version_status is None:
        # Unknown version: the engine lists the advice per range after one lead sentence.
        text = diag.version_advice
        if text.startswith(UNKNOWN_LEAD):
            text = text.partition(". ")[2] or text
        parts.append(Content.styled("The advice depends on your version (choose it above):", "$text-warning"))
        for chunk in text.split(" | "):
            parts.append(Content(f"· {chunk.strip()}"))
    else:
        parts.append(Content.assemble(("status ", "$text-muted"),
                                      (diag.version_status, STATUS_STYLE.get(diag.version_status, "bold"))))
        parts.append(Content(diag.version_advice))
    asks = [a for a in diag.asks if "TensorRT version" not in a]
    if asks:
        parts += [Content(""), Content.styled("What else would decide it", "bold $text-accent")]
        parts += [Content(f"· {a}") for a in asks]
    return Content("\n").join(parts)


class VersionPanel(VerticalScroll):
    """Advice for the detected version; a select of known releases when the log does not say."""

    DEFAULT_CSS = """
    VersionPanel #version-ask { height: auto; display: none; margin-bottom: 1; }
    VersionPanel #version-ask.-shown { display: block; }
    VersionPanel #version-ask Label { padding: 1 1 0 0; }
    VersionPanel #version-select { width: 28; }
    VersionPanel #version-advice { padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal(id="version-ask"):
            yield Label("Which TensorRT do you use?")
            yield Select([(f"TensorRT {v}", v) for v in reversed(KNOWN_RELEASES)], prompt="choose a release",
                         id="version-select")
        yield Static(id="version-advice")

    def show(self, diag: Diagnosis | None, report: Report, user_version: str | None) -> None:
        ask = self.query_one("#version-ask")
        ask.set_class(needs_version(report, user_version), "-shown")
        select: Select[str] = self.query_one("#version-select", Select)
        with select.prevent(Select.Changed):
            select.value = user_version if user_version in KNOWN_RELEASES else Select.NULL
        self.query_one("#version-advice", Static).update(advice_content(diag, report, user_version))

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        value = event.value
        self.post_message(VersionChosen(None if value is Select.NULL else str(value)))
