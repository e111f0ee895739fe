"""Property-based tests (hypothesis) on ingestion and matching.

- for any bytes or text, diagnose returns a Report or raises InputError (one line);
- line numbers point at the right line, whatever the noise, line endings, blank lines and colours;
- noise lines around a real error never change the top diagnosis;
- the same input gives the same report, in one process and across processes (hash seeds).
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rel_helpers import OOM_ID, OOM_LINE, ROOT, child_env, cli_cmd, run_cli

from troubleshooter import api
from troubleshooter.errors import InputError
from troubleshooter.models import Report

_LONG_RUN = "TRT_WHY_PROPERTY_EXAMPLES" in os.environ
SETTINGS = settings(max_examples=int(os.environ.get("TRT_WHY_PROPERTY_EXAMPLES", "150")), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow],
                    derandomize=not _LONG_RUN, database=None if not _LONG_RUN else settings.default.database)
"""The same examples on every run (deterministic CI); TRT_WHY_PROPERTY_EXAMPLES=5000 for a longer, random local run."""
ENGINE = api.get_engine()


def _diagnose(data: bytes | str) -> Report | None:
    try:
        report = api.diagnose(data, engine=ENGINE)
    except InputError as exc:
        message = str(exc)
        assert message and "\n" not in message
        return None
    assert isinstance(report, Report)
    return report


# -- any input --------------------------------------------------------------------------------------------

HEADS = [b"", b"\x1f\x8b", b"\x1f\x8b\x08\x00", b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf", b"\x00\x00", b"\x89PNG"]


@SETTINGS
@given(head=st.sampled_from(HEADS), body=st.binary(max_size=3000))
def test_any_bytes_give_a_report_or_an_input_error(head: bytes, body: bytes) -> None:
    _diagnose(head + body)


@SETTINGS
@given(st.text(max_size=2000))
def test_any_text_gives_a_report_or_an_input_error(text: str) -> None:
    report = _diagnose(text)
    if report is not None:
        assert report.source.lines >= 1


@SETTINGS
@given(st.lists(st.binary(max_size=200), max_size=30))
def test_any_gzip_gives_a_report_or_an_input_error(parts: list[bytes]) -> None:
    data = gzip.compress(b"\n".join(parts))
    _diagnose(data)
    _diagnose(data[: len(data) // 2])


# -- line numbers ---------------------------------------------------------------------------------------------

WORD = st.text(alphabet="bcdfghjkmpqvwxz0123456789_/.", min_size=1, max_size=10)
NOISE_POOL = [
    "[11/22/2024-13:40:08] [V] [TRT] Tactic: 0x000000000000001f Time: 0.0123 ms",
    "[11/22/2024-13:40:08] [I] [TRT] [MemUsageChange] Init CUDA: CPU +2, GPU +0, now: CPU 38, GPU 1244 (MiB)",
    "[11/22/2024-13:40:08] [I] Loaded engine size: 12 MiB",
    "[TRT] [I] Local timing cache in use. Profiling results in this builder pass will not be stored.",
    "    at line 12 in something.py",
    "=====",
    "",
    "   ",
]
NOISE_LINE = st.one_of(
    st.sampled_from(NOISE_POOL),
    st.lists(WORD, min_size=1, max_size=8).map(lambda ws: "[I] " + " ".join(ws)),
    st.lists(WORD, min_size=1, max_size=8).map(" ".join),
)


@st.composite
def styled(draw: st.DrawFn, line: str) -> str:
    """A line as terminals, Windows and CI systems mangle it: colour, CRLF, trailing blanks."""
    if draw(st.booleans()):
        line = "\x1b[" + draw(st.sampled_from(["31m", "1;31m", "0m", "2K", "38;5;196m"])) + line + "\x1b[0m"
    if draw(st.booleans()):
        line += draw(st.sampled_from([" ", "\t", "  \t"]))
    return line + draw(st.sampled_from(["\n", "\r\n"]))


@st.composite
def planted_log(draw: st.DrawFn) -> tuple[str, int]:
    """Noise lines with the OOM error at a random position. Returns the log and the error's line number."""
    before = [draw(styled(line)) for line in draw(st.lists(NOISE_LINE, max_size=40))]
    after = [draw(styled(line)) for line in draw(st.lists(NOISE_LINE, max_size=40))]
    if draw(st.booleans()):  # Windows pastes: a blank line between every line
        before = [x for line in before for x in (line, "\r\n")]
        after = [x for line in after for x in (line, "\r\n")]
    error = draw(styled(OOM_LINE))
    text = "".join(before) + error + "".join(after)
    return text, "".join(before).count("\n") + 1


