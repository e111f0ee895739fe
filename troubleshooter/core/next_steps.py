"""What to do next about an error line no KB entry explains, in the terms of the stack that ran TensorRT.

The report leads with such a line (``Report.first_error``); these steps go with it. They come from the
stack's file (``kb/stacks/<id>.yaml``, handed in by the caller: the core reads no file): the stack's own
verbose log and ways to isolate the failure, then, only when the failing line is TensorRT's own output
during an ONNX build, a minimal model that still fails (``polygraphy debug reduce`` with a
``--fail-regex`` built from the line), then where to ask (the stack's tracker, and what its issue
template asks for). A log whose stack is unknown says so instead of guessing one. A line whose own words say
what failed outside TensorRT (a missing module, pip finding no wheel, a linker's missing library...) gets the
step of its kind first (``kb/outside/kinds.yaml``, handed in too), and TensorRT's own steps are left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import regex

from troubleshooter.core.advice import MISSING, fill, polygraphy_reduce
from troubleshooter.core.logs import MAKE_FATAL, TENSORRT_OWN, is_exception_line
from troubleshooter.core.shell_syntax import linux_only
from troubleshooter.models import TENSORRT_LOGGER_ORIGINS, Command, Environment, FixStep, Origin
from troubleshooter.re_programs import re_compile

if TYPE_CHECKING:
    from troubleshooter.kb.outside import OutsideKind
    from troubleshooter.kb.stacks import Stack

_CODE_PREFIX = re_compile(r"^(?:Error\[\d+\]:\s*|\d+:\s*)?(?:\[[\w./~-]+::[\w~]+::\d+\]\s*)?")
_ERROR_CODE = re_compile(r"Error Code \d+: [\w ]+? \((?P<inner>.+)\)\s*$")
_NUMBER = re_compile(r"\d+")
_META = re_compile(r"[.^$*+?{}\[\]\\|()]")
"""Characters that mean something in a regex (re.escape also escapes spaces and dashes: unreadable)."""
MAX_REGEX_CHARS = 80

_RUNTIME = re_compile(r"enqueue|execute(?:V2|V3|Async)?\b|[Dd]eserializ|IExecutionContext|setInputShape|"
                      r"setBindingDimensions|runtime\.cpp|IRuntime|engine plan file|Serialization")
"""An engine that runs or loads, not one being built: no ONNX model to shrink."""
_BUILD = re_compile(r"(?i)onnx|ModelImporter|importer|In node|parser|builder|buildSerializedNetwork|buildEngine|"
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
    if origin is not None and origin not in TENSORRT_LOGGER_ORIGINS:
        return False
    if origin is None and not TENSORRT_OWN.search(payload):
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


def _shell_step(text: str, code: str | None, lang: str, windows: str | None, env: Environment) -> FixStep:
    """A step written as a POSIX command with, where it differs, its Windows (PowerShell) form: on a Windows log the
    Windows form, or no command when the POSIX one has Linux-only syntax (`shell_syntax`) - its text stays; elsewhere
    the POSIX form. Every shell command of the next steps goes through here."""
    if env.platform == "windows":
        if windows is not None:
            return _step(text, windows, "powershell")
        if code and linux_only(code, lang):
            return _step(text)
    return _step(text, code, lang)


_COMPILED: dict[str, regex.Pattern[str]] = {}
"""A kind's `match`, compiled when a line is first tried against it (a report needs these only for a first error
nothing explains)."""


def kind_pattern(kind: OutsideKind) -> regex.Pattern[str]:
    """A kind's `match` as it runs (compiled once per process)."""
    pattern = _COMPILED.get(kind.match)
    if pattern is None:
        pattern = _COMPILED[kind.match] = regex.compile(kind.match, regex.VERSION0)
    return pattern


_TENSORRT_WORDS = re_compile(r"(?i)tensor_?rt|\btrt|nvinfer|engine|onnx|plugin|cuda|cudnn|cublas|myelin|tactic|serializ"
                             r"|optimi[sz]ation profile|builder|parser|jetson|jetpack|\bgpu\b|\bdla\b|\.plan\b|int8|fp16"
                             r"|calibrat|quantiz")
