"""Issue #25's wording bugs, in every renderer a user reads (text, Markdown, chat)."""

from __future__ import annotations

from pathlib import Path

import pytest

from troubleshooter import api
from troubleshooter.render import render
from troubleshooter.render.chat import render_chat
from troubleshooter.render.words import kb_prose

ROOT = Path(__file__).resolve().parents[2]
CLEAN = ("&&&& RUNNING TensorRT.trtexec [TensorRT v100300] # trtexec --onnx=model.onnx\n"
         "[I] Engine built in 12.3 sec.\n"
         "&&&& PASSED TensorRT.trtexec [TensorRT v100300] # trtexec --onnx=model.onnx\n")
ONE_LINE = ("The engine plan file is generated on an incompatible device, expecting compute 8.6 got compute 7.5, please "
            "rebuild.4: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error (Engine deserialization "
            "failed.)\n")
DEPTHWISE_ON_A_KNOWN_GPU = """&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --int8
[08/07/2024-12:27:00] [I] Selected Device: NVIDIA GeForce RTX 3090
[08/07/2024-12:27:00] [I] Compute Capability: 8.6
[08/07/2024-12:27:04] [E] Error[10]: [optimizer.cpp::computeCosts::3897] Error Code 10: Internal Error (Could not find any implementation for node /backbone/dw/Conv.)
[08/07/2024-12:27:04] [E] Error[2]: [builder.cpp::buildSerializedNetwork::751] Error Code 2: Internal Error (Assertion engine != nullptr failed. )
&&&& FAILED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --int8
"""
"""A depthwise INT8 failure from a log that names its GPU: the KB asks for the GPU."""


def _all_formats(text: str) -> dict[str, str]:
    report = api.diagnose(text, name="build.log")
    out = {fmt: render(report, fmt) for fmt in ("text", "markdown")}
    out["text-80"] = render(report, "text", width=80)
    out |= {f"chat-{flavour}": "\n".join(render_chat(report, flavour)) for flavour in ("slack", "discord", "github")}
    return out


@pytest.mark.parametrize("fmt", ["text", "text-80", "markdown", "chat-slack", "chat-discord", "chat-github"])
def test_a_clean_log_says_its_verdict_once(fmt: str) -> None:
    out = _all_formats(CLEAN)[fmt].lower()
    assert out.count("no known failure") == 1, out


@pytest.mark.parametrize("fmt", ["text", "markdown", "chat-github"])
def test_a_one_line_log_has_no_later_line_that_is_its_own_consequence(fmt: str) -> None:
    out = _all_formats(ONE_LINE)[fmt]
    assert "consequence" not in out, out


@pytest.mark.parametrize("fmt", ["text", "markdown", "chat-github"])
def test_what_would_decide_leaves_out_what_the_log_shows(fmt: str) -> None:
    report = api.diagnose(DEPTHWISE_ON_A_KNOWN_GPU, name="build.log")
    assert report.environment.gpu and report.top is not None
    assert any(a.startswith("the GPU") for a in report.top.asks)  # the KB asks it...
    out = _all_formats(DEPTHWISE_ON_A_KNOWN_GPU)[fmt]
    assert "the GPU (the depthwise" not in out  # ...and the report does not, the log printed it


def test_the_version_would_decide_nothing_when_every_release_gets_the_same_advice() -> None:
    out = _all_formats(ONE_LINE)["text"]
    assert "Every TensorRT release" in out
    assert "would decide: the TensorRT version" not in out


@pytest.mark.parametrize(("kb", "read"), [
    ("TensorRT {tensorrt_version} uses name-based I/O", "Your TensorRT uses name-based I/O"),
    ("code written for 8.x runs on TensorRT {tensorrt_version}, which", "code written for 8.x runs on your TensorRT, which"),
    ("{tensorrt_version} is affected.", "Your TensorRT version is affected."),
    ("Look at `{node}`.", "Look at `‹node›`."),
])
def test_kb_prose_without_a_log_never_says_tensorrt_twice(kb: str, read: str) -> None:
    assert kb_prose(kb) == read
