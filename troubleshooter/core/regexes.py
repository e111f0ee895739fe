"""Signature regexes: compiling, whitespace tolerance, prefilter literals, and the backtracking guard;
and the other walks over a parsed regex (`core/regex_syntax.py`, the one reader of regex syntax): the
strings every match holds (`required_runs`, `derive_literals`), the finders' `fold_marker`, and for the
prefix rules of `core/logs.py` `looks_behind` and `can_start`.

Every signature lists ``literals:``, strings of which every line it matches holds one (`kb validate` checks
them against the entry's examples), so that the scanner only runs regexes on candidate lines.
"""

from __future__ import annotations

import base64
import binascii
import functools
import io
import math
import pickle
import re
from typing import TYPE_CHECKING, Any, NamedTuple

import regex

from troubleshooter.core import regex_syntax as rs
from troubleshooter.core.limits import MAX_LINE_CHARS
from troubleshooter.re_programs import re_compile

if TYPE_CHECKING:
    from troubleshooter.kb.schema import Entry, Signature

MIN_LITERAL = 4
"""A derived literal shorter than this is too common to be useful (`derive_literals`)."""
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


_V0, _IGNORECASE = int(regex.V0), int(regex.IGNORECASE)
"""As plain integers: the `regex` module's parser tests its flags thousands of times per pattern, and on
an enum flag each test is a Python call (a third of compiling the signatures a small log reaches)."""


class Reading(NamedTuple):
    """What a run needs from a signature's regex besides compiling it."""

    tolerant: str
    """The regex as it runs (`tolerant`)."""
    groups: tuple[str, ...]
    """Its named groups, the captures it gives."""


_READINGS: dict[str, Reading] = {}
"""Readings by regex, filled as regexes are read, or all at once from the KB cache (`remember`)."""


def reading(pattern: str) -> Reading:
    """The pattern's `Reading` (read once per process, unless the KB cache brought it)."""
    known = _READINGS.get(pattern)
    if known is None:
        if len(_READINGS) >= 8192:
            _READINGS.clear()
        known = _READINGS[pattern] = Reading(_tolerant(pattern), _group_names(pattern))
    return known


def remember(readings: dict[str, Reading]) -> None:
    """Take readings worked out by another process (the KB cache keeps them with the KB)."""
    _READINGS.update(readings)


def group_names(pattern: str) -> tuple[str, ...]:
    """The named groups of the pattern, in order (memoized: `reading`)."""
    return reading(pattern).groups


def _group_names(pattern: str) -> tuple[str, ...]:
    try:
        tree = rs.parse(pattern).root
    except (rs.RegexSyntaxError, RecursionError):
        try:
            return tuple(regex.compile(pattern, _V0).groupindex)  # what the reader cannot read, the engine names
        except regex.error:
            return ()
    names: list[str] = []

    def walk(node: rs.Node, depth: int) -> None:
        if isinstance(node, rs.Group) and node.name is not None and node.name not in names:
            names.append(node.name)
        if depth < 200:
            for child in rs.children(node):
                walk(child, depth + 1)

    walk(tree, 0)
    return tuple(names)


def compile_pattern(pattern: str, ignore_case: bool = False, *, tolerate: bool = True) -> Any:
    """A signature's regex as it runs: with the whitespace tolerance of `tolerant` (unless `tolerate`
    is False: the backtracking guard judges the regex as written, since the possessive whitespace
    `tolerant` adds never backtracks)."""
    flags = _V0 | (_IGNORECASE if ignore_case else 0)
    return regex.compile(tolerant(pattern) if tolerate else pattern, flags)


# -- compiled patterns kept between runs ---------------------------------------------------------------
# The `regex` module parses a pattern in Python (about 2 ms for a KB signature, 150 ms for the 44 a small log needs),
# and pickles a compiled pattern as its finished program: `_regex.compile` and the numbers it runs. The KB cache keeps
# that form, read back by an unpickler that builds that one thing and nothing else (the pickle documentation's
# "restricting globals"): no other callable can be named by the data.


class _CompiledPatternOnly(pickle.Unpickler):
    _ALLOWED = frozenset({("regex._regex", "compile"), ("_regex", "compile"), ("builtins", "frozenset")})

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in self._ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is no part of a compiled pattern")


