"""Signature regexes: compiling, prefilter literals, and the backtracking guard; and the other walks
over a parsed regex (the finders' `fold_marker`, fastparse's `looks_behind`).

Every signature needs a literal that any matching line must contain, so that the scanner only
runs regexes on candidate lines. The literal is derived from the regex (the longest run of plain
characters every match contains) unless the entry lists ``literals:`` itself.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

import regex

from troubleshooter.core.logs import MAX_LINE_CHARS

if TYPE_CHECKING:
    from troubleshooter.kb.schema import Entry, Signature

try:  # Python 3.11+
    from re import _constants as sre_c  # type: ignore[attr-defined]
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as sre_c  # type: ignore[no-redef, unused-ignore]
    import sre_parse  # type: ignore[no-redef, unused-ignore]


MIN_LITERAL = 4
"""A derived prefilter literal shorter than this is too common to be useful."""
MATCH_TIMEOUT = 0.25
"""Seconds one regex may spend on one line at run time before the signature is skipped for the rest of the
log (the default of `Matcher.match_timeout`; TRT_WHY_MATCH_TIMEOUT, read by the API, raises it)."""
VALIDATE_TIMEOUT = 1.0
"""Seconds a regex may spend on one adversarial input in `kb validate` (and when an extra KB folder loads).
Exponential backtracking blows past any limit at once, while sound signatures (even the merely quadratic
ones) stay several times below it, so the verdict does not depend on the machine's speed or load."""
VALIDATE_LENGTH = MAX_LINE_CHARS // 2
"""Length of the adversarial inputs of `kb validate`. Exponential backtracking shows within a few dozen
characters; half the longest line payload keeps merely quadratic signatures (still bounded at run time by
MATCH_TIMEOUT) well inside VALIDATE_TIMEOUT and `kb validate` quick."""
ADVERSARIAL_LENGTH = 4000
"""Default length of ``adversarial_inputs``."""


def compile_pattern(pattern: str, ignore_case: bool = False, *, tolerate: bool = True) -> Any:
    """A signature's regex as it runs: with the whitespace tolerance of `tolerant` (unless `tolerate`
    is False: the backtracking guard judges the regex as written, since the possessive whitespace
    `tolerant` adds never backtracks)."""
    flags = regex.V0 | (regex.IGNORECASE if ignore_case else 0)
    return regex.compile(tolerant(pattern) if tolerate else pattern, flags)


# -- whitespace tolerance ---------------------------------------------------------------------------
# Pasted logs lose or gain spaces around punctuation ("Error Code 2:Internal Error", "engine!=nullptr",
# "Error Code 2 : Internal Error ( ...") and join wrapped lines with one space. Signatures are written
# once, in TensorRT's own spacing; this is the one place that makes them tolerant.

_SPACE_BEFORE = frozenset(":,=)]!<>")
"""Punctuation a paste may put a space in front of."""
_SPACE_AFTER = frozenset(":,=([!<>")
"""Punctuation a paste may put a space after."""
_FLEX = r"\s*+"
"""Possessive: optional whitespace never gives back what it took, so it adds no backtracking."""
_QUANT_START = frozenset("*+?{")
_CLASS_ESCAPES = frozenset("dDsSwWbBAZzGnrtfvae0123456789pPNXuUx")
"""Escapes that are not a punctuation literal (classes, anchors, code points, back-references)."""


