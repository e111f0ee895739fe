"""Signature regexes: compiling, prefilter literals, and the backtracking guard.

Every signature needs a literal that any matching line must contain, so that the scanner only
runs regexes on candidate lines. The literal is derived from the regex (the longest run of plain
characters every match contains) unless the entry lists ``literals:`` itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import regex

if TYPE_CHECKING:
    from troubleshooter.kb.schema import Entry, Signature

try:  # Python 3.11+
    from re import _constants as sre_c  # type: ignore[attr-defined]
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as sre_c  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

MIN_LITERAL = 4
"""A derived prefilter literal shorter than this is too common to be useful."""
MATCH_TIMEOUT = 0.25
"""Seconds one regex may spend on one line at run time before the signature is skipped."""
VALIDATE_TIMEOUT = 0.5
"""Seconds a regex may spend on one adversarial input in `kb validate`: exponential backtracking blows
past it at once; a merely quadratic regex on a 4,000-character line stays far below (no flaky timing)."""
ADVERSARIAL_LENGTH = 4000


@dataclass(frozen=True)
class CompiledSignature:
    """A signature ready for matching."""

    entry_id: str
    sig: Signature
    pattern: Any  # regex.Pattern[str]
    literals: tuple[str, ...]

    @property
    def key(self) -> str:
        return f"{self.entry_id}::{self.sig.id}"


def compile_pattern(pattern: str, ignore_case: bool = False) -> Any:
    flags = regex.V0 | (regex.IGNORECASE if ignore_case else 0)
    return regex.compile(pattern, flags)


def _best(cands: list[list[str]]) -> list[str] | None:
    good = [c for c in cands if c and all(c)]
    if not good:
        return None
    # Prefer the set whose shortest member is longest, then the smaller set.
    return max(good, key=lambda c: (min(len(x) for x in c), -len(c)))


def _literals_of(items: Any) -> list[str] | None:
    cands: list[list[str]] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            cands.append(["".join(run)])
            run.clear()

    for op, av in items:
        if op is sre_c.LITERAL:
            run.append(chr(av))
            continue
        flush()
        if op is sre_c.SUBPATTERN:
            sub = _literals_of(av[-1])
            if sub:
                cands.append(sub)
        elif op is sre_c.BRANCH:
            alts = [_literals_of(b) for b in av[1]]
            if alts and all(alts):
                cands.append([x for a in alts for x in a])  # type: ignore[union-attr]
        elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT) or getattr(sre_c, "POSSESSIVE_REPEAT", None) is op:
            lo, _hi, sub = av
            if lo >= 1:
                s = _literals_of(sub)
                if s:
                    cands.append(s)
        elif getattr(sre_c, "ATOMIC_GROUP", None) is op:
            s = _literals_of(av)
            if s:
                cands.append(s)
    flush()
    return _best(cands)


def derive_literals(pattern: str) -> list[str] | None:
    """Literals of which every match contains at least one, or None if none can be derived."""
    try:
        tree = sre_parse.parse(pattern)
    except (re.error, Exception):  # noqa: BLE001 - regex-only syntax: ask the author for literals
        return None
    if tree.state.flags & re.IGNORECASE:
        return None
    lits = _literals_of(list(tree))
    if not lits or min(len(x) for x in lits) < MIN_LITERAL:
        return None
    return sorted(set(lits))


def literals_for(sig: Signature) -> list[str] | None:
    return list(sig.literals) if sig.literals else derive_literals(sig.regex)


def compile_signature(entry_id: str, sig: Signature) -> CompiledSignature:
    lits = literals_for(sig) or []
    return CompiledSignature(entry_id, sig, compile_pattern(sig.regex, sig.ignore_case), tuple(lits))


def _repeat_chars(items: Any, out: set[str], inside: bool = False) -> None:
    for op, av in items:
        if op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT) or getattr(sre_c, "POSSESSIVE_REPEAT", None) is op:
            _repeat_chars(av[2], out, True)
        elif op is sre_c.SUBPATTERN:
            _repeat_chars(av[-1], out, inside)
        elif op is sre_c.BRANCH:
            for b in av[1]:
                _repeat_chars(b, out, inside)
        elif inside:
            if op is sre_c.LITERAL:
                out.add(chr(av))
            elif op is sre_c.NOT_LITERAL:
                out.add("a" if chr(av) != "a" else "b")
            elif op is sre_c.ANY:
                out.update("a ")
            elif op is sre_c.IN:
                for iop, iav in av:
                    if iop is sre_c.LITERAL:
                        out.add(chr(iav))
                    elif iop is sre_c.RANGE:
                        out.add(chr(iav[0]))
                    elif iop is sre_c.CATEGORY:
                        name = str(iav)
                        out.add("0" if "DIGIT" in name else " " if "SPACE" in name else "a")
                    elif iop is sre_c.NEGATE:
                        out.add("~")


def adversarial_inputs(sig: Signature) -> list[str]:
    """Inputs built from the pattern: its literal, then long runs of what its quantifiers accept."""
    chars: set[str] = set()
    try:
        _repeat_chars(list(sre_parse.parse(sig.regex)), chars)
    except Exception:  # noqa: BLE001
        pass
    chars.update("a 0(/.")
    lits = literals_for(sig) or [""]
    head = lits[0]
    pool = "".join(sorted(chars))
    inputs = [head + pool * (ADVERSARIAL_LENGTH // max(1, len(pool))) + "\x00"]
    inputs += [head + c * ADVERSARIAL_LENGTH + "\x00" for c in sorted(chars)]
    inputs += [head + (c + " ") * (ADVERSARIAL_LENGTH // 2) + "\x00" for c in sorted(chars)[:8]]
    return inputs


def check_backtracking(sig: Signature, timeout: float = VALIDATE_TIMEOUT) -> str | None:
    """None if the signature stays fast on adversarial inputs, else what is wrong."""
    pat = compile_pattern(sig.regex, sig.ignore_case)
    for text in adversarial_inputs(sig):
        try:
            pat.search(text, timeout=timeout)
        except TimeoutError:
            return (
                f"signature {sig.id!r}: the regex backtracks catastrophically (over {timeout * 1000:.0f} ms on a "
                f"{len(text)}-character line); replace nested or adjacent unbounded repeats such as '(.*)+' or '.*.*'"
            )
    return None


def check_entry_regexes(entry: Entry) -> str | None:
    """Compile every signature and check that it has a prefilter literal. Returns a problem or None."""
    for sig in entry.match.signatures:
        try:
            compile_pattern(sig.regex, sig.ignore_case)
        except regex.error as exc:
            return f"match.signatures.{sig.id}.regex: does not compile ({exc})"
        if literals_for(sig) is None:
            return (
                f"match.signatures.{sig.id}: no prefilter literal of {MIN_LITERAL}+ characters can be derived from "
                "the regex; add `literals: [\"...\"]` (strings every matching line contains)"
            )
        if sig.literals and not sig.ignore_case:
            # A listed literal must be plausible: each positive example line the regex matches contains one.
            pass
    return None
