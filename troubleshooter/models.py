"""Result models: what the engine returns and every renderer, the TUI and the MCP server consume.

They are frozen pydantic models, built lazily (``defer_build``): a text report builds them with
``model_construct`` and never needs their validators; JSON output, validation and the published
schemas (``troubleshooter.report_schemas``) build them on first use. ``Report.model_dump_json()`` is the
CLI's ``--format json``. "Not known" is ``None``, never a guess.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 1


Platform = Literal["linux", "windows", "wsl", "jetson"]
"""The platforms a report, a KB fix or step can be about: the one definition (the KB schema uses it too)."""
PLATFORMS: tuple[Platform, ...] = get_args(Platform)
"""The same, as a tuple (`--platform`'s choices, the TUI's list)."""
PLATFORM_NAMES: dict[Platform, str] = {"linux": "Linux", "windows": "Windows", "wsl": "WSL", "jetson": "Jetson"}
"""How a platform is named in a sentence (a step for Windows, a KB entry for Jetson)."""

Language = Literal["python", "cpp", "javascript", "java", "csharp", "rust"]
"""The languages a failing program is read to be written in (`Environment.language`)."""
RUNTIME_LANGUAGES: tuple[Language, ...] = ("javascript", "java", "csharp", "rust")
"""The languages read from a runtime's own lines rather than from a traceback: the bindings of ONNX Runtime and
TensorRT outside Python and C++."""

Hosted = Literal["colab", "kaggle"]
"""A hosted notebook the log's paths show: its GPU, driver and CUDA are the host's (no driver to install, no
container to start), and its GPU is a runtime setting."""
HOSTED_NAMES: dict[Hosted, str] = {"colab": "Colab", "kaggle": "Kaggle"}

Origin = Literal["trtexec", "python", "trt7", "onnxruntime", "torch-tensorrt", "tensorflow", "glog", "glib", "docker",
                 "python-logging", "pytest", "traceback"]
"""The wrapper a line's prefix shows (`core/logs.py` reads it): the one list of origins."""
TENSORRT_LOGGER_ORIGINS: frozenset[Origin] = frozenset({"trtexec", "python", "trt7"})
"""The origins of lines printed by TensorRT's own logger (trtexec's, the Python API's, TensorRT 7's)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Level(str, Enum):
    """Severity of one log line, as read from its prefix (``[E]``, ``ERROR:``...)."""

    FATAL = "fatal"
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    VERBOSE = "verbose"

    @property
    def rank(self) -> int:
        """Higher is more severe."""
        return _LEVEL_RANK[self]


_LEVEL_RANK = {Level.VERBOSE: 0, Level.INFO: 1, Level.WARNING: 2, Level.ERROR: 3, Level.FATAL: 4}

Severity = Literal["error", "warning", "info"]
"""error: the build or run fails; warning: it builds but loses precision or speed; info: harmless notice."""

SEVERITY_RANK: dict[Severity, int] = {"error": 3, "warning": 2, "info": 1}

MAX_TRIGGER_EVIDENCE = 8
"""`Diagnosis.evidence` holds at most this many trigger lines, the first ones: fewer, and every line that
triggered the diagnosis is there (a renderer counting them may rely on it)."""


class LogLine(_Frozen):
    """One line of the input, with its wrappers recognised."""

    no: int = Field(description="1-based line number in the input as given.")
    level: Level | None = Field(description="Severity from the line's prefix; None when the line has none.")
    origin: Origin | None = Field(default=None, description="Front-end whose prefix was recognised, or None.")
    text: str = Field(description="The payload: the line without timestamps, wrappers and severity tags.")
    raw: str = Field(description="The line as given (ANSI codes removed, capped in length).")


class Environment(_Frozen):
    """Facts read from the log. Every field is None (or empty) when the log does not say."""

    tensorrt_version: str | None = Field(default=None, description="TensorRT version, e.g. '8.6.1'.")
    cuda_version: str | None = Field(default=None, description="CUDA runtime version.")
    driver_version: str | None = Field(default=None, description="NVIDIA driver version.")
    gpu: str | None = Field(default=None, description="GPU name as printed by the tool.")
    compute_capability: str | None = Field(default=None, description="e.g. '8.7'.")
    platform: Platform | None = Field(default=None, description="linux, windows, wsl or jetson.")
    platform_alternatives: list[Platform] = Field(
        default_factory=list,
        description="Other platforms the log does not rule out: a Linux path with nothing x86 about it is also a "
        "Jetson's. Fix steps for them are shown too, each saying whom it is for.")
    jetpack: str | None = Field(default=None, description="JetPack version when the log names it.")
    hosted: Hosted | None = Field(
        default=None, description="A hosted notebook the log's paths show (colab: /content/..., kaggle: "
        "/kaggle/working...): the GPU, driver and CUDA are the host's, so fix steps that install a driver or start a "
        "container are left out and the notebook's own steps (its GPU runtime setting) are shown.")
    language: Language | None = Field(
        default=None, description="The language of the program that failed, when its lines show it: python (a "
        "Python traceback or exception line), cpp (a C++ exception's terminate/what(), or the program's own C++ source "
        "in an error line), javascript, java, csharp or rust (that runtime's own frames and messages: Node's, the JVM's "
        "or Android's, .NET's, a Rust panic or cargo). Fix steps in another language are left out.")
    log_date: str | None = Field(default=None, description="The date the log's own timestamps give (ISO, the first "
                                 "dated line), when they carry a year.")
    tensorrt_possible: list[str] = Field(
        default_factory=list,
        description="When the log does not print the TensorRT release: the releases (major.minor) it leaves possible, "
        "from its date (only releases out by then), its JetPack (the release it ships), an ONNX parser message only "
        "some releases print, and the Python API's logger format before 8.2 (\"[TensorRT] ERROR: \"). Empty: any.")
    precisions: list[str] = Field(
        default_factory=list, description="Precision flags: int8, fp16, bf16, fp8, best, strongly-typed."
    )
    front_end: str | None = Field(
        default=None, description="The stack that ran TensorRT, as the log shows it: triton, deepstream, tensorrt-llm, "
        "torch-tensorrt, onnxruntime, tf-trt, ultralytics, comfyui, mmdeploy, jetson-inference, paddle-inference, "
        "torch2trt, polygraphy, trtexec; None: unknown.")
    command: str | None = Field(
        default=None, description="The command that ran, when the log prints it (trtexec's '&&&& RUNNING ... # cmd').")
    stack_versions: dict[str, str] = Field(
        default_factory=dict, description="Versions of the stacks' own packages the log prints (tensorrt-llm, onnxruntime, "
        "torch-tensorrt, deepstream, triton...), by stack.")
    execution_providers: list[str] = Field(
        default_factory=list, description="The ONNX Runtime execution providers the log names (asked for, available or "
        "running: TensorrtExecutionProvider, CUDAExecutionProvider, DmlExecutionProvider...), in the order it first "
        "names them.")
    onnx_opset: int | None = Field(default=None, description="ONNX opset of the parsed model.")
    onnx_ir_version: str | None = Field(default=None, description="ONNX IR version of the parsed model.")
    onnx_producer: str | None = Field(default=None, description="Producer of the ONNX model (pytorch, tf2onnx...).")
    build_succeeded: bool | None = Field(
        default=None, description="True when the log shows a finished build or a PASSED run, False when it shows a failure."
    )
    python: str | None = Field(
        default=None, description="The interpreter the program ran with, when the log's paths show an app's own one "
        "(ComfyUI portable's ...\\python_embeded\\python.exe): install and check commands use it instead of the "
        "Python on PATH.")
    sources: dict[str, int] = Field(default_factory=dict, description="Field name -> line number it was read from.")

    @property
    def release_text(self) -> str:
        """The release as the log gives it: 'TensorRT 8.6.1'; without one, what it leaves possible: 'TensorRT 8.4
        or older (the log is dated 2022-03-22)', 'TensorRT 8.2 (JetPack 4.6.1)'; else 'TensorRT version unknown'."""
        if self.tensorrt_version:
            return f"TensorRT {self.tensorrt_version}"
        possible = self.tensorrt_possible
        if not possible:
            return "TensorRT version unknown"
        parser = "tensorrt_possible" in self.sources  # a parser message set a lower bound too
        why = ([f"the log is dated {self.log_date}"] if self.log_date else []) + (
            [f"JetPack {self.jetpack}"] if self.jetpack else []) + (
            [f"the ONNX parser's message on line {self.sources['tensorrt_possible']}"] if parser else []) + (
            [f"TensorRT's old Python logger format on line {self.sources['tensorrt_logger']}"]
            if "tensorrt_logger" in self.sources else [])
        what = (f"TensorRT {possible[0]}" if len(possible) == 1 else f"TensorRT {possible[0]} to {possible[-1]}" if parser
                else f"TensorRT {possible[-1]} or older")
        return f"{what} ({', '.join(why)})" if why else what