def _tokens(pattern: str) -> list[tuple[str, str]]:  # noqa: C901, PLR0912, PLR0915  # a tokenizer: one branch per regex construct
    """The pattern as (kind, text) atoms: space, punct (a literal punctuation character, escaped or not),
    lit, class, open, close, quant, other. Enough to place optional whitespace; never reorders anything."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            j = i + 2
            if nxt in "pPN" and j < n and pattern[j] == "{":
                j = pattern.find("}", j) + 1 or n
            elif nxt == "x":
                j = min(n, i + 4)
            elif nxt in "uU":
                j = min(n, i + (6 if nxt == "u" else 10))
            text = pattern[i:j]
            if nxt in _CLASS_ESCAPES:
                out.append(("other", text))
            elif nxt == " ":
                out.append(("space", text))
            else:
                out.append(("punct" if nxt in _SPACE_BEFORE | _SPACE_AFTER else "lit", text))
            i = j
        elif c == "[":
            j = i + 1
            if j < n and pattern[j] == "^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            out.append(("class", pattern[i:j + 1]))
            i = j + 1
        elif c == "(":
            j = i + 1
            if j < n and pattern[j] == "?":
                if pattern.startswith("?#", j):
                    j = pattern.find(")", j) + 1 or n
                    out.append(("other", pattern[i:j]))
                    i = j
                    continue
                k = j + 1
                if pattern.startswith(("P<", "<"), k) and not pattern.startswith(("<=", "<!"), k):
                    k = pattern.find(">", k) + 1 or n
                elif pattern.startswith(("P=",), k):
                    k = pattern.find(")", k)
                elif k < n and pattern[k] in ":=!>|":
                    k += 1
                elif pattern.startswith(("<=", "<!"), k):
                    k += 2
                else:  # inline flags "(?i)" or "(?i:"
                    while k < n and pattern[k] not in ":)":
                        k += 1
                    k += 1
                j = k
            out.append(("open", pattern[i:j]))
            i = j
        elif c == ")":
            out.append(("close", c))
            i += 1
        elif c in _QUANT_START:
            j = i + 1
            if c == "{":
                close = pattern.find("}", i)
                if close < 0 or not re.fullmatch(r"\{\d*(?:,\d*)?\}", pattern[i:close + 1]):
                    out.append(("lit", c))
                    i += 1
                    continue
                j = close + 1
            if j < n and pattern[j] in "?+":
                j += 1
            out.append(("quant", pattern[i:j]))
            i = j
        elif c == " ":
            out.append(("space", c))
            i += 1
        elif c in _SPACE_BEFORE | _SPACE_AFTER:
            out.append(("punct", c))
            i += 1
        elif c in "|^$.":
            out.append(("other", c))
            i += 1
        else:
            out.append(("lit", c))
            i += 1
    return out


def _char(tok: tuple[str, str]) -> str:
    return tok[1][-1]


def _spaceless(tok: tuple[str, str]) -> bool:
    """An atom that never matches whitespace (so optional whitespace beside its repeat is unambiguous)."""
    kind, text = tok
    if kind == "class":
        return not text.startswith("[^") and " " not in text and "\\s" not in text
    return text in ("\\d", "\\w", "\\S")


def tolerant(pattern: str) -> str:
    """The pattern with optional whitespace where pastes lose or gain it.

    A literal space next to punctuation matches any whitespace or none; punctuation a paste may pad
    (``:`` ``,`` ``=`` ``)`` ``]`` ``!`` ``<`` ``>`` before, ``(`` ``[`` after) between literal characters
    accepts whitespace there. Nothing else changes: a space between two words stays one space, and
    nothing is added next to a quantifier, a class, a group boundary or another whitespace atom.
    """
    toks = _tokens(pattern)
    out: list[str] = []

    def flex() -> None:
        if not out or out[-1] != _FLEX:
            out.append(_FLEX)

    def beside(i: int, step: int, skip: tuple[str, ...]) -> tuple[str, str]:
        """The nearest token in one direction, looking through group boundaries and repeats."""
        j = i + step
        while 0 <= j < len(toks) and toks[j][0] in skip:
            j += step
        return toks[j] if 0 <= j < len(toks) else ("other", "")

    for i, (kind, text) in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else ("other", "")
        quantified = nxt[0] == "quant"
        if kind == "space" and not quantified and (
                beside(i, -1, ("close", "quant"))[0] == "punct" or beside(i, 1, ("open",))[0] == "punct"):
            flex()
            continue
        if kind == "punct" and not quantified:
            ch = _char((kind, text))
            # After a literal, or a repeat of digits / word characters ("\\d+:"), never after a repeat that
            # can take whitespace itself (".+", "[^)]*"): two repeats over the same spaces backtrack.
            k = i - 1
            while k >= 0 and toks[k][0] == "close":  # "(?P<code>\\d+):" ends in what the group ends in
                k -= 1
            last = toks[k] if k >= 0 else ("other", "")
            # (not after "\\S+": it can hold the punctuation itself, and the two would compete for it)
            wordish = last[0] == "lit" or (last[0] == "quant" and k >= 1 and _spaceless(toks[k - 1])
                                           and toks[k - 1][1] != "\\S")
            if ch in _SPACE_BEFORE and wordish:
                flex()
            out.append(text)
            after = toks[i + 2] if i + 2 < len(toks) else ("other", "")
            first = beside(i, 1, ("open",))  # "\\((?P<code>\\d+)": what the group starts with
            starts_plain = first[0] == "lit" or _spaceless(first)
            if ch in _SPACE_AFTER and starts_plain and (nxt[0] == "open" or after[0] != "quant"):
                flex()
            continue
        out.append(text)
    return "".join(out)


_PIECE_SPLIT = re.compile(r"\s*[" + re.escape("".join(sorted(_SPACE_BEFORE | _SPACE_AFTER))) + r"]\s*| (?=\W)|(?<=\W) ")
MIN_PIECE = 8
"""A piece of a literal shorter than this is too common to prefilter on: the literal stays whole."""


def tolerant_literal(literal: str) -> str:
    """A prefilter literal every tolerant match still holds: the rarest piece between the places where
    `tolerant` lets whitespace come or go (the literal itself when no piece is long enough to stay
    selective: a paste that lost or gained a space there is then not seen by this literal)."""
    pieces = [p.strip() for p in _PIECE_SPLIT.split(literal) if p.strip()]
    if pieces == [literal]:
        return literal
    from troubleshooter.core.bytefreq import BYTE_FREQ as _BYTE_FREQ

    total = sum(_BYTE_FREQ)

    def information(piece: str) -> float:  # bits-like: rare characters count most, every character counts
        return sum(math.log(total / _BYTE_FREQ[b]) for b in piece.encode("utf-8"))

    good = [p for p in pieces if len(p) >= MIN_PIECE]
    return max(good, key=information) if good else literal


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
    except (re.error, Exception):
        return None
    if tree.state.flags & re.IGNORECASE:
        return None
    lits = _literals_of(list(tree))
    if not lits or min(len(x) for x in lits) < MIN_LITERAL:
        return None
    return sorted(set(lits))


def required_runs(pattern: str, min_length: int = 3) -> tuple[str, ...]:
    """The literal runs (of `min_length`+ characters) that every match of the pattern contains.

    Walks the pattern's top-level sequence (and the groups and repeats it must go through); a branch,
    an optional part or anything case-insensitive contributes nothing. Empty when the pattern does not
    parse as a `re` pattern (the `regex` module's own syntax): then no shortcut is taken.
    """
    c = sre_c
    try:
        tree = sre_parse.parse(pattern)
    except Exception:
        return ()
    if tree.state.flags & (re.IGNORECASE | re.VERBOSE):
        return ()
    runs: list[str] = []

    def walk(items: Any) -> None:
        run: list[str] = []

        def flush() -> None:
            if len(run) >= min_length:
                runs.append("".join(run))
            run.clear()

        for op, av in items:
            if op is c.LITERAL:
                run.append(chr(av))
                continue
            flush()
            if op is c.SUBPATTERN:
                _group, add_flags, _del, sub = av
                if not add_flags & (re.IGNORECASE | re.VERBOSE):
                    walk(sub)
            elif op in (c.MAX_REPEAT, c.MIN_REPEAT) or getattr(c, "POSSESSIVE_REPEAT", None) is op:
                lo, _hi, sub = av
                if lo >= 1:
                    walk(sub)
            elif getattr(c, "ATOMIC_GROUP", None) is op:
                walk(av)
        flush()

    walk(list(tree))
    return tuple(dict.fromkeys(runs))


def literals_for(sig: Signature) -> list[str] | None:
    """Prefilter literals: every line the (tolerant) signature matches holds one of them."""
    lits = list(sig.literals) if sig.literals else derive_literals(sig.regex)
    if lits is None or sig.ignore_case:
        return lits
    return list(dict.fromkeys(tolerant_literal(lit) for lit in lits))


# -- the backtracking guard ------------------------------------------------------------------------
# A regex backtracks catastrophically when a repeat can match the same run of characters in many
# ways ('(\w+\s?)+', '(a|aa)+', '(.*,)*') and what follows the run then fails. The inputs below put
# the text that leads up to each repeat in front (so the engine reaches it), pump the repeat with
# the characters it accepts, and end with a character nothing expects.

_PROBE_CHARS = "a0 _~-./:,;=xAZ()[]{}<>\"'|!@#$%^&*+?\\\t"
"""Candidate characters: a repeat is pumped with those it accepts."""
_MAX_PUMPS = 48
"""At most this many adversarial inputs per repeat position (the input list stays short)."""


def _category_has(name: str, ch: str) -> bool:
    if "DIGIT" in name:
        hit = ch.isdigit()
    elif "SPACE" in name:
        hit = ch.isspace()
    elif "WORD" in name:
        hit = ch.isalnum() or ch == "_"
    elif "LINEBREAK" in name:
        hit = ch == "\n"
    else:
        return False
    return not hit if "NOT" in name else hit


def _in_set(ch: str, items: Any) -> bool:
    """Does a character class (sre IN items) accept ch?"""
    negate = False
    hit = False
    for op, av in items:
        if op is sre_c.NEGATE:
            negate = True
        elif op is sre_c.LITERAL:
            hit = hit or ord(ch) == av
        elif op is sre_c.RANGE:
            hit = hit or av[0] <= ord(ch) <= av[1]
        elif op is sre_c.CATEGORY:
            hit = hit or _category_has(str(av), ch)
    return hit != negate


def _accepts(op: Any, av: Any, ch: str) -> bool:
    """Does one single-character item accept ch?"""
    if op is sre_c.LITERAL:
        return bool(ord(ch) == av)
    if op is sre_c.NOT_LITERAL:
        return bool(ord(ch) != av)
    if op is sre_c.ANY:
        return ch != "\n"
    if op is sre_c.IN:
        return _in_set(ch, av)
    return False


def _body(op: Any, av: Any) -> Any:
    """The sub-sequence of a group-like item, or None."""
    if op is sre_c.SUBPATTERN:
        return av[-1]
    if getattr(sre_c, "ATOMIC_GROUP", None) is op:
        return av
    return None


def _is_repeat(op: Any) -> bool:
    return op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT) or getattr(sre_c, "POSSESSIVE_REPEAT", None) is op


def _witness(items: Any, depth: int = 0) -> str:
    """A short string the item sequence matches (best effort: look-arounds and anchors give '')."""
    if depth > 50:
        return ""
    out: list[str] = []
    for op, av in items:
        if op is sre_c.LITERAL:
            out.append(chr(av))
        elif op in (sre_c.NOT_LITERAL, sre_c.ANY, sre_c.IN):
            out.append(next((ch for ch in _PROBE_CHARS if _accepts(op, av, ch)), "a"))
        elif _body(op, av) is not None:
            out.append(_witness(_body(op, av), depth + 1))
        elif op is sre_c.BRANCH:
            out.append(_witness(av[1][0], depth + 1) if av[1] else "")
        elif _is_repeat(op):
            lo, _hi, sub = av
            out.append(_witness(sub, depth + 1) * min(lo, 64))
    return "".join(out)


def _chars_in(items: Any, out: set[str], depth: int = 0) -> None:
    """Every probe character some single-character item of the sequence (at any depth) accepts."""
    if depth > 50:
        return
    for op, av in items:
        if op in (sre_c.LITERAL, sre_c.NOT_LITERAL, sre_c.ANY, sre_c.IN):
            out.update(ch for ch in _PROBE_CHARS if _accepts(op, av, ch))
            if op is sre_c.LITERAL:
                out.add(chr(av))
        elif _body(op, av) is not None:
            _chars_in(_body(op, av), out, depth + 1)
        elif op is sre_c.BRANCH:
            for alt in av[1]:
                _chars_in(alt, out, depth + 1)
        elif _is_repeat(op):
            _chars_in(av[2], out, depth + 1)


def _repeat_sites(items: Any, prefix: str, out: list[tuple[str, Any]], depth: int = 0) -> None:
    """(text leading up to the repeat, repeat body) for every unbounded or long repeat."""
    if depth > 50:
        return
    lead = prefix
    for op, av in items:
        if _is_repeat(op):
            _lo, hi, sub = av
            if hi is sre_c.MAXREPEAT or hi > 16:
                out.append((lead, sub))
            _repeat_sites(sub, lead, out, depth + 1)
        elif _body(op, av) is not None:
            _repeat_sites(_body(op, av), lead, out, depth + 1)
        elif op is sre_c.BRANCH:
            for alt in av[1]:
                _repeat_sites(alt, lead, out, depth + 1)
        lead += _witness([(op, av)])


_NAMED_GROUP = re.compile(r"(?<!\\)\(\?P?<(?![=!])\w+>")


def _parse(pattern: str) -> Any:
    """The sre parse tree, or None for syntax only the `regex` module knows (\\p{..}, ...)."""
    for candidate in (pattern, _NAMED_GROUP.sub("(?:", pattern)):  # regex allows repeated group names
        try:
            return list(sre_parse.parse(candidate))
        except Exception:
            continue
    return None


def _single_items(items: Any, out: list[tuple[Any, Any]], depth: int = 0) -> None:
    """Every single-character item (literal, class, dot) of the tree."""
    if depth > 50:
        return
    for op, av in items:
        if op in (sre_c.LITERAL, sre_c.NOT_LITERAL, sre_c.ANY, sre_c.IN):
            out.append((op, av))
        elif _body(op, av) is not None:
            _single_items(_body(op, av), out, depth + 1)
        elif op is sre_c.BRANCH:
            for alt in av[1]:
                _single_items(alt, out, depth + 1)
        elif _is_repeat(op):
            _single_items(av[2], out, depth + 1)


def _representatives(tree: Any, chars: set[str]) -> list[str]:
    """One character per behaviour: two characters every item of the pattern treats alike pump alike."""
    items: list[tuple[Any, Any]] = []
    _single_items(tree, items)
    seen: dict[tuple[bool, ...], str] = {}
    for ch in sorted(chars):
        key = tuple(_accepts(op, av, ch) for op, av in items)
        seen.setdefault(key, ch)
    return sorted(seen.values())


def adversarial_inputs(sig: Signature, length: int | None = None) -> list[str]:
    """Inputs built from the pattern: what leads up to each repeat, a long run of what it accepts, then a
    character nothing expects. Also the prefilter literal followed by such runs."""
    size = length or ADVERSARIAL_LENGTH
    tree = _parse(sig.regex)
    inputs: list[str] = []
    if tree is not None:
        sites: list[tuple[str, Any]] = []
        _repeat_sites(tree, "", sites)
        for lead, body in sites[:_MAX_PUMPS]:
            chars: set[str] = set()
            _chars_in(body, chars)
            reps = _representatives(tree, chars)
            unit = _witness(body) or "a"
            pumps = [unit, unit + " ", *reps, *(c + " " for c in reps if c != " ")]
            if len(reps) > 1:
                pumps.append("".join(reps))
            for pump in pumps[:_MAX_PUMPS]:
                run = pump * max(1, (size - len(lead)) // max(1, len(pump)))
                inputs.append(lead + run + "\x00")
    # The literal-led inputs: what the prefilter lets through, then runs of the pattern's characters.
    chars = set("a 0(/.")
    if tree is not None:
        _chars_in(tree, chars)
        reps = _representatives(tree, chars)
    else:
        reps = sorted(chars)
    head = (literals_for(sig) or [""])[0]
    pool = "".join(reps)
    inputs.append(head + pool * (size // max(1, len(pool))) + "\x00")
    inputs += [head + c * size + "\x00" for c in reps]
    inputs += [head + (c + " ") * (size // 2) + "\x00" for c in reps[:8] if c != " "]
    return list(dict.fromkeys(inputs))


def _nullable(op: Any, av: Any, depth: int = 0) -> bool:
    """Can this item match the empty string? (look-arounds and anchors: yes)"""
    if depth > 50:
        return True
    if op in (sre_c.LITERAL, sre_c.NOT_LITERAL, sre_c.ANY, sre_c.IN):
        return False
    if _body(op, av) is not None:
        return all(_nullable(o, a, depth + 1) for o, a in _body(op, av))
    if op is sre_c.BRANCH:
        return any(all(_nullable(o, a, depth + 1) for o, a in alt) for alt in av[1])
    if _is_repeat(op):
        return av[0] == 0 or all(_nullable(o, a, depth + 1) for o, a in av[2])
    return True


def _unbounded(op: Any, av: Any) -> bool:
    return op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT) and (av[1] is sre_c.MAXREPEAT or av[1] > 16)


def _inner_repeats(items: Any, out: list[Any], depth: int = 0) -> None:
    """Unbounded, backtracking repeats inside a sequence (atomic groups and possessive repeats excluded)."""
    if depth > 50:
        return
    for op, av in items:
        if _unbounded(op, av):
            out.append(av[2])
        elif op is sre_c.SUBPATTERN:
            _inner_repeats(av[-1], out, depth + 1)
        elif op is sre_c.BRANCH:
            for alt in av[1]:
                _inner_repeats(alt, out, depth + 1)
        elif _is_repeat(op):
            _inner_repeats(av[2], out, depth + 1)


def _item_chars(op: Any, av: Any) -> set[str]:
    chars: set[str] = set()
    _chars_in([(op, av)], chars)
    return chars


def _flatten(items: Any, depth: int = 0) -> list[tuple[Any, Any]]:
    """A sequence with capture / non-capture groups of one alternative opened up."""
    out: list[tuple[Any, Any]] = []
    for op, av in items:
        if op is sre_c.SUBPATTERN and depth < 50:
            out += _flatten(av[-1], depth + 1)
        else:
            out.append((op, av))
    return out


def _ambiguous_nesting(items: Any, depth: int = 0) -> str | None:
    """The first unbounded repeat whose body holds another unbounded repeat with nothing forcing the
    iterations apart, e.g. '(\\w+\\s?)+' or '(.*,)*' (but not '(\\d+\\.)+': the dot separates them)."""
    if depth > 50:
        return None
    for op, av in items:
        if _unbounded(op, av):
            body = _flatten(av[2])
            inner: list[Any] = []
            _inner_repeats(body, inner)
            for sub in inner:
                inner_chars: set[str] = set()
                _chars_in(sub, inner_chars)
                separated = any(
                    not _nullable(o, a) and not _unbounded(o, a) and not (_item_chars(o, a) & inner_chars)
                    for o, a in body
                )
                if not separated:
                    return "nested unbounded repeats"
            found = _ambiguous_nesting(av[2], depth + 1)
            if found:
                return found
        elif _body(op, av) is not None and getattr(sre_c, "ATOMIC_GROUP", None) is not op:
            found = _ambiguous_nesting(_body(op, av), depth + 1)
            if found:
                return found
        elif op is sre_c.BRANCH:
            for alt in av[1]:
                found = _ambiguous_nesting(alt, depth + 1)
                if found:
                    return found
        elif _is_repeat(op) and getattr(sre_c, "POSSESSIVE_REPEAT", None) is not op:
            found = _ambiguous_nesting(av[2], depth + 1)
            if found:
                return found
    return None


def check_backtracking(sig: Signature, timeout: float | None = None) -> str | None:
    """None if the signature is safe from catastrophic backtracking, else what is wrong.

    Two verdicts, neither a wall-clock comparison:
    - structure: an unbounded repeat inside another with nothing forcing the iterations apart
      ('(\\w+\\s?)+', '(.*,)*') is refused outright; many engines take exponential time on it;
    - behaviour: adversarial inputs of VALIDATE_LENGTH characters built from the pattern itself must be
      searched within the regex engine's own timeout (VALIDATE_TIMEOUT).
    """
    limit = VALIDATE_TIMEOUT if timeout is None else timeout
    key = (sig.regex, sig.ignore_case, tuple(sig.literals or ()), limit)
    if key in _PASSED_GUARD:
        return None  # the verdict depends on nothing else: a process checks a regex once
    verdict = _check_backtracking(sig, limit)
    if verdict is None and len(_PASSED_GUARD) < 4096:
        _PASSED_GUARD.add(key)
    return verdict


_PASSED_GUARD: set[tuple[str, bool, tuple[str, ...], float]] = set()
"""Signatures (regex, case, literals, time limit) that passed the guard in this process."""


def _check_backtracking(sig: Signature, limit: float) -> str | None:
    tree = _parse(sig.regex)
    if tree is not None and _ambiguous_nesting(tree):
        return (
            f"signature {sig.id!r}: the regex nests an unbounded repeat inside another with nothing separating "
            "the iterations (like '(\\w+\\s?)+' or '(.*,)*'), which backtracks catastrophically; use one repeat "
            "('[\\w\\s]+'), a required separator ('(\\w+\\s)+'), or an atomic group"
        )
    pat = compile_pattern(sig.regex, sig.ignore_case, tolerate=False)
    for text in adversarial_inputs(sig, VALIDATE_LENGTH):
        try:
            pat.search(text, timeout=limit)
        except TimeoutError:
            return (
                f"signature {sig.id!r}: the regex backtracks catastrophically (over {limit * 1000:.0f} ms on a "
                f"{len(text)}-character line {_show(text)}); replace overlapping repeats or alternatives such as "
                "'(a|aa)+', '(\\w|\\d)+' or '.*.*' with one repeat, or bound them ({1,64})"
            )
    return None


def fold_marker(marker: str) -> str | None:
    """`^X` (MULTILINE) as `X` to put after a newline, or None when that rewrite is not exact."""
    if not marker.startswith("^") or re.search(r"\\[0-9]", marker):
        return None
    try:
        tree = sre_parse.parse(marker, re.MULTILINE)
    except re.error:
        return None
    items = list(tree)
    if tree.state.flags & ~(re.MULTILINE | re.UNICODE) or not items:
        return None
    op, av = items[0]
    if op is not sre_c.AT or av not in (sre_c.AT_BEGINNING, sre_c.AT_BEGINNING_LINE):
        return None
    if any(op is sre_c.BRANCH for op, _ in items):
        return None
    return marker[1:]


def looks_behind(pattern: str, flags: int = 0) -> bool:
    """Whether a match of the pattern can depend on what comes before where it starts (a start or
    line anchor, a word boundary, a look-behind): then `pattern.match(s, pos)` may differ from
    `pattern.match(s[pos:])`. `$` is fine: both strings end in the same place."""
    c = sre_c
    behind = {c.AT_BEGINNING, c.AT_BEGINNING_LINE, c.AT_BEGINNING_STRING, c.AT_BOUNDARY, c.AT_NON_BOUNDARY,
              c.AT_LOC_BOUNDARY, c.AT_LOC_NON_BOUNDARY, c.AT_UNI_BOUNDARY, c.AT_UNI_NON_BOUNDARY}
    repeats = tuple(op for op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)) if op is not None)
    atomic = getattr(c, "ATOMIC_GROUP", None)

    def walk(items: Any) -> bool:
        for op, av in items:
            if op is c.AT and av in behind:
                return True
            if op in (c.ASSERT, c.ASSERT_NOT) and (av[0] < 0 or walk(av[1])):
                return True
            if op is c.BRANCH and any(walk(b) for b in av[1]):
                return True
            if op is c.SUBPATTERN and walk(av[-1]):
                return True
            if op in repeats and walk(av[2]):
                return True
            if atomic is not None and op is atomic and walk(av):
                return True
            if op is c.GROUPREF_EXISTS and (walk(av[1]) or (av[2] is not None and walk(av[2]))):
                return True
        return False

    try:
        return walk(sre_parse.parse(pattern, flags))
    except Exception:
        return True


def _show(text: str) -> str:
    """A short description of an adversarial input."""
    head = text[:40].replace("\x00", "\\x00")
    return f"starting {head!r}"


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
