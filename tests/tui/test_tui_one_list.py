"""The app reads the one list of each choice (#15): export formats and suffixes, platforms, exit codes."""

from __future__ import annotations

import pytest
from textual.widgets import Input, RadioButton
from tui_helpers import SIZE, report_app, run, sample, wait_for_screen

from troubleshooter import exit_codes
from troubleshooter.models import PLATFORMS
from troubleshooter.render import formats
from troubleshooter.tui.dialogs.export import FORMATS
from troubleshooter.tui.widgets.version import PLATFORM_CHOICES

SILU = "yolov8-int8-orin-silu.log"


def test_export_formats_and_suffixes_come_from_the_registry() -> None:
    assert {f.name: f.suffix for f in formats.exportable()} == FORMATS


def test_the_platform_question_offers_every_platform() -> None:
    assert [value for value, _label in PLATFORM_CHOICES] == list(PLATFORMS)


def test_a_bad_version_is_a_usage_error() -> None:
    from troubleshooter.tui.app import run as run_app

    assert run_app(trt_version="banana") == exit_codes.ERROR


@pytest.mark.parametrize("presses", [0, 1, 2])
def test_ctrl_f_cycles_through_the_formats_and_their_suffixes(presses: int) -> None:
    names = list(FORMATS)

    async def scenario() -> None:
        async with report_app(SIZE, log=sample(SILU)) as (app, pilot):
            await pilot.press("ctrl+e")
            await wait_for_screen(pilot, "ExportDialog")
            for _ in range(presses):
                await pilot.press("ctrl+f")
            await pilot.pause()
            chosen = names[presses % len(names)]
            dialog = app.screen
            assert dialog.fmt == chosen  # type: ignore[attr-defined]
            assert dialog.query_one(f"#fmt-{chosen}", RadioButton).value
            assert dialog.query_one("#export-path", Input).value.endswith(FORMATS[chosen])
            await pilot.press("escape")

    run(scenario())
