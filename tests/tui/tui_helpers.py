"""Helpers for the Textual app's tests: the app factory, real sample logs, a pinned KB, waiting.

Functional (Pilot) tests run the real KB on the real sample logs and assert on ids and line
numbers. Snapshot tests run a pinned copy of four KB entries (``tests/tui/kb``) on the logs in
``tests/tui/data``, so that editing the KB's wording does not change the pictures.

No test sleeps for a fixed time: each waits on the app's own state (``wait_until`` and the helpers
built on it, ``pilot.pause()`` for pending messages). Timeouts are hang guards, never speed checks;
speed is measured in benchmarks/.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from textual.worker import WorkerState

from troubleshooter.api import Engine
from troubleshooter.kb.loader import load_folders
from troubleshooter.tui.app import TrtWhyApp, create_app

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SAMPLES = REPO / "sample_logs"
DATA = HERE / "data"
PINNED_KB = HERE / "kb"
SIZE = (120, 40)
"""Every test runs at this terminal size (snapshots must not depend on the terminal)..."""
NARROW = (80, 24)
"""...except the narrow-layout tests and snapshots, which run at the smallest size the app supports."""
HANG_GUARD = 60.0
"""Seconds after which a wait gives up: only so that a broken test fails instead of hanging (never a speed check)."""


def sample(name: str) -> str:
    """A real sample log (sample_logs/NAME); the test is skipped when it is not there."""
    path = SAMPLES / name
    if not path.is_file():
        pytest.skip(f"sample log {name} is not in sample_logs/")
    return str(path)


_pinned: Engine | None = None


def pinned_engine() -> Engine:
    """An engine over the pinned KB copy (built once per session)."""
    global _pinned
    if _pinned is None:
        kb = load_folders([PINNED_KB], strict=True)
        _pinned = Engine.from_kb(kb)
    return _pinned


def make_app(*, pinned: bool = False, **kwargs: Any) -> TrtWhyApp:
    """create_app(...) with, for snapshots, the pinned KB."""
    app = create_app(**kwargs)
    if pinned:
        app.engine = pinned_engine()
    return app


async def settle(pilot: Any) -> None:
    """Let the app finish what it has queued: pending messages, the callbacks it asked to run after
    the next refresh (``call_after_refresh``) and any scheduled animation. No clock involved."""
    await pilot.pause()  # pending messages; ends with a refresh, which queues the after-refresh callbacks
    await pilot.wait_for_scheduled_animations()  # runs them, and waits out any animation they start


async def wait_until(pilot: Any, predicate: Callable[[], object], what: str, timeout: float = HANG_GUARD) -> None:
    """Let the app run (``pilot.pause()``: pending messages processed) until ``predicate()`` holds, then
    once more, so that what the app posted on the way there is handled too.

    Workers run in threads, so a result arrives after some number of passes of the event loop; this
    waits for the state, never for a fixed time. ``timeout`` only stops a test that would hang.
    """
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"still waiting for {what} after {timeout:.0f} s (hang guard)")
        await pilot.pause()
    await pilot.pause()


def diagnosis_running(app: Any) -> bool:
    """A diagnosis worker is pending or running (cancelled ones do not count)."""
    return any(w.group == "diagnose" and w.state in (WorkerState.PENDING, WorkerState.RUNNING) for w in app.workers)


async def wait_for_report(pilot: Any, timeout: float = HANG_GUARD) -> None:
    """Until the report screen shows a report, no diagnosis is running and the screen has settled."""
    from troubleshooter.tui.screens.report import ReportScreen

    app = pilot.app
    await wait_until(pilot, lambda: isinstance(app.screen, ReportScreen) and app.report is not None
                     and not diagnosis_running(app), "the report screen with a finished diagnosis", timeout)
    # wait_until's last pause refreshed the screen; this runs what the report asked to do after that
    # refresh (the log view's jump to the first trigger line) and waits out any animation.
    await pilot.wait_for_scheduled_animations()


@contextlib.asynccontextmanager
async def report_app(size: tuple[int, int] = SIZE, **kwargs: Any) -> AsyncIterator[tuple[TrtWhyApp, Any]]:
    """The app (made by `make_app(**kwargs)`) running at `size`, once its report is on screen: the
    preamble of most walkthrough tests, as `async with report_app(NARROW, log=...) as (app, pilot):`."""
    app = make_app(**kwargs)
    async with app.run_test(size=size) as pilot:
        await wait_for_report(pilot)
        yield app, pilot


async def wait_for_screen(pilot: Any, name: str, timeout: float = HANG_GUARD) -> None:
    """Until the app shows the screen class ``name`` (a dialog, the help, the palette...)."""
    await wait_until(pilot, lambda: type(pilot.app.screen).__name__ == name, f"the {name} screen", timeout)


async def wait_for_palette(pilot: Any, timeout: float = HANG_GUARD) -> None:
    """Until the command palette shows its hits for what was typed (it searches in a worker)."""
    from textual.command import CommandList, CommandPalette

    group = CommandPalette._GATHER_COMMANDS_GROUP
    app = pilot.app

    def searched() -> bool:
        searching = any(w.group == group and w.state in (WorkerState.PENDING, WorkerState.RUNNING)
                        for w in app.workers)
        return (isinstance(app.screen, CommandPalette) and not searching
                and app.screen.query_one(CommandList).option_count > 0)

    await wait_until(pilot, searched, "the command palette's hits", timeout)


class ThreadWatch(ThreadPoolExecutor):
    """The event loop's default executor, where Textual runs thread workers, remembering every job.

    Textual marks a cancelled thread worker CANCELLED at once while its thread runs on; ``idle()``
    is true only when every function handed to a thread has returned.
    """

    def __init__(self) -> None:
        super().__init__(thread_name_prefix="tui-test")
        self.jobs: list[Future[Any]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        job = super().submit(fn, *args, **kwargs)
        self.jobs.append(job)
        return job

    def idle(self) -> bool:
        return all(job.done() for job in self.jobs)

    @classmethod
    def install(cls) -> ThreadWatch:
        """Use a new one as the running loop's default executor (call inside the test's coroutine)."""
        watch = cls()
        asyncio.get_running_loop().set_default_executor(watch)
        return watch


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def terminal_paste(pilot: Any, text: str, *, line_break: str = "\r") -> None:
    """Paste ``text`` the way a terminal does: a bracketed paste (``ESC[200~ ... ESC[201~``) whose line
    breaks are CR, read by Textual's own input parser, and its events handed to the app as the driver
    hands them (to whatever has focus). Follow with ``wait_until``/``wait_for_report``."""
    from textual._xterm_parser import XTermParser

    sent = text.replace("\r\n", "\n").replace("\n", line_break)
    app = pilot.app
    for message in XTermParser().feed(f"\x1b[200~{sent}\x1b[201~"):
        message.set_sender(app)
        app.post_message(message)