class Evidence(_Frozen):
    """A log line that a signature of a KB entry matched."""

    line: int = Field(description="1-based line number in the input.")
    text: str = Field(description="The line as given (ANSI removed, capped).")
    signature: str = Field(default="", description="Id of the signature that matched.")
    role: str = Field(default="trigger", description="trigger, support or exclude.")


class Command(_Frozen):
    """A command or code snippet inside a fix step."""

    lang: str = Field(description="bash, python, cpp, text...")
    code: str = Field(description="The command or snippet, with the log's values filled in.")


class FixStep(_Frozen):
    """One step of a fix."""

    text: str = Field(description="What to do, for an engineer in the middle of a failed build.")
    command: Command | None = Field(default=None, description="The command or code to run, if any.")


class Fix(_Frozen):
    """A way out, as ordered steps; only the steps for the user's TensorRT version."""

    title: str = Field(description="What the fix does, in a few words.")
    steps: list[str] = Field(description="Steps as plain text (code included, fenced in Markdown output).")
    detail: list[FixStep] = Field(default_factory=list, description="The same steps with their commands kept apart.")


class CauseOut(_Frozen):
    """One possible cause, with how sure the KB is of it."""

    text: str = Field(description="What actually goes wrong, with the log's values filled in.")
    certainty: str = Field(description="confirmed, documented, reported or suggestion.")