"""Words of TensorRT and what it runs on: a line that holds none, from a run no known stack made, is not TensorRT's."""
_NOT_TENSORRT = ("This line is not a TensorRT message and names nothing of TensorRT: the program, script or tool that "
                 "ran printed it (its own check, a build step, a library it loads). The lines just above it in the "
                 "whole output name the step that failed and what it was given; a verbose TensorRT log would not show "
                 "more.")
_NOT_TENSORRT_PYTHON = ("This is a Python exception, not a TensorRT message, and it names nothing of TensorRT: the "
                        "traceback's last `File \"...\", line N` frame above it is the code that raised it (a script of "
                        "yours, the project's, or a package's - its folder under site-packages names the package) and the "
                        "frames above that are the calls that led there. Read that line; when it is a package's, compare the "
                        "installed version with the one the project pins.")
_NOT_TENSORRT_PYTHON_CODE = "python -m pip show <package>     # the package whose folder the last frame is in"


_SITE_PACKAGE = re_compile(r"[\\/](?:site|dist)-packages[\\/](?P<module>[A-Za-z_]\w*)")
_FRAME_ELSEWHERE = re_compile(r"^<|[\\/]lib[\\/]python[\d.]*[\\/](?!(?:site|dist)-packages)[\w.]+\.py$|[\\/]Lib[\\/][\w.]+\.py$")
"""A frame with no file of anyone's to read (`<frozen importlib._bootstrap>`, `<string>`, a notebook cell) or in
Python's own standard library: it names neither a package nor the project."""
_PACKAGE_RAISED = ("This is a Python exception, not a TensorRT message: it was raised in the installed package "
                   "`{module}` ({file}, line {at}), called by the frames above it. A package that fails on a call the "
                   "code makes is most often another release than the one the code was written for: compare the installed "
                   "version with the one the project pins, and search that package's issues for this line.")
_PROJECT_RAISED = ("This is a Python exception, not a TensorRT message: it was raised in the program's own code, `{path}`, "
                   "line {at} - not an installed package. Read that line and the values it gets: it is the script's or "
                   "the project's own check or call, and the frames above it are how it got there.")


def _not_tensorrt(payload: str, env: Environment, frame: tuple[str, int] | None = None) -> FixStep:
    """The first step for a line that names nothing of TensorRT: a Python exception's traceback says where it was raised
    (`frame`: the file and line of its last frame, when the log shows it)."""
    if not is_exception_line(payload):
        return _step(_NOT_TENSORRT)
    if frame is None or _FRAME_ELSEWHERE.search(frame[0]):
        return _step(_NOT_TENSORRT_PYTHON, _NOT_TENSORRT_PYTHON_CODE)
    path, at = frame
    file = path.replace("\\", "/").rsplit("/", 1)[-1]
    site = _SITE_PACKAGE.search(path)
    if site is not None:
        from troubleshooter.kb.packages import install_for

        module = site.group("module")
        row = install_for(module)
        dist = row.install if row is not None and regex.fullmatch(r"[\w.-]+(?:\[[\w,]+\])?", row.install) else module
        text = _PACKAGE_RAISED.format(module=module, file=file, at=at)
        return _shell_step(text, fill("python -m pip show {dist}", {"dist": dist}, "bash"), "bash",
                           fill("python -m pip show {dist}", {"dist": dist}, "powershell"), env)
    text = _PROJECT_RAISED.format(path=path, at=at)
    first, last = max(at - 3, 1), at + 3
    return _shell_step(text, fill(f"sed -n '{first},{last}p' {{path}}", {"path": path}, "bash"), "bash",
                       fill(f"Get-Content {{path}} | Select-Object -Skip {first - 1} -First {last - first + 1}",
                            {"path": path}, "powershell"), env)


