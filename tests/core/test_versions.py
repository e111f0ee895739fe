"""core/versions.py: the one TensorRT version parser, shared by diagnose, lint and the TUI."""

from __future__ import annotations

from pathlib import Path

import pytest

from troubleshooter import api
from troubleshooter.core.versions import KNOWN_RELEASES, in_range, normalise, parse_version
from troubleshooter.errors import InputError, LintError

# (text, parse_version, normalise): the accepted forms and what each reads as; None: not a version.
VERSIONS: list[tuple[str, str | None, str | None]] = [
    ("8.6.1", "8.6.1", "8.6.1"),
    ("8.6", "8.6", "8.6"),
    ("10", "10", "10"),
    ("11.0", "11.0", "11.0"),
    ("v8.6.1", "8.6.1", "8.6.1"),
    ("V10.3", "10.3", "10.3"),
    ("TensorRT 8.6.1", "8.6.1", "8.6.1"),
    ("TensorRT-10.3.0.26", "10.3.0.26", "10.3.0"),
    ("8.6.1 GA", "8.6.1", "8.6.1"),
    ("  8.6.1 GA ", "8.6.1", "8.6.1"),
    ("10.0.0 EA", "10.0.0", "10.0.0"),
    ("8.6.1.6", "8.6.1.6", "8.6.1"),  # the build number
    ("10.3.0.26", "10.3.0.26", "10.3.0"),
    ("8.6.1-1+cuda12.0", "8.6.1", "8.6.1"),  # apt: the package revision and CUDA are not TensorRT's version
    ("8.6.1.6-1+cuda12.0", "8.6.1.6", "8.6.1"),
    ("10.3.0.26-1+cuda12.5", "10.3.0.26", "10.3.0"),
    ("8.6.1.6-1.cuda12.0", "8.6.1.6", "8.6.1"),  # rpm
    ("10.0.0b6", "10.0.0", "10.0.0"),  # pip pre-release: TensorRT 10.0 EA counts as 10.0.0
    ("8.6.1.post1", "8.6.1", "8.6.1"),
    ("8601", "8.6.1", "8.6.1"),  # the integer TensorRT prints: [TensorRT v8601]
    ("TensorRT v8601", "8.6.1", "8.6.1"),
    ("v100300", "10.3.0", "10.3.0"),
    ("abc", None, None),
    ("latest", None, None),
    ("GA", None, None),
    ("8.x", None, None),
    ("1e5", None, None),
    ("x8.6", None, None),
    ("8.6.1abc", None, None),
    ("8.6.1.6.2", None, None),
    ("861", None, None),  # neither a major version nor the integer form
    ("86010", None, None),
    ("10-3", None, None),
    ("8.6.1 (JetPack 5.1)", None, None),
]


@pytest.mark.parametrize(("text", "version", "canonical"), VERSIONS, ids=[t for t, _v, _c in VERSIONS])
def test_the_accepted_forms(text: str, version: str | None, canonical: str | None) -> None:
    parsed = parse_version(text)
    assert (str(parsed) if parsed is not None else None) == version
    assert normalise(text) == canonical


@pytest.mark.parametrize("text", ["", None])
def test_nothing_is_not_a_version(text: str | None) -> None:
    assert parse_version(text) is None


def test_the_version_holds_release_numbers_only() -> None:
    """No pre-release or local part survives: comparisons read as TensorRT releases."""
    for text in ("10.0.0b6", "8.6.1-1+cuda12.0", "8.6.1.post1"):
        v = parse_version(text)
        assert v is not None and not v.is_prerelease and not v.is_postrelease and v.local is None
    assert in_range("10.0.0b6", ">=10") is True
    assert in_range("8.6.1-1+cuda12.0", "<8.6.2") is True  # not 8.6.1.post1
    assert in_range("8601", ">=8.6,<9") is True


@pytest.mark.parametrize(("version", "spec", "expected"), [
    ("8.6.1", ">=8.5,<10", True), ("10.0.1", ">=8.5,<10", False), ("10.0.0", "<10", False),
    ("9.3.0", ">=9", True), ("11.0", ">=11", True),
])
def test_in_range(version: str, spec: str, expected: bool) -> None:
    assert in_range(version, spec) is expected


def _kb_ranges() -> set[str]:
    kb = api.load_kb()
    specs = {e.applies.trt for e in kb.entries} | {a.versions for e in kb.entries for a in e.version_advice}
    specs |= {f.versions for e in kb.entries for f in e.fixes}
    specs |= {s.versions for e in kb.entries for f in e.fixes for s in f.steps}
    return {s for s in specs if s}


def test_in_range_decides_as_packaging_on_every_kb_range() -> None:
    """in_range compares release numbers itself (no SpecifierSet import on a one-shot run): on every range
    of the KB, and a few forms it hands back to packaging, it decides as SpecifierSet does."""
    from packaging.specifiers import SpecifierSet

    specs = _kb_ranges() | {">8.5", "<=8.6", "==8.6", "!=8.6.1", ">=8.5, <10", "==8.6.*", "~=8.5", ">=8.6.0b1"}
    versions = [*KNOWN_RELEASES, "5.1", "7.1.3", "8.5.3.1", "8.6.1", "8.6.1.6", "9.3.0", "10.0.0b6", "10.3.0.26", "12"]
    assert len(specs) > 40
    for spec in sorted(specs):
        for text in versions:
            v = parse_version(text)
            assert in_range(text, spec) == SpecifierSet(spec).contains(v, prereleases=True), (spec, text)


