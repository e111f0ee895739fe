"""kb/outside/kinds.yaml: failures outside TensorRT by the words of the line, as data; each kind's real examples
get that kind, and a report gives its step."""

from __future__ import annotations

from pathlib import Path

import pytest

from troubleshooter import diagnose_path
from troubleshooter.cli.kb_selftest import run_kind_examples, validate_kinds
from troubleshooter.errors import KBError
from troubleshooter.kb.loader import builtin_kb_dir, load_folders
from troubleshooter.kb.outside import builtin_kinds, kinds_path, load_kinds, parse_kinds

ROOT = Path(__file__).resolve().parents[2]


def test_the_file_validates_and_the_report_build_is_the_same() -> None:
    validated = load_kinds()
    assert validated == load_kinds(validate=False) == builtin_kinds()
    assert len({k.id for k in validated}) == len(validated) > 100
    assert validate_kinds() == []


@pytest.mark.parametrize("case", run_kind_examples(), ids=lambda r: r.case_id)
def test_each_example_gets_its_kind(case) -> None:  # type: ignore[no-untyped-def]
    assert case.ok, case.message


def test_every_example_names_where_it_came_from() -> None:
    for kind in builtin_kinds():
        for ex in kind.examples:
            assert ex.source.startswith("https://") or (ROOT / ex.source).is_file(), (kind.id, ex.source)
            if not ex.source.startswith("https://"):  # the line is the log's own, verbatim
                assert ex.line in (ROOT / ex.source).read_text(encoding="utf-8", errors="replace").splitlines(), kind.id


def test_the_kinds_file_is_not_read_as_a_kb_entry() -> None:
    kb = load_folders([builtin_kb_dir()])
    assert not kb.problems
    assert kinds_path().parent.name == "outside" and "kinds" not in kb.ids()


@pytest.mark.parametrize(("text", "field"), [
    ("kinds:\n- id: x\n  match: abc\n  text: short\n  examples: [{line: abc, source: https://x.y}]\n", "text"),
    ("kinds:\n- id: x\n  match: abc\n  text: a long enough text\n", "examples"),
    ("kinds: []\n", "kinds"),
    ("- id: x\n", "kinds:"),
])
def test_a_broken_file_is_a_kb_error_naming_the_field(text: str, field: str) -> None:
    with pytest.raises(KBError, match=field):
        parse_kinds(text, "kinds.yaml")


def test_a_deepstream_element_that_cannot_be_created_gets_the_gstreamer_step() -> None:
    """DeepStream's `** ERROR: <create_osd_bin:58>: Failed to create 'nvosd0'`: the grammar takes the `** ERROR:
    <fn:line>:` prefix off, and the kind still reads the element from what is left (a real Jetson Nano log)."""
    report = diagnose_path(ROOT / "sample_logs/first-sight/batch-2/u-azure-deepstream-nano-22.log")
    assert report.first_error is not None and "nvosd0" in report.first_error.text
    first = report.first_error.next_steps[0]
    assert "GStreamer could not create the `nvosd0` element" in first.text
    assert first.command is not None and "gst-inspect-1.0" in first.command.code