@SETTINGS
@given(planted_log())
def test_line_numbers_point_at_the_planted_error(case: tuple[str, int]) -> None:
    text, line_no = case
    report = _diagnose(text)
    assert report is not None and report.top is not None
    assert report.top.id == OOM_ID
    assert report.top.evidence[0].line == line_no
    assert OOM_LINE.split("] ", 1)[1][:40] in report.top.evidence[0].text
    # the same through the other encodings a user may hand over
    for data in (gzip.compress(text.encode()), b"\xff\xfe" + text.encode("utf-16-le"), text.encode("utf-16-be")):
        again = _diagnose(data)
        assert again is not None and again.top is not None
        assert (again.top.id, again.top.evidence[0].line) == (OOM_ID, line_no)


# -- noise around a real error ------------------------------------------------------------------------------

def _sample_logs() -> list[Path]:
    logs = []
    for path in sorted((ROOT / "sample_logs").glob("*.log")):
        report = api.diagnose_path(path, engine=ENGINE)
        if report.top is not None:
            logs.append(path)
    return logs


SAMPLES = _sample_logs()


@SETTINGS
@given(path=st.sampled_from(SAMPLES) if SAMPLES else st.nothing(),
       before=st.lists(NOISE_LINE, max_size=60), after=st.lists(NOISE_LINE, max_size=60),
       crlf=st.booleans())
def test_noise_around_a_real_error_never_changes_the_top_diagnosis(path: Path, before: list[str],
                                                                    after: list[str], crlf: bool) -> None:
    original = path.read_bytes()
    if original.startswith((b"\xff\xfe", b"\xfe\xff")):  # noise is added as UTF-8: bring the log to UTF-8 too
        original = original.decode("utf-16").encode("utf-8")
    base = api.diagnose_path(path, engine=ENGINE)
    assert base.top is not None
    end = b"\r\n" if crlf else b"\n"
    head = b"".join(line.encode() + end for line in before)
    tail = b"".join(line.encode() + end for line in after)
    if not original.endswith(b"\n"):
        original += end
    noisy = api.diagnose(head + original + tail, engine=ENGINE)
    assert noisy.top is not None
    assert noisy.top.id == base.top.id
    shift = head.count(b"\n")
    assert noisy.top.evidence[0].line == base.top.evidence[0].line + shift


# -- determinism ----------------------------------------------------------------------------------------------

@SETTINGS
@given(planted_log(), st.sampled_from(SAMPLES) if SAMPLES else st.nothing())
def test_same_input_same_report(case: tuple[str, int], path: Path) -> None:
    text = case[0] + path.read_text(encoding="utf-8", errors="replace")
    first = api.diagnose(text, engine=ENGINE).model_dump_json()
    second = api.diagnose(text, engine=ENGINE).model_dump_json()
    assert first == second


def test_same_report_across_processes_and_hash_seeds() -> None:
    """Set iteration order changes with PYTHONHASHSEED: the JSON must not (fresh interpreters: a real process)."""
    if not SAMPLES:
        pytest.skip("no sample logs")
    args = ["--format", "json", "--exit-zero", *(str(p) for p in SAMPLES)]
    outputs = set()
    for seed in ("0", "1", "12345"):
        env = child_env({"PYTHONHASHSEED": seed, "TRT_WHY_NO_CACHE": "1" if seed == "1" else ""})
        result = subprocess.run(cli_cmd(*args), capture_output=True, timeout=300, env=env, cwd=str(ROOT),
                                stdin=subprocess.DEVNULL)
        assert result.returncode == 0 and "Traceback" not in result.stderr.decode()
        json.loads(result.stdout)
        outputs.add(result.stdout)
    assert len(outputs) == 1


@pytest.mark.parametrize("matcher", ["python"])
def test_pure_python_finder_gives_the_same_reports(matcher: str) -> None:
    """The optional fast finder (hyperscan) and the pure-Python one agree on every sample log."""
    if not SAMPLES:
        pytest.skip("no sample logs")
    args = ["--format", "json", "--exit-zero", *(str(p) for p in SAMPLES)]
    default = run_cli(*args)
    forced = run_cli(*args, env={"TRT_WHY_MATCHER": matcher})  # read per engine: in-process is fine
    assert default.returncode == forced.returncode == 0, forced.stderr.decode()[-500:]
    assert default.stdout == forced.stdout
