"""Unexplained errors get next steps in their own stack's terms (core/next_steps.py + kb/stacks/*.yaml),
each stack on a real log whose first error no KB entry explains."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from troubleshooter import diagnose, diagnose_path
from troubleshooter.core import next_steps
from troubleshooter.core.next_steps import is_tensorrt_build_line
from troubleshooter.kb.outside import builtin_kinds
from troubleshooter.kb.stacks import stack_for
from troubleshooter.models import Environment, FixStep, Report

if TYPE_CHECKING:
    from troubleshooter.kb.stacks import Stack


def first_error_steps(payload: str, env: Environment, stack: Stack | None = None, **kw: Any) -> list[FixStep]:
    """The core's next steps with the built-in outside kinds handed in, as a report gets them."""
    return next_steps.first_error_steps(payload, env, stack, kinds=builtin_kinds(), **kw)


ROOT = Path(__file__).resolve().parents[2] / "sample_logs"

# stack, real log, a word only that stack's steps use, the tracker, whether `polygraphy debug reduce` is offered
CASES = [
    ("triton", "real/u-triton-5206.log", "--log-verbose=1", "triton-inference-server/server", False),
    ("onnxruntime", "real/u-ort-6002.log", "log_severity_level", "microsoft/onnxruntime", False),
    ("torch-tensorrt", "real/u-torch-trt-763.log", "torch_tensorrt.logging.debug", "pytorch/TensorRT", False),
    ("tensorrt-llm", "first-sight/batch-1/u-trt-llm-4253.log", "--log_level verbose", "NVIDIA/TensorRT-LLM", False),
    ("deepstream", "real/u-deepstream-yolo-563.log", "GST_DEBUG=3", "NVIDIA developer forums (DeepStream SDK)", False),
    ("jetson-inference", "real/u-jetson-inf-1363.log", "--log-level=verbose", "dusty-nv/jetson-inference", False),
    ("ultralytics", "real/u-yolov5-8069.log", "yolo export", "ultralytics/ultralytics", False),
    ("mmdeploy", "real/u-mmdeploy-1312.log", "tools/deploy.py", "open-mmlab/mmdeploy", False),
    ("tf-trt", "real/u-other-tensorflow-38460.log", "TF_CPP_VMODULE", "tensorflow/tensorflow", False),
    ("torch2trt", "real/u-torch2trt-274.log", "torch2trt(model", "NVIDIA-AI-IOT/torch2trt", False),
    ("paddle-inference", "real/u-other-paddle-27544.log", "enable_tensorrt_engine", "PaddlePaddle/Paddle", False),
    ("comfyui", "real/u-comfy-37.log", "--verbose DEBUG", "comfyanonymous/ComfyUI", False),
    ("trtexec", "real/u-trt-4572.log", "trtexec --onnx=model.onnx --verbose", "NVIDIA/TensorRT", True),
    ("polygraphy", "real/u-trt-4433.log", "polygraphy run model.onnx --trt -vv", "NVIDIA/TensorRT", False),
]


def _text(steps: list[FixStep]) -> str:
    return "\n".join(s.text + ("\n" + s.command.code if s.command else "") for s in steps)


def _report_for(stack: str, log: str) -> tuple[Report, bool]:
    """The named log's report; when the KB has since come to explain that log, another real log of the same
    stack whose first error it does not explain (False: not the named one)."""
    report = diagnose_path(ROOT / log)
    if report.first_error is not None:
        return report, True
    for path in sorted([*ROOT.glob("real/*.log"), *ROOT.glob("first-sight/batch-1/*.log")]):
        other = diagnose_path(path)
        if other.environment.front_end == stack and other.first_error is not None:
            return other, False
    raise AssertionError(f"no real {stack} log with an unexplained first error")


