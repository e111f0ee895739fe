"""What to do next about an error line no KB entry explains, in the terms of the stack that ran TensorRT.

The report leads with such a line (``Report.first_error``); these steps go with it. They come from the
stack's file (``kb/stacks/<id>.yaml``, handed in by the caller: the core reads no file): the stack's own
verbose log and ways to isolate the failure, then, only when the failing line is TensorRT's own output
during an ONNX build, a minimal model that still fails (``polygraphy debug reduce`` with a
``--fail-regex`` built from the line), then where to ask (the stack's tracker, and what its issue
template asks for). A log whose stack is unknown says so instead of guessing one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from troubleshooter.core.advice import polygraphy_reduce
from troubleshooter.models import Command, Environment, FixStep, Origin

if TYPE_CHECKING:
    from troubleshooter.kb.stacks import Stack

_CODE_PREFIX = re.compile(r"^(?:Error\[\d+\]:\s*|\d+:\s*)?(?:\[[\w./~-]+::[\w~]+::\d+\]\s*)?")
_ERROR_CODE = re.compile(r"Error Code \d+: [\w ]+? \((?P<inner>.+)\)\s*$")
_NUMBER = re.compile(r"\d+")
_META = re.compile(r"[.^$*+?{}\[\]\\|()]")
"""Characters that mean something in a regex (re.escape also escapes spaces and dashes: unreadable)."""
MAX_REGEX_CHARS = 80

TENSORRT_ORIGINS: frozenset[Origin] = frozenset({"trtexec", "python", "trt7"})
"""`LogLine.origin` of lines printed by TensorRT's own logger (trtexec's, the Python API's, TensorRT 7's)."""
_TENSORRT_OWN = re.compile(
    r"Error Code \d+:|\[[\w./~-]+\.(?:cpp|cu|h|hpp)::[\w~:]+::\d+\]|ModelImporter\.cpp|builtin_op_importers|"
    r"onnx2trt|onnxOpImporters|importerContext|\bIn node -?\d+|Could not find any implementation|"
    r"Parameter check failed|\[TRT\]|\[TensorRT\]")
"""What only TensorRT prints: its error codes, its source locations, the ONNX parser's files and messages."""
_RUNTIME = re.compile(r"enqueue|execute(?:V2|V3|Async)?\b|[Dd]eserializ|IExecutionContext|setInputShape|"
                      r"setBindingDimensions|runtime\.cpp|IRuntime|engine plan file|Serialization")
"""An engine that runs or loads, not one being built: no ONNX model to shrink."""
_BUILD = re.compile(r"(?i)onnx|ModelImporter|importer|In node|parser|builder|buildSerializedNetwork|buildEngine|"
                    r"tactic|Could not find any implementation|myelin|ForeignNode|network|optimi[sz]er|fusion")
_STACK_UNKNOWN = ("The log does not show which tool ran TensorRT (stack unknown). If it was trtexec, Polygraphy or "
                  "the TensorRT Python/C++ API, ask {tracker}; if another tool ran TensorRT (Triton, ONNX Runtime, "
                  "DeepStream, Torch-TensorRT...), ask that tool's tracker instead.")


