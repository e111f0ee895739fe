"""The knowledge base checks itself: contract ids exist, conventions hold, every example passes.

One parametrized test per example, named "<entry-id>::<example>" (like sqlfluff's YAML cases).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from troubleshooter.cli.kb_selftest import lint_rule_ids, run_examples, validate
from troubleshooter.kb.loader import builtin_kb_dir, load_kb
from troubleshooter.kb.schema import json_schema

KB = load_kb()
FAMILIES = (Path(__file__).parent / "families.txt").read_text().split()


def test_every_entry_loads() -> None:
    assert [str(p) for p in KB.problems] == []


@pytest.mark.parametrize("family", FAMILIES)
def test_contract_ids_exist(family: str) -> None:
    assert KB.get(family) is not None, f"kb/{family}.yaml is missing (tests/kb/families.txt is a contract)"


def test_file_names_are_ids_and_unique() -> None:
    stems = sorted(p.stem for p in builtin_kb_dir().glob("*.yaml"))
    assert stems == sorted(KB.ids())


def test_validate_is_clean() -> None:
    assert validate(KB) == []


def test_validate_finds_literals_a_matching_example_line_lacks() -> None:
    """Every example line a signature's regex matches must hold one of its literals: the scanner never
    shows the regex a line without one."""
    from troubleshooter.kb.loader import KnowledgeBase

    entry = next(e for e in KB.entries if e.examples.match)
    trigger = next(s for s in entry.match.signatures if s.role == "trigger")
    sigs = [s.model_copy(update={"literals": ["held by no line"]}) if s is trigger else s for s in entry.match.signatures]
    wrong = entry.model_copy(update={"match": entry.match.model_copy(update={"signatures": sigs})})
    problems = validate(KnowledgeBase([wrong]), check_schema_file=False)
    assert any(f"match.signatures.{trigger.id}.literals: a line of example" in p and "held by no line" in p
               for p in problems), problems


def test_schema_file_is_current() -> None:
    assert (builtin_kb_dir() / "schema.json").read_text(encoding="utf-8") == json_schema()


@pytest.mark.parametrize("entry", KB.entries, ids=lambda e: e.id)
def test_entry_conventions(entry) -> None:  # type: ignore[no-untyped-def]
    assert entry.causes and entry.references
    assert len(entry.examples.match) >= 2, "at least two positive examples, in different formats"
    assert len(entry.examples.no_match) >= 1
    assert len({ex.log.strip() for ex in entry.examples.match}) == len(entry.examples.match)
    if entry.severity == "error":
        assert entry.fixes
    known = lint_rule_ids()
    if known:
        assert set(entry.lint) <= known
    for cause in entry.causes:
        assert cause.certainty in ("confirmed", "documented", "reported", "suggestion")


def _cases():  # type: ignore[no-untyped-def]
    for entry in KB.entries:
        for ex in entry.examples.match + entry.examples.no_match:
            yield pytest.param(entry, ex.name, id=f"{entry.id}::{ex.name}")


_RESULTS: dict[str, dict[str, object]] = {}
"""Each entry's examples, run once per test process (`run_examples` runs them all; a case reads its own result)."""


@pytest.mark.parametrize("entry,example", list(_cases()))
def test_example(entry, example: str) -> None:  # type: ignore[no-untyped-def]
    if entry.id not in _RESULTS:
        _RESULTS[entry.id] = {r.case_id: r for r in run_examples(entry)}
    res = _RESULTS[entry.id][f"{entry.id}::{example}"]
    assert res.ok, res.message  # type: ignore[attr-defined]


def test_capture_names_are_the_compiled_groups() -> None:
    """`advice.capture_names`: the named groups of an entry's signatures, written either way (a
    look-behind has no name), as read by `regexes.group_names`: for every built-in signature, in the
    order of the compiled pattern's own `groupindex`."""
    import regex

    from troubleshooter.core.advice import capture_names
    from troubleshooter.core.regexes import group_names
    from troubleshooter.kb.schema import Signature

    for sig in (s for e in load_kb().entries for s in e.match.signatures):
        assert group_names(sig.regex) == tuple(regex.compile(sig.regex, regex.V0).groupindex), sig.id

    entry = load_kb().entries[0]
    sigs = [Signature(id="a", regex=r"(?P<node>\w+) x (?<=y)(?<layer>\w+)", literals=[" x "]),
            Signature(id="b", regex=r"\(?P<not_a_group>z\)", literals=["z"])]
    made_up = entry.model_copy(update={"match": entry.match.model_copy(update={"signatures": sigs, "requires": []})})
    assert capture_names(made_up) == {"node", "layer"}
    assert any(capture_names(e) for e in load_kb().entries)


def test_every_trigger_gets_a_cause() -> None:
    """A trigger that no cause's `when:` names, in an entry whose causes are all conditional, would fire a diagnosis
    with no why (teardown-order's builder wording once did)."""
    from troubleshooter.kb.loader import load_kb

    orphans = []
    for e in load_kb().entries:
        whens = {w for c in e.causes for w in c.when}
        if any(not c.when for c in e.causes):
            continue
        orphans += [f"{e.id}:{s.id}" for s in e.match.signatures if s.role == "trigger" and s.id not in whens]
    assert not orphans, orphans


def test_no_prefilter_literal_could_reach_into_a_trtexec_timestamp() -> None:
    """A literal of timestamp characters only ("3221225781", what the tolerant cut left of "status 3221225781") turns off
    the memo of timestamped lines for every log (`Matcher._canonical`): a verbose trtexec log is then analysed line by
    line. Every built-in literal must hold a character a timestamp has not."""
    from troubleshooter.api import get_engine

    matcher = get_engine().matcher
    timestamp_chars = set("[]0123456789/-: ")
    assert not [lit for lit in matcher.prefilter.literals if set(lit) <= timestamp_chars]
    assert matcher._canonical