@pytest.mark.parametrize(("stack", "log", "word", "tracker", "reduce"), CASES, ids=[c[0] for c in CASES])
def test_a_real_unexplained_error_gets_its_stacks_steps(stack: str, log: str, word: str, tracker: str,
                                                        reduce: bool) -> None:
    report, named = _report_for(stack, log)
    assert report.environment.front_end == stack
    assert report.first_error is not None
    text = _text(report.first_error.next_steps)
    assert word in text
    assert tracker in report.first_error.next_steps[-1].text
    if named:
        assert ("polygraphy debug reduce" in text) is reduce
    elif not reduce:
        assert "polygraphy debug reduce" not in text
    if tracker != "NVIDIA/TensorRT":
        assert "NVIDIA/TensorRT " not in text and "NVIDIA/TensorRT (" not in text


def test_every_stack_the_environment_knows_has_a_file() -> None:
    from troubleshooter.core.environment import STACKS

    assert [s for s in STACKS if stack_for(s) is None] == []
    assert stack_for(None) is not None  # the unknown stack: plain TensorRT's steps, said to be unknown


def test_an_unknown_stack_is_said_to_be_unknown_not_guessed() -> None:
    report = diagnose("[E] Error[2]: [myelinBuilderUtils.cpp::getMyelinSupportType::1270] Error Code 2: Internal "
                      "Error (Frobnicator does not support widgets yet.)\n")
    assert report.environment.front_end is None and report.first_error is not None
    last = report.first_error.next_steps[-1].text
    assert "stack unknown" in last
    assert "NVIDIA/TensorRT" in last and "that tool's tracker" in last


# -- the reduce step: only TensorRT's own output while it builds from ONNX ----------------------------

ONNX = Environment(front_end="trtexec", onnx_opset=17)


@pytest.mark.parametrize(("payload", "origin"), [
    ("Invalid argument: unable to find 'libtriton_tensorrt_plan.so' for model", "glog"),
    ("Ort::Exception: Exception during initialization: TensorRT EP failed to create engine", None),
    ("zsh: segmentation fault (core dumped)  ./trtexec --onnx=model.onnx", None),
    ("RuntimeError: Expected converter to be true but got false", "traceback"),
    ("[executionContext.cpp::enqueueV3::2666] Error Code 3: API Usage Error (Parameter check failed)", "trtexec"),
], ids=["triton", "ort", "shell", "traceback", "runtime"])
def test_no_reduce_step_for_a_line_polygraphy_cannot_print(payload: str, origin: str | None) -> None:
    assert not is_tensorrt_build_line(payload, origin, ONNX)
    steps = first_error_steps(payload, ONNX, stack_for("trtexec"), origin=origin)
    assert "polygraphy debug reduce" not in _text(steps)


def test_a_reduce_step_for_tensorrts_own_line_during_an_onnx_build() -> None:
    payload = "[graphShapeAnalyzer.cpp::analyzeShapes::1872] Error Code 4: Miscellaneous (IShuffleLayer /Reshape: reshape changes volume.)"
    assert is_tensorrt_build_line(payload, "trtexec", ONNX)
    steps = first_error_steps(payload, ONNX, stack_for("trtexec"), origin="trtexec")
    reduce = [s for s in steps if s.command and "polygraphy debug reduce" in s.command.code]
    assert len(reduce) == 1 and "--fail-regex" in reduce[0].command.code  # type: ignore[union-attr]
    # a stack whose users do not hold the ONNX model TensorRT parses never gets it
    triton = first_error_steps(payload, Environment(front_end="triton", onnx_opset=17), stack_for("triton"),
                               origin="trtexec")
    assert "polygraphy debug reduce" not in _text(triton)


def test_the_stacks_own_version_is_named_when_the_log_prints_it() -> None:
    env = Environment(front_end="onnxruntime", stack_versions={"onnxruntime": "1.17.1"}, tensorrt_version="8.6.1")
    last = first_error_steps("some error", env, stack_for("onnxruntime"))[-1].text
    assert "onnxruntime 1.17.1" in last and "TensorRT 8.6.1" in last


