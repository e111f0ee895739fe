"""Issue #16: what broke when the app was tried by hand in tmux at 120x40 and 80x24.

Pastes are sent the way terminals send them (``terminal_paste``: a bracketed paste with CR line
breaks, parsed by Textual's own input parser), not as ready-made ``Paste("...\\n...")`` events.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from rich.style import Style
from textual.widgets import Input, Label, Markdown, Select, Tab, TabbedContent
from textual.widgets._footer import FooterKey
from textual.worker import WorkerState
from tui_helpers import (
    DATA,
    NARROW,
    SIZE,
    diagnosis_running,
    make_app,
    report_app,
    run,
    sample,
    settle,
    terminal_paste,
    wait_for_report,
    wait_for_screen,
    wait_until,
)

from troubleshooter.tui.paste_watch import PasteArriving, PasteWatchParser
from troubleshooter.tui.screens.input import InputScreen
from troubleshooter.tui.themes import DARK, LIGHT
from troubleshooter.tui.widgets.findings import FindingsTree
from troubleshooter.tui.widgets.fixes import FixChecklist
from troubleshooter.tui.widgets.log_view import LogView
from troubleshooter.tui.widgets.paste import LARGE_PASTE_CHARS, PasteArea
from troubleshooter.tui.widgets.status import RunStatus
from troubleshooter.tui.widgets.version import VersionPanel
from troubleshooter.tui.widgets.why import EvidenceList, WhyPanel

SILU = "yolov8-int8-orin-silu.log"
TOP = "conv-act-fusion-no-impl"
CLEAN = ("&&&& RUNNING TensorRT.trtexec [TensorRT v100300] # trtexec --onnx=model.onnx\n"
         "[I] Engine built in 12.3 sec.\n&&&& PASSED TensorRT.trtexec [TensorRT v100300] # trtexec --onnx=model.onnx\n")
"""A build that succeeded: nothing to diagnose."""


def silu_log(size: int) -> str:
    """The SILU sample log (one real build) repeated to at least ``size`` characters (a CI log of many runs)."""
    text = Path(sample(SILU)).read_text(encoding="utf-8")
    return text * max(1, -(-size // len(text)))


# --- 1. a large paste is a log, not one line ----------------------------------------------------------
@pytest.mark.parametrize(("size", "large"), [(150_000, False), (650_000, True), (2_000_000, True)],
                         ids=["small", "650KB", "2MB"])
def test_a_terminal_paste_keeps_its_lines_and_its_diagnosis(size: int, large: bool) -> None:
    text = silu_log(size)
    assert (len(text) > LARGE_PASTE_CHARS) is large

    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            paste_screen = app.screen
            assert isinstance(paste_screen, InputScreen)
            area = paste_screen.query_one(PasteArea)
            status = paste_screen.query_one(RunStatus)
            label = paste_screen.query_one("#status-label")
            terminal_paste(pilot, text)
            # While the paste is diagnosed, the paste screen says so with a progress bar sized to the paste.
            await wait_until(pilot, lambda: status.busy or app.report is not None, "the run to start")
            if app.report is None:
                assert status.busy and "Diagnosing" in str(label.render())
            if large:
                note = str(paste_screen.query_one("#paste-note").render())
                assert f"{text.count(chr(10)):,} lines" in note
            await wait_for_report(pilot)
            assert not diagnosis_running(app)
            assert app.report.source.lines == text.count("\n")
            assert app.report.top is not None and app.report.top.id == TOP
            assert f"{text.count(chr(10)):,} lines" in app.screen.sub_title
            assert "0 diagnoses" not in app.screen.sub_title
            if large:
                assert area.large_text is not None and "\r" not in area.large_text

    run(scenario())


def test_progress_shows_while_a_large_paste_is_still_arriving() -> None:
    """The terminal's bytes come in 4 KiB reads (as the Linux driver reads them); a 2 MB paste takes seconds
    to parse before Textual posts its Paste event. The status line counts it in meanwhile."""
    text = silu_log(2_000_000)

    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            paste_screen = app.screen
            status, label = paste_screen.query_one(RunStatus), paste_screen.query_one("#status-label")
            parser = PasteWatchParser(notify=lambda received: app.post_message(PasteArriving(received)))
            data = "\x1b[200~" + text.replace("\n", "\r") + "\x1b[201~"

            def feed(chunk: str) -> None:
                for message in parser.feed(chunk):
                    message.set_sender(app)
                    app.post_message(message)

            half = len(data) // 2
            for at in range(0, half, 4096):
                feed(data[at:min(at + 4096, half)])
            await wait_until(pilot, lambda: "Receiving a paste" in str(label.render()), "the paste's progress")
            assert status.busy and app.report is None and "1.0 MB so far" in str(label.render())
            for at in range(half, len(data), 4096):
                feed(data[at:at + 4096])
            await wait_for_report(pilot)
            assert app.report.source.lines == text.count("\n") and app.report.top.id == TOP

    run(scenario())


# --- 2. 80x24 is usable: the sidebar stacks, tabs and causes show, the footer fits ---------------------
def test_at_80x24_the_sidebar_stacks_above_the_tabs() -> None:
    async def scenario() -> None:
        async with report_app(NARROW, log=sample(SILU)) as (app, pilot):
            screen = app.screen
            assert screen.has_class("-narrow")
            side, tabs = screen.query_one("#side").region, screen.query_one("#tabs").region
            assert side.width == tabs.width == 80 and side.bottom <= tabs.y  # stacked, full width
            assert not screen.query_one("#environment").display  # folded away; e shows it
            # Every tab label is whole on screen, and the causes have rows of their own.
            for tab in screen.query(Tab):
                assert tab.region.right <= 80 and tab.region.width >= len(str(tab.label))
            assert screen.query_one(WhyPanel).region.height >= 3
            # The footer is one line that does not overwrite itself: every key it shows fits in 80 columns.
            keys = [k for k in screen.query(FooterKey) if k.display]
            assert keys and all(k.region.right <= 80 for k in keys)
            assert all(k.region.x >= prev.region.right for prev, k in itertools.pairwise(keys))
            assert {k.action for k in keys} >= {"tab('why')", "app.new_log", "toggle_environment"}
            await pilot.press("e")
            await settle(pilot)
            assert screen.query_one("#environment").display and screen.query_one("#environment").region.height > 2
            # The version dropdown fits.
            await pilot.press("2")
            await settle(pilot)
            select = screen.query_one("#version-select")
            assert not select.display or select.region.right <= 80
            # Back to 120 columns: the sidebar is a column again, and the environment always shows.
            await pilot.resize_terminal(*SIZE)
            await settle(pilot)
            assert screen.has_class("-wide") and not screen.has_class("-narrow")
            side, tabs = screen.query_one("#side").region, screen.query_one("#tabs").region
            assert side.right <= tabs.x and side.height > 20
            assert screen.query_one("#environment").display

    run(scenario())


# --- 3. focus traps: global keys work after a lint, a multi-line paste is a log wherever focus is ------
def test_after_a_lint_from_the_path_box_the_tab_keys_switch_tabs(onnx_models) -> None:  # type: ignore[no-untyped-def]
    model = onnx_models(node_name="/model.2/cv1/conv/Conv")

    async def scenario() -> None:
        async with report_app(SIZE, log=sample(SILU)) as (app, pilot):
            screen = app.screen
            await pilot.press("4", "tab")  # tab 4 focuses the panel; Tab goes on to the path box (#25)
            box = screen.query_one("#model-path", Input)
            assert box.has_focus
            box.value = model
            await pilot.press("enter")
            await wait_until(pilot, lambda: app.lint_report is not None, "the lint report")
            await pilot.press("1")
            await settle(pilot)
            assert screen.query_one(TabbedContent).active == "tab-why"
            assert box.value == model  # nothing typed into the path
            await pilot.press("3")
            await settle(pilot)
            assert screen.query_one(TabbedContent).active == "tab-fix"
            # Back on tab 4 with a model in the box: the focus is on its results, so 2 still switches tabs.
            await pilot.press("4")
            await settle(pilot)
            assert screen.query_one(TabbedContent).active == "tab-model" and not box.has_focus
            await pilot.press("2")
            await settle(pilot)
            assert screen.query_one(TabbedContent).active == "tab-version" and box.value == model

    run(scenario())


def test_a_multi_line_paste_into_the_path_box_is_a_log() -> None:
    text = Path(sample(SILU)).read_text(encoding="utf-8")

    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            box = app.screen.query_one("#path", Input)
            box.focus()
            await pilot.pause()
            terminal_paste(pilot, text)
            await wait_for_report(pilot)
            assert box.value == ""  # not the log's first line
            assert app.report.source.lines == text.count("\n") and app.report.top.id == TOP

    run(scenario())


def test_a_multi_line_paste_on_the_report_screen_is_a_new_log(tmp_path: Path) -> None:
    other = Path(sample("e-dealloc-gen-trtexec-10-0-1.log")).read_text(encoding="utf-8")

    async def scenario() -> None:
        async with report_app(SIZE, log=sample(SILU)) as (app, pilot):
            first = app.report
            await pilot.press("4", "tab")  # the model path box has focus
            box = app.screen.query_one("#model-path", Input)
            assert box.has_focus
            terminal_paste(pilot, other)
            await wait_until(pilot, lambda: app.report is not first, "the pasted log's report")
            await wait_for_report(pilot)
            assert box.value == "" and app.request.name == "<paste>"
            assert app.report.source.lines == other.count("\n")
            # The new report starts in the tree, as a new report does: the tab keys work, nothing is typed.
            assert isinstance(app.focused, FindingsTree)
            await pilot.press("2")
            await settle(pilot)
            assert app.screen.query_one(TabbedContent).active == "tab-version" and box.value == ""
            await pilot.press("4", "tab")
            await settle(pilot)
            assert box.has_focus
            # A one-line paste into the box stays a path.
            terminal_paste(pilot, "some/model.onnx")
            await settle(pilot)
            assert box.value == "some/model.onnx" and app.request.name == "<paste>"

    run(scenario())


# --- 4. nothing of one log leaks into the next ---------------------------------------------------------
def test_a_new_log_starts_clean(onnx_models, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    model = onnx_models(node_name="/model.2/cv1/conv/Conv")
    lone = sample("e-dealloc-lone-line.log")  # says neither version nor platform: the app asks
    jetson = sample(SILU)  # says Orin / Jetson

    async def scenario() -> None:
        async with report_app(SIZE, log=lone, model=model) as (app, pilot):
            await wait_until(pilot, lambda: app.lint_report is not None, "the --model lint")
            screen = app.screen
            await pilot.press("2")
            select = screen.query_one("#platform-select", Select)
            before = app.run_id
            select.value = "windows"
            await wait_until(pilot, lambda: app.run_id > before, "the run for Windows")
            await wait_for_report(pilot)
            assert app.request.platform == "windows" and app.lint_report is not None
            lint_runs = app._lint_run_id
            # Open another log (Ctrl+O from the report).
            await pilot.press("ctrl+o")
            await wait_for_screen(pilot, "OpenFileDialog")
            app.screen.query_one("#open-path", Input).value = jetson
            await pilot.press("enter")
            await wait_until(pilot, lambda: app.request.path == jetson, "the new log's request")
            await wait_for_report(pilot)
            assert app.screen is screen
            # The platform select follows the new log (which says Jetson itself), not the old choice.
            assert app.report.environment.platform == "jetson"
            assert screen.query_one(VersionPanel).user_platform is None
            assert screen.query_one("#platform-select", Select).value == Select.NULL
            # The old model is not linted again and nothing of its lint is in the new report.
            assert not any(w.group == "lint" and w.state in (WorkerState.PENDING, WorkerState.RUNNING)
                           for w in app.workers)
            assert app.lint_report is None and app.lint_model is None and app.lint_pending is None
            assert app._lint_run_id in (lint_runs, lint_runs + 1) and screen.lint_report is None
            assert all(d.model_verdict is None for d in app.report.diagnoses)
            assert screen.query_one("#model-path", Input).value == ""
            # The paste screen's path box shows this log, not an older path; Ctrl+N (New) empties it (#25).
            await pilot.press("ctrl+n")
            await wait_for_screen(pilot, "InputScreen")
            assert app.screen.query_one("#path", Input).value == ""

    run(scenario())


# --- 5. the smaller ones --------------------------------------------------------------------------------
def _contrast(style: Any) -> float:
    from textual.color import Color

    def luminance(c: Color) -> float:
        def channel(x: int) -> float:
            v = x / 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b)

    fg, bg = Color.from_rich_color(style.color), Color.from_rich_color(style.bgcolor)
    hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("theme", [DARK, LIGHT])
def test_line_numbers_and_tree_scores_are_readable_in_both_themes(theme: str) -> None:
    async def scenario() -> None:
        app = make_app(log=sample(SILU))
        app.theme = theme
        async with app.run_test(size=SIZE) as pilot:
            await wait_for_report(pilot)
            log = app.screen.query_one(LogView)
            unmarked = next(y for y in range(log.size.height)
                            if int(log.scroll_offset.y) + y + 1 not in log.marks
                            and int(log.scroll_offset.y) + y + 1 != log.cursor_line)
            gutter = log.render_line(unmarked)._segments[0]
            assert gutter.text.strip().isdigit()
            assert _contrast(gutter.style) >= 4.5, (theme, "line numbers", gutter.style)
            tree = app.screen.query_one(FindingsTree)
            node = tree.get_node_at_line(1)
            assert node is not None
            label = tree.render_label(node, tree.rich_style, Style())
            score = next(span for span in label.spans if "%" in label.plain[span.start:span.end])
            style = tree.rich_style + (score.style if isinstance(score.style, Style) else Style.parse(score.style))
            assert _contrast(style) >= 4.5, (theme, "tree score", style)

    run(scenario())


def test_the_kb_viewer_reads_without_placeholders_or_doubled_phrases() -> None:
    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            app.show_entry(TOP)
            await wait_for_screen(pilot, "EntryScreen")
            source = app.screen.query_one(Markdown).source
            assert "‹tensorrt_version›" not in source and "{tensorrt_version}" not in source
            assert "your TensorRT version" in source
            assert "is affected. your TensorRT version is affected" not in source.replace("**", "")
            assert re.search(r"affected\*\*\. [a-z]", source) is None  # a sentence after the status starts upper-case

    run(scenario())


def test_the_version_advice_does_not_say_affected_twice() -> None:
    async def scenario() -> None:
        async with report_app(SIZE, pinned=True, log=str(DATA / "python_no_version.log")) as (app, pilot):
            await pilot.press("2")
            await settle(pilot)
            shown = " ".join(" ".join(str(w.render()).split()) for w in app.screen.query("#version-advice Static"))
            assert "affected." in shown and "your TensorRT version is affected" not in shown
            assert "affected. your" not in shown

    run(scenario())


def test_the_fix_tab_says_why_it_is_empty_on_a_clean_log() -> None:
    async def scenario() -> None:
        async with report_app(SIZE, text=CLEAN) as (app, pilot):
            assert not app.report.diagnoses
            await pilot.press("3")
            await settle(pilot)
            fixes = app.screen.query_one(FixChecklist)
            assert fixes.region.height > 0
            text = " ".join(str(label.render()) for label in fixes.query(Label))
            assert "Nothing to fix" in text

    run(scenario())


def test_b_returns_to_the_view_the_user_had() -> None:
    async def scenario() -> None:
        async with report_app(SIZE, log=sample(SILU)) as (app, pilot):
            screen = app.screen
            log = screen.query_one(LogView)
            # The user scrolls the log far from the evidence (the wheel moves the view, not the cursor).
            log.focus()
            log.scroll_to(y=300, animate=False, immediate=True)
            await settle(pilot)
            start_line, start_y = log.cursor_line, log.scroll_offset.y
            assert start_y == 300
            await pilot.press("n")
            await settle(pilot)
            assert log.scroll_offset.y != start_y
            await pilot.press("b")
            await settle(pilot)
            assert (log.cursor_line, log.scroll_offset.y) == (start_line, start_y)
            # Choosing another diagnosis in the tree jumps to its evidence; b comes back from there too.
            before = (log.cursor_line, log.scroll_offset.y)
            tree = screen.query_one(FindingsTree)
            tree.focus()
            await pilot.press("down")
            await settle(pilot)
            assert screen.selected.id != TOP and (log.cursor_line, log.scroll_offset.y) != before
            await pilot.press("b")
            await settle(pilot)
            assert (log.cursor_line, log.scroll_offset.y) == before

    run(scenario())


def test_long_lines_show_whole_and_the_evidence_list_follows_n() -> None:
    async def scenario() -> None:
        async with report_app(SIZE, log=sample(SILU)) as (app, pilot):
            screen = app.screen
            log, evidence = screen.query_one(LogView), screen.query_one(EvidenceList)
            full = app.log_text.line(log.cursor_line)
            assert full is not None and not log.line_fits(log.cursor_line)  # a trigger line wider than the log view
            shown = screen.query_one("#log-line")
            assert shown.display and shown.region.height >= 2
            assert " ".join(full.split()) in " ".join(str(shown.render()).split())
            lines = {ev.line for ev in screen.selected.evidence}
            assert len(lines) > 1
            followed = set()
            for _ in range(len(log.marks)):  # once round every marked line (evidence and consequences)
                await pilot.press("n")
                await settle(pilot)
                if log.cursor_line in lines:
                    option = evidence.get_option_at_index(evidence.highlighted or 0)
                    assert option.id is not None and option.id.startswith(f"ev-{log.cursor_line}-"), \
                        (option.id, log.cursor_line)
                    followed.add(log.cursor_line)
            assert followed == lines

    run(scenario())


def test_the_help_numbers_what_the_keys_number() -> None:
    async def scenario() -> None:
        async with report_app(SIZE, log=sample(SILU)) as (app, pilot):
            tabs = {str(tab.label) for tab in app.screen.query(Tab)}
            await pilot.press("f1")
            await wait_for_screen(pilot, "HelpScreen")
            text = str(app.screen.query_one("#help-text").render())
            steps = text.split("Everywhere")[0]  # the walk-through, above the binding tables
            numbered = [ln.strip() for ln in steps.splitlines() if re.match(r"\s*\d ", ln)]
            assert [ln[0] for ln in numbered] == ["1", "2", "3", "4"]
            for label in tabs:  # "1 Why" is step "1 Why: ..." in the help
                assert any(ln.startswith(label) for ln in numbered), label

    run(scenario())


def test_the_header_shows_what_was_found_at_80_columns(tmp_path: Path) -> None:
    """At 80 columns the header's one line cannot hold a long log name, the line count and the number of
    diagnoses: the count of diagnoses always shows (the line count goes first, then the middle of the
    name), and everything shows again when the terminal is wide."""
    log = tmp_path / "yolov8n-int8-calibration-jetson-orin-nx-jetpack-6.0-build.log"
    log.write_text(Path(sample(SILU)).read_text())

    async def scenario() -> None:
        async with report_app(NARROW, log=str(log)) as (app, pilot):
            title = app.screen.sub_title
            assert title.endswith("3 diagnoses") and "lines" not in title and "…" in title, title
            assert len(f"{app.title} — {title}") <= 80 - 18
            await pilot.resize_terminal(200, 40)
            await pilot.pause()
            assert app.screen.sub_title == f"{log.name} · 1,389 lines · 3 diagnoses"

    run(scenario())
