"""Every bundled sample log is diagnosed as its expectation file says."""

from __future__ import annotations

from pathlib import Path

import pytest

from troubleshooter.cli.eval import evaluate_one, load_expectation

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def _pairs():  # type: ignore[no-untyped-def]
    for exp in sorted(SAMPLES.glob("*.expect.yaml")):
        stem = exp.name[: -len(".expect.yaml")]
        log = next((exp.with_name(stem + s) for s in (".log", ".log.gz", ".txt") if exp.with_name(stem + s).exists()), None)
        yield pytest.param(exp, log, id=stem)


@pytest.mark.parametrize("expect,log", list(_pairs()))
def test_sample_log(expect: Path, log: Path | None) -> None:
    assert log is not None, f"{expect.name} has no log next to it"
    case = evaluate_one(log, load_expectation(expect))
    assert not case.violations, case.violations
    if case.negative:
        assert "error" not in case.got_severity, case.got
    else:
        assert case.ok_top1, f"expected {case.top} (or {case.acceptable}), got {case.got}"


def test_corpus_size() -> None:
    logs = list(SAMPLES.glob("*.expect.yaml"))
    assert len(logs) >= 60
    negatives = [p for p in logs if load_expectation(p).get("negative") or load_expectation(p).get("top") is None]
    assert len(negatives) >= 10
