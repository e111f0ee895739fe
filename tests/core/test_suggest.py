"""core/suggest.py: masked text, closest known issues (suggestions, never verdicts), unexplained lines."""

from __future__ import annotations

from troubleshooter import diagnose
from troubleshooter.api import get_engine
from troubleshooter.core.suggest import mask


def test_mask_hides_values_that_differ_between_two_runs_of_one_message() -> None:
    a = mask("[optimizer.cpp::computeCosts::3869] Error Code 10: Internal Error (node /model.2/cv1/conv/Conv 0x1f)")
    b = mask("[optimizer.cpp::computeCosts::2011] Error Code 10: Internal Error (node /backbone/Conv_7 0xdead)")
    assert a == b
    assert "3869" not in a and "/model.2" not in a and "0x1f" not in a


def test_mask_keeps_the_words() -> None:
    assert "Could not find any implementation" in mask("Could not find any implementation for node x.")


def test_similar_ranks_the_entry_whose_examples_resemble_the_line() -> None:
    suggester = get_engine().suggester
    line = "Error Code 1: Myelin (myelinVersionMismatch : Compiled against cuBLAS 11.8 but running against 11.4)"
    found = suggester.similar(line)
    assert found and found[0].id in ("myelin-error", "cudnn-cublas-version-mismatch")
    assert all(0 <= s.score <= 100 for s in found)


def test_similar_says_nothing_for_unrelated_text() -> None:
    assert get_engine().suggester.similar("the quick brown fox jumps over the lazy dog") == []


def test_search_finds_entries_by_words() -> None:
    hits = get_engine().suggester.search("int8 depthwise")
    assert hits and hits[0].id == "int8-grouped-conv-alignment"


def test_an_unexplained_error_is_listed_once_per_masked_text_with_suggestions_only() -> None:
    log = "\n".join(
        f"[11/02/2023-10:12:4{i}] [E] [TRT] 2: [graph.cpp::check::{100 + i}] Error Code 2: Internal Error "
        f"(Assertion frobnicate(widget, {i}) failed.)" for i in range(3)
    )
    report = diagnose(log)
    assert len(report.unexplained) == 1 and report.unexplained[0].count == 3
    assert report.unexplained[0].line == 1
    assert not any(d.id in {s.id for s in report.unexplained[0].similar} for d in report.diagnoses)
    assert report.failure and report.exit_status == 1


def test_an_error_line_matched_only_by_a_support_of_an_entry_that_did_not_fire_is_unexplained() -> None:
    # real: first-sight batch 3 (u-tensorrtx-816, lines 2-3). gpu-out-of-memory has a support signature on
    # "Could not find any implementation" but no memory line fired it; an info entry fired on line 2.
    log = ("[11/13/2021-21:41:41] [W] [TRT] Detected invalid timing cache, setup a local cache instead\n"
           "[11/13/2021-21:41:55] [E] [TRT] 10: [optimizer.cpp::computeCosts::1855] Error Code 10: Internal Error "
           "(Could not find any implementation for node (Unnamed Layer* 22) [RNN].)\n")
    report = diagnose(log)
    assert report.failure
    assert report.first_error is not None and report.first_error.line == 2
    assert all(d.id != "int8-grouped-conv-alignment" for d in report.diagnoses)


def test_the_tensorrt_attributes_the_suggester_knows_hold_the_kbs() -> None:
    """build-failed-cascade's NoneType trigger names the TensorRT attributes it reads as a failed build or load;
    the suggester's own list (`_TENSORRT_ATTRIBUTES`, which groups such lines as one subject) must hold each of them,
    so a line the KB reads is never told it resembles a different object's None."""
    import re

    from troubleshooter.core.suggest import _TENSORRT_ATTRIBUTES
    from troubleshooter.kb.loader import load_kb

    entry = next(e for e in load_kb().entries if e.id == "build-failed-cascade")
    sig = next(s for s in entry.match.signatures if s.id == "none-engine-attr")
    m = re.search(r"\(\?P<attr>([^)]*)\)", sig.regex)
    assert m is not None
    assert set(m.group(1).split("|")) <= _TENSORRT_ATTRIBUTES
