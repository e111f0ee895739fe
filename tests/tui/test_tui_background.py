"""Big pastes run in the background: progress shows, the UI keeps answering, a new paste wins."""

from __future__ import annotations

import asyncio
import itertools
import time
from pathlib import Path

import pytest
from textual import events
from textual.worker import WorkerState
from tui_helpers import SIZE, make_app, run, sample, wait_for, wait_for_report

from troubleshooter.tui import jobs
from troubleshooter.tui.messages import DiagnosisReady
from troubleshooter.tui.screens.input import InputScreen
from troubleshooter.tui.widgets.paste import LARGE_PASTE_CHARS, PasteArea
from troubleshooter.tui.widgets.status import RunStatus

SILU = "yolov8-int8-orin-silu.log"
OTHER = "e-dealloc-gen-trtexec-10-0-1.log"


def big_log(copies: int = 60) -> str:
    """A CI-style log: the same build run many times into one file (~10 MB)."""
    text = Path(sample(SILU)).read_text(encoding="utf-8")
    return text * copies


@pytest.fixture
def slow_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each MiB of a paste takes 50 ms more: the run lasts long enough to watch, whatever the engine's speed."""
    original = jobs._ChunkedReader.readinto

    def readinto(self, b):  # type: ignore[no-untyped-def]
        time.sleep(0.05)
        return original(self, b)

    monkeypatch.setattr(jobs._ChunkedReader, "readinto", readinto)


def test_large_paste_runs_in_a_worker_with_progress_and_the_ui_answers(slow_engine: None) -> None:
    text = big_log()
    assert len(text) > LARGE_PASTE_CHARS

    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            paste_screen = app.screen
            area = paste_screen.query_one(PasteArea)
            ticks: list[float] = []

            async def probe() -> None:  # how often the event loop gets to run during the diagnosis
                while True:
                    await asyncio.sleep(0.02)
                    ticks.append(time.monotonic())

            task = asyncio.create_task(probe())
            area.post_message(events.Paste(text))
            await wait_for(pilot, lambda: paste_screen.query_one(RunStatus).busy, 10, "the run to start")
            # The paste is kept out of the editor, and said so.
            assert area.text == "" and area.large_text == text
            note = str(paste_screen.query_one("#paste-note").render())
            assert "Large paste" in note
            labels = set()
            start = time.monotonic()
            while app.report is None and time.monotonic() - start < 120:
                labels.add(str(paste_screen.query_one("#status-label").render()))
                await asyncio.sleep(0.02)
            task.cancel()
            assert app.report is not None
            assert any("MB" in label for label in labels), labels
            # The loop kept running while the worker worked (no long freeze).
            during = [t for t in ticks if t >= start]
            gaps = [b - a for a, b in itertools.pairwise(during)]
            assert gaps and sorted(gaps)[len(gaps) // 2] < 0.25
            await wait_for_report(pilot)
            assert app.report.source.lines == text.count("\n")
            assert app.screen.query_one("LogView").line_count == app.report.source.lines

    run(scenario())


def test_a_new_paste_cancels_the_old_run(slow_engine: None) -> None:
    text = big_log()
    small = Path(sample(OTHER)).read_text(encoding="utf-8")

    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            area = app.screen.query_one(PasteArea)
            area.post_message(events.Paste(text))
            await wait_for(pilot, lambda: any(w.group == "diagnose" for w in app.workers), 10)
            first = next(w for w in app.workers if w.group == "diagnose")
            first_run = app.run_id
            area.post_message(events.Paste(small))
            await wait_for_report(pilot)
            assert app.run_id == first_run + 1
            assert app.report.top.id == "cuda-dealloc-async-unsupported"
            assert app.report.source.lines == small.count("\n")
            await wait_for(pilot, lambda: first.state in (WorkerState.CANCELLED, WorkerState.SUCCESS), 30)
            assert first.state == WorkerState.CANCELLED
            await pilot.pause(0.3)
            # Nothing from the first run came back later.
            assert app.report.source.lines == small.count("\n")

    run(scenario())


def test_a_stale_result_is_dropped() -> None:
    async def scenario() -> None:
        app = make_app(log=sample(SILU))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for_report(pilot)
            shown = app.report
            stale = DiagnosisReady(app.run_id - 1, app.request, shown.model_copy(update={"diagnoses": []}),
                                   app.log_text)
            app.post_message(stale)
            await pilot.pause(0.2)
            assert app.report is shown
            assert app.screen.report is shown

    run(scenario())


def test_bad_input_is_one_line_and_the_paste_screen_stays(tmp_path: Path) -> None:
    binary = tmp_path / "model.onnx"
    binary.write_bytes(b"\x08\x07\x12\x07pytorch\x00\x00\xff\xfe" * 50)

    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            app.screen.query_one("#path").value = str(binary)
            app.screen.query_one("#path").focus()
            await pilot.press("enter")
            status = app.screen.query_one(RunStatus)
            await wait_for(pilot, lambda: status.has_class("-error"), 30)
            label = str(app.screen.query_one("#status-label").render())
            assert "model.onnx" in label and "\n" not in label and "Traceback" not in label
            assert isinstance(app.screen, InputScreen)
            # An empty paste area with no path: a hint, no run.
            app.screen.query_one("#path").value = ""
            before = app.run_id
            await pilot.press("ctrl+r")
            assert app.run_id == before

    run(scenario())
