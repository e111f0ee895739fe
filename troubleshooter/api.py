"""The embedding API: diagnose a log, lint a model, load the KB.

Never prints, never exits, reads only what it is given. Bad input raises
``troubleshooter.errors.InputError`` (a TroubleshooterError). Thread-safe: the KB and its compiled
matcher are built once and shared.

A thin facade: every option is checked (`Options`) before a byte is read, the reading layer
(`troubleshooter.reading`) turns bytes into candidate lines for the core's matcher, the core ranks what
matched (`troubleshooter.core`), and the options that act on the finished report (a model to lint,
redaction) are applied last.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from troubleshooter.core.logs import decode_line as decode_line
from troubleshooter.core.logs import strip_ansi as strip_ansi
from troubleshooter.core.matcher import SIGNATURE_BUDGET, Matcher, check_entry, derive, remember_readings
from troubleshooter.core.regexes import MATCH_TIMEOUT
from troubleshooter.core.versions import KNOWN_RELEASES as KNOWN_RELEASES
from troubleshooter.core.versions import normalise
from troubleshooter.envvars import env_seconds
from troubleshooter.errors import InputError
from troubleshooter.kb.loader import KnowledgeBase
from troubleshooter.kb.loader import load_kb as _load_kb
from troubleshooter.models import PLATFORMS as PLATFORMS
from troubleshooter.models import Report, Source, Suggestion, Unexplained
from troubleshooter.reading import MATCHERS, Finders, literal_index_factory, matcher_choice

if TYPE_CHECKING:
    from troubleshooter.core.matcher import Derived
    from troubleshooter.core.suggest import Suggester
    from troubleshooter.kb.outside import OutsideKind
    from troubleshooter.kb.stacks import Stack
    from troubleshooter.lint.report import LintReport
    from troubleshooter.reading.ingest import Opened

# The public API is the package's (`troubleshooter.__all__`). The ways in (CLI, TUI, fleet) also use the helpers
# re-exported here (`import x as x`): `KNOWN_RELEASES`, the TensorRT releases the version advice knows, newest
# last; `PLATFORMS`; `decode_line` (bytes to text, never fails) and `strip_ansi` (colour and control codes out):
# how the engine reads a line, for a way in that shows one; and `check_trt_version`, `unexplained_key` below.

Progress = Callable[[int], None]
PathLike = str | os.PathLike[str]

_MATCH_TIMEOUT = env_seconds("TRT_WHY_MATCH_TIMEOUT", MATCH_TIMEOUT)
_SIGNATURE_BUDGET = env_seconds("TRT_WHY_SIGNATURE_BUDGET", SIGNATURE_BUDGET)
"""The matchers' limits (read once, at import: see docs/limits.md)."""


@dataclass(frozen=True)
class Options:
    """What a diagnosis may be told besides the log. Checked when made: a bad option fails before a
    byte of the log is read.

    `trt_version` and `platform` (linux, windows, wsl, jetson) override what the log says; `model` is
    an ONNX file to lint and join to the report; `redact` hides user names, paths, hosts and IPs
    (`redact_names` node and tensor names too); `kb_dirs` are extra KB folders; `matcher` chooses how
    candidate lines are found (auto, python, hyperscan: the same report either way).
    """

    trt_version: str | None = None
    platform: str | None = None
    model: PathLike | None = None
    redact: bool = False
    redact_names: bool = False
    kb_dirs: Sequence[PathLike] = ()
    matcher: str | None = None

    def __post_init__(self) -> None:
        if self.trt_version is not None:
            object.__setattr__(self, "trt_version", check_trt_version(self.trt_version) if self.trt_version else None)
        if self.platform is not None and self.platform not in PLATFORMS:
            raise InputError(f"--platform {self.platform!r}: one of {', '.join(PLATFORMS)}")
        if self.matcher is not None and self.matcher not in MATCHERS:
            raise InputError(f"--matcher {self.matcher!r}: one of {', '.join(MATCHERS)}")
        if self.model is not None and not os.path.exists(self.model):
            raise InputError(f"{os.fspath(self.model)}: no such file")
        object.__setattr__(self, "kb_dirs", tuple(self.kb_dirs))

    @classmethod
    def of(cls, options: Options | None, given: dict[str, Any]) -> Options:
        """`options` (None: the defaults) with the option keywords of a diagnose function that were given (not
        None) laid over it."""
        if options is not None and not isinstance(options, Options):
            raise TypeError(f"options: an Options, not {type(options).__name__} (other options are keyword-only)")
        given = {name: value for name, value in given.items() if value is not None}
        if not given:
            return options or cls()
        return replace(options, **given) if options is not None else cls(**given)


