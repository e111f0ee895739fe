"""What to do next about an error line no KB entry explains: the generic steps that fit any failure.

The report leads with such a line (``Report.first_error``); these steps go with it: a verbose log,
a minimal model that still fails (``polygraphy debug reduce`` with a ``--fail-regex`` built from the
line itself), and what to attach when asking upstream.
"""

from __future__ import annotations

import re

from troubleshooter.core.advice import polygraphy_reduce
from troubleshooter.models import Command, Environment, FixStep

_CODE_PREFIX = re.compile(r"^(?:Error\[\d+\]:\s*|\d+:\s*)?(?:\[[\w./~-]+::[\w~]+::\d+\]\s*)?")
_ERROR_CODE = re.compile(r"Error Code \d+: [\w ]+? \((?P<inner>.+)\)\s*$")
_NUMBER = re.compile(r"\d+")
_META = re.compile(r"[.^$*+?{}\[\]\\|()]")
"""Characters that mean something in a regex (re.escape also escapes spaces and dashes: unreadable)."""
MAX_REGEX_CHARS = 80


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


def first_error_steps(payload: str, env: Environment) -> list[FixStep]:
    """Generic next steps for the first error line nothing in the KB explains."""
    verbose = {
        "polygraphy": "polygraphy run model.onnx --trt -vv > build.log 2>&1",
        "onnxruntime": "ORT_TENSORRT_VERBOSE_LOGGING=1 (or session log_severity_level=0), then run again > build.log 2>&1",
    }.get(env.front_end or "", "trtexec --onnx=model.onnx --verbose > build.log 2>&1")
    reduce_cmd = polygraphy_reduce(fail_regex(payload), env)
    versions = ", ".join(f"{label} {value}" for label, value in (
        ("TensorRT", env.tensorrt_version), ("CUDA", env.cuda_version), ("driver", env.driver_version),
        ("GPU", env.gpu)) if value)
    report_text = ("Ask upstream (NVIDIA/TensorRT issues or the forum) with: this line, the whole log with "
                   "--verbose, the exact command, " + (f"{versions}, " if versions else
                                                       "the TensorRT, CUDA and driver versions, the GPU, ")
                   + "the OS or container, and the ONNX model (or the reduced one).")
    return [
        FixStep.model_construct(text="Capture the whole run at verbose level and run trt-why on it: the lines just before this "
                     "one usually name the layer or the call.",
                command=Command.model_construct(lang="bash", code=f"{verbose}\ntrt-why build.log")),
        FixStep.model_construct(text="If it fails while building from an ONNX model: shrink the model to the part that still "
                     "fails with this error.",
                command=Command.model_construct(lang="bash", code=reduce_cmd)),
        FixStep.model_construct(text=report_text),
    ]
