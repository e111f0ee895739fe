"""core/similarity.py: an unexplained line promoted to a diagnosis only when it closely resembles one
entry's examples (and clearly more than any other's); labelled as such, never a confident claim."""

from __future__ import annotations

from troubleshooter.api import get_engine
from troubleshooter.core.similarity import MARGIN, MAX_CONFIDENCE, SIMILARITY_THRESHOLD, promote
from troubleshooter.models import Environment, Suggestion, Unexplained

LINE = "[E] [TRT] 1: [myelinGraph.cpp::run::77] Error Code 1: Myelin (frobnicated the widgets)"


def _u(*scores: tuple[str, float]) -> Unexplained:
    return Unexplained(line=7, text=LINE, similar=[Suggestion(id=i, title=i, score=s, example="an example line")
                                                  for i, s in scores])


def test_a_close_resemblance_becomes_a_labelled_diagnosis() -> None:
    entries = get_engine().matcher.entries
    diagnoses, rest = promote([_u(("myelin-error", SIMILARITY_THRESHOLD + 2), ("gpu-out-of-memory", 60.0))], [],
                              entries, Environment())
    assert rest == []
    (d,) = diagnoses
    assert d.id == "myelin-error" and d.matched_by == "similarity" and d.resembles == "an example line"
    assert d.confidence <= MAX_CONFIDENCE
    assert d.evidence[0].line == 7 and d.evidence[0].role == "trigger"
    assert "resembles" in d.clues[0]


def test_below_the_threshold_or_without_a_clear_lead_it_stays_a_suggestion() -> None:
    entries = get_engine().matcher.entries
    low = _u(("myelin-error", SIMILARITY_THRESHOLD - 1))
    tie = _u(("myelin-error", 97.0), ("gpu-out-of-memory", 97.0 - MARGIN / 2))
    diagnoses, rest = promote([low, tie], [], entries, Environment())
    assert diagnoses == [] and rest == [low, tie]


def test_a_harmless_notice_is_never_promoted_from_an_error_line() -> None:
    entries = get_engine().matcher.entries
    assert entries["timing-cache-invalid"].severity == "info"
    diagnoses, rest = promote([_u(("timing-cache-invalid", 99.0))], [], entries, Environment())
    assert diagnoses == [] and len(rest) == 1


def test_signature_diagnoses_are_never_lost() -> None:
    from troubleshooter import diagnose

    report = diagnose("[E] Error[10]: [optimizer.cpp::computeCosts::3869] Error Code 10: Internal Error (Could not find "
                      "any implementation for node /m/Conv + PWN(PWN(/m/Sigmoid), /m/Mul).)\n")
    assert report.diagnoses and report.diagnoses[0].matched_by == "signature"


def test_no_near_miss_of_the_kb_is_promoted_to_the_entry_it_was_written_against() -> None:
    from troubleshooter import diagnose

    engine = get_engine()
    promoted = []
    for entry in engine.kb.entries:
        for ex in entry.examples.no_match:
            report = diagnose(ex.log, trt_version=ex.trt_version, engine=engine)
            if any(d.id == entry.id and d.matched_by == "similarity" for d in report.diagnoses):
                promoted.append(f"{entry.id}::{ex.name}")
    assert promoted == []
