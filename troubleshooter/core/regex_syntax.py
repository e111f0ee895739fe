"""The `regex` module's pattern syntax (the one KB signatures are written in), read into a small tree:
the one reader of regex syntax in the package.

`core/regexes.py` walks this tree to judge whether a regex can backtrack catastrophically, to find the
strings every match holds, a regex's named groups, the characters a prefix rule can start with, and
rewrites a signature's text on its tokens (the whitespace tolerance). It used to borrow CPython's
private ``re._parser``, which does not know the `regex` module's own syntax (``\\p{L}``,
``(?<name>...)``, ...) and so saw nothing in those regexes. This parser reads the `regex` module's
version-0 syntax (what `compile_pattern` uses), which is a superset of `re`'s, so `re` patterns (the
log-prefix rules) read the same way.

The tree (every node is a named tuple: immutable, cheap to build, and equal nodes compare equal; the
field types keep two nodes of different kinds from ever comparing equal, see `Conditional`):

- `Char`: one character out of a set: a literal (``a``, ``\\.``, ``\\x41``, ``\\N{EM DASH}``), an escape
  class (``\\d``, ``\\p{L}``, ``\\h``), a class (``[^\\]\\n]``, ``[[:alpha:]]``) or the dot;
- `Seq`: items one after another; `Alt`: a choice of `Seq` (``a|b``), always the only item of its `Seq`;
- `Group`: capturing (``(..)``, ``(?P<n>..)``, ``(?<n>..)``), non-capturing (``(?:..)``, scoped flags
  ``(?i:..)``), atomic (``(?>..)``), branch reset (``(?|..)``) and the four look-arounds;
- `Repeat`: ``* + ? {m,n}`` (also ``{,n}``), greedy, lazy (``?``) or possessive (``+``);
- `Anchor`: ``^ $ \\A \\Z \\z \\b \\B \\G \\m \\M``; `Backref`: ``\\1``, ``\\g<n>``, ``(?P=n)``;
- `Conditional`: ``(?(1)yes|no)``, ``(?(?=..)yes|no)``;
- `Opaque`: what no analysis here looks into: recursion (``(?R)``, ``(?1)``, ``(?&n)``), verbs
  (``(*FAIL)``), ``\\K``, ``\\X``, ``\\R``, named lists (``\\L<n>``) and fuzzy constraints (``(?:x){e<=1}``,
  with the item they apply to as `body`).

Inline flags (``(?i)``, ``(?x)``, ``(?-i)``) apply from where they stand to the end of the enclosing
group, as in the `regex` module's version 0; each `Char` and `Anchor` carries the flags in force. Version 1
(``(?V1)``, set operations, nested classes) is not read: `parse` raises `RegexSyntaxError`, as it does for
anything malformed.

Beside the tree, `Parsed.tokens` is the pattern as the parser read it, item by item in source order (a
group's opening and closing parenthesis, each character item, each quantifier...): what rewrites the
pattern's text in place (`regexes.tolerant`) reads.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import NamedTuple, TypeAlias

import regex

IGNORECASE: int = int(regex.IGNORECASE)
MULTILINE: int = int(regex.MULTILINE)
DOTALL: int = int(regex.DOTALL)
VERBOSE: int = int(regex.VERBOSE)
ASCII: int = int(regex.ASCII)

_FLAG_LETTERS: dict[str, int] = {
    letter: int(flag) for letter, flag in (
        ("a", regex.ASCII), ("b", regex.BESTMATCH), ("e", regex.ENHANCEMATCH), ("f", regex.FULLCASE),
        ("i", regex.IGNORECASE), ("L", regex.LOCALE), ("m", regex.MULTILINE), ("p", regex.POSIX),
        ("r", regex.REVERSE), ("s", regex.DOTALL), ("u", regex.UNICODE), ("w", regex.WORD), ("x", regex.VERBOSE))
}
_MATCH_FLAGS = int(regex.IGNORECASE | regex.DOTALL | regex.ASCII | regex.UNICODE | regex.FULLCASE | regex.WORD)
"""The flags that change which characters a `Char` accepts (the others change parsing or anchors)."""

_CLASS_ESCAPES = frozenset("dDsSwWh")
_ANCHOR_ESCAPES = frozenset("AbBGmMzZ")
_OPAQUE_ESCAPES = frozenset("KXR")
_CONTROL = {"a": "\a", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_HEX = frozenset("0123456789abcdefABCDEF")
_OCT = frozenset("01234567")
_SPACE = frozenset(" \t\n\r\f\v")
_FUZZY = regex.compile(r"(?=.*?[eids])(?:[\d<=+*,]|cost|[eids])+")
"""A fuzzy constraint's text (``e<=1``, ``1<=e<=2``, ``2i+2d+1s<=4``, ``s<=1,e<=2``)."""
_PLAIN = regex.compile(r"[^\\\[()|.^$*+?{]+")
"""Characters that stand for themselves where an item starts (outside VERBOSE)."""
_QUANTIFIER_FIRST = frozenset("*+?{")
_POSIX = regex.compile(r"\[:\^?\w+:\]")
"""A POSIX class inside a class (``[[:alpha:]]``); any other ``[`` there is a literal."""