def test_in_range_says_unknown_rather_than_guess() -> None:
    assert in_range(None, ">=8") is None
    assert in_range("8.6", None) is None
    assert in_range("nonsense", ">=8") is None


def test_known_releases_are_versions_in_order() -> None:
    parsed = [parse_version(r) for r in KNOWN_RELEASES]
    assert all(parsed) and parsed == sorted(parsed)  # type: ignore[type-var]


# -- diagnose and lint read versions the same way --------------------------------------------------------

def _diagnosed(text: str) -> str | None:
    """What diagnose reports as the TensorRT version given on the command line (None: refused)."""
    try:
        report = api.diagnose("[E] Error Code 2: Internal Error (something failed)\n", trt_version=text)
    except InputError:
        return None
    return report.environment.tensorrt_version


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu")], "g", [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    path = tmp_path_factory.mktemp("model") / "model.onnx"
    onnx.save(model, str(path))
    return path


def _linted(model: Path, text: str) -> str | None:
    """What lint reports as the target TensorRT version (None: refused)."""
    from troubleshooter.lint.engine import lint

    try:
        return lint(model, trt_version=text).trt_version
    except LintError:
        return None


def test_diagnose_and_lint_agree_on_every_version(tiny_model: Path) -> None:
    for text, version, canonical in VERSIONS:
        assert _diagnosed(text) == canonical, text
        assert _linted(tiny_model, text) == version, text
        if canonical is None:  # api.check_trt_version: what the TUI calls
            with pytest.raises(InputError):
                api.check_trt_version(text)
        else:
            assert api.check_trt_version(text) == canonical


def test_no_version_given_is_no_error(tiny_model: Path) -> None:
    from troubleshooter.lint.engine import lint

    assert lint(tiny_model, trt_version="").trt_version is None
    assert lint(tiny_model, trt_version=None).trt_version is None


@pytest.mark.parametrize(("log_date", "newest"), [
    ("2020-09-27", "7.2"),   # 7.2.1's tag is 2020-10-20: within the 120 days older releases' EA builds may have come
    ("2022-03-22", "8.4"),   # 8.4's EA came before its June GA (the CHANGELOG dates only the GA)
    ("2023-03-01", "8.6"),   # 8.6.0 EA is dated 2023-03-10: within days
    ("2024-12-21", "10.7"),  # 10.8 came 2025-01-31: not out yet
])
def test_the_releases_out_by_a_logs_date(log_date: str, newest: str) -> None:
    from troubleshooter.core.versions import possible_releases

    assert possible_releases(log_date)[-1] == newest
    assert possible_releases(log_date)[0] == "5.0"


def test_a_date_after_every_release_and_no_jetpack_leaves_every_release() -> None:
    from troubleshooter.core.versions import possible_releases

    assert possible_releases("2026-11-27") == []
    assert possible_releases(None, "4.6.1") == ["8.2"]


def test_a_parser_message_names_the_releases_that_print_it() -> None:
    from troubleshooter.core.versions import ALL_RELEASES, parser_message_releases

    # real (NVIDIA/TensorRT#4476): 8.x's Resize check; 9.2 reworded it, 10.x says "The shape of weights must align"
    line = '[6] Assertion failed: (scaleSize == inputRank) && "The shape of input scales must align with the input rank."'
    assert parser_message_releases(line) == ["8.0", "8.2", "8.4", "8.5", "8.6", "9.0", "9.1"]
    # the longer (newer) wording wins over the older one inside it (written from 9.3's importer)
    newer = "Assertion failed: The shape of input scales must align with the input rank. Rank of input scales = 3"
    assert parser_message_releases(newer) == ["9.2", "9.3"]
    # a message the newest branch read still holds may be in every later release
    later = parser_message_releases("Assertion failed: Failed to read weights from external file: x.bin")
    assert later is not None and later[0] == "7.1" and later[-1] == ALL_RELEASES[-1]
    assert parser_message_releases("[8] Assertion failed: nothing the parser ever said") is None


def test_the_parser_message_table_is_well_formed() -> None:
    import json
    from pathlib import Path

    from troubleshooter.core.versions import ALL_RELEASES

    data = json.loads(Path(__file__).resolve().parents[2].joinpath(
        "troubleshooter", "core", "parser_messages.json").read_text(encoding="utf-8"))
    assert data["newest"] in ALL_RELEASES and len(data["messages"]) > 300
    for message, releases in data["messages"].items():
        assert len(message) >= 30 and releases == sorted(releases, key=ALL_RELEASES.index), message


def test_the_headers_say_when_a_tensorrt_name_came_and_went() -> None:
    """core/api_symbols.json, read from NVIDIA/TensorRT's release branches (scripts/api_symbols.py)."""
    from troubleshooter.core.versions import api_change

    assert api_change("nvinfer1::ScatterMode") == ("8.2", None)  # microsoft/onnxruntime#10125 (first-sight batch 12)
    assert api_change("IBuilderConfig::setMaxWorkspaceSize") == (None, "10.0")
    assert api_change("enqueueV3") == ("8.5", None)
    assert api_change("setOutputTensorAddress") == ("10.0", None)  # the safety runtime's older one does not count
    # it left in 10.0 and came back in 10.6: the first departure is the one a compile error meets
    assert api_change("buildEngineWithConfig") == ("6.0", "10.0")
    assert api_change("ILogger") is None  # every release declares it
    assert api_change("getBindingMagic") is None  # no release does
