"""The embedding API: diagnose a log, lint a model, load the KB.

Never prints, never exits, reads only what it is given. Bad input raises
``troubleshooter.errors.InputError`` (a TroubleshooterError). Thread-safe: the KB and its compiled
matcher are built once and shared.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

from troubleshooter.core import ingest
from troubleshooter.core.finders import finder_choice
from troubleshooter.core.matcher import Matcher, MatchState
from troubleshooter.core.ranking import rank
from troubleshooter.core.scan import scan_stream
from troubleshooter.core.versions import normalise
from troubleshooter.errors import InputError
from troubleshooter.kb.loader import KnowledgeBase
from troubleshooter.kb.loader import load_kb as _load_kb
from troubleshooter.models import PLATFORMS, Diagnosis, Environment, Report, Source, Unexplained

if TYPE_CHECKING:
    from troubleshooter.core.suggest import Suggester
    from troubleshooter.lint.report import LintReport

Progress = Callable[[int], None]


class Engine:
    """A loaded KB with its compiled matcher and suggester (built the first time it is needed)."""

    def __init__(self, kb: KnowledgeBase, matcher: Matcher, suggester: Suggester | None = None) -> None:
        self.kb = kb
        self.matcher = matcher
        self._suggester = suggester
        self._lock = threading.Lock()

    @property
    def suggester(self) -> Suggester:
        if self._suggester is None:
            with self._lock:
                if self._suggester is None:
                    from troubleshooter.core.suggest import Suggester

                    self._suggester = Suggester(self.kb.entries)
        return self._suggester

    @classmethod
    def from_kb(cls, kb: KnowledgeBase, prefer: str | None = None,
                literals: dict[str, list[str]] | None = None) -> Engine:
        """`literals`: each signature's prefilter literals, when known (the KB cache keeps them)."""
        return cls(kb, Matcher(kb.entries, prefer, literals))


