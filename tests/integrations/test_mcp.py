"""The MCP server, run in-process with the SDK's own client, and over stdio and HTTP as a user runs it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult

from troubleshooter import api
from troubleshooter.errors import InputError
from troubleshooter.integrations.answer import DiagnoseAnswer
from troubleshooter.integrations.mcp import MAX_LOG_BYTES, build_server, parse_http
from troubleshooter.kb.schema import Entry
from troubleshooter.lint.report import LintReport
from troubleshooter.models import Report

ROOT = Path(__file__).resolve().parents[2]
TOOLS = {"diagnose_log", "explain_issue", "search_known_issues", "lint_onnx_model", "issue_draft"}
FUSION_LOG = (
    "[11/02/2023-10:11:12] [I] Precision: FP32+INT8\n"
    "[11/02/2023-10:12:40] [E] Error[10]: [optimizer.cpp::computeCosts::3869] Error Code 10: Internal Error "
    "(Could not find any implementation for node /model.1/conv/Conv + PWN(PWN(/model.1/act/Sigmoid), "
    "/model.1/act/Mul).)\n"
    "[11/02/2023-10:12:40] [E] Error[2]: [builder.cpp::buildSerializedNetwork::751] Error Code 2: Internal Error "
    "(Assertion engine != nullptr failed. )\n"
)
MODES = ["auto", "legacy"]  # auto: the SDK's direct in-process dispatch; legacy: JSON-RPC over memory streams


def run_with(server: Any, mode: str, body: Callable[[Client], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        async with Client(server, mode=mode, raise_exceptions=False) as client:
            return await body(client)

    return anyio.run(main)


def call(server: Any, name: str, arguments: dict[str, Any], mode: str = "auto") -> CallToolResult:
    return run_with(server, mode, lambda c: c.call_tool(name, arguments))  # type: ignore[no-any-return]


def error_text(result: CallToolResult) -> str:
    assert result.is_error, f"expected an error, got {result.structured_content}"
    return " ".join(getattr(block, "text", "") for block in result.content)


def make_model(path: Path) -> Path:
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    node = helper.make_node("Relu", ["x"], ["y"], name="/model.0/act/Relu")
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 8, 8])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="pytorch")
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    return path


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, Path]:
    allowed = tmp_path / "allowed"
    outside = tmp_path / "outside"
    make_model(allowed / "net.onnx")
    make_model(outside / "secret.onnx")
    (allowed / "notes.txt").write_text("not a model")
    (allowed / "escape.onnx").symlink_to(outside / "secret.onnx")
    (allowed / "linked-dir").symlink_to(outside, target_is_directory=True)
    return {"allowed": allowed, "outside": outside}


# --- the tool list ------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_lists_four_read_only_tools_with_schemas(mode: str) -> None:
    tools = run_with(build_server(), mode, lambda c: c.list_tools()).tools
    assert {t.name for t in tools} == TOOLS
    for tool in tools:
        assert tool.annotations is not None and tool.annotations.read_only_hint is True, tool.name
        assert tool.annotations.destructive_hint is False and tool.annotations.open_world_hint is False
        assert tool.output_schema and tool.output_schema.get("properties"), f"{tool.name} has no output schema"
        assert tool.input_schema["properties"], tool.name
        # A description stands on its own: it says what the tool is for and what it returns.
        assert tool.description and len(tool.description) > 200, tool.name
        assert "TensorRT" in tool.description and "Return" in tool.description, tool.name


def test_tool_annotations_are_read_only_on_the_wire() -> None:
    tools = run_with(build_server(), "legacy", lambda c: c.list_tools()).tools
    wire = [t.model_dump(mode="json", by_alias=True) for t in tools]
    assert all(t["annotations"]["readOnlyHint"] is True for t in wire)
    assert all("outputSchema" in t for t in wire)


def test_output_schemas_match_the_published_models() -> None:
    tools = {t.name: t for t in run_with(build_server(), "auto", lambda c: c.list_tools()).tools}
    assert set(tools["diagnose_log"].output_schema["properties"]) == set(DiagnoseAnswer.model_fields)  # type: ignore[index]
    assert set(tools["explain_issue"].output_schema["properties"]) == set(Entry.model_fields)  # type: ignore[index]
    assert set(LintReport.model_fields) - {"index"} <= set(tools["lint_onnx_model"].output_schema["properties"])  # type: ignore[index]
    assert tools["diagnose_log"].input_schema["required"] == ["log_text"]


# --- diagnose_log -------------------------------------------------------------------------------


def full_report(result: CallToolResult) -> Report:
    """The whole report of a diagnose_log answer asked with detail='full'."""
    assert result.structured_content is not None and result.structured_content["report"] is not None
    return Report.model_validate(result.structured_content["report"])


@pytest.mark.parametrize("mode", MODES)
def test_diagnose_log_answers_in_brief_and_in_full_on_request(mode: str) -> None:
    result = call(build_server(), "diagnose_log", {"log_text": FUSION_LOG}, mode)
    assert not result.is_error
    brief = DiagnoseAnswer.model_validate(result.structured_content)
    assert brief.diagnoses[0].id == "conv-act-fusion-no-impl" and brief.report is None
    assert brief.diagnoses[0].evidence[0].line == 2 and brief.diagnoses[0].causes[0].endswith("[confirmed]")
    assert brief.diagnoses[0].fixes[0].command is not None  # a fix title with its first command
    # The text content carries the same JSON, for clients that ignore structured output.
    assert json.loads(result.content[0].text) == result.structured_content  # type: ignore[union-attr]
    full = call(build_server(), "diagnose_log", {"log_text": FUSION_LOG, "detail": "full"}, mode)
    expected = api.diagnose(FUSION_LOG, name="log_text")
    assert full.structured_content is not None
    assert full.structured_content["report"] == json.loads(expected.model_dump_json())
    assert full.structured_content["diagnoses"] == result.structured_content["diagnoses"]  # type: ignore[index]


SMALL_LOG = ROOT / "sample_logs" / "real" / "u-mmdeploy-2758.log"
"""A 59-line log (mmdeploy, an ONNX op with no importer)."""


@pytest.mark.parametrize("mode", MODES)
def test_a_small_log_gets_an_answer_of_at_most_8_kb(mode: str) -> None:
    """Issue #25: diagnose_log returned 28 KB for a small log (the full report, as text and as structured
    content). The compact answer, both copies together, stays within 8 KB and keeps the diagnosis."""
    text = SMALL_LOG.read_text(encoding="utf-8")
    assert text.count("\n") == 59
    result = call(build_server(), "diagnose_log", {"log_text": text}, mode)
    size = len(result.content[0].text.encode()) + len(json.dumps(result.structured_content).encode())  # type: ignore[union-attr]
    assert size <= 8 * 1024, size
    full = call(build_server(), "diagnose_log", {"log_text": text, "detail": "full"}, mode)
    assert len(json.dumps(full.structured_content)) > 2 * size // 2  # the full report is the larger one
    assert [d["id"] for d in result.structured_content["diagnoses"]] == \
        [d.id for d in full_report(full).diagnoses]  # type: ignore[index]


def test_no_cause_or_advice_is_cut_in_the_brief_answer() -> None:
    """Causes and advice are KB sentences: whole or left out, never cut inside a quote (`prints "EP Error .`)."""
    log = (ROOT / "sample_logs" / "real" / "u-ort-catvton-51.log").read_text(encoding="utf-8")
    brief = DiagnoseAnswer.model_validate(call(build_server(), "diagnose_log", {"log_text": log}).structured_content)
    report = api.diagnose(log, name="log_text")
    for d, full in zip(brief.diagnoses, report.diagnoses, strict=False):
        assert all(cause in full.causes for cause in d.causes)
        assert all(c.count('"') % 2 == 0 for c in d.causes)


def test_results_serialize_with_pydantic_core_in_a_fresh_process() -> None:
    """The SDK serializes a tool's result with pydantic_core.to_json: the models built lazily (defer_build) give
    the same JSON as the CLI in a fresh process (CI once broke on a model pydantic 2.13 had not built)."""
    code = ("import pydantic_core, troubleshooter\n"
            "from troubleshooter.integrations.mcp import build_server\n"
            "build_server()\n"
            f"report = troubleshooter.diagnose({FUSION_LOG!r})\n"
            "entry = troubleshooter.load_kb().entries[0]\n"
            "print(pydantic_core.to_json(report).decode() == report.model_dump_json(),\n"
            "      pydantic_core.to_json(entry).decode() == entry.model_dump_json())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["True", "True"]


def test_diagnose_log_takes_a_trt_version() -> None:
    result = call(build_server(), "diagnose_log", {"log_text": FUSION_LOG, "trt_version": "8.6.1"})
    assert DiagnoseAnswer.model_validate(result.structured_content).environment["tensorrt_version"] == "8.6.1"


def test_diagnose_log_redacts_on_request() -> None:
    log = "alice@gpu-box:~/proj$ trtexec --onnx=/home/alice/proj/yolo.onnx --int8\n" + FUSION_LOG
    plain = json.dumps(call(build_server(), "diagnose_log", {"log_text": log, "detail": "full"}).structured_content)
    hidden = json.dumps(call(build_server(), "diagnose_log", {"log_text": log, "redact": True, "detail": "full"})
                        .structured_content)
    assert "alice" in plain and "gpu-box" in plain
    assert "alice" not in hidden and "gpu-box" not in hidden and "<home>" in hidden


def test_oversized_log_is_cut_with_a_note() -> None:
    limit = 64 * 1024
    filler = "".join(f"[11/02/2023-10:13:{i % 60:02d}] [V] [TRT] Tactic {i} time 0.1 ms\n" for i in range(4000))
    log = FUSION_LOG + filler
    assert len(log.encode()) > 2 * limit
    result = call(build_server(max_log_bytes=limit), "diagnose_log", {"log_text": log, "detail": "full"})
    assert not result.is_error
    report = full_report(result)
    assert report.source.truncated is True
    assert report.source.bytes <= limit
    assert "MB" in report.notes[0] and "only the first" in report.notes[0]
    assert report.top is not None and report.top.id == "conv-act-fusion-no-impl"  # the head is still diagnosed


def test_default_limit_is_20_mb_and_applies_to_a_real_oversized_log(monkeypatch: pytest.MonkeyPatch) -> None:
    assert MAX_LOG_BYTES == 20 * 1024 * 1024
    seen: list[int] = []
    real = api.diagnose

    def spy(log: str | bytes, **kwargs: Any) -> Report:
        seen.append(len(log))
        return real(FUSION_LOG, **kwargs)  # scanning 20 MB is the engine's business, not this test's

    monkeypatch.setattr(api, "diagnose", spy)
    line = "[11/02/2023-10:13:00] [V] [TRT] Tactic: 0x0000000000000000 Time: 0.0123 ms\n"
    log = FUSION_LOG + line * (MAX_LOG_BYTES // len(line) + 1000)
    for mode in MODES:
        result = call(build_server(), "diagnose_log", {"log_text": log, "detail": "full"}, mode)
        report = full_report(result)
        assert report.source.truncated and "only the first 21.0 MB" in report.notes[0]
        assert MAX_LOG_BYTES - len(line) < seen[-1] <= MAX_LOG_BYTES
        assert report.top is not None and report.top.id == "conv-act-fusion-no-impl"


@pytest.mark.parametrize("log_text, words", [("", "empty"), ("   \n\n  ", "blank lines")])
def test_diagnose_log_bad_input_is_a_tool_error(log_text: str, words: str) -> None:
    assert words in error_text(call(build_server(), "diagnose_log", {"log_text": log_text}))


def test_diagnose_log_bad_version_is_a_tool_error() -> None:
    text = error_text(call(build_server(), "diagnose_log", {"log_text": FUSION_LOG, "trt_version": "banana"}))
    assert "not a version" in text


def test_diagnose_log_without_argument_is_a_tool_error() -> None:
    assert "log_text" in error_text(call(build_server(), "diagnose_log", {}))


# --- explain_issue / search_known_issues --------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_explain_issue_returns_the_full_entry(mode: str) -> None:
    result = call(build_server(), "explain_issue", {"id": "conv-act-fusion-no-impl"}, mode)
    entry = Entry.model_validate(result.structured_content)
    assert entry == api.get_engine().kb.get("conv-act-fusion-no-impl")
    assert entry.fixes and entry.references and entry.match.signatures and entry.examples.match


def test_explain_issue_unknown_id_names_close_ones() -> None:
    text = error_text(call(build_server(), "explain_issue", {"id": "conv-act-fusion"}))
    assert "no knowledge-base entry" in text and "conv-act-fusion-no-impl" in text


@pytest.mark.parametrize("mode", MODES)
def test_search_known_issues(mode: str) -> None:
    result = call(build_server(), "search_known_issues", {"query": "INT8 grouped depthwise convolution"}, mode)
    found = result.structured_content
    assert found is not None and found["results"], found
    assert found["results"][0]["id"] == "int8-grouped-conv-alignment"
    assert {"id", "title", "severity", "score"} <= set(found["results"][0])


def test_search_known_issues_is_bounded() -> None:
    result = call(build_server(), "search_known_issues", {"query": "calibration " * 1000, "limit": 3})
    found = result.structured_content
    assert found is not None and len(found["results"]) <= 3
    assert len(found["query"]) == 2000 and any("cut" in n for n in found["notes"])
    assert call(build_server(), "search_known_issues", {"query": "x", "limit": 1000}).is_error


def test_search_with_an_empty_query_says_so() -> None:
    found = call(build_server(), "search_known_issues", {"query": "   "}).structured_content
    assert found is not None
    assert found["results"] == [] and found["notes"] == ["nothing similar in the knowledge base"]


# --- lint_onnx_model ----------------------------------------------------------------------------


def test_lint_is_disabled_without_allow_dir(folders: dict[str, Path]) -> None:
    text = error_text(call(build_server(), "lint_onnx_model", {"path": str(folders["allowed"] / "net.onnx")}))
    assert "disabled" in text and "--allow-dir" in text


@pytest.mark.parametrize("mode", MODES)
def test_lint_an_allowed_model(folders: dict[str, Path], mode: str) -> None:
    server = build_server([str(folders["allowed"])])
    result = call(server, "lint_onnx_model", {"path": str(folders["allowed"] / "net.onnx")}, mode)
    assert not result.is_error, result.content
    report = LintReport.model_validate(result.structured_content)
    assert report.model.endswith("net.onnx")


def test_lint_relative_path_is_looked_up_in_the_allowed_folders(folders: dict[str, Path]) -> None:
    result = call(build_server([str(folders["allowed"])]), "lint_onnx_model", {"path": "net.onnx"})
    assert not result.is_error, result.content


@pytest.mark.parametrize("target", ["outside/secret.onnx", "allowed/escape.onnx", "allowed/linked-dir/secret.onnx",
                                    "allowed/../outside/secret.onnx", "/etc/passwd"])
def test_lint_refuses_paths_outside_the_allowed_folders(folders: dict[str, Path], target: str) -> None:
    path = target if target.startswith("/") else str(folders["allowed"].parent / target)
    text = error_text(call(build_server([str(folders["allowed"])]), "lint_onnx_model", {"path": path}))
    assert "refused" in text and "outside" in text and str(folders["allowed"]) in text


def test_lint_refuses_relative_escape(folders: dict[str, Path]) -> None:
    text = error_text(call(build_server([str(folders["allowed"])]), "lint_onnx_model",
                           {"path": "../outside/secret.onnx"}))
    assert "refused" in text


@pytest.mark.parametrize("name, words", [("notes.txt", ".onnx"), ("missing.onnx", "no such model")])
def test_lint_refuses_non_models(folders: dict[str, Path], name: str, words: str) -> None:
    text = error_text(call(build_server([str(folders["allowed"])]), "lint_onnx_model",
                           {"path": str(folders["allowed"] / name)}))
    assert words in text


def test_allow_dir_must_exist(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such folder"):
        build_server([str(tmp_path / "nope")])
    (tmp_path / "f").write_text("x")
    with pytest.raises(InputError, match="not a folder"):
        build_server([str(tmp_path / "f")])


# --- serving ------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec, expected", [("127.0.0.1:8765", ("127.0.0.1", 8765)),
                                            ("localhost:1", ("localhost", 1)), ("[::1]:9000", ("::1", 9000))])
def test_parse_http(spec: str, expected: tuple[str, int]) -> None:
    assert parse_http(spec) == expected


@pytest.mark.parametrize("spec", ["8765", "127.0.0.1", "host:0", "host:70000", "a b:1", ""])
def test_parse_http_rejects(spec: str) -> None:
    with pytest.raises(InputError, match="HOST:PORT"):
        parse_http(spec)


def test_cli_mcp_over_stdio(folders: dict[str, Path]) -> None:
    """`trt-why mcp --allow-dir DIR` as an MCP client configuration launches it."""
    params = StdioServerParameters(command=sys.executable, cwd=str(ROOT),
                                   args=["-m", "troubleshooter.cli", "mcp", "--allow-dir", str(folders["allowed"])])

    async def main() -> tuple[set[str], CallToolResult, CallToolResult]:
        async with Client(params) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            diag = await client.call_tool("diagnose_log", {"log_text": FUSION_LOG})
            lint = await client.call_tool("lint_onnx_model", {"path": "net.onnx"})
            return names, diag, lint

    names, diag, lint = anyio.run(main)
    assert names == TOOLS
    assert diag.structured_content is not None
    assert diag.structured_content["diagnoses"][0]["id"] == "conv-act-fusion-no-impl"
    assert not lint.is_error, lint.content


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_cli_mcp_over_streamable_http() -> None:
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "troubleshooter.cli", "mcp", "--http", f"127.0.0.1:{port}"],
                            cwd=str(ROOT), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else "server exited"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)

        async def main() -> CallToolResult:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                return await client.call_tool("search_known_issues", {"query": "GPU out of memory"})

        result = anyio.run(main)
        assert result.structured_content is not None
        assert result.structured_content["results"][0]["id"] == "gpu-out-of-memory"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_cli_mcp_bad_http_spec_exits_2(cli: Any) -> None:
    result = cli("mcp", "--http", "nonsense")
    assert result.returncode == 2
    assert b"HOST:PORT" in result.stderr
