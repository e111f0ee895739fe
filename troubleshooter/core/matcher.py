"""Match candidate lines against KB signatures and collect bounded evidence.

The matcher is compiled once per KB (and shared between threads: it keeps no per-log state);
each log gets its own `MatchState`. Memory per log is bounded whatever its size: evidence lines
and distinct captured values are capped, and counts keep going.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

import regex

from troubleshooter.core.environment import EnvCollector, all_literals
from troubleshooter.core.logs import decode_line, is_error_line, level_ok, parse_line
from troubleshooter.core.regexes import MATCH_TIMEOUT, CompiledSignature, compile_signature
from troubleshooter.core.scan import Finder, make_finder
from troubleshooter.kb.schema import Entry
from troubleshooter.models import Evidence, LogLine

MAX_EVIDENCE = 25
MAX_VALUES = 60
MAX_ERROR_LINES = 400

ERROR_MARKERS = ("[E]", "[F]", "[!]", "ERROR", "Error", "error:", "Traceback", "Exception", "Assertion",
                 "FAILED", "terminate called", "INTERNAL_ERROR", "failed")
MARKER_PATTERNS = (r"^[EF]\d{4} \d",)  # glog / Triton error lines


@dataclass
class SignatureHits:
    count: int = 0
    first_line: int = 0
    last_line: int = 0
    evidence: list[Evidence] = field(default_factory=list)
    captures: dict[str, str] = field(default_factory=dict)
    values: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class EntryHits:
    """Everything one entry's signatures found in one log."""

    by_sig: dict[str, SignatureHits] = field(default_factory=dict)


@dataclass
class MatchState:
    """Per-log results of the streaming pass."""

    hits: dict[str, EntryHits] = field(default_factory=dict)
    env: EnvCollector = field(default_factory=EnvCollector)
    error_lines: list[tuple[LogLine, frozenset[str]]] = field(default_factory=list)
    """Error lines with the ids of the entries whose signatures matched them."""
    error_lines_seen: int = 0
    notes: list[str] = field(default_factory=list)
    slow_signatures: set[str] = field(default_factory=set)


class Matcher:
    """Compiled signatures of a KB, indexed by prefilter literal."""

    def __init__(self, entries: Sequence[Entry], prefer: str | None = None) -> None:
        self.entries = {e.id: e for e in entries}
        self.signatures: list[CompiledSignature] = []
        by_literal: dict[str, list[CompiledSignature]] = {}
        caseless: dict[str, list[CompiledSignature]] = {}
        for entry in entries:
            for sig in entry.match.signatures:
                cs = compile_signature(entry.id, sig)
                self.signatures.append(cs)
                target = caseless if sig.ignore_case else by_literal
                for lit in cs.literals:
                    target.setdefault(lit.lower() if sig.ignore_case else lit, []).append(cs)
        self.by_literal = by_literal
        self.caseless = caseless
        env_lits = all_literals()
        # Literal index: an alternation that, searched with overlapped=True, reports at each position the
        # longest literal starting there; every shorter literal contained in it is implied.
        lits = sorted(by_literal, key=lambda s: (-len(s), s))
        self._lit_re = regex.compile("|".join(regex.escape(x) for x in lits)) if lits else None
        self._contained = {lit: [o for o in lits if o != lit and o in lit] for lit in lits}
        self._caseless_re = (
            regex.compile("|".join(regex.escape(x) for x in caseless), regex.IGNORECASE) if caseless else None
        )
        self.finder: Finder = make_finder(
            list(by_literal) + env_lits + list(ERROR_MARKERS), list(caseless), MARKER_PATTERNS, prefer
        )
        self._lock = threading.Lock()

    # -- per line -------------------------------------------------------------------------------
    def _sigs_for(self, text: str) -> list[CompiledSignature]:
        found: set[str] = set()
        if self._lit_re is not None:
            for lit in self._lit_re.findall(text, overlapped=True):
                if lit not in found:
                    found.add(lit)
                    found.update(self._contained[lit])
        out: list[CompiledSignature] = []
        seen: set[int] = set()
        for lit in sorted(found):
            for cs in self.by_literal[lit]:
                if id(cs) not in seen:
                    seen.add(id(cs))
                    out.append(cs)
        if self._caseless_re is not None:
            for lit in set(m.lower() for m in self._caseless_re.findall(text, overlapped=True)):
                for cs in self.caseless.get(lit, []):
                    if id(cs) not in seen:
                        seen.add(id(cs))
                        out.append(cs)
        out.sort(key=lambda c: (c.entry_id, c.sig.id))
        return out

    def feed(self, state: MatchState, no: int, raw_bytes: bytes, following: Sequence[bytes] = ()) -> None:
        """Process one candidate line (with up to two following lines, for wrapped lines)."""
        line = parse_line(no, decode_line(raw_bytes))
        if not line.text:
            return
        text = line.text
        joined = _join_wrapped(line, following)
        if joined is not None:
            text = joined
        state.env.feed(no, text, line.raw)
        state.env.note_origin(line.origin)
        matched: set[str] = set()
        for cs in self._sigs_for(text):
            if not level_ok(line.level, cs.sig.level):
                continue
            if cs.key in state.slow_signatures:
                continue
            try:
                m = cs.pattern.search(text, timeout=MATCH_TIMEOUT)
            except TimeoutError:
                state.slow_signatures.add(cs.key)
                state.notes.append(
                    f"signature {cs.key} took over {MATCH_TIMEOUT:.2f} s on line {no} and was skipped for the rest of this log"
                )
                continue
            if m is None:
                continue
            matched.add(cs.entry_id)
            self._record(state, cs, line, m)
        if is_error_line(line):
            state.error_lines_seen += 1
            if len(state.error_lines) < MAX_ERROR_LINES:
                if joined is not None:
                    line = line.model_copy(update={"text": joined})
                state.error_lines.append((line, frozenset(matched)))

    @staticmethod
    def _record(state: MatchState, cs: CompiledSignature, line: LogLine, m: regex.Match[str]) -> None:
        entry_hits = state.hits.setdefault(cs.entry_id, EntryHits())
        sh = entry_hits.by_sig.setdefault(cs.sig.id, SignatureHits())
        sh.count += 1
        if not sh.first_line:
            sh.first_line = line.no
        sh.last_line = line.no
        if len(sh.evidence) < MAX_EVIDENCE:
            sh.evidence.append(Evidence(line=line.no, text=line.raw, signature=cs.sig.id, role=cs.sig.role))
        groups = {k: v for k, v in m.groupdict().items() if v is not None}
        if not sh.captures and groups:
            sh.captures = {k: v.strip() for k, v in groups.items()}
        for k, v in groups.items():
            vals = sh.values.setdefault(k, [])
            v = v.strip()
            if v not in vals and len(vals) < MAX_VALUES:
                vals.append(v)


def _join_wrapped(line: LogLine, following: Sequence[bytes]) -> str | None:
    """A line cut by a terminal or a paste: an open parenthesis, continued on the next non-blank line."""
    text = line.text
    if text.count("(") <= text.count(")") or not following:
        return None
    for raw in following:
        nxt = decode_line(raw).rstrip("\r")
        if not nxt.strip():
            continue  # Windows pastes: a blank line between every line
        cont = parse_line(line.no + 1, nxt)
        if cont.level is not None or nxt.lstrip().startswith("["):
            return None
        sep = "" if len(line.raw) >= 60 and not line.raw.endswith(" ") else " "
        return text + sep + nxt.strip()
    return None
