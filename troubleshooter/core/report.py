"""From a log's `MatchState` to what the report says: the environment, the ranked diagnoses, the error
lines nothing explains (with suggestions, and promotions by similarity), whether the log shows a
failure, and the error line that leads the report when no entry explains it.

The one place the steps after matching run, in order; `api` only adds what the reading layer knows
(the source, the reading notes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from troubleshooter.core.logs import TRACEBACK_WINDOW
from troubleshooter.core.ranking import fires, rank
from troubleshooter.core.state import MatchState
from troubleshooter.core.suggest import Suggestions
from troubleshooter.kb.schema import Entry
from troubleshooter.models import RUNTIME_LANGUAGES, Diagnosis, Environment, Language, Level, LogLine, Unexplained
from troubleshooter.re_programs import re_compile

if TYPE_CHECKING:
    from troubleshooter.kb.outside import OutsideKind
    from troubleshooter.kb.stacks import Stack


@dataclass(frozen=True)
class Guides:
    """What the KB says about an error line no entry explains, handed in (the core reads no file); each is called
    only when a report needs it."""

    stack_of: Callable[[str | None], Stack | None]
    """The stack file serving a front end (`kb.stacks.stack_for`; None: unknown stack)."""
    kinds: Callable[[], Sequence[OutsideKind]]
    """The failures outside TensorRT, by the words of the line (`kb.outside.builtin_kinds`)."""


@dataclass(frozen=True)
class Findings:
    """What the core found in one log."""

    environment: Environment
    diagnoses: list[Diagnosis]
    unexplained: list[Unexplained]
    failure: bool
    """The log shows a failure (the exit status)."""
    first_error: Unexplained | None
    """The earliest error line no entry explains, when it comes before every diagnosed error."""
    notes: list[str]
    """What the core has to say about its own work (no failure seen, error lines left unexamined)."""


_STACK_FRAME = re_compile(r"^\s*#\d+\s+(?:0x[0-9a-fA-F]+ in |[\w:~<>]+ \()|^\s+(?:from|at) /\S")
"""A native stack frame as gdb prints it (and its continuation line)."""
EXCEPTION_MESSAGE_LINES = 6
"""How far a message may run on after its first line (an exception's, or untagged lines after an error) and still
be the wrapper of a diagnosed reason."""
LATER_LINES = 20
"""Unexplained failing lines after the first that its next steps may read: when the first says nothing of its own
(a GLib warning, "Failed to set pipeline to PAUSED"), a later one may say what failed (`first_error_steps`)."""
_PYTHON_FRAME = re_compile(r"(?<!C\+\+ )Traceback \(most recent call last\)|File \"[^\"]+\.py\", line \d+")
"""A Python traceback's own lines: a Python program, whatever runtime's words appear beside them."""
_PYTHON_LINE = re_compile(_PYTHON_FRAME.pattern + r"|^[\"'`]?(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception): ")
"""A traceback's line or an exception line: a Python program's error."""
_CPP_LINE = re_compile(r"terminate called after throwing an instance of|^\s*what\(\):\s"
                       r"|(?:^|[\s\\/(])(?P<file>[\w.-]+)\.(?:cpp|cc|cxx|cu|cuh|hpp|h)(?::\d+\b|\(\d+\)|,? line \d+\b)"
                       r"|\bline \d+ (?:in|of) (?:file )?(?:\S*[\\/])?(?P<file_after>[\w.-]+)\.(?:cpp|cc|cxx|cu)\b")
_FRAMEWORK_SOURCE = re_compile(r"[\\/]paddle[\\/](?:fluid|phi|common)[\\/]|^C\+\+ Traceback \(most recent call last\)"
                               # ONNX Runtime's own sources in its status messages, from any binding
                               r"|[\\/]onnxruntime[\\/](?:core|include)[\\/]")
"""A framework's own C++ sources and report headers, which it prints whatever language called it (Paddle's C++
Traceback and "(at /paddle/paddle/fluid/...)" under a Python program or a C++ demo alike)."""
_TENSORRT_SOURCES = re_compile(
    r"(?:ModelImporter|builtin_op_importers|onnxOpImporters|importerUtils|onnx2trt_utils|ShapedWeights|OnnxAttrs"
    r"|NvOnnxParser|onnxOpCheckers|runtime|builder|optimizer|network|caskUtils|pluginV2Runner|engine|executionContext"
    r"|cudaDriverHelpers|helpers|checkMacrosPlugin|stdArchiveReader|safeDeserialize\w*|serializationUtils|\w*Layer"
    r"|\w*Runner|\w*Builder|\w*Allocator|myelin\w*|tacticOptimizer|virtualMemoryBuffer|resources|api"
    r"|Nv(?:Infer|Onnx|Caffe|Uff)\w*|coreReadArchive)$")
"""Source files of TensorRT and its ONNX parser that its own messages name: no sign of the user's C++ program."""