def freeze_pattern(pattern: Any) -> str:
    """A compiled pattern as text for the KB cache (`thaw_pattern` reads it back)."""
    return base64.b64encode(pickle.dumps(pattern, protocol=4)).decode("ascii")


def thaw_pattern(data: str) -> Any | None:
    """The compiled pattern `freeze_pattern` kept, or None when the text is not one (the caller compiles)."""
    try:
        pattern = _CompiledPatternOnly(io.BytesIO(base64.b64decode(data, validate=True))).load()
    except (pickle.UnpicklingError, binascii.Error, ValueError, TypeError, EOFError, AttributeError, IndexError):
        return None
    return pattern if isinstance(pattern, regex.Pattern) else None


# -- whitespace tolerance ---------------------------------------------------------------------------
# Pasted logs lose or gain spaces around punctuation ("Error Code 2:Internal Error", "engine!=nullptr",
# "Error Code 2 : Internal Error ( ...") and join wrapped lines with one space. Signatures are written
# once, in TensorRT's own spacing; this is the one place that makes them tolerant.

_SPACE_BEFORE = frozenset(":,=)]!<>")
"""Punctuation a paste may put a space in front of."""
_SPACE_AFTER = frozenset(":,=([!<>")
"""Punctuation a paste may put a space after."""
_PUNCT = _SPACE_BEFORE | _SPACE_AFTER
_FLEX = r"\s*+"
"""Possessive: optional whitespace never gives back what it took, so it adds no backtracking."""
_NONE = rs.Token("other", "")


def _tokens(pattern: str) -> list[rs.Token]:
    """The pattern's tokens as the parser read them, a character item told apart by what it stands for:
    "space", "punct" (punctuation a paste may pad) or "lit"; the other kinds as they are (class, open,
    close, quant, other). Enough to place optional whitespace; never reorders anything."""
    out: list[rs.Token] = []
    for tok in rs.parse(pattern).tokens:
        literal = tok.literal
        if literal is not None:
            kind = ("space" if literal == " " else "other" if literal.isspace()  # a tab, a newline
                    else "punct" if literal in _PUNCT else "lit")
            tok = rs.Token(kind, tok.text, literal)  # noqa: PLW2901  # the same token, told apart
        out.append(tok)
    return out


def _spaceless(tok: rs.Token) -> bool:
    """An atom that never matches whitespace (so optional whitespace beside its repeat is unambiguous)."""
    if tok.kind == "class":
        return not tok.text.startswith("[^") and " " not in tok.text and "\\s" not in tok.text
    return tok.text in ("\\d", "\\w", "\\S")


def tolerant(pattern: str) -> str:
    """The pattern with optional whitespace where pastes lose or gain it (memoized: `reading`)."""
    return reading(pattern).tolerant


def _tolerant(pattern: str) -> str:
    """The pattern with optional whitespace where pastes lose or gain it.

    A literal space next to punctuation matches any whitespace or none; punctuation a paste may pad
    (``:`` ``,`` ``=`` ``)`` ``]`` ``!`` ``<`` ``>`` before, ``(`` ``[`` after) between literal characters
    accepts whitespace there. Nothing else changes: a space between two words stays one space, and
    nothing is added next to a quantifier, a class, a group boundary or another whitespace atom. A
    pattern the parser cannot read (`regex_syntax`) is returned as it is.
    """
    try:
        toks = _tokens(pattern)
    except (rs.RegexSyntaxError, RecursionError):
        return pattern
    out: list[str] = []

    def flex() -> None:
        if not out or out[-1] != _FLEX:
            out.append(_FLEX)

    def beside(i: int, step: int, skip: tuple[str, ...]) -> rs.Token:
        """The nearest token in one direction, looking through group boundaries and repeats."""
        j = i + step
        while 0 <= j < len(toks) and toks[j].kind in skip:
            j += step
        return toks[j] if 0 <= j < len(toks) else _NONE

    for i, (kind, text, ch) in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else _NONE
        quantified = nxt.kind == "quant"
        if kind == "space" and not quantified and (
                beside(i, -1, ("close", "quant")).kind == "punct" or beside(i, 1, ("open",)).kind == "punct"):
            flex()
            continue
        if kind == "punct" and not quantified:
            # After a literal, or a repeat of digits / word characters ("\\d+:"), never after a repeat that
            # can take whitespace itself (".+", "[^)]*"): two repeats over the same spaces backtrack.
            k = i - 1
            while k >= 0 and toks[k].kind == "close":  # "(?P<code>\\d+):" ends in what the group ends in
                k -= 1
            last = toks[k] if k >= 0 else _NONE
            # (not after "\\S+": it can hold the punctuation itself, and the two would compete for it)
            wordish = last.kind == "lit" or (last.kind == "quant" and k >= 1 and _spaceless(toks[k - 1])
                                             and toks[k - 1].text != "\\S")
            if ch in _SPACE_BEFORE and wordish:
                flex()
            out.append(text)
            after = toks[i + 2] if i + 2 < len(toks) else _NONE
            first = beside(i, 1, ("open",))  # "\\((?P<code>\\d+)": what the group starts with
            starts_plain = first.kind == "lit" or _spaceless(first)
            if ch in _SPACE_AFTER and starts_plain and (nxt.kind == "open" or after.kind != "quant"):
                flex()
            continue
        out.append(text)
    return "".join(out)


