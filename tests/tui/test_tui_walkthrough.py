"""Pilot tests: each step of the walk-through, driven by keys on real sample logs."""

from __future__ import annotations

import json
from pathlib import Path

from textual import events
from textual.widgets import Input, Select, TabbedContent
from tui_helpers import (
    SIZE,
    make_app,
    report_app,
    run,
    sample,
    settle,
    wait_for_palette,
    wait_for_report,
    wait_for_screen,
    wait_until,
)

from troubleshooter.tui.screens.input import InputScreen
from troubleshooter.tui.screens.report import ReportScreen
from troubleshooter.tui.widgets.findings import FindingsTree
from troubleshooter.tui.widgets.fixes import FixChecklist, StepItem
from troubleshooter.tui.widgets.log_view import LogView
from troubleshooter.tui.widgets.paste import PasteArea
from troubleshooter.tui.widgets.text import plain_text

SILU = "yolov8-int8-orin-silu.log"
NO_VERSION = "q-onnxruntime-trtep86-qdq-residual-add.log"
DEPTHWISE = "q-trtexec86-orin-depthwise-qdq.log"
UNEXPLAINED = "p-deepstream-blank-lines-magic-tag.log"


def test_paste_diagnoses_and_shows_ranked_findings() -> None:
    text = Path(sample(SILU)).read_text(encoding="utf-8")

    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            assert isinstance(app.screen, InputScreen)
            area = app.screen.query_one(PasteArea)
            area.post_message(events.Paste(text))
            await wait_for_report(pilot)
            assert app.report.top.id == "conv-act-fusion-no-impl"
            screen = app.screen
            assert isinstance(screen, ReportScreen)
            tree = screen.query_one(FindingsTree)
            top = tree.cursor_node
            assert top is not None and top.data is not None and top.data.key == "conv-act-fusion-no-impl"
            assert top.data.severity == "error" and 0 < top.data.score <= 1
            # The cascade is folded under the root: collapsed until asked for.
            assert app.report.top.consequences and top.children and not top.is_expanded
            folded = top.children[0]
            assert [c.data.line for c in folded.children if c.data.kind == "line"] == app.report.top.consequences
            # The environment panel says what it knows and marks what it does not.
            env = str(screen.query_one("#environment").render())
            assert "8.6.1" in env and "unknown" in env

    run(scenario())


def test_open_file_by_path_and_with_the_dialog() -> None:
    path = sample(SILU)

    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("ctrl+o")
            await wait_for_screen(pilot, "OpenFileDialog")
            app.screen.query_one("#open-path", Input).value = path
            await pilot.press("enter")
            await wait_for_report(pilot)
            assert app.request.path == path
            assert app.report.source.lines == len(app.log_text.lines)
            # Back to the paste screen, and a path typed there.
            await pilot.press("ctrl+n")
            assert isinstance(app.screen, InputScreen)
            app.screen.query_one("#path", Input).value = sample(UNEXPLAINED)
            app.screen.query_one("#path", Input).focus()
            await pilot.press("enter")
            await wait_for_report(pilot)
            assert app.request.name == UNEXPLAINED

    run(scenario())


def test_select_a_diagnosis_and_jump_to_its_evidence_and_back() -> None:
    async def scenario() -> None:
        async with report_app(SIZE, log=sample(SILU)) as (app, pilot):
            screen = app.screen
            log = screen.query_one(LogView)
            top = app.report.top
            trigger = next(e.line for e in top.evidence if e.role == "trigger")
            # Opening the report puts the first trigger line in view with lines around it.
            assert log.cursor_line == trigger and log.line_in_view(trigger)
            assert log.line_in_view(trigger - 3) and log.line_in_view(trigger + 3)
            assert log.marks[trigger] == "trigger"
            # Select another diagnosis: its evidence becomes the marked lines.
            second = app.report.diagnoses[1]
            screen.query_one(FindingsTree).focus()
            await pilot.press("down")
            await pilot.pause()
            assert screen.selected.id == second.id
            assert {e.line for e in second.evidence} <= set(log.marks)
            await pilot.press("up")
            await pilot.pause()
            assert screen.selected.id == top.id
            # Move away, then n jumps to the next evidence line and b comes back.
            marks = sorted(log.marks)
            start = next(n for n in range(2, log.line_count) if n not in log.marks)
            after = [m for m in marks if m > start]
            log.jump_to(start)
            await pilot.press("n")
            await pilot.pause()
            assert log.cursor_line == after[0] and log.line_in_view(after[0])
            await pilot.press("n")
            await pilot.pause()
            assert log.cursor_line == (after[1] if len(after) > 1 else marks[0])
            await pilot.press("p")
            await pilot.pause()
            assert log.cursor_line == after[0]
            # b walks the jumps back: to the second mark, the first, then where we started.
            await pilot.press("b")
            await pilot.pause()
            assert log.cursor_line == (after[1] if len(after) > 1 else marks[0])
            await pilot.press("b", "b")
            await pilot.pause()
            assert log.cursor_line == start and log.line_in_view(start)
            # Enter on a folded consequence line jumps there too.
            tree = screen.query_one(FindingsTree)
            tree.focus()
            await pilot.press("space")  # unfold the root
            await pilot.pause()
            await pilot.press("down", "space", "down", "enter")
            await pilot.pause()
            assert log.cursor_line == top.consequences[0] and log.line_in_view(top.consequences[0])

    run(scenario())


