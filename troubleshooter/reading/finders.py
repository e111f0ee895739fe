"""Finders: the lines worth looking at, found without decoding every line.

A *finder* takes a buffer of whole lines and returns the start offsets of the lines that contain
one of the prefilter needles: a literal, a caseless literal (ASCII case folding) or a marker
pattern. Every finder gives exactly the same answer, so the report never depends on which one ran:

- `PythonFinder` (pure Python, any platform): small regions are searched with one `bytes.find`
  per literal; large ones with one compiled `re` pattern whose every branch starts with a *rare*
  byte of its literal (so the regex engine skips most positions with its first-byte table) and
  checks the whole literal with a look-behind.
- `HyperscanFinder` (`troubleshooter.reading.hsfinder`, the `fast` extra, x86): all needles in one
  Hyperscan database.

`troubleshooter.reading.Finders` chooses between them.

The driver that reads a stream and hands buffers to a finder is `troubleshooter.reading.stream`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from troubleshooter.core.bytefreq import BYTE_FREQ as _BYTE_FREQ
from troubleshooter.re_programs import re_compile

HYPERSCAN_MIN_BYTES = 96 * 1024
"""With TRT_WHY_MATCHER=auto, inputs smaller than this use the pure finder: one `bytes.find` per literal
beats building the Hyperscan database (about 8 ms) below about 100 KiB."""
SMALL_REGION_BYTES = 192 * 1024
"""PythonFinder searches regions smaller than this literal by literal (nothing to compile)..."""
SMALL_CALLS = 24
"""... until it has done so this many times (then compiling its passes pays)."""


class Finder(Protocol):
    name: str

    def line_starts(self, buf: bytearray | bytes, end: int) -> list[int]:
        """Sorted, unique offsets of the starts of lines in buf[:end] that contain a needle."""
        ...


# -- needles ----------------------------------------------------------------------------------------



@dataclass(frozen=True)
class Needles:
    """The prefilter needles in canonical form (what every finder compiles)."""

    literals: tuple[bytes, ...]
    """Case-sensitive literals, none containing another needle (a line with the longer one has the shorter)."""
    caseless: tuple[bytes, ...]
    """ASCII-caseless literals, lower-cased, none containing another."""
    markers: tuple[str, ...]
    """Regex patterns (MULTILINE; a match is attributed to the line where it starts)."""
    everything: bool = False
    """An empty literal was given: every line is a candidate."""

    @classmethod
    def build(cls, literals: Iterable[str], caseless: Iterable[str] = (), markers: Iterable[str] = ()) -> Needles:
        lits = {lit.encode("utf-8") for lit in literals}
        cless = {lit.encode("utf-8").lower() for lit in caseless}
        everything = b"" in lits or b"" in cless
        # A literal with a newline can never lie inside one line.
        lits = {x for x in lits if x and b"\n" not in x}
        cless = {x for x in cless if x and b"\n" not in x}
        sorted_lits, sorted_cless = sorted(lits), sorted(cless)
        kept = _cached_minimal(sorted_lits, sorted_cless)
        if kept is None:
            cless_min = _minimal(sorted_cless)
            lits_min = [x for x in _minimal(sorted_lits) if not _contains_any(x.lower(), cless_min)]
            _keep_minimal(sorted_lits, sorted_cless, (lits_min, cless_min))
        else:
            lits_min, cless_min = kept
        return cls(tuple(lits_min), tuple(cless_min), tuple(dict.fromkeys(markers)), everything)


# The KB's ~1,300 literals take about 20 ms to reduce (`_minimal`), on every run: the reduced set is kept in the cache
# folder (`envvars.cache_dir`), as JSON, keyed by a SHA-256 of the literals and of this file's code.

def _minimal_key(lits: Sequence[bytes], cless: Sequence[bytes]) -> str:
    import hashlib

    h = hashlib.sha256(b"trt-why-needles 1\0")
    try:
        h.update(Path(__file__).read_bytes())
    except OSError:
        h.update(b"no source\0")
    for group in (lits, cless):
        h.update(len(group).to_bytes(4, "little"))
        for lit in group:
            h.update(len(lit).to_bytes(4, "little") + lit)
    return h.hexdigest()[:32]


def _minimal_path(lits: Sequence[bytes], cless: Sequence[bytes]) -> Path | None:
    from troubleshooter.envvars import cache_dir, cache_off

    if cache_off() or len(lits) + len(cless) < MINIMAL_CACHE_FROM:
        return None
    return cache_dir() / f"needles-{_minimal_key(lits, cless)}.json"


MINIMAL_CACHE_FROM = 200
"""Sets of fewer literals are reduced on the spot (a test's or a small KB folder's)."""


def _cached_minimal(lits: Sequence[bytes], cless: Sequence[bytes]) -> tuple[list[bytes], list[bytes]] | None:
    path = _minimal_path(lits, cless)
    if path is None:
        return None
    try:
        data = json.loads(path.read_bytes())
        return ([x.encode("latin-1") for x in data["literals"]], [x.encode("latin-1") for x in data["caseless"]])
    except (OSError, ValueError, KeyError, TypeError, AttributeError, UnicodeError):
        return None


def _keep_minimal(lits: Sequence[bytes], cless: Sequence[bytes], kept: tuple[list[bytes], list[bytes]]) -> None:
    from troubleshooter.envvars import keep_cached

    path = _minimal_path(lits, cless)
    if path is not None:
        keep_cached(path, json.dumps({"literals": [x.decode("latin-1") for x in kept[0]],
                                      "caseless": [x.decode("latin-1") for x in kept[1]]}).encode("utf-8"))


def _minimal(lits: Sequence[bytes]) -> list[bytes]:
    """The literals that contain no other one (a line holding a longer one holds the shorter)."""
    joined = b"\n".join(lits)  # no literal holds a newline
    starts: list[int] = []
    pos = 0
    for lit in lits:
        starts.append(pos)
        pos += len(lit) + 1
    import bisect

    drop: set[int] = set()
    for lit in lits:
        at = joined.find(lit)
        while at >= 0:
            i = bisect.bisect_right(starts, at) - 1
            if lits[i] != lit:
                drop.add(i)
            at = joined.find(lit, at + 1)
    return [lit for i, lit in enumerate(lits) if i not in drop]


def _contains_any(text: bytes, lits: Sequence[bytes]) -> bool:
    return any(lit in text for lit in lits)


def all_line_starts(buf: bytearray | bytes, end: int) -> list[int]:
    """Every line start in buf[:end] (whole lines)."""
    out: list[int] = []
    pos = 0
    find = buf.find
    while pos < end:
        out.append(pos)
        nl = find(b"\n", pos, end)
        if nl < 0:
            break
        pos = nl + 1
    return out


# What a pass over a large region costs, in ms per GiB (measured on x86, CPython 3.11). `re` scans for
# a pattern's literal first byte in a tight loop (~0.3 s per GiB), checks the rest of its literal
# prefix inline, and starts a full match (~60 ns) where the whole prefix is. `bytes.find` of one byte
# is memchr (~15 ms per GiB), then each occurrence costs a Python step (~0.7 us). A `re` pass is
# priced higher than it costs alone: fewer, broader passes measured faster in total.
_RE_PASS = 2000.0
_FIND_PASS = 15.0


def _hits(key: bytes) -> float:
    """Estimated occurrences of `key` per 10,000 bytes."""
    hits = float(_BYTE_FREQ[key[0]])
    for b in key[1:]:
        hits *= _BYTE_FREQ[b] * 20 / 10_000  # bytes are far from independent in logs: be pessimistic
    return hits


def _re_cost(key: bytes) -> float:
    return _RE_PASS + 0.32 * _BYTE_FREQ[key[0]] + 6.0 * _hits(key)


def _find_cost(byte: int) -> float:
    return _FIND_PASS + 80.0 * _BYTE_FREQ[byte]


@dataclass(frozen=True)
class _Plan:
    """How the pure finder searches a large region for a set of literals."""

    re_passes: dict[bytes, list[bytes]]
    """Literal prefix -> the literals that contain it."""
    find_passes: dict[int, list[tuple[bytes, int]]]
    """Byte -> (literal, offset of the byte in it) for the literals found through that byte."""


def _plan(literals: Sequence[bytes]) -> _Plan:
    """Few, cheap passes that between them see every literal (greedy weighted set cover): a `re`
    pass whose prefix (one to three bytes) a literal contains, or a `bytes.find` pass on a rare byte."""
    options: dict[tuple[str, bytes], set[int]] = {}
    for i, lit in enumerate(literals):
        for b in set(lit):
            options.setdefault(("find", bytes([b])), set()).add(i)
        for n in (1, 2, 3):
            for j in range(len(lit) - n + 1):
                options.setdefault(("re", lit[j:j + n]), set()).add(i)
    cost = {opt: _re_cost(opt[1]) if opt[0] == "re" else _find_cost(opt[1][0]) for opt in options}
    uncovered = set(range(len(literals)))
    chosen: list[tuple[str, bytes]] = []
    while uncovered:
        best = min(options, key=lambda o: (cost[o] / (len(options[o] & uncovered) or 1e-9), o))
        chosen.append(best)
        uncovered -= options[best]
    re_passes: dict[bytes, list[bytes]] = {}
    find_passes: dict[int, list[tuple[bytes, int]]] = {}
    for i, lit in enumerate(literals):
        # A `re` pass checks more literals for free; else the rarest byte.
        kind, key = min((o for o in chosen if i in options[o]), key=lambda o: (o[0] != "re", cost[o], o))
        if kind == "re":
            re_passes.setdefault(key, []).append(lit)
        else:
            find_passes.setdefault(key[0], []).append((lit, lit.index(key)))
    return _Plan(re_passes, find_passes)


class _Passes:
    """The compiled passes for one set of literals."""

    def __init__(self, literals: Sequence[bytes]) -> None:
        plan = _plan(literals) if literals else _Plan({}, {})
        self.re_passes = [_re_pass(key, group) for key, group in sorted(plan.re_passes.items())]
        self.find_passes = [(bytes([b]), group) for b, group in sorted(plan.find_passes.items())]

    def run(self, hay: bytearray | bytes, end: int, add: Callable[[int], None]) -> None:
        """Add the line start of every line of hay[:end] holding a literal."""
        find = hay.find
        rfind = hay.rfind
        for pattern in self.re_passes:
            _scan(pattern, hay, end, add)
        startswith = hay.startswith
        for key, checks in self.find_passes:
            p = find(key, 0, end)
            while p >= 0:
                for lit, at in checks:
                    q = p - at
                    if q >= 0 and startswith(lit, q):
                        add(rfind(b"\n", 0, q) + 1)
                        nl = find(b"\n", p, end)
                        p = find(key, nl + 1, end) if nl >= 0 else -1
                        break
                else:
                    p = find(key, p + 1, end)


def _scan(pattern: re.Pattern[bytes], hay: bytearray | bytes, end: int, add: Callable[[int], None]) -> None:
    """Add the line start of every line of hay[:end] where `pattern` matches, one search per line.

    A match starts inside its line (a literal pass) or on the newline before it (the marker pass,
    `\\n(?:...)`): the line start is after the last newline up to and including the match's first byte,
    and the next search starts on the newline that ends the matched line (a literal never holds one)."""
    search = pattern.search
    find = hay.find
    rfind = hay.rfind
    pos = 0
    while pos < end:
        m = search(hay, pos, end)
        if m is None:
            break
        start = m.start()
        add(rfind(b"\n", 0, start + 1) + 1)
        pos = find(b"\n", start + 1, end)
        if pos < 0:
            break


def _re_pass(key: bytes, items: Sequence[bytes]) -> re.Pattern[bytes]:
    """One `re` pass: the key (a literal prefix, which `re` scans for in a tight loop), then each
    literal read on from its key and checked whole with a look-behind."""
    trie: dict[Any, Any] = {}
    for lit in items:
        node = trie
        for b in lit[lit.index(key) + len(key):]:
            node = node.setdefault(b, {})
        node.setdefault(None, []).append(lit)

    def emit(node: dict[Any, Any]) -> bytes:
        alts = [re.escape(bytes([b])) + emit(node[b]) for b in sorted(k for k in node if k is not None)]
        if None in node:
            alts += [b"(?<=" + re.escape(lit) + b")" for lit in node[None]]
        return alts[0] if len(alts) == 1 else b"(?:" + b"|".join(alts) + b")"

    return re_compile(re.escape(key) + emit(trie))


def _marker_pass(markers: Sequence[str]) -> tuple[re.Pattern[bytes] | None, list[int]]:
    """The markers written `^X` as one pass `\\n(?:X|...)`, and which markers it holds."""
    from troubleshooter.core.regexes import fold_marker

    folded: list[int] = []
    alts: list[bytes] = []
    for i, marker in enumerate(markers):
        rest = fold_marker(marker)
        if rest is None:
            continue
        try:
            re_compile(rest.encode("utf-8"), re.MULTILINE)
        except re.error:
            continue
        folded.append(i)
        alts.append(b"(?:" + rest.encode("utf-8") + b")")
    if not alts:
        return None, []
    try:
        return re_compile(b"\\n(?:" + b"|".join(alts) + b")", re.MULTILINE), folded
    except re.error:  # clashing group names: search those markers on their own
        return None, []


class PythonFinder:
    """Pure Python: `bytes.find` per literal on small regions; a few passes on large ones."""

    name = "python"

    def __init__(self, literals: Sequence[str], caseless: Sequence[str] = (), markers: Sequence[str] = (),
                 small_region: int = SMALL_REGION_BYTES) -> None:
        self.needles = Needles.build(literals, caseless, markers)
        self.small_region = small_region
        self._markers = [re_compile(m.encode("utf-8"), re.MULTILINE) for m in self.needles.markers]
        self._compiled = False
        self._small_calls = 0
        self._passes: _Passes | None = None
        self._caseless_passes: _Passes | None = None
        self._marker_pass: re.Pattern[bytes] | None = None
        self._folded: list[re.Pattern[bytes]] = []
        self._unfolded: list[re.Pattern[bytes]] = self._markers

    def _compile(self) -> None:
        """The large-region passes (built on first use: small logs never need them)."""
        self._passes = _Passes(self.needles.literals)
        # Caseless literals are searched in a lower-cased copy of the region.
        self._caseless_passes = _Passes(self.needles.caseless) if self.needles.caseless else None
        self._marker_pass, folded = _marker_pass(self.needles.markers)
        self._folded = [m for i, m in enumerate(self._markers) if i in folded]
        self._unfolded = [m for i, m in enumerate(self._markers) if i not in folded]
        self._compiled = True

    def line_starts(self, buf: bytearray | bytes, end: int) -> list[int]:
        if self.needles.everything:
            return all_line_starts(buf, end)
        if not self._compiled:
            if end < self.small_region and self._small_calls < SMALL_CALLS:
                self._small_calls += 1
                return self._small(buf, end)
            self._compile()  # a large region, or many small ones (fleet mode): worth compiling
        found: set[int] = set()
        add = found.add
        self._passes.run(buf, end, add)  # type: ignore[union-attr]
        if self._caseless_passes is not None:
            lowered = buf.lower()  # the whole buffer: the same size every time, so the memory is reused
            self._caseless_passes.run(lowered, end, add)
            del lowered
        if self._marker_pass is not None:
            if any(m.match(buf, 0, end) for m in self._folded):
                add(0)
            _scan(self._marker_pass, buf, end, add)
        if self._unfolded:
            found.update(_marker_starts(self._unfolded, buf, end))
        return sorted(found)

    def _small(self, buf: bytearray | bytes, end: int) -> list[int]:
        """Literal by literal with `bytes.find`: nothing to compile, quick on a few KiB."""
        hits: set[int] = set()
        view = buf if end == len(buf) else buf[:end]
        groups = [(self.needles.literals, view)]
        if self.needles.caseless:
            groups.append((self.needles.caseless, view.lower()))
        for literals, hay in groups:
            find = hay.find
            rfind = hay.rfind
            for lit in literals:
                pos = find(lit)
                while pos >= 0:
                    hits.add(rfind(b"\n", 0, pos) + 1)
                    nl = find(b"\n", pos)
                    if nl < 0:
                        break
                    pos = find(lit, nl + 1)
        if self._markers:
            hits.update(_marker_starts(self._markers, view, end))
        return sorted(hits)


def _marker_starts(markers: Sequence[re.Pattern[bytes]], buf: bytearray | bytes, end: int) -> list[int]:
    found: set[int] = set()
    for m in markers:
        for hit in m.finditer(buf, 0, end):
            found.add(buf.rfind(b"\n", 0, hit.start()) + 1 if hit.start() else 0)
    return sorted(found)
