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


def test_a_negative_whose_report_leads_with_an_error_line_is_a_false_error(tmp_path: Path) -> None:
    """False errors count what the user reads: an unexplained error line leading the report of a successful run is
    one, like an error diagnosis; a harmless notice in error words is not (real lines: touchdiffusion#13, a working
    install; microsoft/onnxruntime#22164, tactic rejections logged at ERROR)."""
    noisy = tmp_path / "noisy.log"
    noisy.write_text("An unexpected error occurred while executing the command: No module named 'torch'\n",
                     encoding="utf-8")
    case = evaluate_one(noisy, {"negative": True})
    assert case.failure_reported and not case.ok_top1
    assert any(v.startswith("false error: the report leads with line 1") for v in case.violations)
    quiet = tmp_path / "quiet.log"
    quiet.write_text("E onnxruntime: [2024-09-20 12:15:43   ERROR] Error Code: 9: Skipping tactic 0xaa15e43058248292 due "
                     "to exception canImplement1 [tensorrt_execution_provider.h:88 onnxruntime::TensorrtLogger::log]\n",
                     encoding="utf-8")
    case = evaluate_one(quiet, {"negative": True})
    assert case.ok_top1 and not case.violations, case.violations
