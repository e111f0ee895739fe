"""From evidence to a ranked list of diagnoses, root cause first.

- An entry fires when one of its triggers matched, its `requires` are met and no exclude matched.
- Severity: the entry's, unless the triggers that fired carry their own (`severity:` on a signature):
  then the most severe of those, so a secondary notice can be a warning in an error entry.
- Confidence: the best trigger weight plus the weights of the distinct supports that matched;
  outside the entry's `applies` (version, precision, platform) it is demoted and the report says why.
- Entries whose triggers fired on the same lines are neighbours: the best explains the line,
  the others are listed as alternatives.
- Cascade entries ("build failed") never outrank a specific error: their lines are folded under
  the root cause as consequences.
"""

from __future__ import annotations

from collections.abc import Collection

from troubleshooter.core.advice import (
    advice_for,
    capture_names,
    fill,
    fits_setting,
    fixes_for,
    reduce_command,
    template_values,
)
from troubleshooter.core.logs import TENSORRT_OWN
from troubleshooter.core.state import EntryHits, MatchState
from troubleshooter.core.versions import any_in_range, in_range
from troubleshooter.kb.schema import Entry, Signature
from troubleshooter.models import (
    MAX_TRIGGER_EVIDENCE,
    SEVERITY_RANK,
    Alternative,
    CauseOut,
    Diagnosis,
    Environment,
    Evidence,
    Level,
    RangeAdvice,
)
from troubleshooter.re_programs import re_compile

CERTAINTY_LABEL: dict[str, str] = {"confirmed": "confirmed", "documented": "documented",
                                   "reported": "reported, not confirmed", "suggestion": "suggestion"}
"""How a cause's certainty reads, in a report and in `kb show`."""
_CERTAINTY_ORDER = {"confirmed": 0, "documented": 1, "reported": 2, "suggestion": 3}


def fires(entry: Entry, hits: EntryHits) -> tuple[bool, str | None]:
    """Whether an entry fires on what its signatures found (a trigger matched, its requires are met,
    no exclude matched), and if not, why (for `trt-why kb explain`)."""
    sigs = {s.id: s for s in entry.match.signatures}
    triggers = [hits.by_sig[sid] for sid in entry.live_triggers(hits.by_sig)]
    if not triggers:
        if any(s.role == "trigger" and s.id in hits.by_sig for s in entry.match.signatures):
            return False, "its matching triggers count only beside a clue the log does not hold (`requires`)"
        return False, None
    first_trigger = min(t.first_line for t in triggers)
    last_trigger = max(t.last_line for t in triggers)
    for req in entry.match.requires:
        sh = hits.by_sig.get(req)
        if sh is None or (sigs[req].after_trigger and sh.last_line <= first_trigger):
            return False, f"required signature {req!r} did not match"
    for sid, sh in hits.by_sig.items():
        sig = sigs[sid]
        if sig.role != "exclude":
            continue
        # after_trigger: ruled out only when the exclude line follows the *last* trigger, so that a
        # success in an earlier run of a multi-run CI log does not hide a failure in a later one.
        if sig.after_trigger and sh.last_line <= last_trigger:
            continue
        if sig.before_trigger and sh.first_line >= first_trigger:
            continue
        return False, f"ruled out by {sid!r} on line {sh.last_line if sig.after_trigger else sh.first_line}"
    return True, None


def _counts(sig: Signature, sh_first: int, first_trigger: int) -> bool:
    return not sig.after_trigger or sh_first > first_trigger


def score_entry(entry: Entry, hits: EntryHits, env: Environment) -> tuple[float, list[str]]:
    """Confidence and the clues that decided it."""
    clues: list[str] = []
    sigs = {s.id: s for s in entry.match.signatures}
    trig = [(sigs[sid].effective_weight(), sid) for sid in entry.live_triggers(hits.by_sig)]
    first_trigger = min(hits.by_sig[sid].first_line for _, sid in trig)
    conf = max(w for w, _ in trig)
    for sid, sh in sorted(hits.by_sig.items()):
        sig = sigs[sid]
        if sig.role != "support" or not _counts(sig, sh.last_line, first_trigger):
            continue
        conf += sig.effective_weight()
        clues.append(f"line {sh.first_line}: {sig.note or sid}")
    ap = entry.applies
    inside = in_range(env.tensorrt_version, ap.trt)
    if inside is False:
        conf *= 0.5
        clues.append(f"TensorRT {env.tensorrt_version} is outside the versions this entry concerns ({ap.trt}): demoted")
    elif inside is True and ap.trt:
        clues.append(f"TensorRT {env.tensorrt_version} is in the affected range ({ap.trt})")
    elif inside is None and ap.trt and env.tensorrt_possible and not any_in_range(env.tensorrt_possible, ap.trt):
        conf *= 0.5
        clues.append(f"{env.release_text} is outside the versions this entry concerns ({ap.trt}): demoted")
    if ap.precisions and env.precisions:
        wanted = set(ap.precisions)
        if not wanted & _build_precisions(env):
            conf *= 0.6
            clues.append(f"the build asked for {', '.join(env.precisions)}, not {', '.join(ap.precisions)}: demoted")
    if ap.platforms and env.platform:
        if env.platform not in ap.platforms and not set(env.platform_alternatives) & set(ap.platforms):
            conf *= 0.6
            clues.append(f"platform {env.platform} is not one this entry concerns ({', '.join(ap.platforms)}): demoted")
        else:
            clues.append(f"platform {env.platform} matches")
    return max(0.01, min(conf, 0.99)), clues


