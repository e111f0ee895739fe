"""`trt-why kb validate | test | explain`: the KB checks itself.

- validate: schema, conventions (id == file stem, unique ids, lint ids exist), regexes compile and do not
  backtrack catastrophically, every example line a regex matches holds one of its literals, kb/schema.json
  is current.
- test: every entry's examples, run through the real engine with that entry alone loaded.
- explain: signature by signature, why an entry did or did not match a log.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from troubleshooter.core.regexes import check_backtracking, literals_for
from troubleshooter.kb.loader import KnowledgeBase, builtin_kb_dir
from troubleshooter.kb.schema import Entry, json_schema

if TYPE_CHECKING:
    from troubleshooter.kb.outside import OutsideKind


@dataclass(frozen=True)
class CaseResult:
    case_id: str
    ok: bool
    message: str = ""


def lint_rule_ids() -> set[str]:
    """Ids of the model-lint rules, from the rule modules' file names (no onnx import)."""
    rules = Path(__file__).resolve().parents[1] / "lint" / "rules"
    ids = {p.stem.replace("_", "-") for p in rules.glob("*.py") if not p.stem.startswith("_")}
    with contextlib.suppress(Exception):  # the registry may need onnx; file names are enough
        from troubleshooter.lint.rules import RULE_IDS

        ids |= set(RULE_IDS)
    return ids


def validate(kb: KnowledgeBase, *, check_schema_file: bool = True) -> list[str]:
    """Problems, one line each; empty when the KB is sound."""
    problems = [str(p) for p in kb.problems]
    known_rules = lint_rule_ids()
    for entry in kb.entries:
        where = kb.origins.get(entry.id, entry.id)
        for sig in entry.match.signatures:
            issue = check_backtracking(sig)
            if issue:
                problems.append(f"{where}: {issue}")
        problems += [f"{where}: {p}" for p in _placeholder_problems(entry)]
        problems += [f"{where}: {p}" for p in _literal_problems(entry)]
        if known_rules:
            for rule in entry.lint:
                if rule not in known_rules:
                    problems.append(f"{where}: lint: {rule!r} is not a lint rule id (known: `trt-why lint --list-rules`)")
    files = [Path(str(where)) for where in kb.origins.values() if str(where).endswith((".yaml", ".yml"))]
    # and the built-in stacks, outside kinds and package table beside the entries
    problems += comment_cut_problems([*files, *builtin_kb_dir().glob("*/*.yaml")])
    if check_schema_file:
        schema_path = builtin_kb_dir() / "schema.json"
        if not schema_path.is_file() or schema_path.read_text(encoding="utf-8") != json_schema():
            problems.append(f"{schema_path}: out of date; run `trt-why kb schema > kb/schema.json`")
    return problems


