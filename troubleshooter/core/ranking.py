"""From evidence to a ranked list of diagnoses, root cause first.

- An entry fires when one of its triggers matched, its `requires` are met and no exclude matched.
- Confidence: the best trigger weight plus the weights of the distinct supports that matched;
  outside the entry's `applies` (version, precision, platform) it is demoted and the report says why.
- Entries whose triggers fired on the same lines are neighbours: the best explains the line,
  the others are listed as alternatives.
- Cascade entries ("build failed") never outrank a specific error: their lines are folded under
  the root cause as consequences.
"""

from __future__ import annotations

import re
import shlex

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from troubleshooter.core.matcher import EntryHits, MatchState
from troubleshooter.core.versions import parse_version
from troubleshooter.kb.schema import Entry, Signature
from troubleshooter.models import (
    SEVERITY_RANK,
    Alternative,
    CauseOut,
    Command,
    Diagnosis,
    Environment,
    Evidence,
    Fix,
    FixStep,
    RangeAdvice,
)

_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_CERTAINTY_LABEL = {"confirmed": "confirmed", "documented": "documented", "reported": "reported, not confirmed",
                    "suggestion": "suggestion"}
MAX_SHOWN_EVIDENCE = 8


_SHELLS = ("bash", "sh", "shell", "console", "powershell", "zsh")
_SOURCE = ("python", "cpp", "c++", "c")