def _values(entry: Entry, hits: EntryHits, env: Environment,
            skip: Collection[str] = ()) -> tuple[dict[str, str], dict[str, list[str]]]:
    captures: dict[str, str] = {}
    values: dict[str, list[str]] = {}
    order = sorted(entry.match.signatures, key=lambda s: {"trigger": 0, "support": 1, "exclude": 2}[s.role])
    for sig in order:
        sh = hits.by_sig.get(sig.id)
        if sh is None or sig.role == "exclude" or sig.id in skip:
            continue
        for k, v in sh.captures.items():
            captures.setdefault(k, v)
        for k, vs in sh.values.items():
            bucket = values.setdefault(k, [])
            for v in vs:
                if v not in bucket:
                    bucket.append(v)
    return captures, {k: v for k, v in values.items() if len(v) > 1}


def _ruled_out(unless: list[str], matched: set[str] | frozenset[str]) -> bool:
    """A cause or version advice that a signature (or fact) of this log contradicts: one of its `unless:` ids matched."""
    return any(sid in matched for sid in unless)


def build_diagnosis(entry: Entry, hits: EntryHits, env: Environment, facts: frozenset[str] = frozenset()) -> Diagnosis:
    """The finding of one entry. `facts`: what the engine knows beyond the signatures (`kb.schema.FACTS`), read by
    `when:`/`unless:` as if they were signature ids."""
    conf, clues = score_entry(entry, hits, env)
    sigs = {s.id: s for s in entry.match.signatures}
    live = entry.live_triggers(hits.by_sig)
    # A trigger whose `requires` the log does not meet did not fire: its captures, causes and fixes are not this log's
    # (a module missing beside an app plugin's frame is not one missing beside a TensorRT-stack package's).
    dead = {sid for sid in hits.by_sig if sigs[sid].role == "trigger" and sid not in live}
    captures, values = _values(entry, hits, env, skip=dead)
    vals = template_values(captures, env, capture_names(entry))
    matched = (set(hits.by_sig) - dead) | facts
    trig_hits = [hits.by_sig[s] for s in live]
    # A trigger's own `severity:` replaces the entry's when it fired the entry; of several, the most severe wins.
    fired_severities = [sigs[s].severity or entry.severity for s in live]
    severity = max(fired_severities, key=SEVERITY_RANK.__getitem__, default=entry.severity)
    occurrences = sum(h.count for h in trig_hits)
    evidence: list[Evidence] = []
    for h in sorted(trig_hits, key=lambda h: h.first_line):
        evidence.extend(h.evidence)
    evidence.sort(key=lambda e: e.line)
    evidence = _dedupe(evidence)[:MAX_TRIGGER_EVIDENCE]
    shown = {e.line for e in evidence}
    support_ev = [e for sid, h in hits.by_sig.items() if sigs[sid].role == "support" for e in h.evidence[:2]
                  if e.line not in shown]
    evidence += _dedupe(sorted(support_ev, key=lambda e: e.line))[:4]
    # A cause tied to a signature that matched (`when:`) is the specific one: it comes first; among those,
    # and among the general ones, the better established first (KB order breaks ties).
    # A sentence that depends on which stack ran (`front_ends` / `not_front_ends`), on a hosted notebook (`hosted`) or
    # that a signature contradicts (`unless`) is said only where the log fits it.
    fitting = [c for c in entry.causes if fits_setting(c, env) and not _ruled_out(c.unless, matched)]
    picked = sorted((c for c in fitting if c.when and any(sid in matched for sid in c.when)),
                    key=lambda c: _CERTAINTY_ORDER[c.certainty])
    picked += sorted((c for c in fitting if not c.when), key=lambda c: _CERTAINTY_ORDER[c.certainty])
    causes = [CauseOut.model_construct(text=fill(" ".join(c.text.split()), vals), certainty=c.certainty) for c in picked]
    # TensorRT's release decides nothing when a signature says so, or when the log shows no TensorRT at all
    release_free = "@no-tensorrt" in facts or any(sigs[s].release_free for s in matched if s in sigs)
    ranges = [] if release_free else list(entry.version_advice)
    advice, status = advice_for(ranges, env, vals)
    all_advice = [RangeAdvice.model_construct(versions=a.versions, status=a.status, text=fill(" ".join(a.text.split()), vals))
                  for a in ranges]
    asks = list(entry.asks)
    if env.tensorrt_version is not None or (entry.version_advice and not ranges):
        asks = [a for a in asks if "TensorRT version" not in a]
    if env.tensorrt_version is None and ranges:
        asks = ["the TensorRT version (pass --trt-version X)"] + [a for a in asks if "TensorRT version" not in a]
    return Diagnosis.model_construct(
        id=entry.id,
        title=fill(entry.title, vals),
        severity=severity,
        confidence=round(conf, 2),
        occurrences=occurrences,
        evidence=evidence,
        captures=captures,
        capture_values=values,
        causes=[f"{c.text} [{CERTAINTY_LABEL[c.certainty]}]" for c in causes],
        cause_details=causes,
        version_advice=advice,
        version_status=status,
        version_advice_all=all_advice,
        fixes=fixes_for(entry, env, vals, matched),
        references=[r.url for r in entry.references],
        clues=clues,
        asks=asks,
        cascade=entry.cascade,
        lint=list(entry.lint),
        reduce_command=reduce_command(entry, hits, env),
    )


