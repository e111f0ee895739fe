"""The fast finder: every needle in one Hyperscan database (the `fast` extra, x86).

Block mode over the scanner's reused buffer. Hyperscan reports every match (no SINGLEMATCH: every
line counts); literals are reported by their end, markers (compiled with SOM_LEFTMOST) by their
start, and each match is mapped to the start of its line. The answer is exactly the pure finder's:
the same canonical needles (`finders.Needles`), ASCII case folding for caseless literals, MULTILINE
markers attributed to the line where they start.

Compiling the KB's database costs a small run about 20 ms; the compiled database is kept in the cache
folder (`envvars.cache_dir`), in Hyperscan's own serialized form (no code), keyed by a SHA-256 of the
expressions, their flags and the Hyperscan binding's version. A file that will not load (another
Hyperscan, another CPU, a partial write) is compiled again and replaced.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections.abc import Sequence
from typing import Any

import hyperscan

from troubleshooter.envvars import cache_dir, cache_off, keep_cached
from troubleshooter.reading.finders import Needles, all_line_starts

_ESCAPED = [bytes([b]) if (48 <= b <= 57 or 65 <= b <= 90 or 97 <= b <= 122) else b"\\x%02x" % b for b in range(256)]


def _escape(lit: bytes) -> bytes:
    """A literal as a Hyperscan pattern: letters and digits as they are, every other byte as \\xHH."""
    return b"".join(map(_ESCAPED.__getitem__, lit))


class _Database:
    """A Hyperscan block-mode database, scanned with one scratch per thread (Hyperscan's rule)."""

    def __init__(self, exprs: Sequence[bytes], flags: Sequence[int]) -> None:
        self.db = _cached(exprs, flags)
        self._local = threading.local()

    def scan(self, data: Any, on_match: Any) -> None:
        scratch = getattr(self._local, "scratch", None)
        if scratch is None:
            scratch = self._local.scratch = hyperscan.Scratch(self.db)
        self.db.scan(data, match_event_handler=on_match, scratch=scratch)


def _compile(exprs: Sequence[bytes], flags: Sequence[int]) -> Any:
    db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    db.compile(expressions=list(exprs), ids=list(range(len(exprs))), elements=len(exprs), flags=list(flags))
    return db


def _cached(exprs: Sequence[bytes], flags: Sequence[int]) -> Any:
    """The block-mode database of these expressions: from the cache folder when a loadable one is there,
    else compiled (and written there for the next run)."""
    if cache_off():
        return _compile(exprs, flags)
    h = hashlib.sha256(f"trt-why-hs 1 {getattr(hyperscan, '__version__', '?')} {list(flags)}\0".encode())
    for expr in exprs:
        h.update(len(expr).to_bytes(4, "little") + expr)
    path = cache_dir() / f"hs-{h.hexdigest()[:32]}.db"
    try:
        return hyperscan.loadb(path.read_bytes(), hyperscan.HS_MODE_BLOCK)
    except Exception:  # absent, partial, or from another Hyperscan or CPU: compile it again
        pass
    db = _compile(exprs, flags)
    with contextlib.suppress(Exception):  # a binding that cannot serialize: the database is still usable
        keep_cached(path, hyperscan.dumpb(db))
    return db


class HyperscanFinder:
    """Line starts of the lines holding a needle, found by Hyperscan."""

    name = "hyperscan"

    def __init__(self, literals: Sequence[str], caseless: Sequence[str] = (), markers: Sequence[str] = ()) -> None:
        self.needles = Needles.build(literals, caseless, markers)
        n = self.needles
        exprs = [_escape(lit) for lit in n.literals] + [_escape(lit) for lit in n.caseless]
        flags = [0] * len(n.literals) + [hyperscan.HS_FLAG_CASELESS] * len(n.caseless)
        self._first_marker = len(exprs)
        exprs += [m.encode("utf-8") for m in n.markers]
        flags += [hyperscan.HS_FLAG_MULTILINE | hyperscan.HS_FLAG_SOM_LEFTMOST] * len(n.markers)
        self._empty = not exprs
        self._db = None if self._empty else _Database(exprs, flags)

    def line_starts(self, buf: bytearray | bytes, end: int) -> list[int]:
        if self.needles.everything:
            return all_line_starts(buf, end)
        if self._empty or end <= 0:
            return []
        positions: list[int] = []
        append = positions.append
        first_marker = self._first_marker

        def on_match(pattern_id: int, start: int, stop: int, _flags: int, _ctx: object) -> None:
            # Literals: the last byte of the match (a literal never spans lines); markers: their start.
            append(stop - 1 if pattern_id < first_marker else start)

        data = buf if end == len(buf) else memoryview(buf)[:end]
        try:
            db: Any = self._db
            db.scan(data, on_match)
        finally:
            if isinstance(data, memoryview):
                data.release()
        if not positions:
            return []
        positions.sort()
        out: list[int] = []
        rfind = buf.rfind
        find = buf.find
        line_end = -1
        for p in positions:
            if p < line_end:
                continue
            out.append(rfind(b"\n", 0, p) + 1)
            line_end = find(b"\n", p, end)
            if line_end < 0:
                break
        return out


class HyperscanLiteralSet:
    """Which of a fixed set of literals occur in a string (`matcher.LiteralIndex`'s answer, faster)."""

    def __init__(self, literals: Sequence[str]) -> None:
        self.literals = sorted({lit for lit in literals if lit})
        self.empty = any(not lit for lit in literals)
        self._db = _Database([_escape(lit.encode("utf-8")) for lit in self.literals],
                             [hyperscan.HS_FLAG_SINGLEMATCH] * len(self.literals)) if self.literals else None

    def find(self, text: str) -> list[str]:
        out: list[str] = []
        if self._db is not None:
            lits = self.literals
            append = out.append

            def on_match(pattern_id: int, _start: int, _stop: int, _flags: int, _ctx: object) -> None:
                append(lits[pattern_id])

            self._db.scan(text.encode("utf-8", "surrogatepass"), on_match)
        if self.empty:
            out.append("")
        return out

