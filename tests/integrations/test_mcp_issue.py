"""MCP: the issue_draft tool hands a chat bot the upstream issue for a log (render/issue.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("mcp")

from tests.integrations.test_mcp import MODES, call
from troubleshooter.integrations.mcp import build_server

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("mode", MODES)
def test_issue_draft_returns_the_draft_for_the_stacks_tracker(mode: str) -> None:
    log = (ROOT / "sample_logs/real/u-triton-5206.log").read_text(encoding="utf-8")
    result = call(build_server(), "issue_draft", {"log_text": log}, mode)
    assert not result.is_error
    found = result.structured_content
    assert found is not None
    assert found["stack"] == "triton" and found["tracker"] == "triton-inference-server/server"
    assert found["new_issue_url"].startswith("https://github.com/triton-inference-server/server/issues")
    assert "libtriton_tensorrt_plan.so" in found["markdown"] and len(found["markdown"]) <= 65_536
    assert found["known_fix"] is None


def test_issue_draft_redacts_and_refuses_an_empty_log() -> None:
    log = "[E] [TRT] /home/alice/net.onnx: Error Code 2: Internal Error (Frobnicator does not support widgets.)\n"
    found = call(build_server(), "issue_draft", {"log_text": log}).structured_content
    assert found is not None and "alice" not in found["markdown"] and found["stack"] is None
    assert call(build_server(), "issue_draft", {"log_text": "   \n"}).is_error