def _dedupe(evidence: list[Evidence]) -> list[Evidence]:
    seen: set[int] = set()
    out = []
    for e in evidence:
        if e.line not in seen:
            seen.add(e.line)
            out.append(e)
    return out


def _trigger_lines(d: Diagnosis) -> set[int]:
    return {e.line for e in d.evidence if e.role == "trigger"}


def _harmless_after_success(d: Diagnosis, succeeded_at: int) -> Diagnosis:
    """An error entry that only warning lines fired, in a run that then succeeded, did not happen: the same
    warning is printed on healthy runs (Jetson's "Unable to determine GPU memory usage"). It stays, as info."""
    from troubleshooter.core.logs import parse_line

    if d.severity != "error":
        return d
    triggers = [e for e in d.evidence if e.role == "trigger"]
    if not triggers or max(e.line for e in triggers) > succeeded_at:
        return d
    levels = [parse_line(e.line, e.text).level for e in triggers]
    if any(level is None or level.rank >= Level.ERROR.rank for level in levels):
        return d
    clue = f"the run then succeeded (line {succeeded_at}): these warnings did not stop it, so this is not its failure"
    return d.model_copy(update={"severity": "info", "title": f"Harmless here (the run then succeeded): {d.title}",
                                "clues": [*d.clues, clue]})


def _causes_before_consequences(found: list[Diagnosis], entries: dict[str, Entry]) -> list[Diagnosis]:
    """An entry that names another as what it causes (`explains:`) comes right before it when both fired,
    at that entry's severity at least: a warning that decides the case (an opset the parser does not know)
    outranks the assertion it caused."""
    ids = {d.id for d in found}
    for d in list(found):
        targets = [t for t in entries[d.id].explains if t in ids]
        if not targets:
            continue
        first = min(i for i, other in enumerate(found) if other.id in targets)
        here = found.index(d)
        if here < first:
            continue
        severity = max([d.severity, *(o.severity for o in found if o.id in targets)], key=SEVERITY_RANK.__getitem__)
        moved = d if severity == d.severity else d.model_copy(update={"severity": severity})
        found = [*found[:first], moved, *(o for i, o in enumerate(found[first:], first) if i != here)]
    return found


def _precision_ruled_out(entry: Entry, env: Environment) -> bool:
    """An entry about precisions (INT8) that the log's own trtexec command line rules out: trtexec builds only the
    precisions its flags enable, so a `--fp16` build cannot be failing for an INT8 kernel (a strongly typed
    network takes its precisions from the model instead, and is never ruled out)."""
    wanted = set(entry.applies.precisions)
    if not wanted or not env.command or "trtexec" not in env.command:
        return False
    have = _build_precisions(env)
    return "strongly-typed" not in have and not wanted & have


