"""Your version: the advice for the detected TensorRT, and the question when the log does not say."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Label, Select, Static

from troubleshooter.api import KNOWN_RELEASES
from troubleshooter.models import PLATFORMS, Diagnosis, Platform, Report
from troubleshooter.render.words import STATUS_WORDS, open_asks, version_range
from troubleshooter.tui.messages import PlatformChosen, VersionChosen
from troubleshooter.tui.widgets.text import Bullet, Heading, advice_text

PLATFORM_LABELS: dict[Platform, str] = {"linux": "Linux (x86 / server)", "jetson": "Jetson (JetPack)", "windows": "Windows",
                                         "wsl": "WSL"}
"""How the platform question names each platform (a platform without a label shows its name)."""
PLATFORM_CHOICES = [(platform, PLATFORM_LABELS.get(platform, platform)) for platform in PLATFORMS]
"""(value, label) for every platform of `models.PLATFORMS`, the one list."""

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


class AdviceView(Vertical):
    """The version facts, then the advice for the selected diagnosis."""

    DEFAULT_CSS = """
    AdviceView { height: auto; padding: 0 1; }
    AdviceView > Static { height: auto; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._state: tuple[Diagnosis | None, Report, str | None] | None = None

    def show(self, diag: Diagnosis | None, report: Report, user_version: str | None) -> None:
        self._state = (diag, report, user_version)
        self.refresh(recompose=True)

    def compose(self) -> ComposeResult:
        if self._state is None:
            return
        diag, report, user_version = self._state
        env = report.environment
        if env.tensorrt_version is None:
            yield Static(Content.assemble(("TensorRT ", "$text-muted"), ("unknown", "italic $text-warning"),
                                          (": the log does not say which release built it.", "$text-muted")))
        else:
            said = user_version is not None and user_version == env.tensorrt_version
            line = env.sources.get("tensorrt_version")
            where = "you said" if said else ("from the log" + (f", line {line}" if line else ""))
            yield Static(Content.assemble(("TensorRT ", "$text-muted"), (env.tensorrt_version, "bold"),
                                          (f" ({where})", "$text-muted")))
        for field, label in (("gpu", "GPU"), ("platform", "platform")):
            if getattr(env, field) is None:
                yield Static(Content.assemble((f"{label} ", "$text-muted"), ("unknown", "italic $text-warning")))
        if diag is None:
            yield Heading(Content("No diagnosis selected."))
            return
        yield Heading(Content(diag.title))
        if diag.version_advice is None:
            yield Static(Content.styled("This diagnosis does not depend on the TensorRT version.", "$text-muted"))
        elif diag.version_status is None:
            # Unknown version: the advice for every range, from the structured field.
            yield Static(Content.styled("The advice depends on your version (choose it above):", "$text-warning"))
            for adv in diag.version_advice_all:
                yield Bullet(Content("·"), Content.assemble((f"TensorRT {version_range(adv.versions)}:", "bold"), " ",
                                                            (STATUS_WORDS.get(adv.status, adv.status),
                                                             STATUS_STYLE.get(adv.status, "bold")),
                                                            ". ", advice_text(adv.text)))
        else:
            yield Static(Content.assemble(("status ", "$text-muted"),
                                          (diag.version_status, STATUS_STYLE.get(diag.version_status, "bold"))))
            yield Static(Content(diag.version_advice))
        asks = [a for a in open_asks(diag, env) if "TensorRT version" not in a]  # the select above asks it
        if asks:
            yield Heading(Content("What else would decide it"))
            for ask in asks:
                yield Bullet(Content("·"), Content(ask))


class VersionPanel(VerticalScroll):
    """Advice for the detected version; a select of known releases when the log does not say."""

    DEFAULT_CSS = """
    VersionPanel #version-ask { height: auto; display: none; margin-bottom: 1; }
    VersionPanel #version-ask.-shown { display: block; }
    VersionPanel #version-ask Label { padding: 1 1 0 0; }
    VersionPanel #version-select { width: 28; }
    VersionPanel #platform-ask { height: auto; display: none; margin-bottom: 1; }
    VersionPanel #platform-ask.-shown { display: block; }
    VersionPanel #platform-ask Label { padding: 1 1 0 0; }
    VersionPanel #platform-select { width: 28; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal(id="version-ask"):
            yield Label("Which TensorRT do you use?")
            yield Select([(f"TensorRT {v}", v) for v in reversed(KNOWN_RELEASES)], prompt="choose a release",
                         id="version-select")
        with Horizontal(id="platform-ask"):
            yield Label("Where does it run?")
            yield Select([(label, value) for value, label in PLATFORM_CHOICES], prompt="choose a platform",
                         id="platform-select")
        yield AdviceView(id="version-advice")

    def show(self, diag: Diagnosis | None, report: Report, user_version: str | None,
             user_platform: str | None = None) -> None:
        """Show the advice; the selects show what the user chose for this log (``user_version``, ``user_platform``)."""
        self.user_platform = user_platform
        ask = self.query_one("#version-ask")
        ask.set_class(needs_version(report, user_version), "-shown")
        select: Select[str] = self.query_one("#version-select", Select)
        with select.prevent(Select.Changed):
            select.value = user_version if user_version in KNOWN_RELEASES else Select.NULL
        # The platform decides some diagnoses (Jetson, Windows, WSL): ask when the log does not say.
        platform_ask = self.query_one("#platform-ask")
        chosen = self.user_platform
        platform_ask.set_class(bool(report.diagnoses) and (report.environment.platform is None or chosen is not None),
                               "-shown")
        platform_select: Select[str] = self.query_one("#platform-select", Select)
        with platform_select.prevent(Select.Changed):
            platform_select.value = chosen if chosen else Select.NULL
        self.query_one(AdviceView).show(diag, report, user_version)

    user_platform: str | None = None
    """The platform the user chose for the log on display (None: what the log says)."""

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        value = None if event.value is Select.NULL else str(event.value)
        if event.select.id == "platform-select":
            self.user_platform = value
            self.post_message(PlatformChosen(value))
        else:
            self.post_message(VersionChosen(value))
