"""Snapshot tests (pytest-textual-snapshot): one picture per screen, fixed terminal size and theme.

Update after an intended change with ``python -m pytest tests/tui --snapshot-update`` and look at
the SVGs under tests/tui/__snapshots__.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scenarios import SCENARIOS, prepare
from tui_helpers import SIZE


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_screen(name: str, snap_compare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    scenario = SCENARIOS[name]
    if scenario.needs_onnx:
        pytest.importorskip("onnx")
    monkeypatch.chdir(tmp_path)
    scenario = prepare(scenario, tmp_path)
    assert snap_compare(scenario.app(), terminal_size=SIZE, run_before=scenario.run_before)
