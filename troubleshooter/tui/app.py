"""The trt-why Textual app: routes the workers' messages to the screens and does little else.

``run(log=..., model=..., trt_version=...)`` is what ``trt-why tui`` calls; ``create_app`` builds the
app for tests (Pilot, snapshots) and for the start-up benchmark.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, ClassVar

from textual import events, work
from textual.app import App
from textual.binding import BindingType
from textual.worker import Worker, get_current_worker

from troubleshooter import exit_codes
from troubleshooter.errors import InputError
from troubleshooter.tui import jobs
from troubleshooter.tui.actions import DialogActions
from troubleshooter.tui.commands import KBProvider
from troubleshooter.tui.jobs import LogRequest, LogText
from troubleshooter.tui.keys import APP_BINDINGS
from troubleshooter.tui.messages import (
    DiagnoseRequested,
    DiagnosisFailed,
    DiagnosisProgress,
    DiagnosisReady,
    LintFailed,
    LintProgress,
    LintReady,
    LintRequested,
    PlatformChosen,
    VersionChosen,
)
from troubleshooter.tui.paste_watch import PasteArriving
from troubleshooter.tui.screens.input import InputScreen
from troubleshooter.tui.themes import DARK, THEMES
from troubleshooter.tui.widgets.status import RunStatus

NARROW_BELOW = 100
"""Terminals narrower than this get the stacked layout (80x24 must be usable)."""
PROGRESS_EVERY = 0.1
"""Seconds between two progress messages of one run (a 50 MB paste is ~50 chunks)."""


class TrtWhyApp(DialogActions, App[int]):
    """Paste a log, walk through causes, version advice and fixes, lint the model."""

    CSS_PATH = "app.tcss"
    TITLE = "trt-why"
    SUB_TITLE = "why did my TensorRT build fail?"
    COMMANDS = App.COMMANDS | {KBProvider}
    COMMAND_PALETTE_DISPLAY = "ctrl+p"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_BELOW, "-wide")]  # noqa: RUF012 - as Textual declares it
    """Under NARROW_BELOW columns every screen has the class -narrow (app.tcss stacks the report's sidebar)."""
    BINDINGS: ClassVar[list[BindingType]] = APP_BINDINGS

    def __init__(self, log: str | None = None, text: str | None = None, model: str | None = None,
                 trt_version: str | None = None) -> None:
        super().__init__()
        for theme in THEMES:
            self.register_theme(theme)
        self.theme = DARK
        self._initial = LogRequest(text=text, path=log, trt_version=trt_version) if (log or text) else None
        self.model_path = model
        self._auto_lint = model
        """The model given with the first log (``--model``): linted once its report is ready, never for another log."""
        self.request: LogRequest | None = None
        """The request whose report is shown."""
        self.report: Any = None
        self.log_text: LogText | None = None
        self.lint_report: Any = None
        self.lint_model: str | None = None
        self._run_id = 0
        self._lint_run_id = 0
        self._report_screen: Any = None
        self.lint_pending: str | None = None
        """The model being linted, while the lint runs."""
        self.engine: Any = None
        """The engine to diagnose with; None: the shared one (tests set a pinned KB here)."""

    def kb_engine(self) -> Any:
        """The engine (KB, matcher, suggester) this app uses. Thread-safe; loads the KB on first use."""
        if self.engine is None:
            from troubleshooter.api import get_engine

            self.engine = get_engine()
        return self.engine

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # Headless (tests, snapshots, screenshots): a blinking cursor would make pictures differ.
        if self.is_headless and hasattr(event.widget, "cursor_blink"):
            event.widget.cursor_blink = False

    # --- pastes: a multi-line paste is a log wherever the focus is -----------------------------
    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Paste) and not event.is_forwarded and self._paste_is_log(event.text):
            self._paste_log(event.text)
            return
        await super().on_event(event)

    def _paste_is_log(self, text: str) -> bool:
        """A paste of several lines (CR, CRLF or LF) not aimed at the paste area: a log, not a path or a name."""
        from troubleshooter.tui.widgets.paste import PasteArea, paste_lines

        return not isinstance(self.focused, PasteArea) and "\n" in paste_lines(text).strip()

    def _paste_log(self, text: str) -> None:
        """Diagnose a paste that landed outside the paste area (a path box, a list, a dialog)."""
        from textual.screen import ModalScreen

        from troubleshooter.tui.widgets.paste import PasteArea, paste_lines

        while isinstance(self.screen, ModalScreen):  # a dialog, the help, the palette: the log comes first
            self.pop_screen()
        if isinstance(self.screen, InputScreen):
            area = self.screen.query_one(PasteArea)
            area.focus()
            area.post_message(events.Paste(text))  # as if pasted there: the note, the large-paste handling
            return
        self.diagnose(LogRequest(text=paste_lines(text)))

    @property
    def request_name(self) -> str | None:
        return self.request.name if self.request else None

    def get_default_screen(self) -> InputScreen:
        initial = self._initial
        return InputScreen(text=(initial.text or "") if initial else "", path=(initial.path or "") if initial else "")

    def on_mount(self) -> None:
        if self._initial is not None:
            self.diagnose(self._initial)
        else:
            # After the first paint: loading the KB would otherwise compete with it for the GIL.
            self.set_timer(0.2, self._warm_engine)

    @work(thread=True, group="engine", exit_on_error=False)
    def _warm_engine(self) -> None:
        """Load the KB and build what a first diagnosis builds while the user pastes: the first report then
        comes as fast as the next ones. A paste that comes first simply waits for the KB."""
        engine = self.kb_engine()
        if self.report is None:
            jobs.warm(engine)
            import troubleshooter.tui.screens.report  # noqa: F401 - imported now, not when the first report comes

    # --- diagnosis ----------------------------------------------------------------------------
    @property
    def run_id(self) -> int:
        """The id of the newest diagnosis run; results of other runs are dropped."""
        return self._run_id

    def diagnose(self, request: LogRequest) -> Worker[None]:
        """Start a diagnosis run; a running one is cancelled and its result will be dropped."""
        self._run_id += 1
        size = len(request.text) if request.text is not None else None
        for status in self._statuses():
            status.start(f"Diagnosing {request.name}…", size)
        return self._diagnose_worker(self._run_id, request)

    @work(thread=True, exclusive=True, group="diagnose", exit_on_error=False)
    def _diagnose_worker(self, run_id: int, request: LogRequest) -> None:
        worker = get_current_worker()

        def cancelled() -> bool:
            return worker.is_cancelled or run_id != self._run_id

        last = [0.0]

        def progress(done: int, total: int | None) -> None:
            now = time.monotonic()
            if now - last[0] >= PROGRESS_EVERY or (total is not None and done >= total):
                last[0] = now
                self.post_message(DiagnosisProgress(run_id, done, total))

        try:
            report = jobs.diagnose_request(request, self.kb_engine(), progress, cancelled)
            log = jobs.read_log_text(request, cancelled)
        except jobs.Cancelled:
            return
        except Exception as exc:
            if not cancelled():
                self.post_message(DiagnosisFailed(run_id, jobs.one_line(exc)))
            return
        if not cancelled():
            self.post_message(DiagnosisReady(run_id, request, report, log))

    def on_paste_arriving(self, message: PasteArriving) -> None:
        """A paste is still coming in from the terminal (seconds for a few MB): say so, with how much."""
        for status in self._statuses():
            status.start(f"Receiving a paste… {message.received / 1e6:.1f} MB so far")

    def on_diagnose_requested(self, message: DiagnoseRequested) -> None:
        self.diagnose(message.request)

    def on_diagnosis_progress(self, message: DiagnosisProgress) -> None:
        if message.run_id != self._run_id:
            return
        total = message.total
        label = f"Diagnosing… {message.done / 1e6:.1f} MB" + (f" of {total / 1e6:.1f} MB" if total else "")
        for status in self._statuses():
            status.progress(message.done, total, label)

    def on_diagnosis_ready(self, message: DiagnosisReady) -> None:
        if message.run_id != self._run_id:
            return  # stale: a newer paste replaced this run
        for status in self._statuses():
            status.finish()
        same_log = self.request is not None and self._same_input(self.request, message.request)
        self.request = message.request
        report = message.report
        if same_log and self.lint_report is not None:
            report = self._join_lint(report, self.lint_report)
        elif not same_log:
            # Another log: nothing of the last one stays (its model, its lint, a lint still running).
            self.lint_report = None
            self.lint_model = None
            self.lint_pending = None
            self._lint_run_id += 1  # a lint of the previous log's model that is still running is dropped
            self.model_path = self._auto_lint  # the --model of the first log, or nothing
        self.report = report
        self.log_text = message.log
        self._sync_input_screen(message.request)
        screen = self._report_screen
        if screen is not None and screen in self.screen_stack:
            screen.show_report(report, message.log, user_version=message.request.trt_version,
                               lint_report=self.lint_report, lint_model=self.lint_model, new_log=not same_log)
        else:
            self.action_show_report()
        if self._auto_lint and self.lint_report is None and not same_log:
            model, self._auto_lint = self._auto_lint, None
            self.lint(model)

    def _sync_input_screen(self, request: LogRequest) -> None:
        """The paste screen's path box shows the log on display (under the report, until Ctrl+N empties it):
        its path, or nothing for a paste."""
        from textual.widgets import Input

        for screen in self.screen_stack:
            if isinstance(screen, InputScreen):
                for box in screen.query("#path").results(Input):
                    box.value = request.path or ""

    def on_diagnosis_failed(self, message: DiagnosisFailed) -> None:
        if message.run_id != self._run_id:
            return
        for status in self._statuses():
            status.error(message.error)
        self.notify(message.error, title="Cannot diagnose", severity="error")

    @staticmethod
    def _same_input(a: LogRequest, b: LogRequest) -> bool:
        return a.path == b.path and a.text is b.text

    def on_version_chosen(self, message: VersionChosen) -> None:
        if self.request is not None:
            self.diagnose(self.request.with_version(message.version))

    def on_platform_chosen(self, message: PlatformChosen) -> None:
        if self.request is not None:
            self.diagnose(self.request.with_platform(message.platform))

    # --- lint ---------------------------------------------------------------------------------
    def lint(self, model: str) -> None:
        if self.report is None:
            self.notify("Diagnose a log first.", severity="warning")
            return
        self._lint_run_id += 1
        self.model_path = model
        for status in self._statuses():
            status.start(f"Linting {os.path.basename(model)}…")
        self.lint_pending = model
        if self._report_screen is not None and self._report_screen.is_mounted:
            self._report_screen.lint_started(model)
        self._lint_worker(self._lint_run_id, model, self.report, self.request.trt_version if self.request else None)

    @work(thread=True, exclusive=True, group="lint", exit_on_error=False)
    def _lint_worker(self, run_id: int, model: str, report: Any, trt_version: str | None) -> None:
        worker = get_current_worker()
        self.post_message(LintProgress(run_id, f"Loading and checking {os.path.basename(model)}…"))
        try:
            joined, lint_report = jobs.lint_model(model, report, trt_version)
        except Exception as exc:
            if not worker.is_cancelled:
                self.post_message(LintFailed(run_id, jobs.one_line(exc)))
            return
        if not worker.is_cancelled:
            self.post_message(LintReady(run_id, model, joined, lint_report))

    def on_lint_requested(self, message: LintRequested) -> None:
        self.lint(message.model)

    def on_lint_progress(self, message: LintProgress) -> None:
        if message.run_id == self._lint_run_id:
            for status in self._statuses():
                status.progress(0, None, message.stage)

    def on_lint_ready(self, message: LintReady) -> None:
        if message.run_id != self._lint_run_id:
            return
        self.lint_pending = None
        for status in self._statuses():
            status.finish()
        self.lint_report, self.lint_model = message.lint_report, message.model
        self.report = message.report
        if self._report_screen is not None:
            self._report_screen.show_report(self.report, user_version=self.request.trt_version if self.request else None,
                                            lint_report=self.lint_report, lint_model=self.lint_model)

    def on_lint_failed(self, message: LintFailed) -> None:
        if message.run_id != self._lint_run_id:
            return
        self.lint_pending = None
        for status in self._statuses():
            status.error(message.error)
        if self._report_screen is not None:
            self._report_screen.lint_failed(message.error)
        self.notify(message.error, title="Cannot lint the model", severity="error")

    @staticmethod
    def _join_lint(report: Any, lint_report: Any) -> Any:
        try:
            from troubleshooter.lint.join import attach
        except ImportError:
            return report
        return attach(report, lint_report)

    # --- screens ------------------------------------------------------------------------------
    def _statuses(self) -> list[RunStatus]:
        return [s for screen in self.screen_stack for s in screen.query(RunStatus)]

    def action_show_report(self) -> None:
        """Show the report screen for the current report (Ctrl+G on the paste screen)."""
        from troubleshooter.tui.screens.report import ReportScreen

        if self.report is None or self.log_text is None:
            return
        if self._report_screen is not None and self._report_screen in self.screen_stack:
            return
        # Born with its breakpoint class: set on the first resize instead, it would restyle every widget again.
        breakpoint = "-narrow" if self.size.width < NARROW_BELOW else "-wide"
        screen = ReportScreen(self.report, self.log_text, self.model_path, classes=breakpoint)
        screen.user_version = self.request.trt_version if self.request else None
        screen.lint_report, screen.lint_model = self.lint_report, self.lint_model
        self._report_screen = screen
        self.push_screen(screen)

    def action_new_log(self) -> None:
        """Back to the paste screen, emptied for a new log (the report stays: Ctrl+G shows it again)."""
        from textual.widgets import Input

        if self._report_screen is not None and self.screen is self._report_screen:
            self.pop_screen()
            self._report_screen = None
            if isinstance(self.screen, InputScreen):
                # A paste there now is a new log: never appended to the one on display.
                self.screen.action_clear()
                self.screen.query_one("#path", Input).value = ""


def create_app(log: str | None = None, text: str | None = None, model: str | None = None,
               trt_version: str | None = None) -> TrtWhyApp:
    """The app, not yet running: give a log path or pasted text to start with its diagnosis."""
    return TrtWhyApp(log=log, text=text, model=model, trt_version=trt_version)


def run(log: str | None = None, model: str | None = None, trt_version: str | None = None) -> int:
    """Run the app in the terminal (``trt-why tui``); returns the exit code."""
    if trt_version is not None:
        from troubleshooter.api import check_trt_version

        try:
            check_trt_version(trt_version)
        except InputError as exc:
            print(f"trt-why tui: {exc}", file=sys.stderr)
            return exit_codes.ERROR
    app = create_app(log=log, model=model, trt_version=trt_version)
    from troubleshooter.tui import paste_watch

    paste_watch.install(app)  # progress while a large paste comes in from the terminal
    result = app.run()
    return int(result or exit_codes.OK)
