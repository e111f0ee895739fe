"""core/regex_syntax.py: the `regex` module's syntax as the literal derivation and the backtracking guard read it."""

from __future__ import annotations

import contextlib
import string

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from troubleshooter.core import regex_syntax as rs
from troubleshooter.core.regexes import (
    check_backtracking,
    compile_pattern,
    derive_literals,
    fold_marker,
    looks_behind,
    required_runs,
    tolerant,
)
from troubleshooter.kb.loader import load_kb
from troubleshooter.kb.schema import Signature


def _sig(pattern: str, **kw: object) -> Signature:
    kw.setdefault("literals", derive_literals(pattern) or [""])  # what a KB entry would list
    return Signature(id="s", regex=pattern, **kw)  # type: ignore[arg-type]


# -- what the issue asked for ------------------------------------------------------------------------

def test_nested_property_repeat_is_refused() -> None:
    """`re` cannot read \\p{L}, so the guard used to see no structure here and let it through."""
    problem = check_backtracking(_sig(r"Could not find (\p{L}+)+$"))
    assert problem is not None and "backtrack" in problem


def test_angle_bracket_named_group_gives_a_literal() -> None:
    lits = derive_literals(r"(?<node>\w+) failed to import")
    assert lits is not None and any("failed to import" in lit for lit in lits)
    assert required_runs(r"(?<node>\w+) failed to import") == (" failed to import",)


@pytest.mark.parametrize("pattern", [
    r"Could not find (\w+\s?)++\(",
    r"Could not find (?>(\w+\s?)+)\(",
    r"Could not find (?:\w++\s?)+\(",
    r"Could not find (?>\w+\s?)+\(",
    r"Could not find ((\w+\s?)+)++\(",
    r"Could not find (?=(\w+\s?)+)\w",
    r"Could not find (?<node>\p{L}++)+ node",
])
def test_possessive_and_atomic_nestings_are_accepted(pattern: str) -> None:
    assert check_backtracking(_sig(pattern)) is None


@pytest.mark.parametrize("pattern", [
    r"Could not find (?>(\w+\s?)+x)",  # inside the atomic group the repeat is followed by something that can fail
    r"Could not find ((\w+\s?)+x)++",
    r"Could not find (?<=(\w+\s?)+)x",  # a look-behind is matched backwards: nothing protects it
    r"(?i:Could not find) (\w+\s?)+\(",
])
def test_what_an_atomic_group_does_not_protect_is_refused(pattern: str) -> None:
    problem = check_backtracking(_sig(pattern, literals=["Could not find"]))
    assert problem is not None and "nests an unbounded repeat" in problem


def test_case_insensitive_text_is_not_a_literal() -> None:
    """'(?i:could not find ...)' matches 'Could not find ...': its text cannot be a prefilter literal."""
    pattern = r"(?i:could not find any implementation for node) (?P<node>.+?), try increasing the workspace size"
    assert derive_literals(pattern) == [", try increasing the workspace size"]
    assert derive_literals(r"(?i)could not find any implementation") is None
    assert derive_literals(r"Error Code 4(?i) internal error") == ["Error Code 4"]  # (?i) applies from there on
    assert required_runs(r"Error Code (?i:internal) failure") == ("Error Code ", " failure")


@pytest.mark.parametrize(("pattern", "expected"), [
    (r"calibrator\.(?:cu|cpp)::x", ("calibrator.c", "::x")),  # a non-capturing group reads in line
    (r"Method (?:end to end )?by (?:TRTorch|Torch-TensorRT)", ("Method ", "by T")),  # common leading text
    (r"(?x) Error \ Code \d+ # a comment", ("Error Code",)),
    (r"a{2}bcd[.]ef\x41", ("bcd.efA",)),
    (r"(?:abc|abd)\N{EM DASH}xyz", ("ab", "—xyz")),
])
def test_required_runs(pattern: str, expected: tuple[str, ...]) -> None:
    assert required_runs(pattern, 2) == expected