class RangeAdvice(_Frozen):
    """What an entry says for one range of TensorRT versions."""

    versions: str = Field(description="Version range, e.g. '>=8.5,<10'.")
    status: str = Field(description="affected, fixed, changed, not-applicable or unknown.")
    text: str = Field(description="The advice for that range.")


class Alternative(_Frozen):
    """Another KB entry the same lines point to, ranked lower."""

    id: str = Field(description="KB entry id.")
    title: str = Field(description="The entry's title.")
    confidence: float = Field(description="Its confidence on the same lines, 0..1.")


class Finding(_Frozen):
    """One problem found on the model, shaped like a Polygraphy lint entry (level, source, message, nodes)."""

    rule: str = Field(description="Id of the lint rule that found it (e.g. qdq-zero-point), or 'polygraphy'.")
    level: Severity = Field(description="error, warning or info.")
    message: str = Field(description="What is wrong and what to do, for the user.")
    nodes: list[str] = Field(default_factory=list, description="ONNX node names (or tensor names) concerned.")
    kb: str | None = Field(default=None, description="Id of the KB entry this finding supports, or None.")
    source: str = Field(default="trt-why", description="Who found it: trt-why or polygraphy:<tool>.")
    details: dict[str, object] = Field(default_factory=dict, description="Machine-readable facts (axis, values...).")


class Diagnosis(_Frozen):
    """A KB entry whose signatures matched the log."""

    id: str = Field(description="KB entry id (stable; see tests/kb/families.txt).")
    title: str = Field(description="What went wrong, in one line.")
    severity: Severity = Field(description="error: the build or run fails; warning: it builds but loses "
                               "precision or speed; info: a harmless notice worth explaining.")
    confidence: float = Field(ge=0.0, le=1.0, description="How sure the match is, 0..1.")
    occurrences: int = Field(description="How many lines triggered the entry.")
    evidence: list[Evidence] = Field(description="The lines that prove it (first ones, capped).")
    captures: dict[str, str] = Field(description="Named values from the first trigger (node, tensor, version...).")
    capture_values: dict[str, list[str]] = Field(
        default_factory=dict, description="Every distinct captured value per name (capped), for floods."
    )
    causes: list[str] = Field(description="Why it happens, most likely first, with certainty in brackets.")
    cause_details: list[CauseOut] = Field(default_factory=list, description="The causes with their certainty apart.")
    version_advice: str | None = Field(description="Advice for the detected TensorRT version, or for all versions.")
    version_status: str | None = Field(default=None, description="affected, fixed, changed, not-applicable or unknown.")
    version_advice_all: list[RangeAdvice] = Field(
        default_factory=list, description="The advice for every version range (when the version is unknown, pick yours)."
    )
    fixes: list[Fix] = Field(description="Ordered fixes for the detected TensorRT version (all when unknown).")
    references: list[str] = Field(description="Primary sources: NVIDIA docs, release notes, maintainers' answers.")
    clues: list[str] = Field(default_factory=list, description="What decided the ranking (supporting lines, version...).")
    asks: list[str] = Field(default_factory=list, description="Facts that would decide between causes, when missing.")
    alternatives: list[Alternative] = Field(default_factory=list, description="Other entries the same lines match.")
    consequences: list[int] = Field(default_factory=list, description="Line numbers of later errors caused by this one.")
    cascade: bool = Field(default=False, description="True for the generic 'build failed' consequences entry.")
    lint: list[str] = Field(default_factory=list, description="Lint rule ids that can confirm this on the model.")
    model_findings: list[Finding] = Field(
        default_factory=list, description="Lint findings on the nodes named in the evidence (with --model)."
    )
    reduce_command: str | None = Field(default=None, description="polygraphy debug reduce command for a minimal repro.")
    model_verdict: Literal["confirms", "refutes", "cannot-tell"] | None = Field(
        default=None, description="With a model: whether its lint findings confirm or refute this diagnosis."
    )
    model_verdict_reason: str | None = Field(default=None, description="Why the model confirms, refutes or cannot tell.")
    matched_by: Literal["signature", "similarity"] = Field(
        default="signature",
        description="signature: a KB signature matched the evidence; similarity: no signature fired and the line "
        "closely resembles one of the entry's example lines (lower confidence, see `resembles`).",
    )
    resembles: str | None = Field(default=None, description="With matched_by=similarity: the KB example line it resembles.")