def program_language(lines: Iterable[LogLine]) -> Literal["python", "cpp"] | None:
    """The language of the program that failed, from its error lines: a Python traceback or exception line says
    python; a C++ exception's terminate/what(), or a C++ source of the program's own (not TensorRT's) says cpp;
    None when neither, or both, show."""
    python = cpp = False
    for line in lines:
        text = line.text
        if _FRAMEWORK_SOURCE.search(text):
            continue  # a framework's own report (Paddle's "(at /paddle/paddle/fluid/...h:308)"), printed for any caller
        if _PYTHON_LINE.search(text):
            python = True
            continue
        m = _CPP_LINE.search(text)
        source = m and (m.group("file") or m.group("file_after"))
        if m is not None and (source is None or not _TENSORRT_SOURCES.match(source)):
            cpp = True
    if python == cpp:
        return None
    return "python" if python else "cpp"


def findings(state: MatchState, entries: dict[str, Entry], suggestions: Suggestions, *,
             trt_version: str | None = None, platform: str | None = None, read_lines: bool = True,
             guides: Guides | None = None) -> Findings:
    """The findings of a log's matching pass. `trt_version` and `platform` override what the log says;
    `read_lines`: the log had lines at all (an empty one gets no "nothing found" note); `guides`: the
    stack files and the outside kinds, for the first error's next steps (None: generic steps)."""
    env = state.env.result(trt_version, platform)
    language: Language | None = program_language(line for line, _ids in state.error_lines)
    runtimes = [name for name in RUNTIME_LANGUAGES if name in state.env.runtimes]
    if len(runtimes) == 1 and language != "cpp" and not any(_PYTHON_FRAME.search(line.text) for line, _ids in state.error_lines):
        # a Node, JVM, .NET or Rust program: its "Error: ..." lines are not Python's, and Python's steps do not fit it
        language = runtimes[0]
    if language is not None:
        env = env.model_copy(update={"language": language})
    diagnoses = rank(entries, state, env)
    # An error line is explained by an entry that fired on it, not by one whose support or exclude merely
    # matched it (an out-of-memory support on "Could not find any implementation" with no memory line).
    fired = {eid for eid, hits in state.hits.items() if eid in entries and fires(entries[eid], hits)[0]} if diagnoses else set()
    notes: list[str] = []
    if read_lines and not diagnoses and not state.error_lines:
        notes.append("no known failure and no error line found")
    if state.error_lines_seen > len(state.error_lines):
        notes.append(f"{state.error_lines_seen} error lines; the first {len(state.error_lines)} were examined "
                     "for unexplained errors")
    unexplained: list[Unexplained] = []
    if state.error_lines:
        from troubleshooter.core.suggest import unexplained as unexplained_lines

        unexplained = unexplained_lines(state.error_lines, diagnoses, fired, suggestions)
    if unexplained:
        from troubleshooter.core.similarity import promote

        build = state.env.last_build
        diagnoses, unexplained = promote(unexplained, diagnoses, entries, env, seen=set(state.hits),
                                         succeeded_at=build[0] if build is not None and build[1] else 0,
                                         near_miss=suggestions.near_miss)
    failure, first_error = failure_of(diagnoses, unexplained, state.env.last_build, env, guides, frames=state.env.frames)
    return Findings(env, diagnoses, unexplained, failure, first_error, notes)


_TRACEBACK_FRAME = re_compile(r"\s*File \"[^\"]+\", line \d+")


def _without_traceback_body(leaders: list[Unexplained]) -> list[Unexplained]:
    """A traceback pasted from its middle (its header cut off), or with each of its lines behind a logger's error tag
    (vLLM logs a worker's traceback so): its frames and source lines are error lines by their tag, but the exception
    line that ends it says what failed, and leads. The traceback is the run of error lines (one or two untagged or
    blank lines apart, Python's `^^^^` marks) that ends at an exception line and holds a `File "...", line N` frame."""
    from troubleshooter.core.logs import is_exception_line, parse_parts

    ordered = sorted(leaders, key=lambda u: u.line)
    payloads = [parse_parts(u.text)[2] for u in ordered]
    body: set[int] = set()
    for i, text in enumerate(payloads):
        if not is_exception_line(text):
            continue
        j = i
        while j > 0 and ordered[j].line - ordered[j - 1].line <= 3 and not is_exception_line(payloads[j - 1]):
            j -= 1
        if any(_TRACEBACK_FRAME.match(t) for t in payloads[j:i]):
            body.update(u.line for u in ordered[j:i])
    return [u for u in leaders if u.line not in body] if body else leaders


