"""Helpers for the Textual app's tests: the app factory, real sample logs, a pinned KB, waiting.

Functional (Pilot) tests run the real KB on the real sample logs and assert on ids and line
numbers. Snapshot tests run a pinned copy of four KB entries (``tests/tui/kb``) on the logs in
``tests/tui/data``, so that editing the KB's wording does not change the pictures.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from troubleshooter.api import Engine
from troubleshooter.kb.loader import load_folders
from troubleshooter.tui.app import TrtWhyApp, create_app

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SAMPLES = REPO / "sample_logs"
DATA = HERE / "data"
PINNED_KB = HERE / "kb"
SIZE = (120, 40)
"""Every test runs at this terminal size (snapshots must not depend on the terminal)."""


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


async def wait_for(pilot: Any, predicate: Callable[[], object], timeout: float = 30.0, what: str = "") -> None:
    """Let the app run until ``predicate()`` is true (workers finish in threads)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        await pilot.pause(0.05)
    await pilot.pause()


async def wait_for_report(pilot: Any, timeout: float = 60.0) -> None:
    """Until the report screen shows a report and the workers are idle."""
    from troubleshooter.tui.screens.report import ReportScreen

    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen) and app.report is not None
                   and not any(w.group == "diagnose" and w.is_running for w in app.workers), timeout, "the report")
    await pilot.pause(0.1)



def run(coro: Any) -> Any:
    return asyncio.run(coro)