_BUILD_TOOL = re_compile(
    r"[\w.)\]-]:\d+(?::\d+)?: (?:fatal )?(?:error|\*\*error\*\*)\b|\.\w{1,4}\(\d+\)(?:: | : )(?:fatal )?error\b"
    r"|\b(?:fatal )?error (?:C|LNK)\d{4}\b|CMake Error|"
    r"^(?:g?make|ninja)(?:\[\d+\])?: \*\*\*|" + MAKE_FATAL + "|"
    r"collect2(?:\.exe)?: error|\bld(?:\.exe)?: |^ERROR: \S*BUILD(?:\.bazel)?:\d+|"
    r"^FAILED: |\bnvcc (?:fatal|error)|error: command '[^']*(?:gcc|g\+\+|cc1plus|cl\.exe|nvcc)[^']*' failed|"
    r"returned a non-zero code|executor failed running|Configuring incomplete|BUILD(?:\.bazel)?:\d+:\d+: Compiling \S+ failed")
"""A compiler's, linker's, make's, CMake's, bazel's or docker build's own error line: the program was never built."""
_BUILD_FAILED = ("The build stopped at this compile, link or configure step, before anything ran, so no TensorRT "
                 "runtime step applies. Fix the first error of the build (later ones follow from it), and check the "
                 "versions the project's build asks for - compiler, CUDA, cuDNN, TensorRT, the framework - against what "
                 "this machine has (a header or library of another release gives errors like this one).")
_BUILD_VERSIONS = ("gcc --version | head -1; nvcc --version | tail -2; cmake --version | head -1\n"
                   "find / -name NvInferVersion.h 2>/dev/null | head -3   # the TensorRT headers the build may take")
_BUILD_VERSIONS_WINDOWS = ("cl 2>&1 | Select-Object -First 1; nvcc --version; cmake --version\n"
                          "Get-ChildItem -Path C:\\ -Recurse -Filter NvInferVersion.h -ErrorAction SilentlyContinue | "
                          "Select-Object -First 3 FullName   # the TensorRT headers the build may take")


def _build_failed(env: Environment) -> FixStep:
    """The build-stopped step, with the version checks in the shell of the log's platform."""
    return _shell_step(_BUILD_FAILED, _BUILD_VERSIONS, "bash", _BUILD_VERSIONS_WINDOWS, env)


_BUILD_SUMMARY = re_compile(
    r"^(?:\d+ errors? detected in the compilation of|Error limit reached\.|Compilation terminated\."
    r"|CMake Error at \S+\.cmake:\d+ \(message\):|Error generating file\b|collect2(?:\.exe)?: error: ld returned \d+"
    r"|(?:g?make|mingw32-make|ninja)(?:\[\d+\])?: \*\*\* .{0,300}\bError \d+|ninja: build stopped"
    r"|\S+: recipe for target .{1,200} failed|(?:ERROR: )?\S+:\d+:\d+: (?:Linking|Compiling) of rule '[^']{1,300}' failed)")
"""A build's summary of a failure (nvcc's error count, FindCUDA's "Error generating file", collect2's exit status,
make's "*** [...] Error N"): the line that says why comes before it."""
_BUILD_SUMMARY_TEXT = ("This line is the build's summary of a failure. The line that says why - the compiler's "
                       "`file:line: error: ...`, or the linker's `undefined reference` / `cannot find -lX` - comes before "
                       "it, and no such line was read here: it is missing from the paste. Build again with one job, keep "
                       "the whole output, and read its first error line.")
_BUILD_AGAIN = ("make -j1 2>&1 | tee build.log        # or: cmake --build build -j 1 2>&1 | tee build.log\n"
                "grep -n -m5 -E \"error|undefined reference|cannot find\" build.log")
_BUILD_AGAIN_WINDOWS = ("cmake --build build -j 1 2>&1 | Tee-Object build.log\n"
                        "Select-String -Path build.log -Pattern \"error\" | Select-Object -First 5")
_PROJECT_TRACKER = ("If the script is a project's (a repository's demo, export or install script), search that project's "
                    "issues for this line, then ask there with the exact command, the whole output and the project's "
                    "release or commit; the error is in its code or its use, not in TensorRT.")