class RegexSyntaxError(ValueError):
    """A pattern this module cannot read (malformed, or syntax it does not know)."""

    def __init__(self, message: str, pattern: str, pos: int) -> None:
        super().__init__(f"{message} at position {pos}")
        self.pattern = pattern
        self.pos = pos


class Char(NamedTuple):
    """One character out of a set. `literal` is the character a literal stands for (None for a class,
    an escape class or the dot); a one-character class such as ``[.]`` is a literal too."""

    source: str
    flags: int = 0
    literal: str | None = None

    @property
    def exact(self) -> str | None:
        """The literal when it matches only itself (not under IGNORECASE), else None."""
        return self.literal if not self.flags & IGNORECASE else None

    def accepts(self, ch: str) -> bool:
        """Does this item match the one character `ch`? (The `regex` module answers.)"""
        if self.exact is not None:
            return ch == self.exact
        source = regex.escape(self.literal) if self.literal is not None else self.source
        return _accepts(source, self.flags & _MATCH_FLAGS, ch)


class Seq(NamedTuple):
    """Items matched one after another."""

    items: tuple[Node, ...]


class Alt(NamedTuple):
    """A choice between sequences (``a|b``)."""

    branches: tuple[Seq, ...]


GROUP_KINDS = ("capture", "group", "atomic", "branch-reset", "ahead", "not-ahead", "behind", "not-behind")
LOOKAROUNDS = frozenset({"ahead", "not-ahead", "behind", "not-behind"})


class Group(NamedTuple):
    """A parenthesised sub-pattern; `kind` is one of GROUP_KINDS ("group": non-capturing)."""

    kind: str
    body: Seq
    name: str | None = None


class Repeat(NamedTuple):
    """``body`` repeated `lo` to `hi` times (`hi` None: unbounded); mode greedy, lazy or possessive."""

    body: Node
    lo: int
    hi: int | None
    mode: str = "greedy"


class Anchor(NamedTuple):
    """A zero-width position test: ``^ $ \\A \\Z \\z \\b \\B \\G \\m \\M`` (as written)."""

    source: str
    flags: int = 0


class Backref(NamedTuple):
    """A back-reference to a group, by number or name."""

    ref: str


class Conditional(NamedTuple):
    """``(?(cond)yes|no)``: `condition` is a group reference (its text) or a look-around `Group`.

    Its branches come first: a `Group` (a text, then a `Seq`) and a `Char` (a text, then an integer) of
    the same fields could otherwise equal one (named tuples compare as tuples; no two kinds of node here
    have fields that can be equal one by one)."""

    yes: Seq
    no: Seq | None
    condition: str | Group


class Opaque(NamedTuple):
    """A construct nothing here analyses (recursion, verbs, ``\\K``, ``\\X``, ``\\R``, named lists, fuzzy
    matching): `source` says which; `body` is the item a fuzzy constraint applies to."""

    source: str
    body: Node | None = None


Node: TypeAlias = Char | Seq | Alt | Group | Repeat | Anchor | Backref | Conditional | Opaque


