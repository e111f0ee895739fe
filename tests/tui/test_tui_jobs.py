"""The workers' jobs without Textual: line numbering, cancellation, progress, one-line errors."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from tui_helpers import pinned_engine, sample

from troubleshooter.errors import InputError
from troubleshooter.tui import jobs
from troubleshooter.tui.jobs import Cancelled, LogRequest

CRLF_LOG = "e-libload-windows-python-dll-crlf.log"


def test_view_lines_are_numbered_as_the_engine_numbers_them(tmp_path: Path) -> None:
    path = sample(CRLF_LOG)
    request = LogRequest(path=path)
    report = jobs.diagnose_request(request, pinned_engine(), lambda d, t: None, lambda: False)
    log = jobs.read_log_text(request, lambda: False)
    assert len(log.lines) == report.source.lines
    for d in report.diagnoses:
        for ev in d.evidence:
            assert log.line(ev.line) == jobs.view_line(ev.text) or ev.text.startswith(log.line(ev.line) or "\0")
    # The same text pasted gives the same numbering.
    text = Path(path).read_bytes().decode("utf-8")
    pasted = jobs.read_log_text(LogRequest(text=text), lambda: False)
    assert pasted.lines == log.lines
    assert not any("\r" in line for line in log.lines)


def test_gzip_logs_are_shown_decompressed(tmp_path: Path) -> None:
    raw = Path(sample(CRLF_LOG)).read_bytes()
    gz = tmp_path / "build.log.gz"
    gz.write_bytes(gzip.compress(raw))
    log = jobs.read_log_text(LogRequest(path=str(gz)), lambda: False)
    assert log.lines == jobs.read_log_text(LogRequest(path=sample(CRLF_LOG)), lambda: False).lines


def test_view_line_cleans_what_a_terminal_would_not_show() -> None:
    assert jobs.view_line("\x1b[31m[E] boom\x1b[0m\r") == "[E] boom"
    assert jobs.view_line("50%\r100% done") == "100% done"
    assert jobs.view_line("a\tb") == "a   b"
    assert len(jobs.view_line("x" * 10_000)) == jobs.MAX_VIEW_CHARS


def test_a_paste_reports_progress_per_chunk_and_stops_when_cancelled() -> None:
    text = Path(sample(CRLF_LOG)).read_text(encoding="utf-8") * 400  # a few MiB
    seen: list[tuple[int, int | None]] = []
    report = jobs.diagnose_request(LogRequest(text=text), pinned_engine(), lambda d, t: seen.append((d, t)),
                                   lambda: False)
    size = len(text.encode())
    assert report.source.bytes == size
    assert len(seen) >= size // jobs.CHUNK_BYTES and seen[-1] == (size, size)
    calls = {"n": 0}

    def cancel_after_two() -> bool:
        calls["n"] += 1
        return calls["n"] > 2

    with pytest.raises(Cancelled):
        jobs.diagnose_request(LogRequest(text=text), pinned_engine(), lambda d, t: None, cancel_after_two)


def test_empty_input_is_an_input_error() -> None:
    with pytest.raises(InputError):
        jobs.diagnose_request(LogRequest(text="  \n\n"), pinned_engine(), lambda d, t: None, lambda: False)


def test_errors_read_as_one_line() -> None:
    assert jobs.one_line(InputError("x.log: no such\nfile")) == "x.log: no such file"
    assert jobs.one_line(ValueError("bad")) == "ValueError: bad"


def test_request_names_never_show_folders() -> None:
    assert LogRequest(path="/home/me/secret/build.log").name == "build.log"
    assert LogRequest(text="x").name == "<paste>"
    assert LogRequest(text="x").with_version("10.3").trt_version == "10.3"


def test_both_themes_keep_text_readable() -> None:
    from textual.app import App
    from textual.color import Color

    from troubleshooter.tui.themes import TEXT_COLOURS, THEMES

    def luminance(c: Color) -> float:
        def channel(x: int) -> float:
            v = x / 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b)

    app = App()
    for theme in THEMES:
        app.register_theme(theme)
        app.theme = theme.name
        variables = app.get_css_variables()
        for background in ("background", "surface", "panel"):
            bg = Color.parse(variables[background])
            for name in TEXT_COLOURS:
                fg = Color.parse(variables[name])
                fg = bg.blend(fg.with_alpha(1), fg.a) if fg.a < 1 else fg
                hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
                assert (hi + 0.05) / (lo + 0.05) >= 4.5, (theme.name, name, background)


def test_a_request_describes_itself_without_its_text() -> None:
    # Textual describes a worker by repr() of its arguments: a 50 MB paste must not be copied.
    assert repr(LogRequest(text="x" * 1000)) == "LogRequest(text=<1000 chars>, trt_version=None)"


def _sample_logs() -> list[str]:
    from tui_helpers import SAMPLES

    return sorted(p.name for p in SAMPLES.glob("*.log*")) if SAMPLES.is_dir() else []


@pytest.mark.parametrize("name", _sample_logs())
def test_every_sample_log_is_numbered_like_the_engine(name: str) -> None:
    """Evidence jumps land on the right line: the log view counts lines as the engine does."""
    from troubleshooter.api import get_engine

    request = LogRequest(path=sample(name))
    report = jobs.diagnose_request(request, get_engine(), lambda d, t: None, lambda: False)
    log = jobs.read_log_text(request, lambda: False)
    assert len(log.lines) == report.source.lines
    for d in report.diagnoses:
        for ev in d.evidence:
            shown = log.line(ev.line)
            assert shown is not None
            assert jobs.view_line(ev.text).strip()[:40] in shown or not ev.text.strip()