@pytest.mark.parametrize(("log", "tensorrt_provider"), [
    ("real/u-ort-6002.log", True),  # ONNX Runtime's TensorRT provider ran
    ("first-sight/batch-12/u-ort-5709.log", False),  # a CUDA/CPU session
])
def test_onnxruntime_steps_follow_the_provider_the_log_names(log: str, tensorrt_provider: bool) -> None:
    """ONNX Runtime's steps for an unexplained error are the TensorRT provider's only when the log names that
    provider; a CUDA or CPU session gets the CUDA/CPU checks (batch 30: 16 reports gave TensorRT-provider help to
    sessions that never used it)."""
    report = diagnose_path(ROOT / log)
    assert report.environment.front_end == "onnxruntime"
    assert ("TensorrtExecutionProvider" in report.environment.execution_providers) is tensorrt_provider
    assert report.first_error is not None
    text = _text(report.first_error.next_steps)
    assert ("trt_engine_cache" in text) is tensorrt_provider
    assert ("providers=['CPUExecutionProvider']" in text) is not tensorrt_provider


# first-sight batch 34 (real): ONNX Runtime from Node, the JVM and Rust got Python's InferenceSession steps. The program's
# runtime is read from its own lines, and the stack's steps are its binding's, with no step that runs Python.
RUNTIME_CASES = [
    ("first-sight/batch-34/g34a-u-onnxruntime-5058.log", "javascript", "npm ls onnxruntime-node"),
    ("first-sight/batch-34/g34a-r-transformers.js-372.log", "javascript", "npm ls onnxruntime-node"),
    ("first-sight/batch-34/g34a-u-onnxruntime-9759.log", "java", "gradlew dependencies"),
    ("first-sight/batch-34/g34a-c-diffusers-18.log", "rust", None),
]


@pytest.mark.parametrize(("log", "language", "command"), RUNTIME_CASES)
def test_a_program_of_another_runtime_gets_its_bindings_steps_and_no_python(log: str, language: str,
                                                                           command: str | None) -> None:
    report = diagnose_path(ROOT / log)
    assert report.environment.language == language
    steps = [step for fix in (d.fixes for d in report.diagnoses) for f in fix for step in f.detail]
    if report.first_error is not None:
        steps += report.first_error.next_steps
    codes = [step.command.code for step in steps if step.command is not None]
    assert codes, report
    assert not [c for c in codes if "import onnxruntime" in c or "python -m pip" in c or "python -c" in c], codes
    if command is not None:
        assert any(command in c for c in codes), codes


def test_a_python_traceback_beside_a_runtimes_words_stays_python() -> None:
    log = ('Traceback (most recent call last):\n  File "/app/run.py", line 3, in <module>\n'
           "    sess = ort.InferenceSession(path)\n"
           "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Load model from "
           "/app/node_modules/onnxruntime-node/model.onnx failed\n")
    assert diagnose(log).environment.language == "python"


# first-sight batch 34 (real): a Python exception outside TensorRT got "pip show <package>" whatever raised it. The last
# traceback frame says where it was raised: an installed package (its name, its pip name) or the program's own file.
FRAME_CASES = [
    ("first-sight/batch-34/g34g-r-flagembedding-1411.log", "installed package `sentencepiece`", "pip show sentencepiece"),
    ("first-sight/batch-34/g34b-u-MOT_ByteTrack-2.log", "the program's own code", "sed -n '71,77p' /root/MOT_ByteTrack"),
]


@pytest.mark.parametrize(("log", "said", "command"), FRAME_CASES)
def test_a_python_exception_outside_tensorrt_names_where_it_was_raised(log: str, said: str, command: str) -> None:
    report = diagnose_path(ROOT / log)
    assert report.first_error is not None
    first = report.first_error.next_steps[0]
    assert said in first.text
    assert first.command is not None and command in first.command.code


def test_a_frame_of_pythons_own_machinery_names_no_package() -> None:
    log = ('Traceback (most recent call last):\n  File "<frozen importlib._bootstrap>", line 1007, in _find_and_load\n'
           "RuntimeError: expected scalar type Half but found Float\n")
    first = diagnose(log).first_error
    assert first is not None and "<package>" in (first.next_steps[0].command.code if first.next_steps[0].command else "")
