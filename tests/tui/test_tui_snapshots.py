"""Snapshot tests (pytest-textual-snapshot): one picture per screen, fixed terminal size and theme.

Update after an intended change with ``python -m pytest tests/tui --snapshot-update`` and look at
the SVGs under tests/tui/__snapshots__.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scenarios import SCENARIOS, prepare
from tui_helpers import NARROW, SIZE


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_screen(name: str, snap_compare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
                size: tuple[int, int] = SIZE) -> None:
    scenario = SCENARIOS[name]
    if scenario.needs_onnx:
        pytest.importorskip("onnx")
    monkeypatch.chdir(tmp_path)
    scenario = prepare(scenario, tmp_path)
    assert snap_compare(scenario.app(), terminal_size=size, run_before=scenario.run_before)


NARROW_SCREENS = ["paste", "open_dialog", "report_why", "version_question", "version_answered", "fix_checklist",
                  "model_lint", "export_dialog", "help", "kb_entry"]
"""The main screens again at 80x24: the sidebar stacks above the tabs, dialogs fit the terminal."""


@pytest.mark.parametrize("name", NARROW_SCREENS)
def test_screen_80x24(name: str, snap_compare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    test_screen(name, snap_compare, tmp_path, monkeypatch, size=NARROW)
