"""docs/bot.md (the README's "use from a bot" section): its Python snippet runs, its configurations are valid."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from troubleshooter.render.chat import LIMITS

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "bot.md"


def blocks(lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```$", DOC.read_text(encoding="utf-8"), flags=re.DOTALL | re.MULTILINE)


def test_the_python_snippet_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    (snippet,) = blocks("python")
    sample = ROOT / "sample_logs" / "p-trtexec86-topk-crlf-parser-assertion.log"
    if not sample.is_file():
        sample = next(p for p in sorted((ROOT / "sample_logs").glob("p-*.log")))
    shutil.copy(sample, tmp_path / "build.log")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    exec(compile(snippet, str(DOC), "exec"), namespace)
    out = capsys.readouterr().out
    assert out.strip() and "trt-why" in out
    answer = namespace["answer"]
    assert callable(answer)
    assert answer("") == ["trt-why: <text>: the log is empty"]
    for chat in ("slack", "discord", "github"):
        messages = answer((tmp_path / "build.log").read_bytes(), chat)
        assert messages and all(len(m) <= LIMITS[chat] for m in messages)


def test_the_mcp_configurations_are_valid_json_and_valid_commands() -> None:
    from troubleshooter.cli import build_parser

    parser = build_parser("mcp")  # the command the configurations start, with the options they give

    configs = [json.loads(b) for b in blocks("json")]
    assert len(configs) == 2
    claude, vscode = configs
    servers = [claude["mcpServers"]["trt-why"], vscode["servers"]["trt-why"]]
    for server in servers:
        assert server["command"] == "trt-why" and server["args"][0] == "mcp"
        assert server["args"][1:] == ["--allow-dir", server["args"][2]]
        assert parser.parse_args(server["args"]).allow_dir == [server["args"][2]]
    assert vscode["servers"]["trt-why"]["type"] == "stdio"
    assert vscode["servers"]["trt-why-http"] == {"type": "http", "url": "http://127.0.0.1:8765/mcp"}


def test_the_doc_names_every_tool() -> None:
    text = DOC.read_text(encoding="utf-8")
    for tool in ("diagnose_log", "explain_issue", "search_known_issues", "lint_onnx_model"):
        assert f"`{tool}`" in text
