"""Coverage-guided fuzzing of the log path: bytes in -> ingest -> line parser -> matcher -> Report.

    python fuzz/fuzz_logs.py -max_total_time=60                   # one minute, empty corpus
    python fuzz/fuzz_logs.py /tmp/corpus-logs sample_logs -max_total_time=600 -timeout=20

Any input must give a Report or an InputError; anything else (an exception, a crash, a run past
libFuzzer's -timeout) is a finding, saved by libFuzzer as ./crash-<sha1> or ./timeout-<sha1>.
Needs atheris (`pip install atheris`); see fuzz/README.md.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

_IGNORE = [part for part in os.environ.get("FUZZ_IGNORE", "").split("|") if part]
"""Exception texts to let pass (FUZZ_IGNORE="a|b"): keep fuzzing past a bug already reported."""


def _known(exc: BaseException) -> bool:
    text = f"{type(exc).__name__}: {exc}"
    return any(part in text for part in _IGNORE)

_ENGINE = None


def _engine():  # type: ignore[no-untyped-def]
    global _ENGINE
    if _ENGINE is None:
        from troubleshooter import api

        _ENGINE = api.get_engine()
    return _ENGINE


def test_one_input(data: bytes) -> None:
    """One fuzz case: the whole pipeline, then the line parser on its own."""
    from troubleshooter import api
    from troubleshooter.core.logs import decode_line, parse_line
    from troubleshooter.errors import InputError
    from troubleshooter.models import Report

    try:
        report = api.diagnose(data, engine=_engine())
    except InputError as exc:
        message = str(exc)
        if not message or "\n" in message:
            raise AssertionError(f"an InputError must be one line: {message!r}") from None
        report = None
    except Exception as exc:
        if not _known(exc):
            raise
        report = None
    if report is not None:
        if not isinstance(report, Report):
            raise AssertionError(f"diagnose returned {type(report).__name__}")
        report.model_dump_json()  # every report serialises
    for no, raw in enumerate(data[:4096].split(b"\n")[:64], 1):
        line = parse_line(no, decode_line(raw))
        if line.no != no:
            raise AssertionError("parse_line changed the line number")


def main() -> None:
    import atheris

    with atheris.instrument_imports(include=["troubleshooter"]):
        import troubleshooter.api
        import troubleshooter.core.logs  # noqa: F401
    _engine()
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