def _kind_of(payload: str, env: Environment, kinds: Sequence[OutsideKind], *,
             lead: bool = False) -> tuple[OutsideKind, regex.Match[str]] | None:
    """The first kind whose words the line has (`kinds`, in order), and its match. `lead`: the line leads the report
    and no failing line follows it (a `lead_only` kind applies)."""
    for kind in kinds:
        if (kind.stackless and env.front_end is not None) or (kind.lead_only and not lead):
            continue
        m = kind_pattern(kind).search(payload)
        if m is not None:
            return kind, m
    return None


def kind_for(payload: str, env: Environment, kinds: Sequence[OutsideKind]) -> OutsideKind | None:
    """The kind that gives the step for this line when it leads the report (`kinds`, in order), or None."""
    found = _kind_of(payload, env, kinds, lead=True)
    return found[0] if found is not None else None


def _kind_step(kind: OutsideKind, m: regex.Match[str], env: Environment) -> FixStep:
    name = ((m.group("name") if "name" in m.re.groupindex else None) or kind.default).rstrip(".,;:)")
    values = {k: v or MISSING for k, v in m.groupdict().items()}
    values.update(name=name or MISSING, top=name.split(".")[0] if name else MISSING)
    return _shell_step(fill(kind.text, values), fill(kind.code, values, kind.lang) if kind.code else None, kind.lang,
                       fill(kind.windows, values, "powershell") if kind.windows else None, env)


def first_error_steps(payload: str, env: Environment, stack: Stack | None = None, *,
                      kinds: Sequence[OutsideKind] = (), origin: Origin | None = None,
                      later: Sequence[tuple[int, str]] = (), frame: tuple[str, int] | None = None) -> list[FixStep]:
    """Next steps for the first error line nothing in the KB explains (`payload`: the line without its
    wrapper, `origin`: the wrapper `parse_line` recognised). `stack`: the file of the stack that ran
    TensorRT (`env.front_end`; for an unknown stack, the plain TensorRT one); None: the generic steps.
    `kinds`: the failures outside TensorRT by the words of the line (`kb/outside/kinds.yaml`, handed in).
    `later`: the unexplained failing lines after it (number, payload): when this line's words name nothing, the
    first of those that says what failed gives the first step, naming its line. `frame`: the file and line of the
    last Python traceback frame above the line, when the log shows one."""
    # a lead_only kind when no failing line follows (else the paste was not cut there: an exception whose name no grammar
    # reads, Paddle's EnforceNotMet)
    found = _kind_of(payload, env, kinds, lead=not later)
    said_by = None
    own_words = TENSORRT_OWN.search(payload) is not None
    tensorrt_own = (origin in TENSORRT_LOGGER_ORIGINS) or (origin is None and own_words)
    if (found is None or found[0].weak) and not tensorrt_own:  # TensorRT's own line keeps its stack's steps
        weak_later: tuple[int, tuple[OutsideKind, regex.Match[str]]] | None = None
        for no, text in later:
            better = _kind_of(text, env, kinds)
            if better is None:
                continue
            if not better[0].weak:
                found, said_by = better, no
                break
            weak_later = weak_later or (no, better)
        else:
            if found is None and weak_later is not None:
                said_by, found = weak_later
    if found is not None and found[0].weak and tensorrt_own:
        found = None  # TensorRT's own line keeps its stack's steps over a weak reading of its words
    if found is not None:
        # The line says what failed, outside TensorRT: its step, then where to ask (the project's tracker for the
        # program's own error); TensorRT's verbose log and a reduced model would not show more.
        first = _kind_step(*found, env)
        if said_by is not None:
            first = first.model_copy(update={"text": f"Line {said_by} says what failed: {first.text}"})
        if found[0].program:
            return [first, _step(_PROJECT_TRACKER)]
        if (tensorrt_own or own_words) and stack is not None:
            # TensorRT's own line read by its words (an internal assertion): the reading, then the stack's own steps
            # (its verbose log, its reduced model), which still show more
            return [first, *_stack_steps(payload, env, stack, origin)]
        return [first, _step(_report_text(stack, env)) if stack is not None else _ask_upstream(env)]
    if not tensorrt_own and _BUILD_SUMMARY.search(payload):
        # The first error line the paste holds is the build's summary: the compiler's or linker's own line, which says
        # why, came before it and was not pasted
        return [_shell_step(_BUILD_SUMMARY_TEXT, _BUILD_AGAIN, "bash", _BUILD_AGAIN_WINDOWS, env),
                _build_failed(env), _step(_PROJECT_TRACKER)]
    if not tensorrt_own and _BUILD_TOOL.search(payload):
        # A compile, link or configure step failed: the stack's runtime steps (its verbose log, its config) do not
        # apply to a build that never produced the program.
        return [_build_failed(env), _step(_PROJECT_TRACKER)]
    if env.front_end is None and not tensorrt_own and not _TENSORRT_WORDS.search(payload):
        # Nothing says TensorRT ran, and the line is no TensorRT message and names nothing of it (a build step, a
        # script's own check, a library): a verbose trtexec run would not show more.
        return [_not_tensorrt(payload, env, frame), _step(_PROJECT_TRACKER)]
    if stack is None:
        return _generic_steps(payload, env, origin)
    return _stack_steps(payload, env, stack, origin)