def test_unexplained_lines_carry_suggestions() -> None:
    async def scenario() -> None:
        async with report_app(SIZE, log=sample(UNEXPLAINED)) as (app, _pilot):
            assert app.report.unexplained
            tree = app.screen.query_one(FindingsTree)
            kinds = []

            def walk(node):  # type: ignore[no-untyped-def]
                for child in node.children:
                    kinds.append(child.data.kind if child.data else None)
                    walk(child)

            walk(tree.root)
            assert "unexplained" in kinds
            assert "suggestion" in kinds or not any(u.similar for u in app.report.unexplained)
            if any(u.similar for u in app.report.unexplained):
                assert "suggestion" in tree.render_label(
                    next(n for n in _nodes(tree.root) if n.data and n.data.kind == "suggestion"),
                    tree.rich_style, tree.rich_style).plain

    run(scenario())


def _nodes(node):  # type: ignore[no-untyped-def]
    for child in node.children:
        yield child
        yield from _nodes(child)


def test_answer_the_version_question_updates_the_advice() -> None:
    async def scenario() -> None:
        async with report_app(SIZE, log=sample(NO_VERSION)) as (app, pilot):
            assert app.report.environment.tensorrt_version is None
            top = app.report.top
            assert top.version_advice and top.version_status is None
            await pilot.press("2")
            screen = app.screen
            assert screen.query_one(TabbedContent).active == "tab-version"
            assert screen.query_one("#version-ask").has_class("-shown")
            select = screen.query_one("#version-select", Select)
            assert select.has_focus
            run_before = app.run_id
            select.value = "8.6"
            await wait_until(pilot, lambda: app.run_id > run_before and app.report.environment.tensorrt_version == "8.6",
                             "a report for TensorRT 8.6")
            await wait_for_report(pilot)
            top = app.report.top
            assert top.version_status is not None
            advice = plain_text(screen.query_one("#version-advice"))
            assert "8.6" in advice and top.version_status in advice
            env = str(screen.query_one("#environment").render())
            assert "8.6" in env and "you said" in env

    run(scenario())


def test_fix_checklist_and_copy_to_the_clipboard() -> None:
    async def scenario() -> None:
        async with report_app(SIZE, log=sample(SILU)) as (app, pilot):
            await pilot.press("3")
            await pilot.pause()
            checklist = app.screen.query_one(FixChecklist)
            assert checklist.has_focus
            steps = checklist.steps()
            assert steps
            current = checklist.current_step
            assert current is not None
            await pilot.press("space")
            await pilot.pause()
            assert isinstance(checklist.highlighted_child, StepItem) and checklist.highlighted_child.done
            # Move to a step with a command and copy it.
            while checklist.current_step is None or not checklist.current_step.code:
                await pilot.press("down")
                await pilot.pause()
            code = checklist.current_step.code
            await pilot.press("c")
            await pilot.pause()
            assert app.clipboard == code
            # r copies the polygraphy reduce command.
            await pilot.press("r")
            await pilot.pause()
            assert app.clipboard == app.report.top.reduce_command
            assert app.clipboard.startswith("polygraphy debug reduce")

    run(scenario())