class Engine:
    """A loaded KB with its compiled matcher, the finders of its candidate lines and its suggester
    (built the first time it is needed)."""

    def __init__(self, kb: KnowledgeBase, matcher: Matcher, finders: Finders, suggester: Suggester | None = None) -> None:
        self.kb = kb
        self.matcher = matcher
        self.finders = finders
        self._suggester = suggester
        self._lock = threading.Lock()

    @property
    def suggester(self) -> Suggester:
        if self._suggester is None:
            with self._lock:
                if self._suggester is None:
                    from troubleshooter.core.suggest import Suggester

                    known = {cs.key: list(cs.literals) for cs in self.matcher.signatures}
                    self._suggester = Suggester(self.kb.entries, lambda e, s: known[f"{e.id}::{s.id}"])
        return self._suggester

    @classmethod
    def from_kb(cls, kb: KnowledgeBase, prefer: str | None = None, derived: Derived | None = None) -> Engine:
        """`prefer`: the matcher choice (auto, python, hyperscan; else TRT_WHY_MATCHER); `derived`: what the
        matcher derives from each signature, when known (the KB cache keeps it)."""
        try:
            choice = matcher_choice(prefer)
        except ValueError as exc:
            raise InputError(str(exc)) from None
        matcher = Matcher(kb.entries, derived["literals"] if derived else None, required=derived["required"] if derived else None,
                          compiled=derived.get("compiled") if derived else None,
                          index_factory=literal_index_factory(choice),
                          match_timeout=_MATCH_TIMEOUT, signature_budget=_SIGNATURE_BUDGET)
        return cls(kb, matcher, Finders(matcher.prefilter, choice))


