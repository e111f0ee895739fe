"""The report: what we found (the tree), then the tabs 1 Why, 2 Your version, 3 Fix it, 4 Check the model."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Header, Static, TabbedContent, TabPane

from troubleshooter.models import Diagnosis, Report
from troubleshooter.tui.jobs import LogText
from troubleshooter.tui.widgets.environment import EnvironmentPanel
from troubleshooter.tui.widgets.findings import FindingsTree
from troubleshooter.tui.widgets.fixes import FixChecklist, Step
from troubleshooter.tui.widgets.footer import AppFooter
from troubleshooter.tui.widgets.log_view import LogView
from troubleshooter.tui.widgets.model import ModelPanel
from troubleshooter.tui.widgets.status import RunStatus
from troubleshooter.tui.widgets.version import VersionPanel
from troubleshooter.tui.widgets.why import EvidenceList, WhyPanel

_STEPS = Binding.Group("Steps", compact=True)
_EVIDENCE = Binding.Group("Evidence", compact=True)
TABS = {"why": "tab-why", "version": "tab-version", "fix": "tab-fix", "model": "tab-model"}


class ReportScreen(Screen[None]):
    """The walk-through of one report. The app calls ``show_report`` again when the report changes
    (a version answered, a model linted); the selected diagnosis is kept."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "tab('why')", "Why", group=_STEPS),
        Binding("2", "tab('version')", "Your version", group=_STEPS),
        Binding("3", "tab('fix')", "Fix it", group=_STEPS),
        Binding("4", "tab('model')", "Check the model", group=_STEPS),
        Binding("n", "evidence(1)", "Next evidence", group=_EVIDENCE),
        Binding("p", "evidence(-1)", "Previous evidence", group=_EVIDENCE),
        Binding("b", "back", "Back", tooltip="Jump back to where the log view was before the last jump"),
        Binding("c", "copy_command", "Copy cmd", tooltip="Copy the highlighted fix step's command"),
        Binding("r", "copy_reduce", "Reduce cmd", tooltip="Copy the polygraphy debug reduce command"),
        Binding("space", "toggle_step", "Step done", show=False),
        Binding("l", "lint", "Lint model", show=False),
        Binding("ctrl+e", "app.export", "Export", priority=True),
        Binding("ctrl+n", "app.new_log", "New", priority=True, tooltip="Back to the paste screen for a new log"),
        Binding("ctrl+o", "app.open_file", "Open file", show=False, priority=True),
        Binding("escape", "findings", "Tree", tooltip="Back to the findings tree"),
        Binding("e", "toggle_environment", "Environment",
                tooltip="Show or hide the environment (narrow terminals fold it away)"),
    ]

    def __init__(self, report: Report, log: LogText, model: str | None = None, *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.report = report
        self.log_text = log
        self._model = model
        self.selected: Diagnosis | None = report.top
        self.user_version: str | None = None
        self.lint_report: Any = None
        self.lint_model: str | None = None
        self._stale: set[str] = set()
        """Tabs whose panel still shows an older diagnosis: filled when the tab is shown (a report comes up
        faster when only the tab in view is built)."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="report-body"):
            with Vertical(id="side"):
                yield EnvironmentPanel(id="environment")
                yield FindingsTree(id="findings")
            with TabbedContent(id="tabs"):
                with TabPane("1 Why", id=TABS["why"]):
                    yield WhyPanel(self.selected, self.report, id="why")
                    yield EvidenceList(id="evidence")
                    yield LogView(id="log")
                    yield Static("", id="log-line")
                with TabPane("2 Your version", id=TABS["version"]):
                    yield VersionPanel(id="version")
                with TabPane("3 Fix it", id=TABS["fix"]):
                    yield FixChecklist(id="fixes")
                with TabPane("4 Check the model", id=TABS["model"]):
                    yield ModelPanel(self._model, id="model")
        yield RunStatus()
        yield AppFooter()

    def on_mount(self) -> None:
        self.query_one(LogView).set_log(self.log_text)
        self._fill()
        self.query_one(FindingsTree).focus()
        if not self.log_text.complete:
            self.notify(f"The log view holds the first {len(self.log_text.lines):,} lines; the diagnosis read them all.",
                        severity="warning")
        pending = getattr(self.app, "lint_pending", None)
        if pending:
            self.lint_started(pending)

    # --- the report ---------------------------------------------------------------------------
    def show_report(self, report: Report, log: LogText | None = None, *, user_version: str | None = None,
                    lint_report: Any = None, lint_model: str | None = None, new_log: bool = False) -> None:
        """Show a new version of the report (same log unless ``log`` is given); keep the selection.
        ``new_log``: another log than the last (not a rerun with a version or platform): start afresh."""
        keep = self.selected.id if self.selected else None
        self.report = report
        self.user_version = user_version
        self.lint_report, self.lint_model = lint_report, lint_model
        if log is not None and log is not self.log_text:
            self.log_text = log
            self.query_one(LogView).set_log(log)
            if not log.complete:
                self.notify(f"The log view holds the first {len(log.lines):,} lines; the diagnosis read them all.",
                            severity="warning")
        if new_log:
            # Another log: the model box and the lint result belonged to the last one, and the focus goes
            # where a new report starts (the tree), not left in a box that would swallow the keys.
            self.query_one(ModelPanel).reset(getattr(self.app, "model_path", None))
            self.query_one(FindingsTree).focus()
        self.selected = next((d for d in report.diagnoses if d.id == keep), report.top)
        self._fill()

    def _fill(self) -> None:
        report = self.report
        self.sub_title = self._subtitle()
        self.query_one(EnvironmentPanel).show_report(report, self.user_version)
        tree = self.query_one(FindingsTree)
        tree.show_report(report, self.log_text)
        if self.selected is not None:
            tree.select_diagnosis(self.selected.id)
        self._show_selected(jump=True)

    def _subtitle(self) -> str:
        """The log's name, its size and what was found, on the header's one line: at 80 columns the line
        count goes first, then the middle of a long name, so that what was found always shows."""
        src = self.report.source
        name = getattr(self.app, "request_name", None) or src.name
        found = len(self.report.diagnoses)
        counts = f"{found} diagnos{'is' if found == 1 else 'es'}"
        # The header centres "title — subtitle" between its icon and its clock space (18 columns).
        room = (self.size.width or self.app.size.width) - len(f"{self.app.title} — ") - 18
        for text in (f"{name} · {src.lines:,} lines · {counts}", f"{name} · {counts}"):
            if len(text) <= room:
                return text
        keep = room - len(f" · {counts}") - 1
        if keep >= 8:
            name = name[:keep // 2] + "…" + name[len(name) - (keep - keep // 2):]
        return f"{name} · {counts}"

    def _show_selected(self, *, jump: bool, remember: bool = False) -> None:
        diag = self.selected
        self.query_one(WhyPanel).show(diag, self.report)
        self.query_one(EvidenceList).show(diag)
        self._stale = {"version", "fix", "model"}
        active = next((name for name, pane in TABS.items() if pane == self.query_one(TabbedContent).active), "why")
        self._ensure(active)
        log = self.query_one(LogView)
        marks: dict[int, str] = {u.line: "unexplained" for u in self.report.unexplained}
        if diag is not None:
            marks.update({no: "consequence" for no in diag.consequences})
            for ev in diag.evidence:
                if marks.get(ev.line) != "trigger":
                    marks[ev.line] = "trigger" if ev.role == "trigger" else "support"
        log.set_marks(marks)
        if jump and diag is not None and diag.evidence:
            first = next((e.line for e in diag.evidence if e.role == "trigger"), diag.evidence[0].line)
            self.call_after_refresh(log.jump_to, first, remember=remember)

    def _ensure(self, tab: str) -> None:
        """Fill the panel of ``tab`` for the selected diagnosis, if it shows an older one."""
        if tab not in self._stale:
            return
        self._stale.discard(tab)
        diag = self.selected
        if tab == "version":
            request = getattr(self.app, "request", None)
            self.query_one(VersionPanel).show(diag, self.report, self.user_version,
                                              request.platform if request is not None else None)
        elif tab == "fix":
            self.query_one(FixChecklist).show(diag)
        elif tab == "model":
            self.query_one(ModelPanel).show(diag, self.lint_report, self.lint_model)

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        name = next((n for n, pane in TABS.items() if pane == event.pane.id), None)
        if name is not None:
            self._ensure(name)

    # --- events from the widgets --------------------------------------------------------------
    def on_findings_tree_diagnosis_selected(self, event: FindingsTree.DiagnosisSelected) -> None:
        if self.selected is not None and self.selected.id == event.diagnosis_id:
            return
        self.selected = next((d for d in self.report.diagnoses if d.id == event.diagnosis_id), None)
        self._show_selected(jump=True, remember=True)

    def on_findings_tree_line_chosen(self, event: FindingsTree.LineChosen) -> None:
        self.query_one(TabbedContent).active = TABS["why"]
        self.query_one(LogView).jump_to(event.line)

    def on_findings_tree_suggestion_chosen(self, event: FindingsTree.SuggestionChosen) -> None:
        self.app.call_later(self.app.show_entry, event.entry_id)  # type: ignore[attr-defined]

    def on_evidence_list_chosen(self, event: EvidenceList.Chosen) -> None:
        self.query_one(LogView).jump_to(event.line)

    def on_log_view_cursor_moved(self, event: LogView.CursorMoved) -> None:
        """A long line does not fit the log view: it shows whole, wrapped, under it."""
        log = self.query_one(LogView)
        text = self.log_text.line(event.line)
        shown = self.query_one("#log-line", Static)
        fits = text is None or log.line_fits(event.line)
        shown.set_class(not fits, "-shown")
        if not fits:
            shown.update(Content.assemble((f"line {event.line}  ", "$text-muted"), text or ""))
        self.query_one(EvidenceList).follow(event.line)

    # --- actions ------------------------------------------------------------------------------
    def action_tab(self, name: str) -> None:
        self.query_one(TabbedContent).active = TABS[name]
        self._ensure(name)
        focus = {"why": "#evidence", "version": "#version", "fix": "#fixes", "model": "#model"}[name]
        if name == "version":
            # The release question when it is asked; never a select the user cannot see (Enter and the arrows
            # would silently change the version).
            focus = next((f"#{ask}-select" for ask in ("version", "platform")
                          if self.query_one(f"#{ask}-ask").has_class("-shown")), "#version")
        # Tab 4 focuses the panel, not the path box: keys typed there (1-4, n, b...) would go into the box.
        # The box takes the focus on Tab, a click or `l`.
        self.query_one(focus).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "findings":
            return not isinstance(self.focused, FindingsTree)
        if action == "toggle_environment":
            return self.has_class("-narrow")  # wide terminals always show it
        return True

    def on_resize(self, event: events.Resize) -> None:
        self.refresh_bindings()  # the breakpoint class (-narrow) may have changed: so does the footer
        self.sub_title = self._subtitle()  # as much as fits the new width

    def action_toggle_environment(self) -> None:
        self.query_one("#side").toggle_class("-show-env")

    def action_findings(self) -> None:
        """Escape: back to the findings tree (from the model path box, a list, the log)."""
        self.query_one(FindingsTree).focus()

    def action_evidence(self, direction: int) -> None:
        self.query_one(TabbedContent).active = TABS["why"]
        if self.query_one(LogView).next_mark(direction) is None:
            self.notify("No evidence lines to jump to.", severity="warning")

    def action_back(self) -> None:
        self.query_one(TabbedContent).active = TABS["why"]
        if not self.query_one(LogView).back():
            self.notify("Nowhere to jump back to.", severity="information")

    def action_copy_command(self) -> None:
        self._ensure("fix")
        checklist = self.query_one(FixChecklist)
        step = checklist.current_step
        if step is None or not step.code:
            step = next((s.step for s in checklist.steps() if s.step.code), None)
        if step is None or not step.code:
            self.notify("This diagnosis has no command to copy.", severity="warning")
            return
        self.app.copy_to_clipboard(step.code)
        self._copied(step, f"Copied step {step.key} ({step.lang}) to the clipboard.")

    def action_copy_reduce(self) -> None:
        cmd = self.selected.reduce_command if self.selected else None
        if not cmd:
            self.notify("No polygraphy reduce command for this diagnosis.", severity="warning")
            return
        self.app.copy_to_clipboard(cmd)
        self._ensure("fix")
        step = next((s.step for s in self.query_one(FixChecklist).steps() if s.step.key == "reduce"), None)
        self._copied(step, "Copied the polygraphy debug reduce command.")

    def _copied(self, step: Step | None, message: str) -> None:
        """Say a command was copied: on its step when the checklist is in view (a toast would cover it),
        else in a short toast."""
        item = self.query_one(FixChecklist).item_of(step) if step is not None else None
        if item is not None and self.query_one(TabbedContent).active == TABS["fix"]:
            item.show_copied()
        else:
            self.notify(message, title="Copied", timeout=2)

    def action_toggle_step(self) -> None:
        self.query_one(TabbedContent).active = TABS["fix"]
        self._ensure("fix")
        self.query_one(FixChecklist).toggle_current()

    def action_lint(self) -> None:
        self.action_tab("model")
        self.query_one(ModelPanel).request_lint()  # with no path yet, the path box takes the focus

    # --- the app tells us what runs -----------------------------------------------------------
    def lint_started(self, model: str) -> None:
        self.query_one(ModelPanel).show_pending(model)

    def lint_failed(self, message: str) -> None:
        self.query_one(ModelPanel).show_error(message)