_PIECE_SPLIT = re_compile(r"\s*[" + re.escape("".join(sorted(_SPACE_BEFORE | _SPACE_AFTER))) + r"]\s*| (?=\W)|(?<=\W) ")
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


# -- walks over the parsed regex (core/regex_syntax.py: the `regex` module's own syntax) ---------------

_OPEN_GROUPS = frozenset({"capture", "group", "branch-reset"})
"""Groups that only gather their items (no atomicity, no look-around)."""
_MATCHING_GROUPS = _OPEN_GROUPS | {"atomic"}
"""Groups whose items are part of the match."""


def _tree(pattern: str, flags: int = 0) -> rs.Seq | None:
    """The pattern's tree, or None when it cannot be read (then nothing is derived from it)."""
    try:
        return rs.parse(pattern, flags).root
    except (rs.RegexSyntaxError, RecursionError):
        return None


def _same(a: rs.Node, b: rs.Node) -> bool:
    if isinstance(a, rs.Char) and isinstance(b, rs.Char) and a.exact is not None:
        return a.exact == b.exact
    return a == b


def _seq(node: rs.Node) -> list[rs.Node]:
    """The items of a sequence as every walk reads them: a non-capturing group's items in line with
    their neighbours ('calibrator\\.(?:cu|cpp)' holds 'calibrator.c'), and an alternation's common
    leading items in front of it ('foo bar|foo baz' reads as 'foo ba(?:r|z)'): every match holds them."""
    out: list[rs.Node] = []
    for item in _hoisted(node):
        if isinstance(item, rs.Group) and item.kind == "group":
            out += _seq(item.body)
        else:
            out.append(item)
    return out


def _hoisted(node: rs.Node) -> list[rs.Node]:
    items = list(rs.items(node))
    if len(items) != 1 or not isinstance(items[0], rs.Alt):
        return items
    branches = [list(b.items) for b in items[0].branches]
    prefix: list[rs.Node] = []
    while all(branches) and all(_same(b[0], branches[0][0]) for b in branches[1:]):
        prefix.append(branches[0][0])
        for b in branches:
            del b[0]
    if not prefix:
        return items
    return [*prefix, rs.Alt(tuple(rs.Seq(tuple(b)) for b in branches))]


def _literals_of(node: rs.Node) -> list[str] | None:
    """Strings of which every match of the node holds one (runs of case-sensitive literal characters;
    groups, required repeats and alternations whose every branch has some)."""
    cands: list[list[str]] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            cands.append(["".join(run)])
            run.clear()

    for item in _seq(node):
        if isinstance(item, rs.Char) and item.exact is not None:
            run.append(item.exact)
            continue
        flush()
        sub: list[str] | None = None
        if isinstance(item, rs.Group) and item.kind in _MATCHING_GROUPS:
            sub = _literals_of(item.body)
        elif isinstance(item, rs.Alt):
            alts = [_literals_of(b) for b in item.branches]
            if alts and all(alts):
                sub = [x for a in alts for x in a or ()]
        elif isinstance(item, rs.Repeat) and item.lo >= 1:
            sub = _literals_of(item.body)
        if sub:
            cands.append(sub)
    flush()
    return _best(cands)