def test_lint_a_generated_model_confirms_the_diagnosis(onnx_models) -> None:  # type: ignore[no-untyped-def]
    model = onnx_models(group=3)  # a Q/DQ conv named as in the log, 2 channels per group (INT8 wants 4)

    async def scenario() -> None:
        async with report_app(SIZE, log=sample(DEPTHWISE)) as (app, pilot):
            assert app.report.top.id == "int8-grouped-conv-alignment"
            await pilot.press("4", "tab")
            box = app.screen.query_one("#model-path", Input)
            assert box.has_focus
            box.value = model
            await pilot.press("enter")
            await wait_until(pilot, lambda: app.lint_report is not None, "the lint report")
            text = plain_text(app.screen.query_one("#model-result"))
            assert "confirms" in text
            assert "int8-grouped-conv-channels" in text
            # Findings on the nodes named in the log come first.
            on_nodes, other = text.index("On the nodes named in the log"), text.index("Other findings")
            assert on_nodes < text.index("int8-grouped-conv-channels", on_nodes) < other

    run(scenario())


def test_lint_a_model_without_the_problem_refutes(onnx_models) -> None:  # type: ignore[no-untyped-def]
    model = onnx_models(group=1, channels=8)  # a plain conv with the logged name: nothing to find

    async def scenario() -> None:
        async with report_app(SIZE, log=sample(DEPTHWISE), model=model) as (app, pilot):
            await wait_until(pilot, lambda: app.lint_report is not None, "the lint report of the --model given")
            await pilot.press("4")
            await settle(pilot)
            text = plain_text(app.screen.query_one("#model-result"))
            assert "The model argues against" in text

    run(scenario())


def test_lint_errors_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "model.onnx"
    bad.write_text("not a model")

    async def scenario() -> None:
        async with report_app(SIZE, log=sample(DEPTHWISE)) as (app, pilot):
            await pilot.press("4", "tab")
            app.screen.query_one("#model-path", Input).value = str(bad)
            await pilot.press("enter")
            await wait_until(pilot, lambda: app.screen.query_one("RunStatus").has_class("-error"),
                             "the lint error in the status line")
            text = plain_text(app.screen.query_one("#model-result"))
            assert "Traceback" not in text and "\n" not in text.strip()

    run(scenario())