def fill(text: str, values: dict[str, str], lang: str | None = None) -> str:
    """Replace {name} by a known value; leave other braces (code, dict literals) alone.

    Values come from the log, i.e. from whoever wrote it: in a shell command they are quoted
    (`shlex.quote`, a no-op for ordinary node names), in source code they are escaped for a string
    literal, so a hostile node name cannot become syntax in a command the user copies.
    """
    def value(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in values:
            return m.group(0)
        v = values[name]
        if lang in _SHELLS:
            return shlex.quote(v)
        if lang in _SOURCE:
            return v.replace("\\", "\\\\").replace('"', '\\"').replace("'", "\\'").replace("\n", "\\n")
        return v

    return _PLACEHOLDER.sub(value, text)


def in_range(version: str | None, spec: str | None) -> bool | None:
    """True/False when both are known, None when either is unknown."""
    if not version or not spec:
        return None
    v = parse_version(version)
    if v is None:
        return None
    return SpecifierSet(spec).contains(v, prereleases=True)


def _fires(entry: Entry, hits: EntryHits) -> tuple[bool, str | None]:
    sigs = {s.id: s for s in entry.match.signatures}
    triggers = [hits.by_sig[s.id] for s in entry.match.signatures if s.role == "trigger" and s.id in hits.by_sig]
    if not triggers:
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
        return False, f"ruled out by {sid!r} on line {sh.last_line if sig.after_trigger else sh.first_line}"
    return True, None


def _counts(sig: Signature, sh_first: int, first_trigger: int) -> bool:
    return not sig.after_trigger or sh_first > first_trigger


def score_entry(entry: Entry, hits: EntryHits, env: Environment) -> tuple[float, list[str]]:
    """Confidence and the clues that decided it."""
    clues: list[str] = []
    sigs = {s.id: s for s in entry.match.signatures}
    trig = [(sigs[sid].effective_weight(), sid) for sid in hits.by_sig if sigs[sid].role == "trigger"]
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
    if ap.precisions and env.precisions:
        wanted = set(ap.precisions)
        have = set(env.precisions)
        if "best" in have:
            have |= {"int8", "fp16"}
        if not wanted & have:
            conf *= 0.6
            clues.append(f"the build asked for {', '.join(env.precisions)}, not {', '.join(ap.precisions)}: demoted")
    if ap.platforms and env.platform:
        if env.platform not in ap.platforms:
            conf *= 0.6
            clues.append(f"platform {env.platform} is not one this entry concerns ({', '.join(ap.platforms)}): demoted")
        else:
            clues.append(f"platform {env.platform} matches")
    return max(0.01, min(conf, 0.99)), clues


def _values(entry: Entry, hits: EntryHits, env: Environment) -> tuple[dict[str, str], dict[str, list[str]]]:
    captures: dict[str, str] = {}
    values: dict[str, list[str]] = {}
    order = sorted(entry.match.signatures, key=lambda s: {"trigger": 0, "support": 1, "exclude": 2}[s.role])
    for sig in order:
        sh = hits.by_sig.get(sig.id)
        if sh is None or sig.role == "exclude":
            continue
        for k, v in sh.captures.items():
            captures.setdefault(k, v)
        for k, vs in sh.values.items():
            bucket = values.setdefault(k, [])
            for v in vs:
                if v not in bucket:
                    bucket.append(v)
    return captures, {k: v for k, v in values.items() if len(v) > 1}


def capture_names(entry: Entry) -> set[str]:
    """Every named group of the entry's signatures."""
    import regex

    names: set[str] = set()
    for sig in entry.match.signatures:
        names.update(regex.compile(sig.regex).groupindex)
    return names


ENV_PLACEHOLDERS = ("tensorrt_version", "cuda_version", "driver_version", "gpu", "compute_capability", "platform")


def _template_values(captures: dict[str, str], env: Environment, names: set[str] = frozenset()) -> dict[str, str]:  # type: ignore[assignment]
    vals = {name: "(not in the log)" for name in names}
    vals.update(captures)
    for key in ENV_PLACEHOLDERS:
        value = getattr(env, key)
        vals.setdefault(key, str(value) if value else f"your {key.replace('_', ' ')}".replace("tensorrt", "TensorRT"))
    return vals


def _advice(entry: Entry, env: Environment, vals: dict[str, str]) -> tuple[str | None, str | None]:
    if not entry.version_advice:
        return None, None
    version = env.tensorrt_version
    if version:
        for adv in entry.version_advice:
            if in_range(version, adv.versions):
                return fill(adv.text.strip(), vals), adv.status
        return f"No advice recorded for TensorRT {version}.", "unknown"
    by_status: dict[str, list[str]] = {}
    for adv in entry.version_advice:
        by_status.setdefault(adv.status, []).append(adv.versions)
    summary = "; ".join(f"{status} on {', '.join(ranges)}" for status, ranges in by_status.items())
    return f"The log does not say which TensorRT this is (pass --trt-version X): {summary}.", None


def _fixes(entry: Entry, env: Environment, vals: dict[str, str]) -> list[Fix]:
    out: list[Fix] = []
    version = env.tensorrt_version
    for fx in entry.fixes:
        if in_range(version, fx.versions) is False:
            continue
        steps: list[str] = []
        detail: list[FixStep] = []
        for step in fx.steps:
            if in_range(version, step.versions) is False:
                continue
            text = fill(step.text.strip(), vals)
            lang = (step.lang or "text").lower()
            cmd = Command(lang=lang, code=fill(step.code.rstrip(), vals, lang)) if step.code else None
            detail.append(FixStep(text=text, command=cmd))
            steps.append(text + (f"\n{cmd.code}" if cmd else ""))
        if steps:
            out.append(Fix(title=fill(fx.title, vals), steps=steps, detail=detail))
    return out


def _reduce_command(entry: Entry, hits: EntryHits, env: Environment) -> str | None:
    if not entry.reduce:
        return None
    from troubleshooter.core.regexes import literals_for

    # The trigger that fired first in this log, so the repro fails for the same reason.
    fired = [s for s in entry.match.signatures if s.role == "trigger" and s.id in hits.by_sig]
    trig = min(fired, key=lambda s: hits.by_sig[s.id].first_line)
    lits = literals_for(trig) or []
    if not lits:
        return None
    fail = re.escape(lits[0]).replace("\\ ", " ")
    prec = "".join(f" --{p}" for p in env.precisions if p in ("int8", "fp16", "bf16", "fp8"))
    # --fail-regex belongs to `debug reduce`; everything after --check is the check command.
    return (
        f"polygraphy debug reduce model.onnx -o reduced.onnx --mode=bisect --fail-regex {shlex.quote(fail)} "
        f"--check polygraphy run polygraphy_debug.onnx --trt{prec}"
    )


def build_diagnosis(entry: Entry, hits: EntryHits, env: Environment) -> Diagnosis:
    conf, clues = score_entry(entry, hits, env)
    captures, values = _values(entry, hits, env)
    vals = _template_values(captures, env, capture_names(entry))
    sigs = {s.id: s for s in entry.match.signatures}
    trig_hits = [hits.by_sig[s] for s in hits.by_sig if sigs[s].role == "trigger"]
    occurrences = sum(h.count for h in trig_hits)
    evidence: list[Evidence] = []
    for h in sorted(trig_hits, key=lambda h: h.first_line):
        evidence.extend(h.evidence)
    evidence.sort(key=lambda e: e.line)
    evidence = _dedupe(evidence)[:MAX_SHOWN_EVIDENCE]
    shown = {e.line for e in evidence}
    support_ev = [e for sid, h in hits.by_sig.items() if sigs[sid].role == "support" for e in h.evidence[:2]
                  if e.line not in shown]
    evidence += _dedupe(sorted(support_ev, key=lambda e: e.line))[:4]
    causes = [CauseOut(text=fill(" ".join(c.text.split()), vals), certainty=c.certainty) for c in entry.causes
              if not c.when or any(sid in hits.by_sig for sid in c.when)]
    advice, status = _advice(entry, env, vals)
    all_advice = [RangeAdvice(versions=a.versions, status=a.status, text=fill(" ".join(a.text.split()), vals))
                  for a in entry.version_advice]
    asks = list(entry.asks)
    if env.tensorrt_version is not None:
        asks = [a for a in asks if "TensorRT version" not in a]
    if env.tensorrt_version is None and entry.version_advice:
        asks = ["the TensorRT version (pass --trt-version X)"] + [a for a in asks if "TensorRT version" not in a]
    return Diagnosis(
        id=entry.id,
        title=fill(entry.title, vals),
        severity=entry.severity,
        confidence=round(conf, 2),
        occurrences=occurrences,
        evidence=evidence,
        captures=captures,
        capture_values=values,
        causes=[f"{c.text} [{_CERTAINTY_LABEL[c.certainty]}]" for c in causes],
        cause_details=causes,
        version_advice=advice,
        version_status=status,
        version_advice_all=all_advice,
        fixes=_fixes(entry, env, vals),
        references=[r.url for r in entry.references],
        clues=clues,
        asks=asks,
        cascade=entry.cascade,
        lint=list(entry.lint),
        reduce_command=_reduce_command(entry, hits, env),
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


def rank(entries: dict[str, Entry], state: MatchState, env: Environment) -> list[Diagnosis]:
    """All diagnoses, root cause first."""
    found: list[Diagnosis] = []
    for entry_id in sorted(state.hits):
        entry = entries[entry_id]
        hits = state.hits[entry_id]
        ok, _why = _fires(entry, hits)
        if ok:
            found.append(build_diagnosis(entry, hits, env))
    first_line = {d.id: min((e.line for e in d.evidence if e.role == "trigger"), default=0) for d in found}

    def key(d: Diagnosis) -> tuple[int, int, int, int, float, str]:
        # Confidence in steps of 0.05: near-equal errors keep log order (the earlier is the likelier root).
        return (-SEVERITY_RANK[d.severity], int(d.cascade), -round(d.confidence * 20), first_line[d.id],
                -d.confidence, d.id)

    found.sort(key=key)
    # Neighbours: entries whose triggers fired on the same lines. The first (best) keeps the lines.
    kept: list[Diagnosis] = []
    for d in found:
        lines = _trigger_lines(d)
        owner = next((k for k in kept if not k.cascade and not d.cascade and lines and lines <= _trigger_lines(k)), None)
        if owner is None:
            kept.append(d)
            continue
        idx = kept.index(owner)
        alt = Alternative(id=d.id, title=d.title, confidence=d.confidence)
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


def version_tuple(v: str) -> Version | None:
    try:
        return Version(v)
    except InvalidVersion:
        return None
