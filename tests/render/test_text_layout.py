"""The text report's layout: fitted to a terminal's width, unwrapped when piped; ranges and counts in words."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from troubleshooter import api
from troubleshooter.render import render
from troubleshooter.render.words import merged_ranges, version_range

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "sample_logs" / "yolov8-int8-orin-silu.log"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def prose(text: str) -> list[str]:
    return [x for x in ANSI.sub("", text).splitlines() if not x.startswith(" " * 15)]


@pytest.mark.parametrize("width", [80, 120, 200])
@pytest.mark.parametrize("rich", [True, False], ids=["rich", "no-rich"])
def test_fits_the_width(width: int, rich: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not rich:
        monkeypatch.setitem(sys.modules, "rich", None)
        monkeypatch.setitem(sys.modules, "rich.console", None)
    monkeypatch.chdir(ROOT)  # the report names the file as given: not a path whose length depends on the clone
    report = api.diagnose_path(LOG.relative_to(ROOT))
    out = render(report, "text", width=width, colour=rich)
    assert max(len(x) for x in prose(out)) <= width
    flat = " ".join(ANSI.sub("", out).split())
    assert report.diagnoses[0].title in flat  # never cut
    assert ("\x1b[" in out) is rich


def test_piped_has_one_line_per_paragraph_and_whole_titles() -> None:
    report = api.diagnose_path(LOG)
    out = render(report, "text")
    assert "\x1b[" not in out
    assert any(x.startswith("✖ error   " + report.diagnoses[0].title) for x in out.splitlines())
    why = next(x for x in out.splitlines() if x.startswith("  why"))
    assert why.endswith("[confirmed]")


def test_version_ranges_in_words() -> None:
    assert version_range("<8.5") == "before 8.5"
    assert version_range(">=11") == "11 and later"
    assert version_range(">=8.5,<10") == "from 8.5, before 10"
    merged = merged_ranges([("<8.0", "affected"), (">=8.0,<8.4", "affected"), (">=8.4,<10", "fixed"),
                            (">=10", "fixed")])
    assert merged == [("<8.4", "affected"), (">=8.4", "fixed")]


def _one_word(line: str) -> bool:
    """A line that is a single argument or string (what no break can shorten without changing it)."""
    from troubleshooter.render.fold import _shell_words

    body = line.strip()
    for marker in (" \\", " `"):
        body = body.removesuffix(marker)
    words, comment, _quote = _shell_words(body, "")
    return len(words) <= 1 and not comment


def _corpus() -> list[Path]:
    logs = sorted((ROOT / "sample_logs").glob("*.log"))
    return logs + sorted((ROOT / "sample_logs" / "real").glob("*.log"))[::7]


@pytest.mark.parametrize("width", [80, 120])
def test_every_report_fits_the_terminal_but_single_long_arguments(width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue #25: at 80 columns lines ran to 195 characters (long commands, the menu). Now every line fits,
    commands broken between arguments; what is left longer is one argument no break can shorten."""
    monkeypatch.chdir(ROOT)
    over = []
    for log in _corpus():
        report = api.diagnose_path(log.relative_to(ROOT))
        for verbose in (False, True):
            out = render(report, "text", width=width, verbose=verbose)
            over += [(log.name, x) for x in out.splitlines() if len(x) > width and not _one_word(x)]
    assert over == []


def test_a_long_reduce_command_is_broken_with_continuations_that_still_parse() -> None:
    import shlex

    report = api.diagnose_path(LOG)
    out = render(report, "text", width=80)
    lines = out.splitlines()
    start = next(i for i, x in enumerate(lines) if x.strip().startswith("polygraphy debug reduce"))
    block = [lines[start]]
    while block[-1].endswith(" \\"):
        block.append(lines[start + len(block)])
    assert len(block) > 1 and all(len(x) <= 80 for x in block)
    joined = re.sub(r" \\\n *", " ", "\n".join(x.strip() for x in block))
    assert shlex.split(joined) == shlex.split(report.diagnoses[0].reduce_command or "")