_API_NETWORK = re_compile(r"\(Unnamed Layer\* ?\d+\)")
"""A layer TensorRT named itself: the network was built through its API (torch2trt, a script, tensorrtx's C++), not
parsed from an ONNX model, whose layers carry the model's node names."""
_API_VERBOSE = ("The network was built through TensorRT's API, not parsed from an ONNX model (its layers are unnamed): make "
                "the program's TensorRT logger verbose and name the layers where the code adds them, then run again; the "
                "lines before this one name the layer and the call that made it.")
_API_VERBOSE_CODE = ("logger = trt.Logger(trt.Logger.VERBOSE)\n"
                     "# torch2trt: torch2trt(model, [x], log_level=trt.Logger.VERBOSE)\n"
                     "layer.name = \"<layer_name>\"   # after each network.add_*(...)")


def _stack_steps(payload: str, env: Environment, stack: Stack, origin: Origin | None) -> list[FixStep]:
    """The stack file's steps for this log (its verbose log, its config), the reduced model for a build line, and
    where to ask. A network built through the API (no stack named, unnamed layers) has no ONNX model to run trtexec or
    Polygraphy on: its own logger's verbose output instead (first-sight batch 36: torch2trt's converters)."""
    if env.front_end is None and _API_NETWORK.search(payload):
        return [_step(_API_VERBOSE, _API_VERBOSE_CODE, "python"), _step(_report_text(stack, env))]
    key = env.front_end or "unknown"
    steps = [_shell_step(s.text, s.code, s.lang, s.windows, env) for s in stack.steps
             if s.fits(key, env.execution_providers, env.language)]
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
    steps = [_step("Capture the whole run at verbose level and run trt-why on it: the lines just before this one "
                   "usually name the layer or the call.", f"{verbose}\ntrt-why build.log")]
    if is_tensorrt_build_line(payload, origin, env):
        steps.append(_step("If it fails while building from an ONNX model: shrink the model to the part that still "
                           "fails with this error.", polygraphy_reduce(fail_regex(payload), env)))
    steps.append(_ask_upstream(env))
    return steps


def _ask_upstream(env: Environment) -> FixStep:
    versions = _versions(env, None)
    return _step("Ask upstream (the tracker of the tool that ran TensorRT; NVIDIA/TensorRT for trtexec, "
                 "Polygraphy and the TensorRT API) with: this line, the whole log with --verbose, the exact "
                 "command, " + (f"{versions}, " if versions else "the TensorRT, CUDA and driver versions, the GPU, ")
                 + "the OS or container, and the model (or the reduced one).")