TOKEN_KINDS = ("char", "class", "open", "close", "quant", "other")
"""What a token is: a character item (a literal, escaped or not), a class (``[...]``), a group's opening
(``(``, ``(?:``, ``(?P<name>``..., and inline flags ``(?i)``) or closing parenthesis, a quantifier (with its
``?`` or ``+``), or anything else (``|``, ``.``, ``\\d``, anchors, comments, back-references...)."""


class Token(NamedTuple):
    """One item of the pattern's text as the parser read it: `kind` (TOKEN_KINDS), its `text`, and the
    character it stands for when it is a "char"."""

    kind: str
    text: str
    literal: str | None = None


class Parsed(NamedTuple):
    """A parsed pattern: `root`, the flags it was parsed with, the flags set by inline ``(?flags)``
    items anywhere in it (``(?i)``, not the scoped ``(?i:...)``), and its `tokens`: the pattern's whole
    text, item by item (what the parser skips, such as verbose whitespace, is an "other" token)."""

    pattern: str
    flags: int
    root: Seq
    inline_flags: int
    tokens: tuple[Token, ...]


@functools.lru_cache(maxsize=4096)
def _accepts(source: str, flags: int, ch: str) -> bool:
    try:
        return _compiled(source, flags).fullmatch(ch) is not None
    except regex.error:
        return False


@functools.lru_cache(maxsize=1024)
def _compiled(source: str, flags: int) -> regex.Pattern[str]:
    return regex.compile(source, flags | int(regex.V0))


@functools.lru_cache(maxsize=2048)
def parse(pattern: str, flags: int = 0) -> Parsed:
    """The tree of a `regex`-module pattern; RegexSyntaxError when it cannot be read."""
    if flags & int(regex.V1):
        raise RegexSyntaxError("version 1 syntax is not supported", pattern, 0)
    parser = _Parser(pattern)
    root = parser.sequence(flags, 0)
    if parser.pos < len(pattern):
        raise parser.error("unbalanced parenthesis")
    return Parsed(pattern, flags, root, parser.inline_flags, parser.token_list())


def items(node: Node) -> tuple[Node, ...]:
    """The items of a sequence (a node that is not a `Seq` is a sequence of itself)."""
    return node.items if isinstance(node, Seq) else (node,)


_MAX_DEPTH = 200
"""Groups nested deeper than this are refused (the walks over the tree recurse)."""