@pytest.mark.parametrize(("pattern", "expected"), [
    (r"(?P<a>failed to build)|(?<b>could not build)", ["could not build", "failed to build"]),
    (r"node (?:alpha|beta|gamma) skipped", [" skipped"]),
    (r"Error (?:Code 4|Code 10): bad", ["Error Code "]),
    (r"\p{L}+ failed to parse \d+", [" failed to parse "]),
    (r"(?>Assertion \w+) failed", ["Assertion "]),
    (r"abc(?=defghi)", None),  # look-arounds are not part of the match's own text
    (r"[^x]+", None),
])
def test_derived_literals(pattern: str, expected: list[str] | None) -> None:
    assert derive_literals(pattern) == expected


def test_builtin_signatures_keep_their_required_runs_in_every_example_they_match() -> None:
    """A required run that a matching line lacks would lose that match (the literals: `kb validate`)."""
    for entry in load_kb().entries:
        lines = [ln for ex in entry.examples.match for ln in ex.log.splitlines() if ln.strip()]
        for sig in entry.match.signatures:
            pattern = compile_pattern(sig.regex, sig.ignore_case)
            runs = () if sig.ignore_case else required_runs(tolerant(sig.regex))
            for line in lines:
                if pattern.search(line):
                    assert all(run in line for run in runs), (entry.id, sig.id, line)


_PIECES = ["ab", "ba", "abc", "b", "c", ".", r"\w", "[ab]", "[^c]", r"\p{L}", "(?i:ab)", "A", "(?<n>ab)", "(?P<m>ca)",
           "(?>ab)", "(?=ab)", "(?!c)", "(?<=a)", r"\b", "^", "$", "x?"]


