"""troubleshooter.re_programs: `re` patterns rebuilt from a kept program are the patterns `re.compile` makes, and a bad table
never changes what a pattern matches."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from troubleshooter import re_programs as programs

ROOT = Path(__file__).resolve().parents[1]
PATTERNS: list[tuple[str | bytes, int]] = [
    (r"(?P<lvl>ERROR|WARN(?:ING)?)\s*:\s*(?P<msg>.+)", 0),
    (r"\[(?P<m>[01]\d)/(?P<d>[0-3]\d)/(?P<y>20\d\d)-\d\d:\d\d:\d\d\]", 0),
    (r"^-- [\w .+/-]{1,60}: not found\s*$", re.MULTILINE),
    (r"(?i)tensor_?rt|\btrt|nvinfer", 0),
    (rb"\n(?:(?:\[E\])|(?:ERROR:))", re.MULTILINE),
    (r"\s*(>=|<=|==)\s*(\d+(?:\.\d+)*)", re.ASCII),
]


@pytest.fixture
def fresh_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in (("_records", {}), ("_fresh", set()), ("_compiled", {})):
        monkeypatch.setattr(programs, name, value)


needs_engine = pytest.mark.skipif(not programs.RUNTIME, reason="no _sre entry point on this interpreter")


@pytest.mark.usefixtures("fresh_tables")
@pytest.mark.parametrize(("pattern", "flags"), PATTERNS)
def test_a_compiled_pattern_is_re_compiles_own(pattern: str | bytes, flags: int) -> None:
    assert programs.re_compile(pattern, flags) == re.compile(pattern, flags)


@needs_engine
@pytest.mark.usefixtures("fresh_tables")
def test_a_table_round_trip_rebuilds_equal_patterns_without_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    for pattern, flags in PATTERNS:
        programs.re_compile(pattern, flags)
    table = programs.export()
    assert table is not None and len(table) == len(PATTERNS)
    assert programs.export() is None  # nothing new since

    for name, value in (("_records", {}), ("_fresh", set()), ("_compiled", {})):
        monkeypatch.setattr(programs, name, value)
    assert programs.seed(table) == len(PATTERNS)
    monkeypatch.setattr(programs, "_record", lambda *_: pytest.fail("parsed again"))
    for pattern, flags in PATTERNS:
        built = programs.re_compile(pattern, flags)
        assert built == re.compile(pattern, flags)
        assert built.groupindex == re.compile(pattern, flags).groupindex
    assert programs.export() is None


@needs_engine
@pytest.mark.usefixtures("fresh_tables")
def test_a_program_the_engine_refuses_is_compiled_as_re_does() -> None:
    pattern = r"Error Code (?P<code>\d+): (?P<what>\w+)"
    assert programs.seed([(pattern, 0, re.UNICODE, [1, 2, 3], 2, {"code": 1, "what": 2}, (None, "code", "what"))]) == 1
    built = programs.re_compile(pattern)
    assert built == re.compile(pattern)
    assert built.match("Error Code 4: Internal")["code"] == "4"  # type: ignore[index]


@needs_engine
@pytest.mark.usefixtures("fresh_tables")
def test_rows_of_another_shape_are_skipped() -> None:
    assert programs.seed({"not": "a list"}) == 0
    assert programs.seed([("x", 0), ["x", "0", 0, [], 0, {}, ()], (5, 0, 0, [], 0, {}, ())]) == 0
    assert programs.re_compile("x+") == re.compile("x+")


def test_the_core_and_the_reader_compile_through_programs() -> None:
    """One way to compile a pattern with `re` in the engine: a module that called re.compile itself would compile
    on every run again."""
    offenders = []
    for path in [*(ROOT / "troubleshooter" / "core").glob("*.py"), ROOT / "troubleshooter" / "reading" / "finders.py"]:
        if path.name == "programs.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr == "compile" and isinstance(node.value, ast.Name)
                    and node.value.id == "re"):
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


@needs_engine
def test_the_command_keeps_its_programs_and_reads_them_back(tmp_path: Path) -> None:
    """A first run writes the table to the cache folder; a second run reads it, and both print the same report."""
    log = ROOT / "sample_logs" / "yolov8-int8-orin-silu.log"
    env = {**os.environ, "TRT_WHY_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    env.pop("TRT_WHY_NO_CACHE", None)

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "troubleshooter.cli", str(log)], env=env, capture_output=True,
                              text=True, timeout=120, check=False)

    first = run()
    kept = list((tmp_path / "trt-why").glob("programs-*.marshal"))
    assert len(kept) == 1
    written = kept[0].stat().st_mtime_ns
    second = run()
    assert (first.returncode, first.stdout) == (second.returncode, second.stdout) and first.returncode == 1
    assert kept[0].stat().st_mtime_ns == written  # nothing new to keep: not written again