class _Parser:
    """Recursive descent over the pattern text; `pos` is where reading continues."""

    def __init__(self, pattern: str) -> None:
        self.p = pattern
        self.pos = 0
        self.inline_flags = 0
        self.spans: list[tuple[str, int, int, str | None]] = []
        """(kind, start, end, literal) of each token read, in source order."""

    def token(self, kind: str, start: int, literal: str | None = None) -> None:
        """Note the item read from `start` to here."""
        self.spans.append((kind, start, self.pos, literal))

    def token_list(self) -> tuple[Token, ...]:
        """The tokens, with whatever lies between two of them (verbose whitespace, comments) as "other"."""
        out: list[Token] = []
        at = 0
        for kind, start, end, literal in self.spans:
            if start > at:
                out.append(Token("other", self.p[at:start]))
            out.append(Token(kind, self.p[start:end], literal))
            at = end
        if at < len(self.p):
            out.append(Token("other", self.p[at:]))
        return tuple(out)

    def error(self, message: str, pos: int | None = None) -> RegexSyntaxError:
        return RegexSyntaxError(message, self.p, self.pos if pos is None else pos)

    def peek(self, k: int = 0) -> str:
        i = self.pos + k
        return self.p[i] if i < len(self.p) else ""

    def startswith(self, text: str) -> bool:
        return self.p.startswith(text, self.pos)

    def skip_verbose(self, flags: int) -> None:
        """Whitespace and ``#`` comments, which VERBOSE ignores outside classes."""
        if not flags & VERBOSE:
            return
        while self.pos < len(self.p):
            c = self.p[self.pos]
            if c in _SPACE:
                self.pos += 1
            elif c == "#":
                end = self.p.find("\n", self.pos)
                self.pos = len(self.p) if end < 0 else end + 1
            else:
                return

    # -- sequences and alternatives -------------------------------------------------------------------
    def sequence(self, flags: int, depth: int) -> Seq:
        """Branches up to the closing parenthesis of the group (not consumed) or the end."""
        if depth > _MAX_DEPTH:
            raise self.error("groups nested too deeply")
        branches: list[Seq] = []
        state = [flags]  # inline flags reach later branches of the same group
        while True:
            branches.append(self.branch(state, depth))
            if self.peek() == "|":
                self.pos += 1
                self.token("other", self.pos - 1)
                continue
            break
        return branches[0] if len(branches) == 1 else Seq((Alt(tuple(branches)),))

    def branch(self, state: list[int], depth: int) -> Seq:
        out: list[Node] = []
        p, spans = self.p, self.spans
        while True:
            flags = state[0]
            if not flags & VERBOSE:  # a run of plain characters (most of a signature) in one step
                run = _PLAIN.match(p, self.pos)
                if run is not None:
                    start, end = self.pos, run.end()
                    if p[end:end + 1] in _QUANTIFIER_FIRST:
                        end -= 1  # the last character is repeated: the loop below reads it
                    for i in range(start, end):
                        out.append(Char(p[i], flags, p[i]))
                        spans.append(("char", i, i + 1, p[i]))
                    self.pos = end
            self.skip_verbose(flags)
            c = self.peek()
            if c in ("", "|", ")"):
                return Seq(tuple(out))
            start = self.pos
            if c in "*+?" or (c == "{" and self.quantifier(state[0]) is not None):
                if not out:
                    raise self.error("nothing to repeat")
                out[-1] = self.repeat(out[-1], state[0])
                self.token("quant", start)
                continue
            node = self.atom(state, depth)
            if node is None:  # an inline flag item or a comment
                continue
            if c == "{" and isinstance(node, Char) and out and self.fuzzy_at(start):
                out[-1] = Opaque(self.p[start:self.pos], out[-1])
                self.spans[-1] = ("other", start, self.pos, None)  # the "{" read as a character
                continue
            out.append(node)

    # -- quantifiers ----------------------------------------------------------------------------------
    def quantifier(self, flags: int) -> tuple[int, int | None, int] | None:
        """(lo, hi, end) when a ``{m,n}`` repeat starts here, else None (the brace is a literal)."""
        end = self.p.find("}", self.pos)
        if end < 0:
            return None
        body = self.p[self.pos + 1:end]
        if flags & VERBOSE:
            body = "".join(ch for ch in body if ch not in _SPACE)
        lo_text, comma, hi_text = body.partition(",")
        if not (lo_text.isdigit() or lo_text == "") or not (hi_text.isdigit() or hi_text == "") \
                or not (lo_text or comma) or not body.isascii():
            return None
        lo = int(lo_text) if lo_text else 0
        hi: int | None = (int(hi_text) if hi_text else None) if comma else lo
        if hi is not None and hi < lo:
            raise self.error("min repeat greater than max repeat")
        return lo, hi, end + 1

    def repeat(self, item: Node, flags: int) -> Repeat:
        c = self.peek()
        found = self.quantifier(flags) if c == "{" else None
        if found is not None:
            lo, hi, self.pos = found
        else:
            lo, hi = {"*": (0, None), "+": (1, None), "?": (0, 1)}[c]
            self.pos += 1
        self.skip_verbose(flags)
        mode = "greedy"
        if self.peek() == "?":
            mode = "lazy"
            self.pos += 1
        elif self.peek() == "+":
            mode = "possessive"
            self.pos += 1
        self.skip_verbose(flags)
        nxt = self.peek()
        if nxt in ("*", "+", "?") or (nxt == "{" and self.quantifier(flags) is not None):
            raise self.error("multiple repeat")
        return Repeat(item, lo, hi, mode)

    def fuzzy_at(self, start: int) -> bool:
        """Was the ``{...}`` just read as literal characters a fuzzy constraint (``{e<=1}``)? Then
        the reading is redone as one constraint."""
        end = self.p.find("}", start)
        body = self.p[start + 1:end] if end > 0 else ""
        if not _FUZZY.fullmatch(body):
            return False
        self.pos = end + 1
        return True

    # -- atoms ----------------------------------------------------------------------------------------
    def atom(self, state: list[int], depth: int) -> Node | None:
        flags = state[0]
        c = self.peek()
        start = self.pos
        if c == "(":
            before = len(self.spans)
            group = self.group(state, depth)
            if len(self.spans) == before:  # a verb, a comment, a reference, inline flags: one item
                # inline flags (zero-width, opening what follows) read as an opening parenthesis
                flags_only = group is None and not self.p.startswith("(?#", start)
                self.token("open" if flags_only else "other", start)
            return group
        if c == "[":
            node: Node = self.char_class(flags)
            self.token("class", start)
            return node
        if c == "\\":
            node = self.escape(flags)
            literal = node.literal if isinstance(node, Char) else None
            self.token("char" if literal is not None else "other", start, literal)
            return node
        self.pos += 1
        if c == ".":
            self.token("other", start)
            return Char(".", flags)
        if c in "^$":
            self.token("other", start)
            return Anchor(c, flags)
        self.token("char", start, c)
        return Char(c, flags, c)

    def escape(self, flags: int) -> Node:  # noqa: PLR0911  # one branch per kind of escape
        start = self.pos
        self.pos += 1
        c = self.peek()
        if not c:
            raise self.error("bad escape (end of pattern)")
        self.pos += 1
        if c in _CLASS_ESCAPES:
            return Char("\\" + c, flags)
        if c in _ANCHOR_ESCAPES:
            return Anchor("\\" + c, flags)
        if c in _OPAQUE_ESCAPES:
            return Opaque("\\" + c)
        if c in "pP":
            end = self.property_end()
            return Char(self.p[start:end], flags, c if end == start + 2 else None)
        if c == "L" and self.peek() == "<":
            end = self.p.find(">", self.pos)
            if end < 0:
                raise self.error("missing >")
            self.pos = end + 1
            return Opaque(self.p[start:self.pos])
        if c == "g" and self.peek() == "<":
            end = self.p.find(">", self.pos)
            if end < 0:
                raise self.error("missing >")
            self.pos = end + 1
            return Backref(self.p[start + 3:end])
        if c.isdigit():
            return self.number_escape(start, flags)
        code = self.code_point(c, start)
        if code is not None:
            return Char(self.p[start:self.pos], flags, code)
        if c.isascii() and c.isalpha() and c not in "gNpP":
            raise self.error(f"bad escape \\{c}", start)
        return Char(self.p[start:self.pos], flags, c)

    def property_end(self) -> int:
        """The end of a ``\\p{..}`` / ``\\pL`` property (after the ``p``); ``\\p`` alone is the letter."""
        end = self.p.find("}", self.pos)
        if self.peek() == "{" and end > 0:
            self.pos = end + 1
        elif self.peek().isalpha():
            self.pos += 1
        return self.pos

    def code_point(self, c: str, start: int) -> str | None:
        """The character of ``\\x41``, ``\\u00e9``, ``\\U0001F600``, ``\\N{NAME}``, ``\\n``..., or None."""
        if c in _CONTROL:
            return _CONTROL[c]
        width = {"x": 2, "u": 4, "U": 8}.get(c)
        if width is not None:
            digits = self.p[self.pos:self.pos + width]
            if len(digits) != width or not set(digits) <= _HEX:
                raise self.error(f"incomplete escape \\{c}", start)
            self.pos += width
            try:
                return chr(int(digits, 16))
            except ValueError:
                raise self.error("bad escape", start) from None
        end = self.p.find("}", self.pos)
        if c == "N" and self.peek() == "{" and end > 0 and self.quantifier(0) is None:
            name = self.p[self.pos + 1:end]
            if _FUZZY.fullmatch(name):  # \N{e<=1} is a fuzzy "N"
                return None
            self.pos = end + 1
            try:
                return unicodedata.lookup(name)
            except KeyError:
                raise self.error(f"undefined character name {name!r}", start) from None
        return None

    def number_escape(self, start: int, flags: int) -> Node:
        """``\\0``, ``\\012``, ``\\123`` (octal characters) or ``\\1``..``\\99`` (back-references)."""
        first = self.p[start + 1]
        if first == "0":
            end = self.pos
            while end < len(self.p) and end < start + 4 and self.p[end] in _OCT:
                end += 1
            self.pos = end
            return Char(self.p[start:end], flags, chr(int(self.p[start + 1:end], 8)))
        three = self.p[start + 1:start + 4]
        if len(three) == 3 and set(three) <= _OCT:
            self.pos = start + 4
            return Char(self.p[start:self.pos], flags, chr(int(three, 8)))
        if self.peek().isdigit():
            self.pos += 1
        return Backref(self.p[start + 1:self.pos])

    def char_class(self, flags: int) -> Char:
        """``[...]``: version-0 classes (a ``[`` inside is a literal, except ``[:name:]``)."""
        start = self.pos
        self.pos += 1
        negated = self.peek() == "^"
        if negated:
            self.pos += 1
        members: set[str] = set()
        other = False
        first = True
        while True:
            c = self.peek()
            if not c:
                raise self.error("unterminated character set", start)
            if c == "]" and not first:
                self.pos += 1
                break
            first = False
            posix = _POSIX.match(self.p, self.pos) if c == "[" else None
            if posix is not None:
                self.pos = posix.end()
                other = True
                continue
            lit = self.class_member(start)
            if lit is None:
                other = True
                continue
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.pos += 1
                high = self.class_member(start)
                if high is None:  # "[a-\\d]": "a", "-" and the class
                    members.update((lit, "-"))
                    other = True
                    continue
                if ord(high) < ord(lit):
                    raise self.error("bad character range")
                other = True
                continue
            members.add(lit)
        source = self.p[start:self.pos]
        if not negated and not other and len(members) == 1:
            return Char(source, flags, next(iter(members)))
        return Char(source, flags)

    def class_member(self, start: int) -> str | None:
        """One member of a class: its character, or None for an escape class (``\\d``, ``\\p{L}``)."""
        c = self.peek()
        self.pos += 1
        if c != "\\":
            return c
        esc = self.peek()
        if not esc:
            raise self.error("unterminated character set", start)
        at = self.pos - 1
        self.pos += 1
        if esc in _CLASS_ESCAPES:
            return None
        if esc in "pP":
            self.property_end()
            return None
        if esc == "b":
            return "\b"
        if esc.isdigit():
            if esc not in _OCT:
                raise self.error(f"bad escape \\{esc}", at)
            end = self.pos
            while end < len(self.p) and end < at + 4 and self.p[end] in _OCT:
                end += 1
            self.pos = end
            return chr(int(self.p[at + 1:end], 8))
        code = self.code_point(esc, at)
        if code is not None:
            return code
        if esc.isascii() and esc.isalpha() and esc not in "NpP":
            raise self.error(f"bad escape \\{esc}", at)
        return esc

    # -- groups ---------------------------------------------------------------------------------------
    def close(self, start: int) -> None:
        if self.peek() != ")":
            raise self.error("missing ), unterminated subpattern", start)
        self.pos += 1
        self.token("close", self.pos - 1)

    def group(self, state: list[int], depth: int) -> Node | None:  # noqa: PLR0911  # one branch per group kind
        start = self.pos
        flags = state[0]
        self.pos += 1
        if self.startswith("*"):  # (*PRUNE), (*SKIP), (*FAIL), (*F), (*COMMIT)
            end = self.p.find(")", self.pos)
            verb = self.p[self.pos + 1:end] if end > 0 else ""
            if not verb.isalpha() or not verb.isupper():
                raise self.error("nothing to repeat", self.pos)
            self.pos = end + 1
            return Opaque(self.p[start:self.pos])
        if not self.startswith("?"):
            return self.group_body("capture", flags, depth, start)
        self.pos += 1
        simple = {":": "group", ">": "atomic", "|": "branch-reset", "=": "ahead", "!": "not-ahead",
                  "<=": "behind", "<!": "not-behind"}
        for mark in ("<=", "<!", ":", ">", "|", "=", "!"):
            if self.startswith(mark):
                self.pos += len(mark)
                return self.group_body(simple[mark], flags, depth, start)
        if self.startswith("#"):
            end = self.p.find(")", self.pos)
            if end < 0:
                raise self.error("missing ), unterminated comment", start)
            self.pos = end + 1
            return None
        if self.startswith("P<") or self.startswith("<"):
            self.pos += 2 if self.peek() == "P" else 1
            name = self.name(">")
            return self.group_body("capture", flags, depth, start, name)
        if self.startswith("P="):
            self.pos += 2
            return Backref(self.name(")"))
        if self.startswith("P>") or self.startswith("&"):
            self.pos += 2 if self.peek() == "P" else 1
            self.name(")")
            return Opaque(self.p[start:self.pos])
        if self.peek() == "R" or self.peek().isdigit() or (self.peek() in "+-" and self.peek(1).isdigit()):
            end = self.p.find(")", self.pos)
            text = self.p[self.pos:end] if end > 0 else ""
            if not (text == "R" or text.lstrip("+-").isdigit()):
                raise self.error("unknown extension")
            self.pos = end + 1
            return Opaque(self.p[start:self.pos])
        if self.startswith("("):
            return self.conditional(flags, depth, start)
        return self.flag_group(state, depth, start)

    def name(self, terminator: str) -> str:
        end = self.p.find(terminator, self.pos)
        name = self.p[self.pos:end] if end >= 0 else ""
        if not name or not (name.isidentifier() or name.isdigit()):
            raise self.error("bad group name")
        self.pos = end + 1
        return name

    def group_body(self, kind: str, flags: int, depth: int, start: int, name: str | None = None) -> Group:
        self.token("open", start)
        body = self.sequence(flags, depth + 1)
        self.close(start)
        return Group(kind, body, name)

    def conditional(self, flags: int, depth: int, start: int) -> Conditional:
        self.token("open", start)  # "(?", then the condition: a look-around group or a "(reference)"
        self.pos += 1
        condition: str | Group
        if self.startswith("?=") or self.startswith("?!") or self.startswith("?<=") or self.startswith("?<!"):
            self.pos -= 1
            node = self.group([flags], depth + 1)
            if not isinstance(node, Group):
                raise self.error("bad condition")
            condition = node
        else:
            end = self.p.find(")", self.pos)
            if end < 0:
                raise self.error("missing ), unterminated name")
            condition = self.p[self.pos:end]
            self.pos = end + 1
            self.token("other", self.pos - len(condition) - 2)
        body = self.sequence(flags, depth + 1)
        self.close(start)
        branches = body.items[0].branches if len(body.items) == 1 and isinstance(body.items[0], Alt) else (body,)
        if len(branches) > 2:
            raise self.error("conditional group with more than two branches", start)
        return Conditional(branches[0], branches[1] if len(branches) == 2 else None, condition)

    def flag_group(self, state: list[int], depth: int, start: int) -> Node | None:
        """``(?flags)`` (on to the end of the enclosing group) or ``(?flags-flags:...)`` (scoped)."""
        on, off, turning_off = 0, 0, False
        while True:
            c = self.peek()
            if c == "V" and self.peek(1) in "01":
                if self.peek(1) == "1":
                    raise self.error("version 1 syntax is not supported")
                self.pos += 2
                continue
            if c in _FLAG_LETTERS:
                if turning_off:
                    off |= _FLAG_LETTERS[c]
                else:
                    on |= _FLAG_LETTERS[c]
                self.pos += 1
                continue
            if c == "-" and not turning_off:
                turning_off = True
                self.pos += 1
                continue
            break
        if self.peek() == ")":
            self.pos += 1
            state[0] = (state[0] | on) & ~off
            self.inline_flags |= on
            return None
        if self.peek() == ":":
            self.pos += 1
            return self.group_body("group", (state[0] | on) & ~off, depth, start)
        raise self.error("unknown extension")


def children(node: Node) -> tuple[Node, ...]:
    """The nodes directly inside a node (a conditional's look-around condition included)."""
    if isinstance(node, Seq):
        return node.items
    if isinstance(node, Alt):
        return node.branches
    if isinstance(node, Group | Repeat):
        return (node.body,)
    if isinstance(node, Opaque):
        return (node.body,) if node.body is not None else ()
    if isinstance(node, Conditional):
        return tuple(part for part in (node.condition, node.yes, node.no) if isinstance(part, Group | Seq))
    return ()