def _patterns() -> st.SearchStrategy[str]:
    leaf = st.sampled_from(_PIECES)
    return st.recursive(leaf, lambda inner: st.one_of(
        st.lists(inner, min_size=2, max_size=3).map(lambda alts: "(?:" + "|".join(alts) + ")"),
        st.tuples(inner, st.sampled_from(["*", "+", "?", "{2}", "{1,3}", "+?", "++"])).map(lambda t: f"({t[0]}){t[1]}"),
        st.tuples(inner, inner).map("".join),
    ), max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(_patterns(), st.lists(st.text(alphabet="abcAB x", max_size=12), min_size=20, max_size=20))
def test_every_match_holds_the_required_runs(pattern: str, texts: list[str]) -> None:
    compiled = regex.compile(pattern, regex.V0)
    runs = required_runs(pattern, 1)
    for text in texts:
        if compiled.search(text):
            assert all(run in text for run in runs), (pattern, runs, text)


# -- the parser itself ---------------------------------------------------------------------------------

def test_tree_of_regex_module_syntax() -> None:
    root = rs.parse(r"(?<node>\p{L}+)++ (?P<x>\N{EM DASH}|\x41)?+ [^\]a-z[:]{,3}?").root
    group, _space, opt, _space2, cls = root.items
    assert isinstance(group, rs.Repeat) and group.mode == "possessive" and group.lo == 1 and group.hi is None
    assert isinstance(group.body, rs.Group) and group.body.name == "node"
    inner = group.body.body.items[0]
    assert isinstance(inner, rs.Repeat) and inner.body == rs.Char(r"\p{L}")
    assert isinstance(opt, rs.Repeat) and opt.mode == "possessive" and (opt.lo, opt.hi) == (0, 1)
    assert isinstance(opt.body, rs.Group)
    alt = opt.body.body.items[0]
    assert isinstance(alt, rs.Alt) and [b.items[0].literal for b in alt.branches] == ["—", "A"]  # type: ignore[union-attr]
    assert isinstance(cls, rs.Repeat) and cls.mode == "lazy" and (cls.lo, cls.hi) == (0, 3)
    assert isinstance(cls.body, rs.Char) and cls.body.accepts("1")
    assert not any(cls.body.accepts(ch) for ch in "[]:b")


@pytest.mark.parametrize(("pattern", "kind"), [
    ("(?:a)", "group"), ("(?>a)", "atomic"), ("(?|a)", "branch-reset"), ("(?=a)", "ahead"), ("(?!a)", "not-ahead"),
    ("(?<=a)", "behind"), ("(?<!a)", "not-behind"), ("(a)", "capture"), ("(?P<n>a)", "capture"), ("(?<n>a)", "capture"),
    ("(?i:a)", "group"), ("(?s-i:a)", "group"),
])
def test_group_kinds(pattern: str, kind: str) -> None:
    node = rs.parse(pattern).root.items[0]
    assert isinstance(node, rs.Group) and node.kind == kind


def test_inline_flags_apply_to_the_rest_of_the_group() -> None:
    """As in the regex module's version 0: 'a(?i)b' matches 'aB', not 'Ab'; '(a(?i)b)c' keeps 'c' exact."""
    items = rs.parse(r"(a(?i)b)c").root.items
    group, c = items
    assert isinstance(group, rs.Group) and isinstance(c, rs.Char)
    a, b = group.body.items
    assert isinstance(a, rs.Char) and isinstance(b, rs.Char)
    assert a.exact == "a" and b.exact is None and c.exact == "c"
    assert rs.parse(r"a(?i)b").inline_flags == rs.IGNORECASE
    assert rs.parse(r"(?i:a)b").inline_flags == 0


@pytest.mark.parametrize(("pattern", "node"), [
    (r"\K", rs.Opaque(r"\K")), (r"(?R)", rs.Opaque("(?R)")), (r"(?1)", rs.Opaque("(?1)")),
    (r"(?&name)", rs.Opaque("(?&name)")), (r"(*FAIL)", rs.Opaque("(*FAIL)")), (r"\1", rs.Backref("1")),
    (r"\g<name>", rs.Backref("name")), (r"(?P=name)", rs.Backref("name")), (r"\b", rs.Anchor(r"\b")),
    (r"\m", rs.Anchor(r"\m")), (r"\012", rs.Char(r"\012", 0, "\n")), (r"\N{1,3}", None),
])
def test_escapes_and_special_groups(pattern: str, node: rs.Node | None) -> None:
    items = rs.parse(pattern).root.items
    if node is None:  # \N followed by a quantifier is a repeated "N"
        assert isinstance(items[0], rs.Repeat) and items[0].body == rs.Char(r"\N", 0, "N")
    else:
        assert items == (node,)


def test_version_1_syntax_is_refused() -> None:
    with pytest.raises(rs.RegexSyntaxError):
        rs.parse("(?V1)[[a-z]--[aeiou]]")
    with pytest.raises(rs.RegexSyntaxError):
        rs.parse("a", regex.V1)


def test_a_bracket_inside_a_class_is_a_literal() -> None:
    """Version 0 has no nested classes: '[[a]' is '[' or 'a'; only '[:name:]' is special."""
    for source in ("[[a]", r"[^\]a-z[:]", "[[:alpha:][]"):
        char = rs.parse(source).root.items[0]
        assert isinstance(char, rs.Char)
        for ch in "[]:a1^":
            assert char.accepts(ch) == bool(regex.fullmatch(source, ch, regex.V0)), (source, ch)


def test_fuzzy_constraint_and_conditional() -> None:
    fuzzy = rs.parse(r"(?:abc){e<=1}").root.items[0]
    assert isinstance(fuzzy, rs.Opaque) and fuzzy.source == "{e<=1}" and isinstance(fuzzy.body, rs.Group)
    cond = rs.parse(r"(a)?(?(1)b|c)").root.items[1]
    assert isinstance(cond, rs.Conditional) and cond.condition == "1" and cond.no is not None


@pytest.mark.parametrize("pattern", [
    "*a", "a**", "a{1,2}?+", "[z-a]", r"\q", "(a", "a)", "[abc", r"\x4", r"\N{NO SUCH NAME}", "a{3,2}",
])
def test_malformed_patterns_raise(pattern: str) -> None:
    with pytest.raises(rs.RegexSyntaxError):
        rs.parse(pattern)
    with pytest.raises(regex.error):
        regex.compile(pattern, regex.V0)


@pytest.mark.parametrize("source", [r"\d", r"\w", r"\s", r"\S", r"\h", r"\p{Lu}", r"\P{L}", r"[^\]\n]", r"[[:alpha:]_]",
                                    r"[\w.-]", "."])
def test_char_sets_accept_what_regex_accepts(source: str) -> None:
    char = rs.parse(source).root.items[0]
    assert isinstance(char, rs.Char)
    for ch in string.printable + "éΩ—\u00a0":
        assert char.accepts(ch) == bool(regex.fullmatch(source, ch, regex.V0)), (source, ch)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([*"ab(|)*+?{}[]^$.\\-:,<>=!#P019dwspNxuLK ", "(?", "(?<n>", "\\p{L}", "{e<=1}", "(?i)"]),
                max_size=12).map("".join))
