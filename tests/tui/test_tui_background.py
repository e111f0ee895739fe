"""Big pastes run in the background: progress shows, the UI keeps answering, a new paste wins.

A gate holds the paste worker between two chunks of a large paste, so each test looks at the run at
a known point (started, half-way, replaced) instead of hoping that a sleep lands there.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.widgets import Input
from textual.worker import WorkerState
from tui_helpers import HANG_GUARD, SIZE, ThreadWatch, diagnosis_running, make_app, run, sample, wait_for_report, wait_until

from troubleshooter.tui import app as app_module
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


class ChunkGate:
    """Holds the worker of a paste longer than one chunk before each read until the test lets it go on.

    ``allow(n)`` lets n more reads through, ``release()`` all of them; ``parked_at`` is the number of
    reads done while the worker waits for the next one (None while it runs). Shorter pastes pass freely.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._allowed = 0
        self._open = False
        self.reads = 0
        self.parked_at: int | None = None
        self.cancelled = False
        """A gated read found its run cancelled (and raised jobs.Cancelled)."""

    def wait_turn(self) -> None:
        with self._cond:
            self.parked_at = self.reads
            let_go = self._cond.wait_for(lambda: self._open or self.reads < self._allowed, timeout=HANG_GUARD)
            self.parked_at = None
            self.reads += 1
        if not let_go:
            raise AssertionError("the test never let the paste worker read on (hang guard)")

    def allow(self, n: int = 1) -> None:
        with self._cond:
            self._allowed += n
            self._cond.notify_all()

    def release(self) -> None:
        with self._cond:
            self._open = True
            self._cond.notify_all()

    @contextlib.asynccontextmanager
    async def letting_go_at_exit(self) -> AsyncIterator[None]:
        """Around the app's run: whatever happens, a parked worker is let go (no thread stays parked)."""
        try:
            yield
        finally:
            self.release()


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> ChunkGate:
    """Large pastes read through a ChunkGate, and every chunk read posts its progress (no clock)."""
    chunk_gate = ChunkGate()
    original = jobs._ChunkedReader.readinto

    def readinto(self: Any, b: Any) -> int:
        if len(self._data) > jobs.CHUNK_BYTES:
            chunk_gate.wait_turn()
        try:
            return original(self, b)
        except jobs.Cancelled:
            chunk_gate.cancelled = True
            raise

    monkeypatch.setattr(jobs._ChunkedReader, "readinto", readinto)
    monkeypatch.setattr(app_module, "PROGRESS_EVERY", 0.0)
    return chunk_gate


def test_large_paste_runs_in_a_worker_with_progress_and_the_ui_answers(gate: ChunkGate) -> None:
    text = big_log()
    assert len(text) > LARGE_PASTE_CHARS

    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot, gate.letting_go_at_exit():
            paste_screen = app.screen
            area = paste_screen.query_one(PasteArea)
            status = paste_screen.query_one(RunStatus)
            label = paste_screen.query_one("#status-label")
            gate.allow(2)
            area.post_message(events.Paste(text))
            await wait_until(pilot, lambda: gate.parked_at == 2, "the worker to read two chunks and wait for the third")
            # The paste is kept out of the editor, and said so.
            assert area.text == "" and area.large_text == text
            note = str(paste_screen.query_one("#paste-note").render())
            assert "Large paste" in note
            # Half-way through the run (its worker waits between two chunks): the progress shows in MB...
            assert status.busy and app.report is None and diagnosis_running(app)
            await wait_until(pilot, lambda: "MB" in str(label.render()), "the progress in MB in the status line")
            # ...and the UI answers: keys typed into the path box land while the diagnosis is under way.
            path_box = paste_screen.query_one("#path", Input)
            path_box.focus()
            await pilot.pause()
            assert path_box.has_focus
            await pilot.press("x", "y")
            assert path_box.value == "xy"
            assert gate.parked_at == 2 and diagnosis_running(app) and app.report is None
            # One more chunk: the progress moves on.
            shown = str(label.render())
            gate.allow(1)
            await wait_until(pilot, lambda: gate.parked_at == 3 and str(label.render()) != shown,
                             "the progress to move on after one more chunk")
            assert "MB" in str(label.render())
            gate.release()
            await wait_for_report(pilot)
            assert app.report.source.lines == text.count("\n")
            assert app.screen.query_one("LogView").line_count == app.report.source.lines

    run(scenario())


def test_a_new_paste_cancels_the_old_run(gate: ChunkGate) -> None:
    text = big_log()
    small = Path(sample(OTHER)).read_text(encoding="utf-8")

    async def scenario() -> None:
        threads = ThreadWatch.install()
        app = make_app()
        async with app.run_test(size=SIZE) as pilot, gate.letting_go_at_exit():
            area = app.screen.query_one(PasteArea)
            gate.allow(1)
            area.post_message(events.Paste(text))
            await wait_until(pilot, lambda: gate.parked_at == 1, "the first run to wait before its second chunk")
            first = next(w for w in app.workers if w.group == "diagnose")
            first_run = app.run_id
            area.post_message(events.Paste(small))
            await wait_for_report(pilot)
            assert app.run_id == first_run + 1
            assert app.report.top.id == "cuda-dealloc-async-unsupported"
            assert app.report.source.lines == small.count("\n")
            await wait_until(pilot, lambda: first.state in (WorkerState.CANCELLED, WorkerState.SUCCESS),
                             "the first run's worker to end")
            assert first.state == WorkerState.CANCELLED
            # Let the first run's thread read on: it stops at its next chunk, and returns.
            gate.release()
            await wait_until(pilot, threads.idle, "every worker thread to return")
            assert gate.cancelled
            # Nothing from the first run came back later.
            assert app.report.source.lines == small.count("\n")

    run(scenario())


def test_a_stale_result_is_dropped() -> None:
    async def scenario() -> None:
        app = make_app(log=sample(SILU))
        seen: list[object] = []
        async with app.run_test(size=SIZE, message_hook=seen.append) as pilot:
            await wait_for_report(pilot)
            shown = app.report
            stale = DiagnosisReady(app.run_id - 1, app.request, shown.model_copy(update={"diagnoses": []}),
                                   app.log_text)
            app.post_message(stale)
            await pilot.pause()  # the app handles its messages in order: the stale one is done
            assert stale in seen
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
            await wait_until(pilot, lambda: status.has_class("-error"), "the error in the status line")
            label = str(app.screen.query_one("#status-label").render())
            assert "model.onnx" in label and "\n" not in label and "Traceback" not in label
            assert isinstance(app.screen, InputScreen)
            # An empty paste area with no path: a hint, no run.
            app.screen.query_one("#path").value = ""
            before = app.run_id
            await pilot.press("ctrl+r")
            assert app.run_id == before

    run(scenario())
