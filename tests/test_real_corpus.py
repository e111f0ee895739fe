"""The real corpus (sample_logs/real: logs copied from public issue threads) scored as `trt-why eval`
scores it, against the floors the project has reached. A change that makes the tool worse on what
users really paste fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from troubleshooter.cli.eval import EvalResult, evaluate, label_of, load_expectation

REAL = Path(__file__).resolve().parent.parent / "sample_logs" / "real"

# Floors (issue #13's targets where they are met; otherwise the figure measured, to be raised as the
# engine improves: see README "Accuracy"). Measured 2026-11-25: top-1 99.5 %, top-3 99.5 %, seen 100 %,
# uncovered 100 %, unresolved 99.5 % (one must_not violation, t-trt11-removed-quantization-apis-trt-4357, whose
# lines are those of a log labelled with that entry; not a miss of the failure). The two top-1 misses are pastes
# that hold only the consequence (u-ort-21415, u-other-pytorch_onnx_tensorrt-1).
TOP1 = 0.995
TOP3 = 0.995
SEEN = 1.0
"""Share of failing logs whose paste shows the failure that exit 1: every one (issue #14). Pastes that
show no failure (cut before it, a hang, a wrong result) say `failure_in_paste: false` and are counted apart."""
UNCOVERED_OK = 1.0
UNRESOLVED_SEEN = 0.995
MAX_NOT_IN_PASTE = 8
"""Failing logs whose paste shows no failure: a ceiling, so that the exemption cannot grow unnoticed."""


@pytest.fixture(scope="module")
def result() -> EvalResult:
    return evaluate(REAL)


def test_the_corpus_is_large_and_has_both_halves() -> None:
    expects = sorted(REAL.glob("*.expect.yaml"))
    assert len(expects) >= 300
    data = [load_expectation(p) for p in expects]
    halves = {d.get("half") for d in data}
    assert halves == {"unbiased", "targeted"}
    assert sum(1 for d in data if d.get("half") == "unbiased") >= 150


@pytest.mark.parametrize("expect", sorted(REAL.glob("*.expect.yaml")), ids=lambda p: p.name[: -len(".expect.yaml")])
def test_every_log_has_provenance_and_one_label(expect: Path) -> None:
    data = load_expectation(expect)
    assert str(data.get("source", "")).startswith("https://github.com/"), "source: the issue URL"
    assert data.get("established"), "established: what the thread established"
    assert data.get("confidence") in ("high", "medium", "low")
    labels = [bool(data.get("top")) and not data.get("negative"), bool(data.get("uncovered")),
              bool(data.get("unresolved")), bool(data.get("negative"))]
    assert sum(labels) == 1, "exactly one of top / uncovered / unresolved / negative"
    assert label_of(data) in ("covered", "uncovered", "unresolved", "negative")
    log = expect.with_name(expect.name[: -len(".expect.yaml")] + ".log")
    assert log.is_file() and log.stat().st_size > 0
    if "failure_in_paste" in data:
        assert data["failure_in_paste"] is False, "failure_in_paste: false, or leave it out"
        assert not data.get("negative"), "a negative log has no failure to miss"
        assert str(data.get("note") or "").strip(), "note: say what the paste lacks"


def test_covered_logs_get_their_entry_first(result: EvalResult) -> None:
    misses = [f"{c.name}: {c.top} -> {c.got[:2]}" for c in result.positives if not c.ok_top1]
    assert result.top1 >= TOP1, misses
    assert result.top3 >= TOP3, misses


def test_failing_logs_are_seen(result: EvalResult) -> None:
    unseen = [c.name for c in result.failing if not c.seen]
    assert result.seen >= SEEN, unseen


def test_no_failure_is_invented_where_the_paste_shows_none(result: EvalResult) -> None:
    apart = result.failure_not_in_paste
    assert len(apart) <= MAX_NOT_IN_PASTE, [c.name for c in apart]
    assert result.invented_failures == 0, [c.name for c in apart if c.failure_reported]


def test_no_false_error_on_negatives(result: EvalResult) -> None:
    assert result.false_errors == 0, [c.name for c in result.negatives if "error" in c.got_severity]


def test_no_confident_claim_on_uncovered_causes(result: EvalResult) -> None:
    bad = [f"{c.name}: {c.violations}" for c in result.by_label("uncovered") if not c.ok]
    assert result.uncovered_ok >= UNCOVERED_OK, bad


def test_unresolved_failures_are_seen(result: EvalResult) -> None:
    assert result.unresolved_ok >= UNRESOLVED_SEEN, [c.name for c in result.by_label("unresolved") if not c.ok]


HELDOUT = REAL.parent / "real-heldout"


def test_the_held_out_logs_keep_what_their_fixes_reached() -> None:
    """sample_logs/real-heldout: 35 logs gathered after the KB was frozen (its README has the figures
    before any change: failure seen 93.5%, unresolved seen 92.6%). The misses were then fixed in general
    form; what that reached is held here like the main corpus's floors."""
    held = evaluate(HELDOUT)
    assert len(held.cases) >= 35
    assert held.seen == 1.0 and held.uncovered_ok == 1.0 and held.unresolved_ok == 1.0
    assert held.false_errors == 0 and held.top1 == 1.0
    for expect in sorted(HELDOUT.glob("*.expect.yaml")):
        data = load_expectation(expect)
        assert str(data.get("source", "")).startswith("https://github.com/") and data.get("established"), expect.name