def derive_literals(pattern: str, min_length: int = MIN_LITERAL) -> list[str] | None:
    """Literals of which every match contains at least one, or None if none of `min_length`
    characters or more can be derived."""
    tree = _tree(pattern)
    if tree is None:
        return None
    lits = _literals_of(tree)
    if not lits or min(len(x) for x in lits) < min_length:
        return None
    return sorted(set(lits))


def required_runs(pattern: str, min_length: int = 3) -> tuple[str, ...]:
    """The literal runs (of `min_length`+ characters) that every match of the pattern contains.

    Walks the pattern's top-level sequence (and the groups and repeats it must go through); a branch
    (beyond what all its alternatives start with), an optional part or anything case-insensitive
    contributes nothing. Empty when the pattern cannot be read: then no shortcut is taken.
    """
    tree = _tree(pattern)
    if tree is None:
        return ()
    runs: list[str] = []

    def walk(node: rs.Node) -> None:
        run: list[str] = []

        def flush() -> None:
            if len(run) >= min_length:
                runs.append("".join(run))
            run.clear()

        for item in _seq(node):
            if isinstance(item, rs.Char) and item.exact is not None:
                run.append(item.exact)
                continue
            flush()
            if (isinstance(item, rs.Group) and item.kind in _MATCHING_GROUPS) or (
                    isinstance(item, rs.Repeat) and item.lo >= 1):
                walk(item.body)
        flush()

    walk(tree)
    return tuple(dict.fromkeys(runs))


def literals_for(sig: Signature) -> list[str]:
    """Prefilter literals: the signature's own, each cut to the piece a tolerant match still holds."""
    if sig.ignore_case:
        return list(sig.literals)
    return list(dict.fromkeys(tolerant_literal(lit) for lit in sig.literals))


# -- the backtracking guard ------------------------------------------------------------------------
# A regex backtracks catastrophically when a repeat can match the same run of characters in many
# ways ('(\w+\s?)+', '(a|aa)+', '(.*,)*') and what follows the run then fails. The inputs below put
# the text that leads up to each repeat in front (so the engine reaches it), pump the repeat with
# the characters it accepts, and end with a character nothing expects.

_PROBE_CHARS = "a0 _~-./:,;=xAZ()[]{}<>\"'|!@#$%^&*+?\\\t"
"""Candidate characters: a repeat is pumped with those it accepts."""
_MAX_PUMPS = 48
"""At most this many adversarial inputs per repeat position (the input list stays short)."""


def _witness(node: rs.Node, depth: int = 0) -> str:
    """A short string the node matches (best effort: look-arounds and anchors give '')."""
    if depth > 50:
        return ""
    out: list[str] = []
    for item in _seq(node):
        if isinstance(item, rs.Char):
            out.append(item.literal if item.literal is not None
                       else next((ch for ch in _PROBE_CHARS if item.accepts(ch)), "a"))
        elif isinstance(item, rs.Group) and item.kind in _MATCHING_GROUPS:
            out.append(_witness(item.body, depth + 1))
        elif isinstance(item, rs.Alt):
            out.append(_witness(item.branches[0], depth + 1) if item.branches else "")
        elif isinstance(item, rs.Repeat):
            out.append(_witness(item.body, depth + 1) * min(item.lo, 64))
        elif isinstance(item, rs.Opaque) and item.body is not None:  # fuzzy: the exact match is one
            out.append(_witness(item.body, depth + 1))
    return "".join(out)


def _parts(item: rs.Node) -> tuple[rs.Node, ...]:
    """What a node matches with (groups that are part of the match, branches, repeated bodies)."""
    if isinstance(item, rs.Group):
        return (item.body,) if item.kind in _MATCHING_GROUPS else ()
    if isinstance(item, rs.Alt):
        return item.branches
    if isinstance(item, rs.Repeat):
        return (item.body,)
    if isinstance(item, rs.Opaque) and item.body is not None:
        return (item.body,)
    if isinstance(item, rs.Conditional):
        return (item.yes,) if item.no is None else (item.yes, item.no)
    return ()


def _chars_in(node: rs.Node, out: set[str], depth: int = 0) -> None:
    """Every probe character some single-character item of the node (at any depth) accepts."""
    if depth > 50:
        return
    for item in _seq(node):
        if isinstance(item, rs.Char):
            out.update(ch for ch in _PROBE_CHARS if item.accepts(ch))
            if item.literal is not None:
                out.add(item.literal)
        for part in _parts(item):
            _chars_in(part, out, depth + 1)