class _SuggesterWhenNeeded:
    """Stands for the engine's suggester and builds it only if a line is left unexplained."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def similar(self, text: str, limit: int = 3, exclude: Sequence[str] = ()) -> list[Suggestion]:
        return self.engine.suggester.similar(text, limit=limit, exclude=exclude)

    def near_miss(self, entry_id: str, text: str) -> float:
        return self.engine.suggester.near_miss(entry_id, text)


_engines: dict[tuple[tuple[str, ...], str], Engine] = {}
_lock = threading.Lock()


def load_kb(extra: Sequence[PathLike] = (), *, strict: bool = False) -> KnowledgeBase:
    """The built-in knowledge base plus extra folders (and TRT_WHY_KB_PATH)."""
    return _load_kb(extra, strict=strict, check=check_entry)


def get_engine(extra: Sequence[PathLike] = (), *, prefer: str | None = None) -> Engine:
    """The shared engine for these KB folders and matcher choice (built on first use)."""
    try:
        choice = matcher_choice(prefer)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    key = ((*(str(p) for p in extra), os.environ.get("TRT_WHY_KB_PATH", "")), choice)
    with _lock:
        engine = _engines.get(key)
        if engine is None:
            from troubleshooter.kb.cache import load_kb_cached

            kb, derived = load_kb_cached(extra, check=check_entry, derive=derive)
            if derived is not None:
                remember_readings(derived)
            engine = Engine.from_kb(kb, choice, derived)
            _engines[key] = engine
        return engine


# Each option is a keyword of its own (not **fields): a misspelt one is a type error, not a run-time surprise.
def diagnose(  # noqa: PLR0913
    log: str | bytes, options: Options | None = None, *, name: str = "<text>", engine: Engine | None = None,
    trt_version: str | None = None, platform: str | None = None, model: PathLike | None = None,
    redact: bool | None = None, redact_names: bool | None = None, kb_dirs: Sequence[PathLike] | None = None,
    matcher: str | None = None,
) -> Report:
    """Diagnose a log given as text or bytes (gzip and UTF-16 are recognised).

    The options as an `Options`, or as keywords of the same names (`diagnose(text, trt_version="8.6")`); a keyword
    given (not None) is laid over `options`. `name` names the log in the report; `engine`: a loaded KB and
    matcher (`get_engine`, the shared one by default). Raises InputError on a bad option or input."""
    from troubleshooter.reading import ingest

    opts = Options.of(options, {"trt_version": trt_version, "platform": platform, "model": model, "redact": redact,
                                "redact_names": redact_names, "kb_dirs": kb_dirs, "matcher": matcher})
    return _run(lambda: ingest.open_data(log, name), opts, engine)


def diagnose_path(  # noqa: PLR0913
    path: PathLike, options: Options | None = None, *, progress: Progress | None = None, engine: Engine | None = None,
    trt_version: str | None = None, platform: str | None = None, model: PathLike | None = None,
    redact: bool | None = None, redact_names: bool | None = None, kb_dirs: Sequence[PathLike] | None = None,
    matcher: str | None = None,
) -> Report:
    """Diagnose a log file (plain, .gz, UTF-16), streaming: memory stays bounded. `progress` is
    called with the number of bytes read so far; the other keywords as for `diagnose`."""
    from troubleshooter.reading import ingest

    opts = Options.of(options, {"trt_version": trt_version, "platform": platform, "model": model, "redact": redact,
                                "redact_names": redact_names, "kb_dirs": kb_dirs, "matcher": matcher})
    return _run(lambda: ingest.open_path(path), opts, engine, progress, os.fspath(path))


def diagnose_stream(  # noqa: PLR0913
    stream: IO[bytes], options: Options | None = None, *, name: str = "<stdin>", progress: Progress | None = None,
    engine: Engine | None = None, trt_version: str | None = None, platform: str | None = None,
    model: PathLike | None = None, redact: bool | None = None, redact_names: bool | None = None,
    kb_dirs: Sequence[PathLike] | None = None, matcher: str | None = None,
) -> Report:
    """Diagnose a binary stream (stdin); the keywords as for `diagnose_path`."""
    from troubleshooter.reading import ingest

    opts = Options.of(options, {"trt_version": trt_version, "platform": platform, "model": model, "redact": redact,
                                "redact_names": redact_names, "kb_dirs": kb_dirs, "matcher": matcher})
    return _run(lambda: ingest.open_stream(stream, name), opts, engine, progress)  # type: ignore[arg-type]


def _run(open_log: Callable[[], Opened], opts: Options, engine: Engine | None, progress: Progress | None = None,
         path: str | None = None) -> Report:
    """The options are already checked (`Options`); then the engine, then the log is opened."""
    eng = engine or get_engine(opts.kb_dirs, prefer=opts.matcher)
    report = _report(open_log(), eng, opts, progress, path)
    if opts.model is not None:
        from troubleshooter.lint.join import attach

        report = attach(report, lint(opts.model, trt_version=opts.trt_version or report.environment.tensorrt_version))
    if opts.redact or opts.redact_names:
        from troubleshooter.render.redact import redact_report

        report = redact_report(report, names=opts.redact_names)
    return report


def _report(opened: Opened, engine: Engine, opts: Options, progress: Progress | None, path: str | None) -> Report:
    """Read (the reading layer), then what the core finds, then the report with what reading noted."""
    from troubleshooter.core.report import Guides, findings
    from troubleshooter.reading import scan

    state, lines, nbytes, content = scan(opened, engine.matcher, engine.finders, progress, path)
    if not content:
        raise InputError(f"{opened.name}: the log contains only blank lines")
    guides = Guides(stack_of=_stack_for, kinds=_outside_kinds)
    found = findings(state, engine.matcher.entries, _SuggesterWhenNeeded(engine), trt_version=opts.trt_version,
                     platform=opts.platform, read_lines=bool(lines and nbytes), guides=guides)
    notes = [*opened.notes, *state.notes]
    if opened.truncated:
        notes.append(opened.stop_reason or "reading stopped early")
    notes += found.notes
    if engine.kb.problems:
        notes.append(f"{len(engine.kb.problems)} KB entries could not be loaded (run `trt-why kb validate`)")
    return Report.model_construct(
        source=Source.model_construct(name=opened.name, lines=lines, bytes=nbytes, encoding=opened.encoding,
                                      truncated=opened.truncated),
        environment=found.environment,
        diagnoses=found.diagnoses,
        unexplained=found.unexplained,
        notes=notes,
        failure=found.failure,
        first_error=found.first_error,
    )


def _stack_for(front_end: str | None) -> Stack | None:
    """`kb.stacks.stack_for`, imported when a report first needs a stack (a first error nothing explains): the
    stack models are not declared for the others."""
    from troubleshooter.kb.stacks import stack_for

    return stack_for(front_end)


def _outside_kinds() -> Sequence[OutsideKind]:
    """`kb.outside.builtin_kinds`, imported when a report first needs it (a first error nothing explains)."""
    from troubleshooter.kb.outside import builtin_kinds

    return builtin_kinds()


def lint(path: PathLike, *, trt_version: str | None = None, polygraphy: bool = False) -> LintReport:
    """Lint an ONNX model for TensorRT. Needs the `lint` extra (onnx)."""
    from troubleshooter.lint import lint_path

    return lint_path(Path(path), trt_version=trt_version, polygraphy=polygraphy)


# -- small public helpers for the ways in (CLI, TUI, fleet) -----------------------------------------

def check_trt_version(text: str) -> str:
    """The canonical form of a TensorRT version given by a user ("8.6.1", "10.3"); InputError if it is none."""
    version = normalise(text)
    if version is None:
        raise InputError(f"--trt-version {text!r} is not a version (try 8.6.1 or 10.3)")
    return version


def unexplained_key(item: Unexplained) -> str:
    """An unexplained error line with its numbers, paths and names masked: the same failure in
    different logs gives the same key (the fleet groups by it)."""
    from troubleshooter.core.logs import parse_line
    from troubleshooter.core.suggest import mask

    return mask(parse_line(item.line, item.text).text)
