"""What the matching pass finds in one log (`MatchState`), bounded whatever the log's size.

Ranking, advice and similarity read it; the matcher fills it; the reading layer merges the states of
the parts of a large file scanned on several cores (`merge_into`). Memory per log is bounded:
evidence lines and distinct captured values are capped, and counts keep going.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from troubleshooter.core.environment import EnvCollector
from troubleshooter.models import Evidence, LogLine

MAX_EVIDENCE = 25
MAX_VALUES = 60
MAX_VALUE_CHARS = 512
"""A captured value longer than this is cut (a node name or a size is far shorter; a runaway capture
on a long line would otherwise hold up to MAX_VALUES long strings per signature)."""
MAX_ERROR_LINES = 400
MAX_ERROR_LINE_CHARS = 2048
"""Kept error lines (for the unexplained list) are cut to this many characters."""


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
    error_line_cap: int = MAX_ERROR_LINES
    """Error lines kept (a part of a file whose earlier parts already hold MAX_ERROR_LINES keeps none)."""
    notes: list[str] = field(default_factory=list)
    slow_signatures: set[str] = field(default_factory=set)
    signature_time: dict[str, float] = field(default_factory=dict)
    """CPU seconds each signature's regex spent on this log (bounded by SIGNATURE_BUDGET)."""


def merge_into(out: MatchState, state: MatchState, base: int) -> None:
    """Add the state of the part that follows `base` lines to `out` (the state of the parts before it):
    `out` becomes exactly the state a single pass over all of them would have built."""
    out.env.absorb(state.env, base)
    for entry_id, entry_hits in state.hits.items():
        merged = out.hits.setdefault(entry_id, EntryHits())
        for sig_id, sh in entry_hits.by_sig.items():
            o = merged.by_sig.get(sig_id)
            if o is None:
                o = merged.by_sig[sig_id] = SignatureHits()
            if not o.first_line and sh.first_line:
                o.first_line = sh.first_line + base
            if sh.last_line:
                o.last_line = sh.last_line + base
            o.count += sh.count
            for evidence in sh.evidence:
                if len(o.evidence) >= MAX_EVIDENCE:
                    break
                o.evidence.append(evidence.model_copy(update={"line": evidence.line + base}))
            if not o.captures and sh.captures:
                o.captures = dict(sh.captures)
            for k, vals in sh.values.items():
                ov = o.values.setdefault(k, [])
                for v in vals:
                    if len(ov) < MAX_VALUES and v not in ov:
                        ov.append(v)
    for line, ids in state.error_lines:
        if len(out.error_lines) >= MAX_ERROR_LINES:
            break
        out.error_lines.append((line.model_copy(update={"no": line.no + base}), ids))
    out.error_lines_seen += state.error_lines_seen
    out.notes.extend(state.notes)
    out.slow_signatures |= state.slow_signatures