def _repeat_sites(node: rs.Node, prefix: str, out: list[tuple[str, rs.Node]], depth: int = 0) -> None:
    """(text leading up to the repeat, repeat body) for every unbounded or long repeat."""
    if depth > 50:
        return
    lead = prefix
    for item in _seq(node):
        if isinstance(item, rs.Repeat) and (item.hi is None or item.hi > 16):
            out.append((lead, item.body))
        for part in _parts(item):
            _repeat_sites(part, lead, out, depth + 1)
        lead += _witness(item)


def _single_items(node: rs.Node, out: list[rs.Char], depth: int = 0) -> None:
    """Every single-character item (literal, class, dot) of the tree."""
    if depth > 50:
        return
    for item in _seq(node):
        if isinstance(item, rs.Char):
            out.append(item)
        for part in _parts(item):
            _single_items(part, out, depth + 1)


def _representatives(tree: rs.Node, chars: set[str]) -> list[str]:
    """One character per behaviour: two characters every item of the pattern treats alike pump alike."""
    items: list[rs.Char] = []
    _single_items(tree, items)
    seen: dict[tuple[bool, ...], str] = {}
    for ch in sorted(chars):
        key = tuple(item.accepts(ch) for item in items)
        seen.setdefault(key, ch)
    return sorted(seen.values())


def _sig_tree(sig: Signature) -> rs.Seq | None:
    """The signature's regex read with the case flag it runs with."""
    return _tree(sig.regex, rs.IGNORECASE if sig.ignore_case else 0)