def test_export_markdown_and_json(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with report_app(SIZE, log=sample(SILU)) as (app, pilot):
            for presses, name in ((0, "report.md"), (1, "report.json"), (2, "report.issue.md")):
                await pilot.press("ctrl+e")
                await wait_for_screen(pilot, "ExportDialog")
                for _ in range(presses):
                    await pilot.press("ctrl+f")
                box = app.screen.query_one("#export-path", Input)
                box.value = str(tmp_path / name)
                await pilot.press("enter")
                written = tmp_path / name
                await wait_until(pilot, lambda: isinstance(app.screen, ReportScreen) and written.is_file(),  # noqa: B023
                                 f"{name} written and the report screen back")
            md = (tmp_path / "report.md").read_text()
            assert "conv-act-fusion-no-impl" in md
            data = json.loads((tmp_path / "report.json").read_text())
            assert data["diagnoses"][0]["id"] == "conv-act-fusion-no-impl"
            issue = (tmp_path / "report.issue.md").read_text()  # the upstream issue draft (#22), from the TUI too
            assert issue.startswith("<!-- Drafted by trt-why") and "conv-act-fusion-no-impl" in issue
            # An existing file is replaced only after a second Enter.
            await pilot.press("ctrl+e")
            await wait_for_screen(pilot, "ExportDialog")
            app.screen.query_one("#export-path", Input).value = str(tmp_path / "report.md")
            await pilot.press("enter")
            await pilot.pause()
            assert type(app.screen).__name__ == "ExportDialog"
            await pilot.press("enter")
            await wait_for_screen(pilot, "ReportScreen")

    run(scenario())


def test_help_palette_theme_and_kb_entry() -> None:
    async def scenario() -> None:
        async with report_app(SIZE, log=sample(SILU)) as (app, pilot):
            await pilot.press("f1")
            await pilot.pause()
            assert type(app.screen).__name__ == "HelpScreen"
            help_text = str(app.screen.query_one("#help-text").render())
            from textual.binding import Binding

            from troubleshooter.tui.app import TrtWhyApp
            from troubleshooter.tui.dialogs.export import ExportDialog
            from troubleshooter.tui.dialogs.open_file import OpenFileDialog
            from troubleshooter.tui.screens.entry import EntryScreen
            from troubleshooter.tui.widgets.log_view import LogView

            every = [TrtWhyApp, InputScreen, ReportScreen, FixChecklist, LogView, OpenFileDialog, ExportDialog,
                     EntryScreen]
            for cls in every:
                for b in cls.BINDINGS:
                    assert isinstance(b, Binding)
                    assert (b.tooltip or b.description) in help_text, (cls.__name__, b.key)
            await pilot.press("escape")
            dark = app.theme
            await pilot.press("ctrl+t")
            assert app.theme != dark
            await pilot.press("ctrl+t")
            assert app.theme == dark
            await pilot.press("ctrl+p")
            await wait_for_screen(pilot, "CommandPalette")
            await pilot.press(*"silu")
            await wait_for_palette(pilot)
            await pilot.press("enter")
            await wait_for_screen(pilot, "EntryScreen")
            assert app.screen.entry.id == "conv-act-fusion-no-impl"

    run(scenario())


def test_a_dropped_file_opens() -> None:
    path = sample(SILU)

    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            area = app.screen.query_one(PasteArea)
            area.post_message(events.Paste(f"'{path}' "))  # how terminals paste a dragged-in file
            await wait_for_report(pilot)
            assert app.request.path == path and app.request.text is None

    run(scenario())


def test_the_mouse_works_too() -> None:
    async def scenario() -> None:
        async with report_app(SIZE, log=sample(SILU)) as (app, pilot):
            screen = app.screen
            await pilot.click("#--content-tab-tab-fix")
            await pilot.pause()
            assert screen.query_one(TabbedContent).active == "tab-fix"
            first = screen.query_one(FixChecklist).steps()[0]
            await pilot.click(first)
            await pilot.pause()
            assert first.done
            await pilot.click("#--content-tab-tab-why")
            await pilot.pause()
            log = screen.query_one(LogView)
            await pilot.click(log, offset=(10, 2))
            await pilot.pause()
            assert log.cursor_line == int(log.scroll_offset.y) + 2  # row 2 is content row 1 (under the border)
            # A click on the second diagnosis selects it.
            tree = screen.query_one(FindingsTree)
            second = app.report.diagnoses[1]
            node = next(n for n in _nodes(tree.root) if n.data and n.data.key == second.id)
            await pilot.click(tree, offset=(10, node.line - int(tree.scroll_offset.y) + 1))  # +1: the border
            await pilot.pause()
            assert screen.selected.id == second.id

    run(scenario())


def test_run_refuses_a_bad_version_without_starting() -> None:
    from troubleshooter.tui.app import run as run_app

    assert run_app(trt_version="banana") == 2


def test_the_factory_takes_text() -> None:
    text = Path(sample(SILU)).read_text(encoding="utf-8")

    async def scenario() -> None:
        async with report_app(SIZE, text=text, trt_version="8.6.1") as (app, pilot):
            assert app.request.text == text and app.request.trt_version == "8.6.1"
            assert app.report.environment.tensorrt_version == "8.6.1"
            # Ctrl+N (New) shows the paste screen emptied for a new log (#25); Ctrl+G the report again.
            await pilot.press("ctrl+n")
            assert app.screen.query_one(PasteArea).text == ""
            await pilot.press("ctrl+g")
            assert isinstance(app.screen, ReportScreen)

    run(scenario())


def test_answer_the_platform_question_reruns_with_it() -> None:
    lone = "e-dealloc-lone-line.log"  # one line: neither version nor platform in the log

    async def scenario() -> None:
        async with report_app(SIZE, log=sample(lone)) as (app, pilot):
            assert app.report.environment.platform is None
            await pilot.press("2")
            screen = app.screen
            assert screen.query_one("#platform-ask").has_class("-shown")
            select = screen.query_one("#platform-select", Select)
            run_before = app.run_id
            select.value = "jetson"
            await wait_until(pilot, lambda: app.run_id > run_before and app.report.environment.platform == "jetson",
                             "a report for a Jetson")
            await wait_for_report(pilot)
            assert app.request.platform == "jetson"

    run(scenario())