def _build_precisions(env: Environment) -> set[str]:
    """The precisions the build asked for (`--best` is INT8 and FP16 as well)."""
    have = set(env.precisions)
    return have | {"int8", "fp16"} if "best" in have else have


_NAMES_TENSORRT = re_compile(r"(?i:tensor_?rt|\btrt|nvinfer|trtexec|polygraphy|torch2trt|myelin|engine plan|\.engine\b|\.plan\b)"
                             r"|ModelImporter|[Dd]eserializeCudaEngine|ICudaEngine|IExecutionContext|IBuilder|INetworkDefinition")
"""An error line that names TensorRT, one of its tools or its classes (a missing `tensorrt` module is about TensorRT);
with `logs.TENSORRT_OWN`, TensorRT's own message shapes ("Error Code 4: ... (Engine deserialization failed.)"
without a tag)."""


def _facts(entry: Entry, hits: EntryHits, first_error: int, no_tensorrt: bool = False) -> frozenset[str]:
    """`kb.schema.FACTS` that hold for this entry's finding in this log (`first_error`: the first error line's number,
    0 when none was kept; `no_tensorrt`: the log shows no TensorRT at all)."""
    triggers = {s.id for s in entry.match.signatures if s.role == "trigger"}
    first = min((h.first_line for sid, h in hits.by_sig.items() if sid in triggers), default=0)
    alone = first > 0 and not 0 < first_error < first
    return frozenset({"@alone"} if alone else ()) | frozenset({"@no-tensorrt"} if no_tensorrt else ())


def rank(entries: dict[str, Entry], state: MatchState, env: Environment) -> list[Diagnosis]:
    """All diagnoses, root cause first."""
    found: list[Diagnosis] = []
    first_error = min((line.no for line, _ids in state.error_lines if line.no > 0), default=0)
    no_tensorrt = (env.front_end is None and env.tensorrt_version is None and state.env.tensorrt_seen is None
                   and not any(_NAMES_TENSORRT.search(line.text) or TENSORRT_OWN.search(line.text)
                                    for line, _ids in state.error_lines))
    for entry_id in sorted(state.hits):
        entry = entries[entry_id]
        hits = state.hits[entry_id]
        ok, _why = fires(entry, hits)
        if ok and not _precision_ruled_out(entry, env):
            found.append(build_diagnosis(entry, hits, env, _facts(entry, hits, first_error, no_tensorrt)))
    first_line = {d.id: min((e.line for e in d.evidence if e.role == "trigger"), default=0) for d in found}

    def key(d: Diagnosis) -> tuple[int, int, int, int, float, str]:
        # Confidence in steps of 0.05: near-equal errors keep log order (the earlier is the likelier root).
        return (-SEVERITY_RANK[d.severity], int(d.cascade), -round(d.confidence * 20), first_line[d.id],
                -d.confidence, d.id)

    build = state.env.last_build
    if build is not None and build[1]:
        found = [_harmless_after_success(d, build[0]) for d in found]
    found.sort(key=key)
    found = _causes_before_consequences(found, entries)
    # Neighbours: entries whose triggers fired on the same lines. The first (best) keeps the lines.
    # A diagnosis whose severity came from its trigger's own `severity:` is a secondary finding on lines
    # that another entry may own: it is shown on its own, neither folded as an alternative nor folding others.
    secondary = {d.id for d in found if d.severity != entries[d.id].severity}
    kept: list[Diagnosis] = []
    for d in found:
        lines = _trigger_lines(d)
        owner = next((k for k in kept if not k.cascade and not d.cascade and lines and lines <= _trigger_lines(k)
                      and d.id not in secondary and k.id not in secondary), None)
        if owner is None:
            kept.append(d)
            continue
        idx = kept.index(owner)
        alt = Alternative.model_construct(id=d.id, title=d.title, confidence=d.confidence)
        kept[idx] = owner.model_copy(update={"alternatives": [*owner.alternatives, alt]})
    # Cascades: folded under the first specific error as its consequences.
    root = next((d for d in kept if d.severity == "error" and not d.cascade), None)
    if root is not None:
        cascade_lines: list[int] = []
        rest: list[Diagnosis] = []
        root_first = first_line[root.id]
        for d in kept:
            if d.cascade:
                cascade_lines += [e.line for e in d.evidence if e.line >= root_first]
            else:
                rest.append(d)
        kept = rest
        if cascade_lines:
            i = kept.index(root)
            kept[i] = root.model_copy(update={"consequences": sorted(set(cascade_lines))})
    return kept