def comment_cut_problems(paths: Iterable[Path]) -> list[str]:
    """Values of these YAML files that a " #" cuts short, one problem each: in an unquoted (plain) value YAML reads
    " #" and the rest of the line as a comment, so a command or a title loses it silently."""
    import yaml

    out = []
    for path in sorted(set(paths)):
        try:
            text = path.read_text(encoding="utf-8")
            tokens = list(yaml.scan(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
        except (OSError, yaml.YAMLError):
            continue  # unreadable or invalid: the loader reports it
        lines = text.splitlines()
        for tok in tokens:
            if isinstance(tok, yaml.ScalarToken) and tok.plain and tok.end_mark.line < len(lines):
                rest = lines[tok.end_mark.line][tok.end_mark.column:]
                if rest[:1] in (" ", "\t") and rest.lstrip().startswith("#"):
                    out.append(f"{path}:{tok.end_mark.line + 1}: ' #' after an unquoted value starts a YAML comment "
                               "and drops the rest of the line; quote the value ('...', with '' for a quote inside)")
    return out


def _placeholder_problems(entry: Entry) -> list[str]:
    """{name} placeholders must name a capture group or an environment field."""
    from troubleshooter.core.advice import DERIVED_PLACEHOLDERS, ENV_PLACEHOLDERS, capture_names, placeholders

    allowed = capture_names(entry) | set(ENV_PLACEHOLDERS) | set(DERIVED_PLACEHOLDERS)
    texts = [("title", entry.title)] + [("causes", c.text) for c in entry.causes]
    texts += [("version_advice", a.text) for a in entry.version_advice]
    for fx in entry.fixes:
        texts.append(("fixes", fx.title))
        texts += [("fixes", st.text) for st in fx.steps]
    out = []
    for field, text in texts:
        for name in sorted(placeholders(text) - allowed):
            out.append(f"{field}: placeholder {{{name}}} is neither a capture group nor an environment field")
    return out


def _literal_problems(entry: Entry) -> list[str]:
    """Every line of the entry's examples that a signature's regex matches holds one of its prefilter
    literals: a line without one is never shown to the regex."""
    from troubleshooter.core.logs import parse_line
    from troubleshooter.core.regexes import compile_pattern

    lines = [(ex.name, parse_line(no, raw).text) for ex in (*entry.examples.match, *entry.examples.no_match)
             for no, raw in enumerate(ex.log.splitlines(), 1)]
    out = []
    for sig in entry.match.signatures:
        pattern = compile_pattern(sig.regex, sig.ignore_case)
        lits = [lit.lower() for lit in literals_for(sig)] if sig.ignore_case else literals_for(sig)
        for name, text in lines:
            hay = text.lower() if sig.ignore_case else text
            if pattern.search(text) and not any(lit in hay for lit in lits):
                out.append(f"match.signatures.{sig.id}.literals: a line of example {name!r} matches the regex but "
                           f"holds none of {lits} (list a string every matching line holds): {text[:100]!r}")
                break
    return out


def validate_kinds() -> list[str]:
    """Problems of the built-in outside kinds (`kb/outside/kinds.yaml`), one line each: the file validates, each
    `match` compiles, the text names only its groups, and `run_kind_examples` passes."""
    import regex

    from troubleshooter.core.advice import placeholders
    from troubleshooter.core.next_steps import kind_pattern
    from troubleshooter.errors import KBError
    from troubleshooter.kb.outside import kinds_path, load_kinds

    try:
        kinds = load_kinds()
    except KBError as exc:
        return [str(exc)]
    where = kinds_path()
    out = []
    for kind in kinds:
        try:
            groups = set(kind_pattern(kind).groupindex) | {"name", "top"}
        except regex.error as exc:
            out.append(f"{where}: {kind.id}: match does not compile: {exc}")
            continue
        for name in sorted(placeholders(kind.text) - groups):
            out.append(f"{where}: {kind.id}: text: placeholder {{{name}}} is not a group of its match")
    out += [f"{where}: {r.case_id}: {r.message}" for r in run_kind_examples(kinds) if not r.ok]
    return out


def validate_packages() -> list[str]:
    """Problems of the built-in module table (`kb/packages/python.yaml`), one line each: the file validates and lists
    each module once."""
    from troubleshooter.errors import KBError
    from troubleshooter.kb.packages import load_packages

    try:
        load_packages()
    except KBError as exc:
        return [str(exc)]
    return []


def run_kind_examples(kinds: Sequence[OutsideKind] | None = None) -> list[CaseResult]:
    """Each outside kind's examples, read as a report reads a line (its wrapper off), get that kind first."""
    from troubleshooter.core.logs import parse_line
    from troubleshooter.core.next_steps import kind_for
    from troubleshooter.kb.outside import builtin_kinds
    from troubleshooter.models import Environment

    kinds = builtin_kinds() if kinds is None else kinds
    results = []
    for kind in kinds:
        for no, ex in enumerate(kind.examples, 1):
            got = kind_for(parse_line(1, ex.line).text, Environment(), kinds)
            case = f"outside::{kind.id}::{no}"
            results.append(CaseResult(case, True) if got is kind else CaseResult(
                case, False, f"the line gets {got.id if got else 'no kind'}, not this one: {ex.line[:100]!r}"))
    return results


def run_examples(entry: Entry) -> list[CaseResult]:
    """Run one entry's examples with only that entry loaded."""
    from troubleshooter.api import Engine, diagnose
    from troubleshooter.errors import InputError
    from troubleshooter.kb.loader import KnowledgeBase

    engine = Engine.from_kb(KnowledgeBase([entry]))
    results: list[CaseResult] = []
    for kind, examples in (("match", entry.examples.match), ("no_match", entry.examples.no_match)):
        for ex in examples:
            case = f"{entry.id}::{ex.name}"
            try:
                report = diagnose(ex.log, trt_version=ex.trt_version, engine=engine, name=case)
            except InputError as exc:
                results.append(CaseResult(case, False, f"input error: {exc}"))
                continue
            found = next((d for d in report.diagnoses if d.id == entry.id and d.matched_by == "signature"), None)
            if kind == "match":
                if found is None:
                    why = explain(entry, ex.log, ex.trt_version)
                    results.append(CaseResult(case, False, "expected a match, got none\n" + "\n".join(why)))
                    continue
                wrong = {k: (v, found.captures.get(k)) for k, v in ex.captures.items() if found.captures.get(k) != v}
                if wrong:
                    detail = "; ".join(f"{k}: expected {exp!r}, got {got!r}" for k, (exp, got) in wrong.items())
                    results.append(CaseResult(case, False, f"captures differ: {detail}"))
                    continue
                results.append(CaseResult(case, True))
            elif found is not None:
                lines = ", ".join(str(e.line) for e in found.evidence[:3])
                results.append(CaseResult(case, False, f"must not match, but matched on line(s) {lines}"))
            else:
                results.append(CaseResult(case, True))
    return results


def explain(entry: Entry, log: str, trt_version: str | None = None) -> list[str]:
    """Why the entry did or did not match `log`, signature by signature."""
    from troubleshooter.api import Engine, diagnose
    from troubleshooter.core.logs import level_ok, parse_line
    from troubleshooter.core.ranking import fires
    from troubleshooter.core.regexes import compile_pattern
    from troubleshooter.kb.loader import KnowledgeBase

    out: list[str] = []
    lines = [parse_line(i, raw) for i, raw in enumerate(log.splitlines(), 1)]
    for sig in entry.match.signatures:
        lits = literals_for(sig)
        pat = compile_pattern(sig.regex, sig.ignore_case)
        with_lit = [ln for ln in lines if any((lit.lower() in ln.text.lower()) if sig.ignore_case else (lit in ln.text)
                                              for lit in lits)]
        matched = [ln for ln in with_lit if pat.search(ln.text)]
        level_ok_lines = [ln for ln in matched if level_ok(ln.level, sig.level)]
        head = f"  [{sig.role}] {sig.id}: "
        if not with_lit:
            out.append(head + f"no line contains its literal(s) {lits}")
        elif not matched:
            out.append(head + f"{len(with_lit)} line(s) contain the literal but the regex does not match, e.g. line "
                       f"{with_lit[0].no}: {with_lit[0].text[:120]}")
        elif not level_ok_lines:
            ln = matched[0]
            out.append(head + f"matches line {ln.no} but its level is {ln.level.value if ln.level else 'none'}, "
                       f"below the required {sig.level}")
        else:
            ln = level_ok_lines[0]
            m = pat.search(ln.text)
            caps = {k: v for k, v in (m.groupdict() if m else {}).items() if v is not None}
            out.append(head + f"MATCHES line {ln.no} ({len(level_ok_lines)} line(s)){' captures ' + str(caps) if caps else ''}")
    engine = Engine.from_kb(KnowledgeBase([entry]))
    report = diagnose(log, trt_version=trt_version, engine=engine)
    found = next((d for d in report.diagnoses if d.id == entry.id), None)
    if found:
        out.append(f"  => the entry fires, confidence {found.confidence:.2f}" +
                   (f"; clues: {'; '.join(found.clues)}" if found.clues else ""))
    else:
        from troubleshooter.core.state import MatchState

        state = MatchState()
        for ln in lines:
            engine.matcher.feed(state, ln.no, ln.raw.encode("utf-8"))
        hits = state.hits.get(entry.id)
        if hits is None:
            out.append("  => the entry does not fire: no trigger matched")
        else:
            _ok, why = fires(entry, hits)
            out.append(f"  => the entry does not fire: {why or 'no trigger matched'}")
    return out


SCAFFOLD = """id: {id}
title: One line saying what went wrong
severity: error            # error: build/run fails; warning: builds but loses precision/speed; info: harmless
tags: []
summary: >
  Two or three sentences for the KB browser.
match:
  signatures:
    - id: main-message
      regex: 'Exact message text with (?P<node>[^ ]+) captured'   # searched in the payload; never anchor on line numbers
      role: trigger        # trigger | support | exclude
      level: error         # any | warning | error
      literals: ["Exact message text"]   # the scanner tries the regex only on lines holding one of these
    - id: a-clue
      regex: 'A line that makes this cause more likely'
      role: support
      weight: 0.1
      literals: ["makes this cause more likely"]
  requires: []
applies:
  trt: ">=8.0"             # TensorRT versions this concerns
  platforms: []            # linux, windows, wsl, jetson; empty = all
  precisions: []           # int8, fp16, ...; empty = any
causes:
  - text: What actually goes wrong with {{node}}.
    certainty: reported    # confirmed | documented | reported | suggestion
asks: []
version_advice:
  - versions: "<10"
    status: affected
    text: What this means on {{tensorrt_version}}.
  - versions: ">=10"
    status: unknown
    text: Not known whether newer releases differ.
fixes:
  - title: The first thing to try
    steps:
      - text: What to do.
        code: trtexec --onnx=model.onnx
        lang: bash
lint: []
reduce: false
references:
  - url: https://github.com/NVIDIA/TensorRT/issues/
last_verified: {today}
examples:
  match:
    - name: trtexec-format
      log: |
        [01/01/2025-10:00:00] [E] [TRT] Exact message text with /model/node captured
      captures:
        node: /model/node
  no_match:
    - name: same-words-at-info-level
      log: |
        [01/01/2025-10:00:00] [I] [TRT] Exact message text with /model/node captured
todo: []
"""
