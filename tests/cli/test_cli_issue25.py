"""Issue #25, the command line as a new user meets it: --version, `kb show`, `--chat github`, `trt-why mcp`."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.reliability.rel_helpers import run_cli  # in this process, through main(argv)

ROOT = Path(__file__).resolve().parents[2]
LOG = """&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --int8
[11/02/2023-10:12:40] [E] Error[10]: [optimizer.cpp::computeCosts::3869] Error Code 10: Internal Error (Could not find any implementation for node /model.1/conv/Conv + PWN(PWN(/model.1/act/Sigmoid), /model.1/act/Mul).)
&&&& FAILED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --int8
"""


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_comes_from_the_package_metadata(flag: str) -> None:
    from importlib.metadata import version

    r = run_cli(flag)
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode() == f"trt-why {version('trt-why')}\n"


def test_kb_show_reads_like_a_report_not_like_yaml() -> None:
    r = run_cli("kb", "show", "conv-act-fusion-no-impl")
    out = r.stdout.decode()
    assert r.returncode == 0, r.stderr
    assert out.startswith("✖ error   Fused Conv + SiLU (PWN) has no INT8 kernel")
    assert "  why       1. TensorRT fused `‹node›`" in out and "[confirmed]" in out
    assert "polygraphy run model.onnx --trt --int8" in out  # the fix's command
    assert "regex" not in out and "(?P<" not in out and "literals" not in out  # no matcher internals
    assert "{tensorrt_version}" not in out and "TensorRT your" not in out


def test_kb_show_format_yaml_is_the_entry_as_written() -> None:
    r = run_cli("kb", "show", "conv-act-fusion-no-impl", "--format", "yaml")
    assert r.stdout.decode() == (ROOT / "kb" / "conv-act-fusion-no-impl.yaml").read_text(encoding="utf-8")


def test_kb_show_markdown() -> None:
    out = run_cli("kb", "show", "conv-act-fusion-no-impl", "-f", "markdown").stdout.decode()
    assert out.startswith("# Fused Conv + SiLU") and "## Causes" in out and "(?P<" not in out


def test_chat_github_names_the_file_not_its_local_path(tmp_path: Path) -> None:
    folder = tmp_path / "home" / "someone" / "runs"
    folder.mkdir(parents=True)
    log = folder / "build.log"
    log.write_text(LOG, encoding="utf-8")
    for args in (("--chat", "github"), ("--chat", "slack"), ("--format", "markdown")):
        out = run_cli(*args, str(log)).stdout.decode()
        assert "build.log" in out.splitlines()[0], args
        assert str(folder) not in out and "someone" not in out, args


def _stderr_on_a_terminal(*args: str) -> str:
    """Start `trt-why ARGS` with stdin on a pseudo-terminal (as a user types it), read what it says on
    stderr within a few seconds, then stop it."""
    leader, follower = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "troubleshooter.cli", *args], stdin=follower,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=str(ROOT), env=env)
    os.close(follower)
    said = b""
    try:
        deadline = time.monotonic() + 60  # a hang guard: the first line comes as soon as the server is built
        while b"\n" not in said and time.monotonic() < deadline and proc.poll() is None:
            ready, _, _ = select.select([proc.stderr], [], [], 0.5)
            if ready and proc.stderr is not None:
                said += os.read(proc.stderr.fileno(), 4096)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        os.close(leader)
    return said.decode(errors="replace")


def test_mcp_on_a_terminal_says_what_it_waits_for() -> None:
    pytest.importorskip("mcp")
    said = _stderr_on_a_terminal("mcp")
    assert "waiting for an MCP client" in said and "stdin" in said


def test_mcp_over_http_says_its_url() -> None:
    pytest.importorskip("mcp")
    from troubleshooter.integrations.mcp import waiting_message

    assert waiting_message("127.0.0.1:8765") == \
        "trt-why mcp: serving MCP over streamable HTTP at http://127.0.0.1:8765/mcp (Ctrl+C stops)"
    assert waiting_message(None, terminal=False) is None  # launched by a client: stderr stays quiet