def adversarial_inputs(sig: Signature, length: int | None = None) -> list[str]:
    """Inputs built from the pattern: what leads up to each repeat, a long run of what it accepts, then a
    character nothing expects. Also the prefilter literal followed by such runs."""
    size = length or ADVERSARIAL_LENGTH
    tree = _sig_tree(sig)
    inputs: list[str] = []
    if tree is not None:
        sites: list[tuple[str, rs.Node]] = []
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
    head = literals_for(sig)[0]
    pool = "".join(reps)
    inputs.append(head + pool * (size // max(1, len(pool))) + "\x00")
    inputs += [head + c * size + "\x00" for c in reps]
    inputs += [head + (c + " ") * (size // 2) + "\x00" for c in reps[:8] if c != " "]
    return list(dict.fromkeys(inputs))


def _nullable(item: rs.Node, depth: int = 0) -> bool:
    """Can this node match the empty string? (look-arounds, anchors, back-references: yes)"""
    if depth > 50:
        return True
    if isinstance(item, rs.Char):
        return False
    if isinstance(item, rs.Seq):
        return all(_nullable(i, depth + 1) for i in item.items)
    if isinstance(item, rs.Group) and item.kind in _MATCHING_GROUPS:
        return _nullable(item.body, depth + 1)
    if isinstance(item, rs.Alt):
        return any(_nullable(b, depth + 1) for b in item.branches)
    if isinstance(item, rs.Repeat):
        return item.lo == 0 or _nullable(item.body, depth + 1)
    return True


def _unbounded(item: rs.Node) -> bool:
    """A repeat that can backtrack over a long run (possessive repeats never give anything back)."""
    return isinstance(item, rs.Repeat) and item.mode != "possessive" and (item.hi is None or item.hi > 16)


def _inner_repeats(node: rs.Node, out: list[rs.Node], depth: int = 0) -> None:
    """Unbounded, backtracking repeats inside a node. Atomic groups, look-arounds and possessive repeats
    are left out: each matches in one way only, whatever follows."""
    if depth > 50:
        return
    for item in _seq(node):
        if isinstance(item, rs.Repeat):
            if _unbounded(item):
                out.append(item.body)
            elif item.mode != "possessive":
                _inner_repeats(item.body, out, depth + 1)
        elif isinstance(item, rs.Group):
            if item.kind in _OPEN_GROUPS:
                _inner_repeats(item.body, out, depth + 1)
        else:
            for part in _parts(item):
                _inner_repeats(part, out, depth + 1)


def _item_chars(item: rs.Node) -> set[str]:
    chars: set[str] = set()
    _chars_in(item, chars)
    return chars


def _flatten(node: rs.Node, depth: int = 0) -> list[rs.Node]:
    """A sequence with capture / non-capture groups of one alternative opened up."""
    out: list[rs.Node] = []
    for item in _seq(node):
        if isinstance(item, rs.Group) and item.kind in _OPEN_GROUPS and depth < 50:
            out += _flatten(item.body, depth + 1)
        else:
            out.append(item)
    return out


def _unseparated(repeat: rs.Repeat) -> bool:
    """Does the repeat's body hold an unbounded repeat with nothing forcing the iterations apart?"""
    body = _flatten(repeat.body)
    inner: list[rs.Node] = []
    for item in body:
        _inner_repeats(item, inner)
    for sub in inner:
        inner_chars: set[str] = set()
        _chars_in(sub, inner_chars)
        separated = any(not _nullable(i) and not _unbounded(i) and not (_item_chars(i) & inner_chars) for i in body)
        if not separated:
            return True
    return False


def _ambiguous_nesting(node: rs.Node, depth: int = 0, protected: bool = False) -> str | None:
    """The first unbounded repeat whose body holds another unbounded repeat with nothing forcing the
    iterations apart, e.g. '(\\w+\\s?)+' or '(.*,)*' (but not '(\\d+\\.)+': the dot separates them).

    Atomic groups and possessive repeats never backtrack into what they matched: a repeat that ends one
    (`protected`: '(?>(\\w+\\s?)+)', '(\\w+\\s?)++') is found in one pass, so only what lies inside it
    can still backtrack ('(?>(\\w+\\s?)+x)' is refused)."""
    if depth > 50:
        return None
    seq = _seq(node)
    for i, item in enumerate(seq):
        last = protected and i == len(seq) - 1
        found: str | None = None
        if isinstance(item, rs.Repeat):
            if _unbounded(item) and not last and _unseparated(item):
                return "nested unbounded repeats"
            atomic = item.mode == "possessive" and item.lo <= 1
            found = _ambiguous_nesting(item.body, depth + 1, protected=atomic or (last and item.lo <= 1))
        elif isinstance(item, rs.Group):
            # a look-behind is matched backwards: its last item is not the one that ends it
            ends = item.kind in ("atomic", "ahead", "not-ahead") or (last and item.kind in _OPEN_GROUPS)
            found = _ambiguous_nesting(item.body, depth + 1, protected=ends)
        elif isinstance(item, rs.Alt):
            for branch in item.branches:
                found = found or _ambiguous_nesting(branch, depth + 1, protected=last)
        elif isinstance(item, rs.Conditional | rs.Opaque):
            for part in rs.children(item):
                found = found or _ambiguous_nesting(part, depth + 1)
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
    tree = _sig_tree(sig)
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


def _from_re_flags(flags: int) -> int:
    """`re` flags as the `regex` module's (re.ASCII is regex.VERSION1's bit)."""
    out = 0
    for re_flag, rx_flag in _RE_FLAGS:
        if flags & re_flag:
            out |= rx_flag
    return out


_RE_FLAGS = tuple((int(re_flag), rx_flag) for re_flag, rx_flag in (
    (re.IGNORECASE, rs.IGNORECASE), (re.MULTILINE, rs.MULTILINE), (re.DOTALL, rs.DOTALL), (re.VERBOSE, rs.VERBOSE),
    (re.ASCII, rs.ASCII)))


def fold_marker(marker: str) -> str | None:
    """`^X` (MULTILINE) as `X` to put after a newline, or None when that rewrite is not exact (the
    markers are joined into one alternation: a reference to a group by its number would change)."""
    try:
        parsed = rs.parse(marker, rs.MULTILINE)
    except (rs.RegexSyntaxError, RecursionError):
        return None
    items = parsed.root.items
    if parsed.inline_flags & ~rs.MULTILINE or not items:
        return None
    first = items[0]
    if not isinstance(first, rs.Anchor) or first.source != "^":
        return None
    if any(isinstance(item, rs.Alt) for item in items) or _refers_to_groups(parsed.root):
        return None
    return marker[1:]


def _refers_to_groups(node: rs.Node, depth: int = 0) -> bool:
    """A back-reference, a conditional on a group, or anything not read (recursion) anywhere in the node."""
    if depth > 200 or isinstance(node, rs.Backref) or (isinstance(node, rs.Opaque) and node.body is None
                                                       and node.source.startswith("(?")):
        return True
    if isinstance(node, rs.Conditional) and isinstance(node.condition, str):
        return True
    return any(_refers_to_groups(child, depth + 1) for child in rs.children(node))


_LOOKS_BEHIND = frozenset({"^", "\\A", "\\b", "\\B", "\\G", "\\m", "\\M"})
"""Anchors that read what comes before the position (`$`, `\\Z`, `\\z` read only what follows)."""


def _reads_behind(node: rs.Node, depth: int = 0) -> bool:
    if depth > 200:
        return True
    if isinstance(node, rs.Anchor):
        return node.source in _LOOKS_BEHIND
    if isinstance(node, rs.Group) and node.kind in ("behind", "not-behind"):
        return True
    if isinstance(node, rs.Opaque) and node.body is None:
        return node.source.startswith("(?")  # recursion may reach anything; \K, \X, \R and verbs do not look back
    return any(_reads_behind(child, depth + 1) for child in rs.children(node))


def looks_behind(pattern: str, flags: int = 0) -> bool:
    """Whether a match of the pattern can depend on what comes before where it starts (a start or
    line anchor, a word boundary, a look-behind): then `pattern.match(s, pos)` may differ from
    `pattern.match(s[pos:])`. `$` is fine: both strings end in the same place. `flags` are `re` flags."""
    try:
        return _reads_behind(rs.parse(pattern, _from_re_flags(flags)).root)
    except (rs.RegexSyntaxError, RecursionError):
        return True


def can_start(pattern: str, ch: str, flags: int = 0) -> bool:
    """Whether a match of the pattern can start with the character `ch` (or be empty): False only when
    no match can. Whatever the walk does not look into (recursion, conditionals, back-references) can
    start with anything; look-arounds and anchors are looked through. `flags` are `re` flags. The
    prefix rules are sorted by it (`logs._combined_rules`)."""
    firsts, other = _first_items(pattern, flags)
    return other or any(item.accepts(ch) for item in firsts)


@functools.lru_cache(maxsize=1024)
def _first_items(pattern: str, flags: int) -> tuple[tuple[rs.Char, ...], bool]:
    """The single-character items a match can start with, and whether it can also start otherwise (with
    anything, or be empty)."""
    try:
        root = rs.parse(pattern, _from_re_flags(flags)).root
    except (rs.RegexSyntaxError, RecursionError):
        return (), True
    firsts: list[rs.Char] = []

    def walk(node: rs.Node, depth: int) -> tuple[bool, bool]:  # noqa: PLR0911  # one answer per kind of node
        """(whether the node can match nothing, whether it can start with what no item says)."""
        if depth > 200:
            return True, True
        if isinstance(node, rs.Char):
            firsts.append(node)
            return False, False
        if isinstance(node, rs.Seq):
            for item in node.items:
                empty, unknown = walk(item, depth + 1)
                if unknown or not empty:
                    return empty, unknown
            return True, False
        if isinstance(node, rs.Alt):
            found = [walk(branch, depth + 1) for branch in node.branches]
            return any(e for e, _u in found), any(u for _e, u in found)
        if isinstance(node, rs.Group):
            return (True, False) if node.kind in rs.LOOKAROUNDS else walk(node.body, depth + 1)
        if isinstance(node, rs.Repeat):
            empty, unknown = walk(node.body, depth + 1)
            return empty or node.lo == 0, unknown
        if isinstance(node, rs.Anchor):
            return True, False
        return True, True

    empty, unknown = walk(root, 0)
    return tuple(dict.fromkeys(firsts)), empty or unknown


def _show(text: str) -> str:
    """A short description of an adversarial input."""
    head = text[:40].replace("\x00", "\\x00")
    return f"starting {head!r}"


def check_entry_regexes(entry: Entry) -> str | None:
    """Compile every signature. Returns a problem or None."""
    for sig in entry.match.signatures:
        try:
            compile_pattern(sig.regex, sig.ignore_case)
        except regex.error as exc:
            return f"match.signatures.{sig.id}.regex: does not compile ({exc})"
    return None