def _speaking(leaders: list[Unexplained]) -> list[Unexplained]:
    """The lines that can lead, of the unexplained error lines: pytest tags every line of a failure's report with `E`,
    and only those whose own words are an error speak (not its code excerpts, its `-->` locations, its blank lines); an
    exception line whose message is empty leads only when nothing follows; TensorRT's own error line quoted within
    the message of the exception above it (within `EXCEPTION_MESSAGE_LINES`, three times that in pytest's block, with
    the same wrapper) is that exception's reason, and leads over it
    (first-sight batch 36: TensorRT-Incubator's pytest reports)."""
    from troubleshooter.core.logs import TENSORRT_OWN, exception_without_message, is_exception_line, parse_parts, payload_level

    parts = {u.line: parse_parts(u.text) for u in leaders}
    speaking = [u for u in leaders if parts[u.line][1] != "pytest" or is_exception_line(parts[u.line][2])
                or payload_level(None, parts[u.line][2]) is Level.ERROR]
    leaders = speaking or leaders
    with_message = [u for u in leaders if not exception_without_message(parts[u.line][2])]
    leaders = with_message or leaders
    first = min(leaders, key=lambda u: u.line, default=None)
    if first is not None and is_exception_line(parts[first.line][2]) and not TENSORRT_OWN.search(parts[first.line][2]):
        near = 3 * EXCEPTION_MESSAGE_LINES if parts[first.line][1] == "pytest" else EXCEPTION_MESSAGE_LINES
        own = [u for u in leaders if 0 < u.line - first.line <= near and parts[u.line][1] == parts[first.line][1]
               and TENSORRT_OWN.search(parts[u.line][2])]
        if own:
            leaders = [u for u in leaders if u.line >= own[0].line]
    return leaders


def failure_of(diagnoses: list[Diagnosis], unexplained: list[Unexplained], last_build: tuple[int, bool] | None,
               env: Environment, guides: Guides | None = None,
               frames: Sequence[tuple[int, str, int]] = ()) -> tuple[bool, Unexplained | None]:
    """Whether the log shows a failure, and the unexplained error line that leads the report (if any).

    An unexplained error line is a failure unless a successful build follows it (a harmless error
    line in a log whose build then passed). It leads when it comes before every diagnosed error.
    """
    succeeded_at = last_build[0] if last_build is not None and last_build[1] else 0
    failing = [u for u in unexplained if u.line > succeeded_at]
    errors = [d for d in diagnoses if d.severity == "error"]
    # The log's own verdict counts too: "&&&& FAILED", "Engine could not be created" as its last outcome.
    failure = bool(errors) or bool(failing) or (last_build is not None and not last_build[1])
    if not failing:
        return failure, None
    from troubleshooter.core.logs import is_report_frame

    # The ONNX parser's dump of its failing node is a failure, but the line that says why leads (a diagnosis, or
    # the next unexplained line); the dump leads only a paste that holds nothing else.
    leaders = [u for u in failing if not is_report_frame(u.text)]
    leaders = _without_traceback_body(leaders)
    diagnosed = min((e.line for d in errors for e in d.evidence if e.role == "trigger"), default=None)
    if diagnosed is not None:
        # A native stack trace after a diagnosed line (gdb's "#0  0x... in f () from lib.so" after the crash's own
        # line) is that failure's report, not another error: the diagnosis leads, the frames are its context.
        leaders = [u for u in leaders if not (u.line > diagnosed and _STACK_FRAME.match(u.text))]
    if not leaders and errors:
        return failure, None
    leaders = _speaking(leaders)
    first = min(leaders or failing, key=lambda u: u.line)
    roots = [e.line for d in errors if not d.cascade for e in d.evidence if e.role == "trigger"]
    if roots and first.line >= min(roots):
        return failure, None
    from troubleshooter.core.logs import is_exception_line, parse_line, parse_parts

    line = parse_line(first.line, first.text)
    consequences = [e.line for d in errors if d.cascade for e in d.evidence if e.role == "trigger"]
    if consequences and first.line > min(consequences):
        # the first unexplained line comes after the line that said what failed (a crash and glibc's reason for it,
        # "Engine deserialization failed" behind an app's logger), with nothing unexplained before it: it is that
        # failure's consequence ("visualize onnxruntime model failed", a traceback cut before its exception line),
        # and the earlier line leads
        return failure, None
    near = [e for d in errors if not d.cascade for e in d.evidence
            if e.role == "trigger" and 0 < e.line - first.line <= EXCEPTION_MESSAGE_LINES]
    untagged = any(parse_parts(e.text)[1] is None and not e.text.lstrip().startswith("[") for e in near)
    if near and (is_exception_line(line.text) or untagged):
        # a message that goes on over the next lines ("DLRError: DLR library (libdlr.so) could not be loaded." ...
        # "Error message(s): libnvinfer.so.7: cannot open shared object file"): the diagnosed line is its reason
        return failure, None
    from troubleshooter.core.next_steps import first_error_steps

    stack = guides.stack_of(env.front_end) if guides is not None else None
    kinds = guides.kinds() if guides is not None else ()
    later = [(u.line, parse_line(u.line, u.text).text) for u in failing if u.line > first.line][:LATER_LINES]
    above = [(path, at) for no, path, at in frames if 0 < first.line - no <= TRACEBACK_WINDOW]
    steps = first_error_steps(line.text, env, stack, kinds=kinds, origin=line.origin, later=later,
                              frame=above[-1] if above else None)
    if env.python:  # the app's own interpreter, as in the KB's fixes
        from troubleshooter.core.advice import step_with_interpreter

        steps = [step_with_interpreter(s, env.python) for s in steps]
    return failure, first.model_copy(update={"next_steps": steps})