def fail_regex(payload: str) -> str:
    """A regex for ``polygraphy debug reduce --fail-regex`` that matches this error again (and
    its variants with other numbers): the message inside ``Error Code N: ... (...)`` when there is one."""
    text = _CODE_PREFIX.sub("", payload.strip())
    m = _ERROR_CODE.search(text)
    if m:
        text = m.group("inner")
    text = text.strip().rstrip(".")
    if len(text) > MAX_REGEX_CHARS:
        cut = text.rfind(" ", 0, MAX_REGEX_CHARS)
        text = text[: cut if cut > MAX_REGEX_CHARS // 2 else MAX_REGEX_CHARS]
    parts = _NUMBER.split(text)
    return "[0-9]+".join(_META.sub(r"\\\g<0>", part) for part in parts)


def is_tensorrt_build_line(payload: str, origin: Origin | None, env: Environment) -> bool:
    """The line is TensorRT's own output while it builds from an ONNX model: what `polygraphy debug reduce`
    can bisect. Never a wrapper's line (Triton, ONNX Runtime, Torch-TensorRT, TensorFlow, a shell, a
    traceback), never an engine that loads or runs."""
    if origin is not None and origin not in TENSORRT_ORIGINS:
        return False
    if origin is None and not _TENSORRT_OWN.search(payload):
        return False
    if _RUNTIME.search(payload):
        return False
    onnx_known = bool(env.onnx_opset or env.onnx_ir_version or env.onnx_producer)
    return onnx_known or env.front_end in ("trtexec", "polygraphy") or bool(_BUILD.search(payload))


def _versions(env: Environment, stack: Stack | None) -> str:
    facts = [("TensorRT", env.tensorrt_version), ("CUDA", env.cuda_version), ("driver", env.driver_version),
             ("GPU", env.gpu)]
    if stack is not None and env.front_end in env.stack_versions:
        facts.append((stack.version_label or stack.name, env.stack_versions[env.front_end]))
    return ", ".join(f"{label} {value}" for label, value in facts if value)


def _step(text: str, code: str | None = None, lang: str = "bash") -> FixStep:
    return FixStep.model_construct(text=text, command=Command.model_construct(lang=lang, code=code) if code else None)


def first_error_steps(payload: str, env: Environment, stack: Stack | None = None, *,
                      origin: Origin | None = None) -> list[FixStep]:
    """Next steps for the first error line nothing in the KB explains (`payload`: the line without its
    wrapper, `origin`: the wrapper `parse_line` recognised). `stack`: the file of the stack that ran
    TensorRT (`env.front_end`; for an unknown stack, the plain TensorRT one); None: the generic steps."""
    if stack is None:
        return _generic_steps(payload, env, origin)
    key = env.front_end or "unknown"
    steps = [_step(s.text, s.code, s.lang) for s in stack.steps if not s.front_ends or key in s.front_ends]
    if stack.reduce and is_tensorrt_build_line(payload, origin, env):
        steps.append(_step("If it fails while TensorRT builds from the ONNX model: shrink the model to the part that "
                           "still fails with this error.", polygraphy_reduce(fail_regex(payload), env)))
    steps.append(_step(_report_text(stack, env)))
    return steps


def _report_text(stack: Stack, env: Environment) -> str:
    tracker = stack.tracker
    where = f"{tracker.name} ({tracker.new_issue})"
    head = (_STACK_UNKNOWN.format(tracker=where) if env.front_end is None
            else f"Ask upstream, where {stack.name} failures are reported: {where}, after searching it for this error.")
    versions = _versions(env, stack)
    return (f"{head} Its template asks for: {'; '.join(tracker.asks)}."
            + (f" The log shows: {versions}." if versions else "")
            + " `trt-why --format issue <log>` drafts that issue from this log.")


def _generic_steps(payload: str, env: Environment, origin: Origin | None) -> list[FixStep]:
    """The steps without a stack file (none serves this stack, or the files could not be read)."""
    verbose = {
        "polygraphy": "polygraphy run model.onnx --trt -vv > build.log 2>&1",
        "onnxruntime": "ORT_TENSORRT_VERBOSE_LOGGING=1 (or session log_severity_level=0), then run again > build.log 2>&1",
    }.get(env.front_end or "", "trtexec --onnx=model.onnx --verbose > build.log 2>&1")
    versions = _versions(env, None)
    steps = [_step("Capture the whole run at verbose level and run trt-why on it: the lines just before this one "
                   "usually name the layer or the call.", f"{verbose}\ntrt-why build.log")]
    if is_tensorrt_build_line(payload, origin, env):
        steps.append(_step("If it fails while building from an ONNX model: shrink the model to the part that still "
                           "fails with this error.", polygraphy_reduce(fail_regex(payload), env)))
    steps.append(_step("Ask upstream (the tracker of the tool that ran TensorRT; NVIDIA/TensorRT for trtexec, "
                       "Polygraphy and the TensorRT API) with: this line, the whole log with --verbose, the exact "
                       "command, " + (f"{versions}, " if versions else "the TensorRT, CUDA and driver versions, the GPU, ")
                       + "the OS or container, and the model (or the reduced one)."))
    return steps