def test_parse_fails_only_with_its_own_error(pattern: str) -> None:
    with contextlib.suppress(rs.RegexSyntaxError):
        rs.parse(pattern)


# -- the other walks: the finders' fold_marker, looks_behind (for the prefix rules) ------------------------

@pytest.mark.parametrize(("marker", "folded"), [
    (r"^[EF](?:\d{4}|\d{8}) \d", r"[EF](?:\d{4}|\d{8}) \d"),
    (r"^#\d+\s+0x[0-9a-f]{6}", r"#\d+\s+0x[0-9a-f]{6}"),
    (r"^a|b", None), (r"(?i)^a", None), (r"^(a)\1", None), (r"a^", None), (r"^(?i)a", None), (r"^(", None),
    (r"^(?P<a>x)(?P=a)", None), (r"^(a)?(?(1)b|c)", None), (r"^(a)(?1)", None),  # references to groups
    (r"^\0x\\1", r"\0x\\1"),  # an octal escape and an escaped backslash before a digit refer to nothing
])
def test_fold_marker(marker: str, folded: str | None) -> None:
    assert fold_marker(marker) == folded


def test_looks_behind_reads_regex_syntax() -> None:
    assert looks_behind(r"(?<n>x)\m", 0)
    assert looks_behind(r"(?(?<=a)b|c)", 0)
    assert not looks_behind(r"(?<n>x)(?P<n>y)$", 0)  # repeated group names: the regex module allows them
    assert looks_behind(r"(", 0)  # unreadable: assume the worst


# -- the tokens: the pattern's text as the parser read it (what `tolerant` rewrites) -------------------------

@settings(max_examples=300, deadline=None)
@given(_patterns())
def test_tokens_are_the_whole_pattern_in_order(pattern: str) -> None:
    parsed = rs.parse(pattern)
    assert "".join(tok.text for tok in parsed.tokens) == pattern
    assert all(tok.kind in rs.TOKEN_KINDS and tok.text for tok in parsed.tokens)
    assert all((tok.literal is not None) == (tok.kind == "char") for tok in parsed.tokens)


def test_tokens_of_the_kb_and_what_tolerant_makes_of_them() -> None:
    for entry in load_kb().entries:
        for sig in entry.match.signatures:
            assert "".join(tok.text for tok in rs.parse(sig.regex).tokens) == sig.regex
    kinds = [(tok.kind, tok.text) for tok in rs.parse(r"(?i)x\:(?P<n>[ab]+?)|\x3a #").tokens]
    assert kinds == [("open", "(?i)"), ("char", "x"), ("char", "\\:"), ("open", "(?P<n>"), ("class", "[ab]"),
                     ("quant", "+?"), ("close", ")"), ("other", "|"), ("char", "\\x3a"), ("char", " "), ("char", "#")]
    assert [tok.text for tok in rs.parse("(?x) a b # c\n", 0).tokens if tok.kind == "char"] == ["a", "b"]
    assert tolerant(r"Error Code 2: Internal Error \(x\)") == r"Error Code 2\s*+:\s*+Internal Error\s*+\(\s*+x\s*+\)"
    assert tolerant(r"a\x3ab") == r"a\s*+\x3a\s*+b"  # a code point is the punctuation it stands for
    assert tolerant("(") == "("  # what cannot be read runs as written
