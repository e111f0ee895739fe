"""Similarity as a last resort: an error line no signature explains, but that closely resembles one
of an entry's example lines, becomes a diagnosis marked ``matched_by: similarity``.

Below the threshold it stays an unexplained line with its closest known issues as suggestions. The
threshold (and a margin over the next entry) was chosen on the real corpus so that at least 95 % of
promotions name the entry the thread established, each log scored without the example lines copied
from its own thread
(``benchmarks/similarity_threshold.py`` measures it; README "Accuracy" has the figures).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from troubleshooter.core.logs import parse_line
from troubleshooter.core.ranking import build_diagnosis
from troubleshooter.core.state import EntryHits, SignatureHits
from troubleshooter.kb.schema import Entry
from troubleshooter.models import SEVERITY_RANK, Diagnosis, Environment, Evidence, Unexplained
from troubleshooter.re_programs import re_compile

SIMILARITY_THRESHOLD = 90.0
"""Lowest score (0..100, rapidfuzz token_sort_ratio on masked text) that promotes a line."""
MARGIN = 5.0
"""... and by at least this much over the next entry's best example: a line that resembles two
entries' examples alike is a suggestion, not a verdict."""
MAX_CONFIDENCE = 0.5
"""A promoted diagnosis is never a confident claim: its confidence is at most this."""
MAX_PROMOTIONS = 3
_DECISIVE = re_compile(r"\[(?:Convolution|Deconvolution|Fully Connected|Scale|Matrix Multiply|Shuffle|Resize|Slice)\]"
                       r"|\b(?:ConvTranspose|Deconv\w*|PWN|QuantizeLinear|DequantizeLinear|ForeignNode|INT8|FP16|FP8)\b"
                       # a signal's number: "Signal (15) received." (a stop asked for) is not "Signal (11)" (a crash)
                       r"|\b[Ss]ignal \(?\d+\)?|\bSIG[A-Z]{2,6}\b")
"""Words that name a layer's type, a precision or a signal: a line resembles an example only if it holds every such word the
example holds (a `[Convolution]` is not a `[Deconvolution]`, a plain node is not a Conv + PWN fusion), whatever the
rest of the text shares."""


def _decisive(text: str) -> set[str]:
    return set(_DECISIVE.findall(text))


def promote(unexplained: Sequence[Unexplained], diagnoses: Sequence[Diagnosis], entries: dict[str, Entry],
            env: Environment, threshold: float = SIMILARITY_THRESHOLD, *, seen: Collection[str] = (),
            succeeded_at: int = 0, near_miss: Callable[[str, str], float] | None = None
            ) -> tuple[list[Diagnosis], list[Unexplained]]:
    """Diagnoses with the promoted ones added (in rank order), and the lines that stay unexplained.

    Only error entries are promoted: an error line that resembles a harmless notice stays unexplained.
    Never an entry with signature hits in this log (`seen`): its own rules (requires, excludes) already
    decided; never a line that a successful build follows (line `succeeded_at`); never a line at least as
    close to one of the entry's no_match examples (`near_miss(entry_id, line)`) as to its examples."""
    found = list(diagnoses)
    rest: list[Unexplained] = []
    have = {d.id for d in found}
    def promotable(u: Unexplained) -> bool:
        best = u.similar[0] if u.similar else None
        runner_up = u.similar[1].score if len(u.similar) > 1 else 0.0
        if (best is None or best.score < threshold or best.score - runner_up < MARGIN or u.line < succeeded_at
                or best.id in have or best.id in seen or best.id not in entries
                or entries[best.id].severity != "error"
                or sum(d.matched_by == "similarity" for d in found) >= MAX_PROMOTIONS):
            return False
        if best.example is not None and not _decisive(best.example) <= _decisive(u.text):
            return False
        return near_miss is None or near_miss(best.id, parse_line(u.line, u.text).text) < best.score

    for u in unexplained:
        if not promotable(u):
            rest.append(u)
            continue
        best = u.similar[0]
        entry = entries[best.id]
        trigger = next(s for s in entry.match.signatures if s.role == "trigger")
        hits = EntryHits(by_sig={trigger.id: SignatureHits(
            count=u.count, first_line=u.line, last_line=u.line,
            evidence=[Evidence.model_construct(line=u.line, text=u.text, signature=trigger.id, role="trigger")])})
        d = build_diagnosis(entry, hits, env)
        found.append(d.model_copy(update={
            "matched_by": "similarity",
            "resembles": best.example,
            "confidence": round(min(MAX_CONFIDENCE, d.confidence, MAX_CONFIDENCE * best.score / 100), 2),
            "clues": [f"no signature matched; line {u.line} resembles this entry's example ({best.score:.0f}/100)",
                      *d.clues],
        }))
        have.add(best.id)
    if len(found) != len(diagnoses):
        first = {d.id: min((e.line for e in d.evidence if e.role == "trigger"), default=0) for d in found}
        found.sort(key=lambda d: (-SEVERITY_RANK[d.severity], int(d.cascade), -round(d.confidence * 20),
                                  first[d.id], d.id))
    return found, rest
