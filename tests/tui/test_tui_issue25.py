"""Issue #25: the TUI as a new user met it in tmux at 120x40 and 80x24.

Pastes are sent as terminals send them (``terminal_paste``). Timings are not tested here: the paste to
report speed is measured in tmux by benchmarks/bench_tui_paste.py.
"""

from __future__ import annotations

import ast
from pathlib import Path

from textual import events
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Input, Label, Select, TabbedContent
from tui_helpers import (
    DATA,
    NARROW,
    SIZE,
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

from troubleshooter.tui.widgets.findings import FindingsTree
from troubleshooter.tui.widgets.fixes import CodeBlock, FixChecklist, FixTitle, StepItem
from troubleshooter.tui.widgets.model import ModelPanel
from troubleshooter.tui.widgets.paste import PasteArea
from troubleshooter.tui.widgets.version import VersionPanel
from troubleshooter.tui.widgets.why import WhyPanel

ORIN = DATA / "orin_int8_fusion.log"
"""An INT8 build on a Jetson Orin (68 lines)."""
RTX = "h-trtexec86-plugin-needs-cudnn.log"
"""A trtexec build on an RTX 3060 (14 lines)."""
SILU = "yolov8-int8-orin-silu.log"


# --- Ctrl+N: a new log, not the old one with more appended ----------------------------------------------
def test_ctrl_n_empties_the_paste_box_and_the_next_paste_is_a_log_of_its_own() -> None:
    first = ORIN.read_text(encoding="utf-8")
    second = Path(sample(RTX)).read_text(encoding="utf-8")

    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            terminal_paste(pilot, first)
            await wait_for_report(pilot)
            assert app.report.environment.gpu == "Orin"
            await pilot.press("ctrl+n")
            await wait_for_screen(pilot, "InputScreen")
            area = app.screen.query_one(PasteArea)
            assert area.text == "" and area.has_focus
            assert app.screen.query_one("#path", Input).value == ""
            terminal_paste(pilot, second)
            await wait_until(pilot, lambda: app.request is not None and app.request.text is not None
                             and app.request.text.count("\n") == second.count("\n"), "the second paste's run")
            await wait_for_report(pilot)
            assert app.report.source.lines == second.count("\n")  # not 68 + 14
            assert app.report.environment.gpu != "Orin" and app.report.environment.platform != "jetson"
            # The first report is gone for good: Ctrl+G shows the second.
            await pilot.press("ctrl+n", "ctrl+g")
            await settle(pilot)
            assert app.report.source.lines == second.count("\n")

    run(scenario())


def test_a_log_pasted_over_an_untouched_pasted_log_replaces_it() -> None:
    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            area = app.screen.query_one(PasteArea)
            area.post_message(events.Paste("[E] one\r[E] two\r"))
            await wait_for_report(pilot)
            assert area.text == "[E] one\n[E] two\n"
            area.post_message(events.Paste("[E] three\r[E] four\r"))  # the box still holds the last paste
            await wait_until(pilot, lambda: "three" in area.text, "the second paste in the box")
            assert area.text == "[E] three\n[E] four\n"
            area.load_text("[E] typed by hand\n")  # an edit: a paste now goes where the cursor is
            area.post_message(events.Paste("[E] five\r[E] six\r"))
            await wait_until(pilot, lambda: "five" in area.text, "the third paste in the box")
            assert "typed by hand" in area.text

    run(scenario())


# --- focus: a hidden select never holds the keyboard; tab 4 does not trap the tab keys ------------------
def test_tab_2_never_focuses_a_select_the_user_cannot_see() -> None:
    async def scenario() -> None:
        async with report_app(SIZE, log=sample(SILU)) as (app, pilot):
            assert app.report.environment.tensorrt_version == "8.6.1"
            screen = app.screen
            await pilot.press("2")
            await settle(pilot)
            assert not screen.query_one("#version-ask").has_class("-shown")
            assert not isinstance(app.focused, Select)
            assert isinstance(app.focused, VersionPanel)
            before = app.run_id
            await pilot.press("enter", "down", "down", "enter")
            await settle(pilot)
            assert app.run_id == before and app.request.trt_version is None
            assert app.report.environment.tensorrt_version == "8.6.1"
            assert app.report.top.confidence == 0.93

    run(scenario())


def test_tab_4_leaves_the_tab_keys_working_and_tab_or_l_reaches_the_path_box() -> None:
    async def scenario() -> None:
        async with report_app(SIZE, log=sample(SILU)) as (app, pilot):
            screen = app.screen
            box = screen.query_one("#model-path", Input)
            await pilot.press("4")
            await settle(pilot)
            assert isinstance(app.focused, ModelPanel) and not box.has_focus
            await pilot.press("1")
            await settle(pilot)
            assert screen.query_one(TabbedContent).active == "tab-why" and box.value == ""
            await pilot.press("4", "tab")
            assert box.has_focus
            await pilot.press("escape", "4", "l")
            await settle(pilot)
            assert box.has_focus  # l with no path yet: type it here

    run(scenario())


# --- layout ------------------------------------------------------------------------------------------------
def test_80x24_shows_the_whole_first_cause() -> None:
    async def scenario() -> None:
        async with report_app(NARROW, log=sample(SILU)) as (app, _pilot):
            why = app.screen.query_one(WhyPanel)
            first = why.query(".bullet-text").first()
            assert first.region.height >= 4  # it wraps on several lines...
            assert why.region.contains_region(first.region), (why.region, first.region)  # ...all of them shown

    run(scenario())


def _shown(widget: Widget) -> list[str]:
    """The lines ``widget`` puts on the screen (what a user reads), trailing spaces removed."""
    strips = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return [strip.text.rstrip() for strip in strips]


def test_tree_titles_and_fix_headings_are_never_cut_mid_word() -> None:
    for size in (SIZE, NARROW):
        async def scenario(size: tuple[int, int] = size) -> None:
            async with report_app(size, log=sample(SILU)) as (app, pilot):
                titles = [d.title for d in app.report.diagnoses]
                rows = [row for row in _shown(app.screen.query_one(FindingsTree)) if "% " in row]
                assert rows  # (the tree scrolls: at 24 rows it may show fewer than all)
                for row, title in zip(rows, titles, strict=False):
                    shown = row.split("% ", 1)[1]
                    if shown != title:  # cut to the tree's width: after a word, and it says so
                        assert shown.endswith("…") and title.startswith(shown[:-1]), (row, title)
                        assert title[len(shown) - 1] == " ", (row, title)
                await pilot.press("3")
                await settle(pilot)
                for heading in app.screen.query_one(FixChecklist).query(FixTitle):
                    shown = " ".join(" ".join(_shown(heading.query_one(Label))).split())
                    assert shown == " ".join(heading.title.split())  # wrapped, never cut

        run(scenario())


def test_code_in_the_checklist_breaks_where_it_still_runs() -> None:
    async def scenario() -> None:
        async with report_app(SIZE, log=sample(SILU)) as (app, pilot):
            await pilot.press("3")
            await settle(pilot)
            blocks = [b for b in app.screen.query(CodeBlock) if b.lang == "python"]
            assert blocks
            for block in blocks:
                shown = str(block.render())
                assert all(len(line) <= block.content_size.width for line in shown.splitlines())
                assert ast.dump(ast.parse(shown)) == ast.dump(ast.parse(block.code))

    run(scenario())


def test_copying_a_command_says_so_on_the_step_not_in_a_toast_over_the_checklist() -> None:
    async def scenario() -> None:
        async with report_app(SIZE, log=sample(SILU)) as (app, pilot):
            await pilot.press("3")
            await settle(pilot)
            checklist = app.screen.query_one(FixChecklist)
            while checklist.current_step is None or not checklist.current_step.code:
                await pilot.press("down")
            await pilot.press("c")
            await settle(pilot)
            assert app.clipboard == checklist.current_step.code
            assert not list(app._notifications)
            item = checklist.highlighted_child
            assert isinstance(item, StepItem) and "copied" in str(item.query_one(".step-text").render())

    run(scenario())


# --- the model verdict reaches the export -----------------------------------------------------------------
def test_the_export_carries_the_model_verdict(onnx_models, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    model = onnx_models(node_name="/model.2/cv1/conv/Conv", group=3)

    async def scenario() -> None:
        async with report_app(SIZE, log=sample(SILU), model=model) as (app, pilot):
            await wait_until(pilot, lambda: app.lint_report is not None, "the lint of the --model given")
            await settle(pilot)
            assert app.report.top.model_verdict is not None
            out = tmp_path / "report.md"
            app._export_to(("markdown", str(out)))
            text = out.read_text(encoding="utf-8")
            assert f"**On the model**: {app.report.top.model_verdict_reason}" in text

    run(scenario())


# --- the paste parser: a paste read whole, the rest as Textual reads it ------------------------------------
def _feed(parser: object, data: str, chunk: int) -> list[object]:
    out: list[object] = []
    for at in range(0, len(data), chunk):
        out += list(parser.feed(data[at:at + chunk]))  # type: ignore[attr-defined]
    return out


def _events(messages: list[object]) -> list[tuple[str, str]]:
    return [(type(m).__name__, getattr(m, "text", None) or getattr(m, "key", "")) for m in messages]


def test_the_paste_parser_gives_what_textual_gives_whatever_the_reads() -> None:
    """Same events as Textual's own parser (keys before and after, the paste's text, NULs removed), for every
    way the terminal's reads can cut the markers."""
    from textual._xterm_parser import XTermParser

    from troubleshooter.tui.paste_watch import PasteWatchParser

    data = "ab\x1b[200~[E] one\r[E] t\x00wo\r\x1b[201~c\x1b[200~second\x1b[201~"
    expected = _events(_feed(XTermParser(), data, 1))
    assert ("Paste", "[E] one\r[E] two\r") in expected
    for chunk in range(1, len(data) + 1):
        assert _events(_feed(PasteWatchParser(), data, chunk)) == expected, chunk


def test_the_paste_parser_holds_nothing_that_may_be_a_key() -> None:
    from troubleshooter.tui.paste_watch import PasteWatchParser

    parser = PasteWatchParser()
    assert list(parser.feed("\x1b")) == [] and parser._held == ""  # Escape: Textual's own timeout decides
    alt = PasteWatchParser()
    list(alt.feed("x\x1b["))
    assert alt._held == ""  # ESC [ may be Alt+[
    held = PasteWatchParser()
    list(held.feed("x\x1b[20"))
    assert held._held == "\x1b[20"  # may be a paste's start: the next read says
