"""Every finder returns exactly the same line starts: the pure one (small and large regions) and
Hyperscan's, on random logs, on the KB's real needles, and on benchmarks/gen_log.py output."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from perf_helpers import HAVE_HYPERSCAN, brute_force_starts, generate_log, kb_needles, sample_logs

from troubleshooter.reading.finders import Needles, PythonFinder

ALPHABET = "abcdeEFT[]() :/_-.0123456789\n\\xé"
LITERALS = ["abc", "E0", "[E]", "Error", "(x", "é", "bcd", "cd", "a b", "--x", "\\x", "zz"]
CASELESS = ["err", "Tab"]
MARKERS = [r"^[EF]\d{4} \d", r"^ab"]


def finders(literals, caseless, markers):  # type: ignore[no-untyped-def]
    out = {
        "python-small": PythonFinder(literals, caseless, markers),
        "python-passes": PythonFinder(literals, caseless, markers, small_region=0),
    }
    if HAVE_HYPERSCAN:
        from troubleshooter.reading.hsfinder import HyperscanFinder

        out["hyperscan"] = HyperscanFinder(literals, caseless, markers)
    return out


def starts(finder, data: bytes) -> list[int]:  # type: ignore[no-untyped-def]
    buf = bytearray(data) + b"\n"  # whole lines, as the scanner hands them over
    return finder.line_starts(buf, len(buf))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(alphabet=ALPHABET, max_size=40), max_size=40))
def test_random_logs_same_line_starts(lines: list[str]) -> None:
    data = "\n".join(lines).encode()
    expected = brute_force_starts(data + b"\n", LITERALS, CASELESS, MARKERS)
    for name, finder in finders(LITERALS, CASELESS, MARKERS).items():
        assert starts(finder, data) == expected, name


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["[E]", "Error", "Tab", "TAB", "E0305 1", "abc", "x" * 50, "", "  ", "cd(x"]),
                max_size=30),
       st.lists(st.text(alphabet="abcEr[]0 ", min_size=1, max_size=6), min_size=1, max_size=8))
def test_random_needles_same_line_starts(lines: list[str], literals: list[str]) -> None:
    data = "\n".join(lines).encode()
    expected = brute_force_starts(data + b"\n", literals, CASELESS, MARKERS)
    for name, finder in finders(literals, CASELESS, MARKERS).items():
        assert starts(finder, data) == expected, name


def test_edge_needles() -> None:
    data = b"one\ntwo with\\nnothing\nTHREE\n\n"
    # A literal holding a newline never lies inside a line; an empty literal is in every line.
    for name, finder in finders(["with\nnothing", "THREE"], [], []).items():
        assert starts(finder, data) == [22], name
    for name, finder in finders(["", "x"], [], []).items():
        assert starts(finder, data) == [0, 4, 22, 28, 29], name
    assert Needles.build(["abc", "abcd", "xabcx", "b"], ["ABC"]).literals == (b"b",)


def test_kb_needles_on_sample_logs() -> None:
    literals, caseless, markers = kb_needles()
    all_finders = finders(literals, caseless, markers)
    for path in sample_logs():
        data = path.read_bytes()
        expected = brute_force_starts(data + b"\n", literals, caseless, markers)
        for name, finder in all_finders.items():
            assert starts(finder, data) == expected, (name, path.name)


def test_kb_needles_on_generated_log(tmp_path: Path) -> None:
    log = generate_log(tmp_path / "gen.log", "3M", seed=5)
    literals, caseless, markers = kb_needles()
    data = log.read_bytes()
    expected = brute_force_starts(data, literals, caseless, markers)
    assert expected, "the generated log has candidate lines"
    for name, finder in finders(literals, caseless, markers).items():
        buf = bytearray(data)
        assert finder.line_starts(buf, len(buf)) == expected, name


def test_hyperscan_literal_index_gives_the_pure_answer() -> None:
    """The matcher's literal index (which literals a line holds) has two implementations: the pure one,
    everywhere, and Hyperscan's (the `fast` extra; about 17% of a 1 GiB scan). They give the same set
    on every line of every sample log, real and written, and on lines built around each literal."""
    import pytest

    if not HAVE_HYPERSCAN:
        pytest.skip("hyperscan is not installed (the `fast` extra)")
    from perf_helpers import engine

    from troubleshooter.core.matcher import LiteralIndex
    from troubleshooter.reading.hsfinder import HyperscanLiteralSet

    m = engine("python").matcher
    literals = [*m.by_literal, *m._gate_literals]
    pure, fast = LiteralIndex(literals), HyperscanLiteralSet(literals)
    root = Path(__file__).resolve().parents[2] / "sample_logs"
    texts = [raw.decode("utf-8", "replace") for p in sorted(root.glob("**/*.log")) for raw in p.read_bytes().splitlines()]
    texts += [f"x{lit}y" for lit in literals] + [lit[:-1] for lit in literals] + ["", "é" * 5, "\u6bb5\u9519\u8bef"]
    assert len(texts) > 15_000
    for text in texts:
        assert sorted(pure.find(text)) == sorted(fast.find(text)), text[:120]


def test_hyperscan_database_is_cached_and_a_damaged_one_compiled_again(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled database is written once, loaded by the next finder with the same needles (the same line
    starts), and a file that will not load is compiled again and replaced."""
    if not HAVE_HYPERSCAN:
        pytest.skip("hyperscan is not installed (the `fast` extra)")
    from troubleshooter.reading import hsfinder

    monkeypatch.setenv("TRT_WHY_CACHE_DIR", str(tmp_path))
    folder = tmp_path / "trt-why"
    data = b"ab E0 x\nnothing\n[E] Error here\nE1234 56 tail\n"
    want = starts(PythonFinder(LITERALS, CASELESS, MARKERS), data)
    compiled = []
    real_compile = hsfinder._compile
    monkeypatch.setattr(hsfinder, "_compile", lambda *a: compiled.append(1) or real_compile(*a))

    assert starts(hsfinder.HyperscanFinder(LITERALS, CASELESS, MARKERS), data) == want
    (db_file,) = folder.glob("hs-*.db")
    assert starts(hsfinder.HyperscanFinder(LITERALS, CASELESS, MARKERS), data) == want
    assert len(compiled) == 1  # the second one was loaded

    db_file.write_bytes(b"not a database")
    assert starts(hsfinder.HyperscanFinder(LITERALS, CASELESS, MARKERS), data) == want
    assert len(compiled) == 2 and db_file.read_bytes() != b"not a database"

    monkeypatch.setenv("TRT_WHY_NO_CACHE", "1")
    hsfinder.HyperscanFinder(["only", "here"])
    assert len(list(folder.glob("hs-*.db"))) == 1  # nothing written with the cache off


def test_the_kbs_reduced_needles_are_kept_and_a_damaged_file_is_reduced_again(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Reducing the KB's ~1,300 literals costs every run ~20 ms: the result is kept in the cache folder, read back
    equal to a fresh reduction, and a file that does not parse is ignored and replaced."""
    from troubleshooter.reading import finders

    lits, caseless, markers = kb_needles()
    monkeypatch.setenv("TRT_WHY_CACHE_DIR", str(tmp_path))
    fresh = Needles.build(lits, caseless, markers)
    (kept,) = (tmp_path / "trt-why").glob("needles-*.json")
    reduced = []
    real_minimal = finders._minimal
    monkeypatch.setattr(finders, "_minimal", lambda xs: reduced.append(1) or real_minimal(xs))
    assert Needles.build(lits, caseless, markers) == fresh and not reduced  # read back, not reduced again
    kept.write_text("{not json", encoding="utf-8")
    assert Needles.build(lits, caseless, markers) == fresh and reduced
    monkeypatch.setenv("TRT_WHY_NO_CACHE", "1")
    assert Needles.build(lits, caseless, markers) == fresh