class _SuggesterWhenNeeded:
    """Stands for the engine's suggester and builds it only if a line is left unexplained."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def similar(self, text: str, limit: int = 3, exclude: Sequence[str] = ()):  # type: ignore[no-untyped-def]
        return self.engine.suggester.similar(text, limit=limit, exclude=exclude)


_engines: dict[tuple[tuple[str, ...], str], Engine] = {}
_lock = threading.Lock()


def load_kb(extra: Sequence[str | os.PathLike[str]] = (), *, strict: bool = False) -> KnowledgeBase:
    """The built-in knowledge base plus extra folders (and TRT_WHY_KB_PATH)."""
    return _load_kb(extra, strict=strict)


def get_engine(extra: Sequence[str | os.PathLike[str]] = (), *, prefer: str | None = None) -> Engine:
    """The shared engine for these KB folders (built on first use)."""
    key = ((*(str(p) for p in extra), os.environ.get("TRT_WHY_KB_PATH", "")), finder_choice(prefer))
    with _lock:
        engine = _engines.get(key)
        if engine is None:
            from troubleshooter.kb.cache import load_kb_and_literals

            kb, literals = load_kb_and_literals(extra)
            engine = Engine.from_kb(kb, prefer, literals)
            _engines[key] = engine
        return engine


def _scan(opened: ingest.Opened, engine: Engine, progress: Progress | None, path: str | None
          ) -> tuple[MatchState, int, int, bool]:
    """The streaming pass: large plain files in parts on several cores, everything else in one pass."""
    matcher = engine.matcher
    if path is not None and opened.encoding in ("utf-8", "utf-8-sig") and not any("gzip" in n for n in opened.notes):
        from troubleshooter.core.parallel import parallel_jobs, scan_file_parallel

        jobs = parallel_jobs(opened.size_hint)
        if jobs > 1:
            done = scan_file_parallel(path, matcher, opened.size_hint or 0, jobs, opened.encoding, progress)
            if done is not None:
                opened.stream.close()
                return done
            opened = ingest.open_path(path)  # a part failed or a regex timed out: one pass
    state = MatchState()
    from troubleshooter.core.newlines import numpy_for

    lines, nbytes, content = scan_stream(opened, lambda: matcher.finder_for(opened.size_hint), progress=progress,
                                         on_region=matcher.region_sink(state, numpy_for(opened.size_hint)))
    return state, lines, nbytes, content


def _finish(opened: ingest.Opened, engine: Engine, trt_version: str | None, progress: Progress | None,
            path: str | None = None, platform: str | None = None) -> Report:
    # Options are checked before a byte is read: a bad flag on a 1 GB log fails at once.
    override = None
    if trt_version:
        override = normalise(trt_version)
        if override is None:
            opened.stream.close()
            raise InputError(f"--trt-version {trt_version!r} is not a version (try 8.6.1 or 10.3)")
    if platform is not None and platform not in PLATFORMS:
        opened.stream.close()
        raise InputError(f"--platform {platform!r}: one of {', '.join(PLATFORMS)}")
    state, lines, nbytes, content = _scan(opened, engine, progress, path)
    if not content:
        raise InputError(f"{opened.name}: the log contains only blank lines")
    env = state.env.result(override, platform)
    diagnoses = rank(engine.matcher.entries, state, env)
    fired = set(state.hits) if diagnoses else set()
    notes = list(opened.notes) + state.notes
    if opened.truncated:
        notes.append(getattr(opened.stream, "stop_reason", "") or "reading stopped early")
    if lines and nbytes and not diagnoses and not state.error_lines:
        notes.append("no known failure and no error line found")
    if state.error_lines_seen > len(state.error_lines):
        notes.append(f"{state.error_lines_seen} error lines; the first {len(state.error_lines)} were examined "
                     "for unexplained errors")
    if engine.kb.problems:
        notes.append(f"{len(engine.kb.problems)} KB entries could not be loaded (run `trt-why kb validate`)")
    unexplained = _unexplained(state, diagnoses, fired, engine)
    if unexplained:
        from troubleshooter.core.similarity import promote

        build = state.env.last_build
        diagnoses, unexplained = promote(unexplained, diagnoses, engine.matcher.entries, env, seen=set(state.hits),
                                         succeeded_at=build[0] if build is not None and build[1] else 0,
                                         near_miss=engine.suggester.near_miss)
    failure, first_error = _failure(diagnoses, unexplained, state.env.last_build, env)
    return Report(
        source=Source(name=opened.name, lines=lines, bytes=nbytes, encoding=opened.encoding, truncated=opened.truncated),
        environment=env,
        diagnoses=diagnoses,
        unexplained=unexplained,
        notes=notes,
        failure=failure,
        first_error=first_error,
    )


def _failure(diagnoses: list[Diagnosis], unexplained: list[Unexplained], last_build: tuple[int, bool] | None,
             env: Environment) -> tuple[bool, Unexplained | None]:
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
    first = min(failing, key=lambda u: u.line)
    roots = [e.line for d in errors if not d.cascade for e in d.evidence if e.role == "trigger"]
    if roots and first.line >= min(roots):
        return failure, None
    from troubleshooter.core.logs import parse_line
    from troubleshooter.core.next_steps import first_error_steps

    return failure, first.model_copy(update={"next_steps": first_error_steps(parse_line(first.line, first.text).text, env)})


def _unexplained(state: MatchState, diagnoses: list, fired: set[str], engine: Engine) -> list:  # type: ignore[type-arg]
    if not state.error_lines:
        return []
    from troubleshooter.core.suggest import unexplained

    return unexplained(state.error_lines, diagnoses, fired, _SuggesterWhenNeeded(engine))  # type: ignore[arg-type]


def diagnose(  # noqa: PLR0913  # public API: keyword-only options (one options object: #15)
    log: str | bytes,
    *,
    model: str | os.PathLike[str] | None = None,
    trt_version: str | None = None,
    platform: str | None = None,
    name: str = "<text>",
    redact: bool = False,
    redact_names: bool = False,
    kb_dirs: Sequence[str | os.PathLike[str]] = (),
    engine: Engine | None = None,
) -> Report:
    """Diagnose a log given as text or bytes (gzip and UTF-16 are recognised).

    ``trt_version`` and ``platform`` (linux, windows, wsl, jetson) override what the log says."""
    eng = engine or get_engine(kb_dirs)
    report = _finish(ingest.open_data(log, name), eng, trt_version, None, platform=platform)
    return _post(report, model, trt_version, redact, redact_names)


def diagnose_path(  # noqa: PLR0913  # public API: keyword-only options (one options object: #15)
    path: str | os.PathLike[str],
    *,
    model: str | os.PathLike[str] | None = None,
    trt_version: str | None = None,
    platform: str | None = None,
    progress: Progress | None = None,
    redact: bool = False,
    redact_names: bool = False,
    kb_dirs: Sequence[str | os.PathLike[str]] = (),
    engine: Engine | None = None,
) -> Report:
    """Diagnose a log file (plain, .gz, UTF-16), streaming: memory stays bounded."""
    eng = engine or get_engine(kb_dirs)
    report = _finish(ingest.open_path(path), eng, trt_version, progress, os.fspath(path), platform)
    return _post(report, model, trt_version, redact, redact_names)


def diagnose_stream(  # noqa: PLR0913  # public API: keyword-only options (one options object: #15)
    stream: IO[bytes],
    *,
    name: str = "<stdin>",
    model: str | os.PathLike[str] | None = None,
    trt_version: str | None = None,
    platform: str | None = None,
    progress: Progress | None = None,
    redact: bool = False,
    redact_names: bool = False,
    kb_dirs: Sequence[str | os.PathLike[str]] = (),
    engine: Engine | None = None,
) -> Report:
    """Diagnose a binary stream (stdin)."""
    eng = engine or get_engine(kb_dirs)
    report = _finish(ingest.open_stream(stream, name), eng, trt_version, progress,  # type: ignore[arg-type]
                     platform=platform)
    return _post(report, model, trt_version, redact, redact_names)


def _post(report: Report, model: str | os.PathLike[str] | None, trt_version: str | None,
          redact: bool, redact_names: bool) -> Report:
    if model is not None:
        from troubleshooter.lint.join import attach

        report = attach(report, lint(model, trt_version=trt_version or report.environment.tensorrt_version))
    if redact or redact_names:
        from troubleshooter.render.redact import redact_report

        report = redact_report(report, names=redact_names)
    return report


def lint(path: str | os.PathLike[str], *, trt_version: str | None = None, polygraphy: bool = False) -> LintReport:
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
