"""--polygraphy: the subprocess path, tested with a fake ``polygraphy`` script on PATH."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import lint_factory as fx
import pytest

from troubleshooter.lint import lint_path
from troubleshooter.lint.polygraphy import parse_report

REPORT = {
    "summary": {"passing": ["conv"], "failing": ["relu"]},
    "lint_entries": [
        {"level": "exception", "source": "onnx_checker",
         "message": "Nodes in a graph must be topologically sorted, however input 'a' ..."},
        {"level": "exception", "source": "onnx_graphsurgeon", "message": "Duplicate node name: 'n'"},
        {"level": "exception", "source": "onnxruntime",
         "message": "Fatal error: /onnxruntime_src/reshape.cc:42 Reshape: input size mismatch", "nodes": ["conv"]},
        {"level": "warning", "source": "onnx_graphsurgeon", "message": "Node does not affect outputs"},
    ],
}

FAKE = """#!{python}
import json, sys, time
args = sys.argv[1:]
open({argv!r}, "w").write(json.dumps(args))
mode = {mode!r}
if mode == "sleep":
    time.sleep(30)
if mode == "fail":
    print("[!] Module: 'onnxruntime' is required but could not be imported", file=sys.stderr)
    sys.exit(1)
out = args[args.index("-o") + 1]
open(out, "w").write(json.dumps({report}))
sys.exit(1)
"""


def _install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str = "report") -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    argv = tmp_path / "argv.json"
    script = bin_dir / "polygraphy"
    script.write_text(FAKE.format(python=sys.executable, argv=str(argv), mode=mode, report=REPORT))
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", str(bin_dir))
    return argv


def test_report_is_merged_and_discounted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    argv = _install(tmp_path, monkeypatch)
    model = fx.save(fx.conv(), tmp_path)
    report = lint_path(model, polygraphy=True)
    poly = [f for f in report.findings if f.rule == "polygraphy"]
    assert [(f.level, f.source, f.nodes) for f in poly] == [
        ("error", "polygraphy:onnxruntime", ["conv"]),
        ("warning", "polygraphy:onnx_graphsurgeon", []),
    ]
    assert any("2 Polygraphy exception(s)" in n for n in report.notes)
    args = json.loads(argv.read_text())
    assert args[:3] == ["check", "lint", str(model)]
    assert "--input-shapes" in args and "x:[1,3,8,8]" in args


def test_no_report_is_a_tool_failure_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install(tmp_path, monkeypatch, mode="fail")
    report = lint_path(fx.save(fx.conv(), tmp_path), polygraphy=True)
    assert not [f for f in report.findings if f.rule == "polygraphy"]
    assert any("failed without a report" in n and "onnxruntime" in n for n in report.notes)


def test_timeout_stops_polygraphy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install(tmp_path, monkeypatch, mode="sleep")
    report = lint_path(fx.save(fx.conv(), tmp_path), polygraphy=True, polygraphy_timeout=1.0)
    assert any("did not finish within 1 s" in n for n in report.notes)


def test_not_installed_is_one_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    report = lint_path(fx.save(fx.conv(), tmp_path), polygraphy=True)
    notes = [n for n in report.notes if "polygraphy" in n]
    assert len(notes) == 1 and "not installed" in notes[0]


@pytest.mark.parametrize(
    "make,reason",
    [(lambda: fx.single("MyOp", domain="com.acme"), "custom ops"), (fx.dynamic_hw, "dynamic input")],
    ids=["custom-op", "dynamic-input"],
)
def test_skipped_models(make, reason, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    argv = _install(tmp_path, monkeypatch)
    report = lint_path(fx.save(make(), tmp_path), polygraphy=True)
    assert any("skipped" in n and reason in n for n in report.notes), report.notes
    assert not argv.exists()


def test_parse_report_tolerates_junk() -> None:
    findings, _notes = parse_report({"lint_entries": [None, {"level": "odd", "message": "x"}]})
    assert [f.level for f in findings] == ["warning"]
    assert parse_report([]) == ([], ["--polygraphy: polygraphy check lint ran: 0 finding(s)"])


def test_dynamic_inputs_run_with_the_shapes_the_user_gives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    argv = _install(tmp_path, monkeypatch)
    model = fx.dynamic_hw()
    name = model.graph.input[0].name
    report = lint_path(fx.save(model, tmp_path), polygraphy=True, input_shapes={name: [1, 3, 64, 96]})
    args = json.loads(argv.read_text())
    assert args[args.index("--input-shapes") + 1] == f"{name}:[1,3,64,96]"
    assert not any("skipped" in n for n in report.notes)


def test_input_shapes_option_is_parsed_and_checked() -> None:
    from troubleshooter.cli.lint import parse_shapes
    from troubleshooter.errors import InputError

    assert parse_shapes(["images:[1,3,640,640]", "mask:[1, 1, 8, 8]"]) == {"images": [1, 3, 640, 640],
                                                                            "mask": [1, 1, 8, 8]}
    with pytest.raises(InputError):
        parse_shapes(["images=1x3x640x640"])
