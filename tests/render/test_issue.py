"""`trt-why --format issue LOG`: an upstream issue draft for every log of both real corpora.

Each draft: the CLI exits 0 or 1, at most 65,536 characters (GitHub's limit), the lead line verbatim
(redacted), no home-folder user name, and the tracker of the log's stack (or "stack unknown")."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from troubleshooter import api, diagnose
from troubleshooter.kb.stacks import stack_for
from troubleshooter.models import Report
from troubleshooter.render.formats import render
from troubleshooter.render.issue import MAX_CHARS, render_issue
from troubleshooter.render.redact import Redactor

ROOT = Path(__file__).resolve().parents[2]
LOGS = sorted([*ROOT.glob("sample_logs/*.log"), *ROOT.glob("sample_logs/real/*.log"),
               *ROOT.glob("sample_logs/real-heldout/*.log"), *ROOT.glob("sample_logs/first-sight/batch-*/*.log")])
"""Every log of every corpus: the written one, the real one, the held-out logs and the first-sight batches."""
HOME = re.compile(r"(?:/home|/Users)/(?!<)([\w.-]+)|\\Users\\(?!<)([^\\\s]+)", re.IGNORECASE)


NAMES = [str(p.relative_to(ROOT)) for p in LOGS]


@cache
def report_of(name: str) -> Report:
    """A log's report, made once and only in the worker that runs its test (xdist spreads the logs over workers)."""
    return api.diagnose_path(ROOT / name, engine=api.get_engine())


def _lead(report: Report) -> str:
    if report.first_error is not None:
        return report.first_error.text
    for d in report.diagnoses:
        trigger = next((e for e in d.evidence if e.role == "trigger"), None)
        if trigger is not None and (d.severity == "error" or d is report.diagnoses[0]):
            return trigger.text
    return report.unexplained[0].text if report.unexplained else ""


def test_both_corpora_are_there() -> None:
    assert len(LOGS) > 1300


@pytest.mark.parametrize("name", NAMES)
def test_every_log_gets_a_draft_for_its_tracker(name: str) -> None:
    report = report_of(name)
    draft = render("issue", "report", report)
    assert len(draft) <= MAX_CHARS
    lead = _lead(report)
    if lead:
        red = Redactor()
        red.learn(lead)
        assert red.scrub(lead).strip() in draft
    assert not HOME.search(draft), HOME.search(draft)
    stack = stack_for(report.environment.front_end)
    assert stack is not None
    assert f"**{stack.tracker.name}**" in draft
    if report.environment.front_end is None:
        assert "Stack unknown" in draft
    assert draft.count("## Environment") == 1 and "## Attachments" in draft


@pytest.mark.parametrize("name", ["sample_logs/real/u-triton-5206.log", "sample_logs/real/u-ort-6002.log"])
def test_the_cli_prints_the_draft_and_exits_0_or_1(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    from troubleshooter.cli import main

    code = main(["--format", "issue", str(ROOT / name)])
    out = capsys.readouterr().out
    assert code in (0, 1)
    assert out.startswith("<!-- Drafted by trt-why") and "## The failing line" in out


def test_a_failure_the_kb_holds_with_a_confirmed_fix_says_first_that_no_issue_is_needed() -> None:
    known = next((r for r in map(report_of, NAMES) if r.first_error is None and r.diagnoses
                  and r.diagnoses[0].cause_details and r.diagnoses[0].cause_details[0].certainty == "confirmed"
                  and r.diagnoses[0].matched_by == "signature" and r.diagnoses[0].confidence >= 0.6
                  and r.diagnoses[0].fixes and r.diagnoses[0].references and not r.diagnoses[0].cascade), None)
    assert known is not None
    report = known
    draft = render_issue(report)
    assert draft.index("You likely need no new issue") < draft.index("## Description")
    assert any(ref in draft for ref in report.diagnoses[0].references)


def test_home_folders_hosts_and_addresses_are_redacted() -> None:
    log = ("[08/07/2024-12:27:04] [E] [TRT] ModelImporter.cpp:773: While parsing node number 3 [Frobnicate]: "
           "/home/alice/models/net.onnx failed on gpu-box.corp.example.com (10.1.200.34)\n")
    draft = render_issue(diagnose(log))
    assert "alice" not in draft and "10.1.200.34" not in draft and "corp.example.com" not in draft
    assert "<home>" in draft


def test_a_huge_line_still_fits() -> None:
    log = "[E] Error Code 2: Internal Error (" + "x" * 200_000 + ")\n"
    assert len(render_issue(diagnose(log))) <= MAX_CHARS


def test_the_command_shown_in_the_log_is_quoted() -> None:
    log = ("&&&& FAILED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=m.onnx --int8\n"
           "[E] Error[2]: [myelinBuilderUtils.cpp::getMyelinSupportType::1270] Error Code 2: Internal Error "
           "(Frobnicator does not support widgets yet.)\n")
    draft = render_issue(diagnose(log))
    assert "trtexec --onnx=m.onnx --int8" in draft.split("## Command", 1)[1].split("##", 1)[0]