class Suggestion(_Frozen):
    """A KB entry similar to an unexplained line. A suggestion, never a verdict."""

    id: str = Field(description="KB entry id.")
    title: str = Field(default="", description="The entry's title.")
    score: float = Field(description="Similarity 0..100 on masked text.")
    example: str | None = Field(default=None, description="The KB example line it resembles most.")


class Unexplained(_Frozen):
    """An error line that no diagnosis accounts for."""

    line: int = Field(description="1-based line number of the first such line.")
    text: str = Field(description="The line as given.")
    count: int = Field(default=1, description="How many lines had the same masked text.")
    similar: list[Suggestion] = Field(default_factory=list, description="Closest known issues: suggestions only.")
    next_steps: list[FixStep] = Field(
        default_factory=list,
        description="Generic next steps (set on the report's first_error): verbose log, minimal repro, what to report.",
    )


class Source(_Frozen):
    """What was read."""

    name: str = Field(description="File name, '<stdin>' or '<text>'.")
    lines: int = Field(description="Number of lines read.")
    bytes: int = Field(default=0, description="Bytes read (after decompression).")
    encoding: str | None = Field(default=None, description="Detected text encoding.")
    truncated: bool = Field(default=False, description="True when a size limit stopped the reading.")


class Report(_Frozen):
    """Everything trt-why found in one log."""

    schema_version: int = Field(default=SCHEMA_VERSION, description="Version of this JSON contract (1).")
    source: Source = Field(description="The input that was read.")
    environment: Environment = Field(description="Facts read from the log.")
    diagnoses: list[Diagnosis] = Field(description="Sorted, root cause first.")
    unexplained: list[Unexplained] = Field(default_factory=list, description="Error lines no diagnosis explains.")
    notes: list[str] = Field(default_factory=list, description="Things the reader should know about the analysis itself.")
    failure: bool = Field(
        default=False,
        description="The log shows a failure: an error diagnosis, or an error line nothing explains (a crash, a "
        "failed load, a traceback) that no successful build follows.",
    )
    first_error: Unexplained | None = Field(
        default=None,
        description="The earliest error line no KB entry explains, when it comes before every diagnosed error: "
        "the root as far as the log shows, and what the report leads with.",
    )

    @property
    def exit_status(self) -> int:
        """1 when the log shows a failure or any diagnosis has severity error or warning, else 0 (see exit_codes)."""
        from troubleshooter import exit_codes

        found = self.failure or any(d.severity in ("error", "warning") for d in self.diagnoses)
        return exit_codes.FOUND if found else exit_codes.OK

    @property
    def top(self) -> Diagnosis | None:
        """The root cause, or None when nothing matched."""
        return self.diagnoses[0] if self.diagnoses else None

    def to_chat(self, flavour: str = "github") -> list[str]:
        """Deprecated (0.1's name): ``troubleshooter.render_chat(report, flavour)``, which it calls."""
        import sys
        import warnings

        warnings.warn("Report.to_chat() is deprecated: use troubleshooter.render_chat(report, flavour)",
                      DeprecationWarning, stacklevel=2)
        # Looked up through the package's public name when called, not imported: the models stay
        # below the renderers (tests/test_layers.py), and only this deprecated call reaches them.
        render_chat = sys.modules["troubleshooter"].render_chat
        messages: list[str] = render_chat(self, flavour)
        return messages
