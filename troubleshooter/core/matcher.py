"""Match candidate lines against KB signatures and collect bounded evidence.

The matcher is compiled once per KB and shared between threads; each log gets its own `MatchState`.
Besides the KB the matcher keeps only caches of answers that depend on no log (what a line's bytes
yield, the signatures a set of literals leads to, the faster literal index), filled without a lock:
two threads at worst work the same answer out twice. Memory per log is bounded whatever its size:
evidence lines and distinct captured values are capped, and counts keep going.

The hot path. Large verbose logs repeat the same candidate lines again and again (every run of a
sweep, every tactic of a layer), so what a line yields (its severity, the signatures it matches
with their captures) is remembered by the line's bytes, its trtexec timestamp set aside: a repeated
line costs a dictionary look-up. What depends on the rest of the log (environment facts, line
numbers, capped evidence) is still applied line by line, so the result is exactly the one a
line-by-line pass gives (`feed`); tests hold the two to that.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from time import thread_time
from typing import Any, NamedTuple, Protocol

from troubleshooter.core.bytefreq import BYTE_FREQ
from troubleshooter.core.environment import DATE_BYTES, DATE_LINES, all_literals
from troubleshooter.core.limits import MAX_LINE_BYTES
from troubleshooter.core.logs import (
    APP_STEP_HEADER,
    ERROR_MARKERS,
    LEVEL_FLOOR,
    MARKER_PATTERNS,
    decode_line,
    ends_traceback,
    is_error_line,
    is_exception_line,
    level_ok,
    parse_line,
    parse_parts,
    payload_error_literals,
    remember_payload_literals,
)
from troubleshooter.core.regexes import (
    MATCH_TIMEOUT,
    Reading,
    check_backtracking,
    check_entry_regexes,
    compile_pattern,
    freeze_pattern,
    literals_for,
    reading,
    remember,
    required_runs,
    thaw_pattern,
    tolerant,
)
from troubleshooter.core.state import (
    MAX_ERROR_LINE_CHARS,
    MAX_EVIDENCE,
    MAX_VALUE_CHARS,
    MAX_VALUES,
    EntryHits,
    MatchState,
    SignatureHits,
)
from troubleshooter.core.versions import api_change, in_range
from troubleshooter.errors import KBError
from troubleshooter.kb.schema import Entry, Signature
from troubleshooter.models import Evidence, Level, LogLine, Origin
from troubleshooter.re_programs import re_compile

SIGNATURE_BUDGET = 2.0
"""CPU seconds one signature's regex may spend in total on one log before it is skipped (with a note).
CPU time of the scanning thread, not wall time: with many threads diagnosing at once (a bot), the
time a thread waits for the GIL must not make a signature look slow. (TRT_WHY_SIGNATURE_BUDGET, read by the
API, sets a matcher's `signature_budget`.)"""

CONTEXT_LINES = 4
"""Lines after a candidate that it may need (a line wrapped by a terminal continues on them)."""

MEMO_LINES = 16_384
"""Distinct candidate lines remembered per matcher and generation (see `_Memo`)."""
MEMO_BYTES = 4 * 1024 * 1024
"""... and at most about this many bytes of them per generation."""

ENV_GATE_EXTRA = ("usr/", "opt/", "home/", "workspace/")
"""With the environment's own literals: a line holding none of these cannot change the environment
(the Linux path pattern also accepts ``usr/`` after a space), so it is not fed to it."""

_TIMESTAMP = re_compile(rb"\[\d\d/\d\d/\d{4}-\d\d:\d\d:\d\d\]")
"""trtexec's ``[08/07/2024-12:27:04]``: 21 bytes that never change how the rest of a line reads."""


class LazySignature:
    """A signature whose regex is compiled the first time a line needs it."""

    __slots__ = ("_frozen", "_pattern", "_required", "entry_id", "key", "literals", "sig")

    def __init__(self, entry_id: str, sig: Signature, literals: Sequence[str],
                 required: Sequence[str] | None = None, frozen: str | None = None) -> None:
        self.entry_id = entry_id
        self.sig = sig
        self.literals = tuple(literals)
        self.key = f"{entry_id}::{sig.id}"
        self._pattern: Any = None
        self._required: tuple[str, ...] | None = None if required is None else tuple(required)
        self._frozen = frozen

    @property
    def required(self) -> tuple[str, ...]:
        """Strings every match holds (`required_strings`): a line missing one cannot match, so the
        regex is not run on it."""
        if self._required is None:
            self._required = required_strings(self.sig)
        return self._required

    @property
    def pattern(self) -> Any:
        if self._pattern is None:
            thawed = thaw_pattern(self._frozen) if self._frozen is not None else None
            self._pattern = thawed if thawed is not None else compile_pattern(self.sig.regex, self.sig.ignore_case)
        return self._pattern


def required_strings(sig: Signature) -> tuple[str, ...]:
    """Strings every match of a signature holds (each literal run its tolerant regex must match)."""
    return () if sig.ignore_case else required_runs(tolerant(sig.regex))


Derived = dict[str, dict[str, list[str]]]
"""What the matcher derives from the KB's signatures, by "entry::signature": "literals" (the prefilter
literals, `regexes.literals_for`) and "required" (`required_strings`). Worked out here only (`derive`, or
signature by signature when not handed in); the KB cache keeps it between runs (`kb.cache`, through `api`)."""


def derive(entries: Iterable[Entry]) -> Derived:
    """Every signature's prefilter literals and required strings (see `Derived`), and each regex's reading
    (its tolerant form, then its named groups), so that a run from the KB cache reads no regex again."""
    sigs = [(f"{e.id}::{s.id}", s) for e in entries for s in e.match.signatures]
    readings = {s.regex: reading(s.regex) for _key, s in sigs}
    payload = payload_error_literals()
    return {"literals": {key: literals_for(s) or [] for key, s in sigs},
            "required": {key: list(required_strings(s)) for key, s in sigs},
            # each regex as it runs, compiled (`regexes.freeze_pattern`): a run from the cache parses none
            "compiled": {key: [freeze_pattern(compile_pattern(s.regex, s.ignore_case))] for key, s in sigs},
            "readings": {regex: [r.tolerant, *r.groups] for regex, r in readings.items()},
            "engine": {"payload-error": payload} if payload is not None else {}}


def remember_readings(derived: Derived) -> None:
    """Hand the readings kept with the KB back to the regex reader (`regexes.remember`)."""
    table = derived.get("readings")
    if table:
        remember({regex: Reading(v[0], tuple(v[1:])) for regex, v in table.items()})
    payload = derived.get("engine", {}).get("payload-error")
    if payload:
        remember_payload_literals(payload)


def check_entry(entry: Entry, untrusted: bool) -> None:
    """Raise KBError (naming the field, not the file) when the matcher cannot use an entry: a regex that does
    not compile or yields no prefilter literal; with `untrusted` (a folder besides the built-in KB, whose
    entries never went through this project's CI) also one that could backtrack catastrophically. The KB
    loader runs it on every entry it is handed it for (`api.load_kb`, the engine's KB)."""
    problem = check_entry_regexes(entry)
    if problem:
        raise KBError(problem)
    if untrusted:
        for sig in entry.match.signatures:
            problem = check_backtracking(sig)
            if problem:
                raise KBError(problem, field=f"match.signatures.{sig.id}.regex")


def _api_groups(sig: Signature, groups: dict[str, str]) -> dict[str, str] | None:
    """A signature on a TensorRT API name (`api_added_in` / `api_removed_in`; the name is its `symbol` capture): the
    captures with the release that added (`api_added`) or dropped (`api_removed`) it, or None when the headers of no
    release in the range did. A name that was added and later dropped (enqueueV2: 6.0 to 9.3) reads as dropped: code
    compiled against headers older than the name's first release is the rarer case."""
    change = api_change(groups.get("symbol", ""))
    if change is None:
        return None
    out = dict(groups)
    if sig.api_added_in:
        if change.added is None or change.removed is not None or not in_range(change.added, sig.api_added_in):
            return None
        out["api_added"] = change.added
    if sig.api_removed_in:
        if change.removed is None or not in_range(change.removed, sig.api_removed_in):
            return None
        out["api_removed"] = change.removed
    return out


class LiteralIndex:
    """Which of a fixed set of literals occur in a string, without trying every one.

    Literals are bucketed by their rarest character; a bucket is looked at only when its character
    is in the string. Exact: the answer is `{lit for lit in literals if lit in text}`.
    """

    def __init__(self, literals: Iterable[str]) -> None:
        def rarity(ch: str) -> int:
            return BYTE_FREQ[ord(ch)] if ord(ch) < 256 else 0

        buckets: dict[str, list[str]] = {}
        self.empty = False
        unique = sorted(set(literals))
        order = {c: (rarity(c), c) for c in set().union(*unique)}.__getitem__
        for lit in unique:
            if not lit:
                self.empty = True
                continue
            buckets.setdefault(min(lit, key=order), []).append(lit)
        self.buckets = sorted(buckets.items(), key=lambda kv: rarity(kv[0]))

    def find(self, text: str) -> list[str]:
        out = [lit for ch, lits in self.buckets if ch in text for lit in lits if lit in text]
        if self.empty:
            out.append("")
        return out


_Match = tuple[LazySignature, dict[str, str]]


class _LineInfo(NamedTuple):
    """What one candidate line yields, whatever its number and timestamp."""

    empty: bool
    """No payload: the line is skipped."""
    plain: bool
    """Nothing about it depends on its neighbours or the environment: the fast path applies."""
    origin: Origin | None
    matches: tuple[_Match, ...]
    is_error: bool
    idle: bool = False
    """Neither a match nor an error line: only its origin is noted."""


class _Memo:
    """What lines yielded, by their bytes: two generations of at most MEMO_LINES lines and MEMO_BYTES
    bytes each. When the new one is full it becomes the old one; a line found in the old one moves
    back. Lines seen once (random tactic ids, timings) age out; lines that keep coming back stay.
    The byte bound keeps memory flat on logs of long, never-repeated lines."""

    __slots__ = ("byte_limit", "limit", "new", "new_bytes", "old")

    def __init__(self) -> None:
        self.new: dict[bytes, _LineInfo] = {}
        self.old: dict[bytes, _LineInfo] = {}
        self.new_bytes = 0
        self.limit: int | None = None
        """Lines per generation (None: MEMO_LINES)."""
        self.byte_limit: int | None = None
        """Bytes of lines and captured values per generation (None: MEMO_BYTES)."""

    def put(self, key: bytes, info: _LineInfo) -> None:
        if len(self.new) >= (self.limit or MEMO_LINES) or self.new_bytes >= (self.byte_limit or MEMO_BYTES):
            self.old, self.new = self.new, {}
            self.new_bytes = 0
        self.new[key] = info
        self.new_bytes += self.cost(key, info)

    @staticmethod
    def cost(key: bytes, info: _LineInfo) -> int:
        """Bytes a remembered line holds, about: its key, and its captures (at most the line again,
        per signature)."""
        return len(key) * (1 + len(info.matches)) + 64

    def __len__(self) -> int:
        return len(self.new) + len(self.old)


_IDLE: dict[Origin | None, _LineInfo] = {}
"""One shared info per origin for the (many) plain lines that yield nothing else."""


class _Line:
    """The parts of a `LogLine`, without building the model (most candidate lines never need it)."""

    __slots__ = ("level", "no", "origin", "raw", "text")

    def __init__(self, no: int, level: Level | None, origin: Origin | None, text: str, raw: str) -> None:
        self.no, self.level, self.origin, self.text, self.raw = no, level, origin, text, raw


class LiteralSet(Protocol):
    """Which of a fixed set of literals occur in a string (`LiteralIndex`, or a faster equivalent)."""

    def find(self, text: str) -> list[str]: ...


class Prefilter(NamedTuple):
    """What a line must hold to be worth matching: what the reading layer's finders look for."""

    literals: tuple[str, ...]
    """Signature, environment and error-marker literals (case-sensitive)."""
    caseless: tuple[str, ...]
    """Literals of caseless signatures."""
    markers: tuple[str, ...]
    """Regex patterns (MULTILINE) of lines that hold no literal but may be error lines."""


class Matcher:
    """Signatures of a KB, indexed by prefilter literal (regexes compiled on first use).

    Takes candidate lines (bytes, with their numbers) and fills a `MatchState`; which lines are
    candidates is the reading layer's business (`prefilter` says what to look for). It reads no
    file and no setting of its own: the timeouts are given, and so is a faster literal index
    (`index_factory`, used after many new lines; it must give the same answers as `LiteralIndex`).
    """

    def __init__(self, entries: Sequence[Entry], literals: dict[str, list[str]] | None = None, *,
                 required: dict[str, list[str]] | None = None, index_factory: Callable[[Sequence[str]], LiteralSet] | None = None,
                 match_timeout: float = MATCH_TIMEOUT, signature_budget: float = SIGNATURE_BUDGET,
                 compiled: dict[str, list[str]] | None = None) -> None:
        """`literals`, `required` and `compiled` (signature key -> prefilter literals, required strings, the compiled
        regex as `regexes.freeze_pattern` keeps it) skip deriving them (the KB cache has them)."""
        self.entries = {e.id: e for e in entries}
        self.match_timeout = match_timeout
        self.signature_budget = signature_budget
        self._index_factory = index_factory
        self.signatures: list[LazySignature] = []
        by_literal: dict[str, list[LazySignature]] = {}
        caseless: dict[str, list[LazySignature]] = {}
        for entry in entries:
            for sig in entry.match.signatures:
                key = f"{entry.id}::{sig.id}"
                lits = literals[key] if literals is not None and key in literals else literals_for(sig)
                frozen = compiled.get(key) if compiled is not None else None
                cs = LazySignature(entry.id, sig, lits, required.get(key) if required is not None else None,
                                   frozen[0] if frozen else None)
                self.signatures.append(cs)
                target = caseless if sig.ignore_case else by_literal
                for lit in cs.literals:
                    target.setdefault(lit.lower() if sig.ignore_case else lit, []).append(cs)
        self.by_literal = by_literal
        self.caseless = caseless
        # The lowest level rank a line needs for some signature of each literal to look at it.
        self._floor = {lit: min(LEVEL_FLOOR[cs.sig.level] for cs in sigs) for lit, sigs in by_literal.items()}
        self._cfloor = {lit: min(LEVEL_FLOOR[cs.sig.level] for cs in sigs) for lit, sigs in caseless.items()}
        self._cfloor_min = min(self._cfloor.values(), default=99)
        """A line below this rank is below every caseless literal's signatures: no need to look for them."""
        self._caseless_ascii = all(lit.isascii() for lit in caseless)
        self._caseless_re: Any = None
        env_lits = all_literals()
        self._gate_literals = frozenset([*env_lits, *ENV_GATE_EXTRA])
        # One index answers both questions about a line: which signature literals, and whether
        # an environment literal, it holds.
        self._index: LiteralSet = LiteralIndex([*by_literal, *self._gate_literals])
        self._sig_lists: dict[tuple[tuple[str, ...], tuple[str, ...]], list[LazySignature]] = {}
        self._misses = 0
        self.prefilter = Prefilter((*by_literal, *env_lits, *ERROR_MARKERS), tuple(caseless), MARKER_PATTERNS)
        self._memo_ts = _Memo()  # lines that start with a trtexec timestamp, keyed without it
        self._memo = _Memo()
        # The timestamp can be set aside only if no literal could reach into it.
        self._canonical = not any(re.search(r"\d\]", lit) or set(lit) <= set("[]0123456789/-: ")
                                  for lit in (*self.prefilter.literals, *ENV_GATE_EXTRA))

    # -- per line -----------------------------------------------------------------------------------
    def _sig_list(self, literals: Iterable[str], text: str) -> list[LazySignature]:
        """The signatures of these (case-sensitive) literals and of the caseless ones in the text."""
        key = (tuple(sorted(literals)), tuple(sorted(self._caseless_in(text))) if self.caseless else ())
        out = self._sig_lists.get(key)
        if out is not None:
            return out
        seen: set[int] = set()
        out = []
        for group in ([self.by_literal[lit] for lit in key[0]] + [self.caseless.get(lit, []) for lit in key[1]]):
            for cs in group:
                if id(cs) not in seen:
                    seen.add(id(cs))
                    out.append(cs)
        out.sort(key=lambda c: (c.entry_id, c.sig.id))
        if len(self._sig_lists) >= 4096:
            self._sig_lists.clear()
        self._sig_lists[key] = out
        return out

    def _caseless_in(self, text: str) -> set[str]:
        if self._caseless_ascii and text.isascii():
            lower = text.lower()
            return {lit for lit in self.caseless if lit in lower}
        if self._caseless_re is None:
            import regex

            self._caseless_re = regex.compile("|".join(regex.escape(x) for x in self.caseless), int(regex.IGNORECASE))
        return {m.lower() for m in self._caseless_re.findall(text, overlapped=True)}

    def feed(self, state: MatchState, no: int, raw_bytes: bytes, following: Sequence[bytes] = ()) -> None:
        """Process one candidate line (with the lines after it, for wrapped lines)."""
        if state.env.log_date is None and no <= DATE_LINES:
            state.env.note_date(no, raw_bytes[:DATE_BYTES].decode("utf-8", "replace"))
        info, line, _remember = self._analyse(state, no, raw_bytes, following)
        if line is not None:
            _apply(state, info, no, line)

    def upgrade_index(self) -> None:
        """Look literals up with the faster index (`index_factory`), if there is one: the same answers.
        Done after many new lines, or before forking (so that every process has it)."""
        factory, self._index_factory = self._index_factory, None
        if factory is None:
            return
        with contextlib.suppress(Exception):  # a faster index that cannot be built: the pure one stays
            self._index = factory([*self.by_literal, *self._gate_literals])

    @contextlib.contextmanager
    def shared_by(self, processes: int) -> Iterator[None]:
        """While this matcher is forked into `processes` processes: each remembers its share of lines
        (memory is per process), and the faster literal index is built once, before forking."""
        self.upgrade_index()
        memos = (self._memo_ts, self._memo)
        for memo in memos:
            memo.limit = max(1024, MEMO_LINES // processes)
            memo.byte_limit = max(256 * 1024, MEMO_BYTES // processes)
        try:
            yield
        finally:
            for memo in memos:
                memo.limit = memo.byte_limit = None

    def _analyse(self, state: MatchState, no: int, raw_bytes: bytes,  # one candidate line, start to end
                 following: Sequence[bytes] | Callable[[], Sequence[bytes]]
                 ) -> tuple[_LineInfo, LogLine | None, bool]:
        """What one line yields (`_apply` records it), the line as it is recorded (None when there is
        nothing to record), and whether what it yields can be remembered for the next time the same
        bytes come (`feed_region`).

        Feeds the environment (which depends on the line's number and neighbours) and the signature
        timing of this log as it goes. `following` may be a function giving the following lines (only
        wrapped lines need them).
        """
        self._misses += 1
        if self._misses == 512:
            self.upgrade_index()
        level, origin, text, raw = parse_parts(decode_line(raw_bytes))
        if not text:
            return _EMPTY, None, True
        line = _Line(no, level, origin, text, raw)
        cmake_message = text.startswith("CMake Error at ") and _CMAKE_MESSAGE.match(text) is not None
        app_header = text.startswith(_APP_HEADER_STARTS) and _APP_HEADER.match(text) is not None
        unbalanced = (text.count("(") > text.count(")") or ("Error Code" in text and _DETAIL_FOLLOWS.search(text) is not None)
                      or cmake_message or app_header
                      or (text.endswith(("__version__", "__version__)")) and _VERSION_QUERY.match(text) is not None))
        joined = _continued(line, following, cmake_message=cmake_message, app_header=app_header) if unbalanced else None
        found = self._index.find(raw)
        gate = self._gate_literals
        by_literal = self.by_literal
        if joined is None:
            gated = any(lit in gate for lit in found)
            literals = [lit for lit in found if lit in by_literal and lit in text]
        else:
            gated = True
            text = joined
            literals = [lit for lit in self._index.find(text) if lit in by_literal]
        env = state.env
        if gated:
            env.feed(no, text, raw)
        env.note_origin(origin, no)
        if not (gated or unbalanced) and level is not None:
            # Below the level of every signature its literals lead to (verbose "Skipping tactic ... due
            # to insufficient memory" lines, by the thousand): idle, as the loop below would find.
            rank = level.rank
            floor = self._floor
            if rank < _ERROR_RANK and all(floor[lit] > rank for lit in literals) and (
                    rank < self._cfloor_min or all(self._cfloor.get(lit, -1) > rank for lit in self._caseless_in(text))):
                return _idle(origin), None, True
        matches, timed_out, tried = self._run_signatures(state, no, level, text, literals)
        # A long line holding a signature's literal that matched nothing: perhaps a terminal or an editor
        # wrapped it. Try it joined with its continuation (with and without a space).
        # Verbose and info lines are never retried: a wrapped failure is an error or a warning line, and
        # a verbose build log is millions of long info lines that the line memo must keep remembering.
        error = is_error_line(line)  # type: ignore[arg-type]
        wrapped = (joined is None and len(raw) >= WRAP_MIN_CHARS and (level is None or level.rank >= _WARNING_RANK)
                   and not any(cs.sig.role == "trigger" for cs, _ in matches) and (tried or error))
        if wrapped:
            done = {cs.key for cs, _ in matches}
            for cont in _joinings(line, following() if callable(following) else following, unfinished=False):
                joined_lits = [lit for lit in self._index.find(cont) if lit in by_literal]
                more, slow, _ = self._run_signatures(state, no, level, cont, joined_lits, done)
                timed_out = timed_out or slow
                if more:
                    # A support found on one joining does not end the search: a trigger may match the other
                    matches += more
                    done |= {cs.key for cs, _ in more}
                    if any(cs.sig.role == "trigger" for cs, _ in more):
                        break
        neighbours = gated or unbalanced or wrapped  # what the line yields depends on other lines
        if not matches and not error and not neighbours:
            return _idle(origin), None, not timed_out
        info = _LineInfo(False, not neighbours, origin, tuple(matches), error, not matches and not error)
        if info.idle:
            return info, None, not timed_out
        if (cmake_message or app_header) and joined is not None:
            raw = raw.rstrip() + joined[len(line.text):]  # the report shows the header with the message under it
        return info, LogLine.model_construct(no=no, level=level, origin=origin, text=text, raw=raw), not timed_out

    def _run_signatures(self, state: MatchState, no: int, level: Level | None, text: str,
                        literals: list[str], skip: Collection[str] = ()) -> tuple[list[_Match], bool, bool]:
        """Run the signatures these literals lead to on one line's text (but those in `skip`).

        Returns the matches, whether a signature was skipped as slow (the line's result then depends
        on this log's history and is not remembered), and whether any signature accepted the line's level."""
        matches: list[_Match] = []
        timed_out = tried = False
        for cs in self._sig_list(literals, text):
            if not level_ok(level, cs.sig.level) or cs.key in skip:
                continue
            tried = True
            if cs.key in state.slow_signatures:
                timed_out = True  # what this line yields depends on this log's history
                continue
            required = cs.required
            if required and not all(r in text for r in required):
                continue  # the regex cannot match: no need to run it
            started = thread_time()  # CPU time: waiting for the GIL behind other threads is not the regex's
            try:
                m = _search(cs.pattern, text, started, self.match_timeout)
            except TimeoutError:
                state.slow_signatures.add(cs.key)
                state.notes.append(
                    f"signature {cs.key} took over {self.match_timeout:.2f} s on line {no} and was skipped "
                    "for the rest of this log"
                )
                timed_out = True
                continue
            spent = state.signature_time.get(cs.key, 0.0) + thread_time() - started
            state.signature_time[cs.key] = spent
            if spent > self.signature_budget:
                # Many lines each just under the per-line limit: the total per log is bounded too.
                state.slow_signatures.add(cs.key)
                state.notes.append(
                    f"signature {cs.key} spent over {self.signature_budget:.1f} s in total on this log (line {no}) "
                    "and was skipped for the rest of it"
                )
            if m is None:
                continue
            groups = {k: v.strip()[:MAX_VALUE_CHARS] for k, v in m.groupdict().items() if v is not None}
            if cs.sig.api_added_in or cs.sig.api_removed_in:
                verdict = _api_groups(cs.sig, groups)
                if verdict is None:
                    continue  # the name is not one a TensorRT release added (or dropped) in the range
                groups = verdict
            matches.append((cs, groups))
        return matches, timed_out, tried

    def feed_region(self, state: MatchState, buf: bytearray | bytes, starts: Sequence[int], end: int,
                    line_base: int, context_end: int | None = None, counter: NewlineCounter | None = None) -> int:
        """Process the candidate lines of buf[:end] (whole lines), `line_base` lines before it; the
        lines up to `context_end` follow them (context for wrapped lines only).

        The same as `feed` on each line with the lines after it, faster on repeated lines: what a line
        yielded is remembered by its bytes and applied again without parsing or matching it. Returns
        the number of newlines in buf[:end]. `counter` makes the function that counts newlines in a
        buffer (`buf.count` if None; the reading layer may give a faster one with the same answers).
        """
        ctx = end if context_end is None else context_end
        count = line_base
        prev = 0
        bcount = buf.count if counter is None else counter(buf)
        bfind = buf.find
        memo_ts = self._memo_ts
        memo = self._memo
        ts_match = _TIMESTAMP.match if self._canonical else None
        note_origin = state.env.note_origin
        last_origin: Any = _NOTHING
        slow = state.slow_signatures
        hits_of: dict[LazySignature, SignatureHits] = {}  # this state's hits, looked up once per region
        # The log's date: looked for on the first lines, whatever the memo remembers of them (a line's date is
        # no part of what it yields, and the timestamped memo's key leaves it out)
        env = state.env
        dating = env.log_date is None and line_base < DATE_LINES
        for s in starts:
            # `count` is the number of lines before `prev`; brought up to `s` only for lines that need a number.
            e = bfind(b"\n", s, end)
            if e < 0:
                e = end
            cut = e if e - s <= MAX_LINE_BYTES else s + MAX_LINE_BYTES
            if dating:
                count += bcount(b"\n", prev, s)
                prev = s
                if count < DATE_LINES:
                    env.note_date(count + 1, bytes(buf[s:min(cut, s + DATE_BYTES)]).decode("utf-8", "replace"))
                dating = env.log_date is None and count < DATE_LINES
            if ts_match is not None and ts_match(buf, s, cut) is not None:
                table, key = memo_ts, bytes(buf[s + 21:cut])
            else:
                table, key = memo, bytes(buf[s:cut])
            info = table.new.get(key)
            if info is None:
                info = table.old.get(key)
                if info is not None:
                    table.put(key, info)  # still in use: keep it
            if info is None or not info.plain:
                count += bcount(b"\n", prev, s)
                prev = s
                info, line, remember = self._analyse(state, count + 1, bytes(buf[s:cut]),
                                                        functools.partial(following_lines, buf, e + 1, ctx))
                last_origin = _NOTHING
                if remember:
                    table.put(key, info)
                if not (info.empty or info.idle):
                    _apply(state, info, count + 1, line, None, 0, 0, (), hits_of)
                continue
            if info.empty:
                continue
            # A line seen before that depends on nothing around it: what it yielded, applied again.
            if info.origin is not last_origin:  # noting the same origin again changes nothing
                count += bcount(b"\n", prev, s)  # the line it is first seen on (a change of origin: rare)
                prev = s
                note_origin(info.origin, count + 1)
                last_origin = info.origin
            if info.idle:
                continue
            count += bcount(b"\n", prev, s)
            prev = s
            _apply(state, info, count + 1, None, buf, s, cut, slow, hits_of)
        return count - line_base + bcount(b"\n", prev, end)

    def region_sink(self, state: MatchState, counter: NewlineCounter | None = None
                    ) -> Callable[[bytearray, list[int], int, int, int], int]:
        """A region callback (the reading layer's `scan_stream`) feeding this state (`counter`: see `feed_region`)."""
        return lambda buf, starts, end, line_base, ctx: self.feed_region(state, buf, starts, end, line_base, ctx, counter)


NewlineCounter = Callable[[Any], Callable[[bytes, int, int], int]]
"""Given a buffer, a function counting a byte (always b"\\n") between two offsets, as `bytes.count` does."""


def _apply(state: MatchState, info: _LineInfo, no: int, line: LogLine | None,  # noqa: PLR0913  # the hot path: no closure per line
           buf: bytearray | bytes | None = None, start: int = 0, stop: int = 0,
           skip: Collection[str] = (), hits_of: dict[LazySignature, SignatureHits] | None = None) -> None:
    """Record what a line yields in a log's state: its matches as evidence and captures (but those of
    the signatures in `skip`, skipped as slow in this log), and the line itself if it is an error
    line. The one place both the first and the remembered look at a line are recorded.

    `line` is the parsed line, or None: then it is parsed from buf[start:stop] if it is needed (only
    evidence and error lines need its text)."""
    for cs, groups in info.matches:
        if skip and cs.key in skip:
            continue
        sh = hits_of.get(cs) if hits_of is not None else None
        if sh is None:
            sh = _hits_for(state, cs)
            if hits_of is not None:
                hits_of[cs] = sh
        if line is None and len(sh.evidence) < MAX_EVIDENCE and buf is not None:
            line = parse_line(no, decode_line(bytes(buf[start:stop])))
        _record(state, cs, no, line.raw if line is not None else "", groups, sh)
    if info.is_error:
        state.error_lines_seen += 1
        if len(state.error_lines) < state.error_line_cap:
            if line is None and buf is not None:
                line = parse_line(no, decode_line(bytes(buf[start:stop])))
            assert line is not None
            matched = frozenset(cs.entry_id for cs, _ in info.matches if not (skip and cs.key in skip))
            if state.error_lines:
                # The exception line names the error: it stands for the traceback's header line (and is
                # explained by what matched it, not by what matched the header), and for the frames' source
                # lines between them that say failure words (`raise RuntimeError('Unable to read ...')`).
                k = len(state.error_lines) - 1
                while k > 0 and state.error_lines[k][0].raw.startswith((" ", "\t")):
                    k -= 1
                if ends_traceback(state.error_lines[k][0], line):
                    state.error_lines_seen -= len(state.error_lines) - k
                    del state.error_lines[k:]
                elif is_exception_line(line.text):
                    # A traceback pasted without its header: the frames' source lines just above the exception line
                    # (`raise ValueError("Unknown ir was requested")`) are code, and the exception line stands for them
                    j, after = len(state.error_lines), line.no
                    while (j > 0 and state.error_lines[j - 1][0].raw.startswith((" ", "\t"))
                           and after - state.error_lines[j - 1][0].no <= _FRAME_LINES):
                        j -= 1
                        after = state.error_lines[j][0].no
                    if j < len(state.error_lines):
                        state.error_lines_seen -= len(state.error_lines) - j
                        del state.error_lines[j:]
            state.error_lines.append((_kept_error_line(line), matched))


_FRAME_LINES = 4
"""The most lines one traceback frame takes (its `File` line, the source line, 3.11's caret line, a blank line)."""


def following_lines(buf: bytearray | bytes, pos: int, end: int, n: int = CONTEXT_LINES) -> list[bytes]:
    """Up to n lines starting at pos (each capped at MAX_LINE_BYTES), for wrapped-line joining."""
    out: list[bytes] = []
    for _ in range(n):
        if pos >= end:
            break
        e2 = buf.find(b"\n", pos, end)
        if e2 < 0:
            e2 = end
        out.append(bytes(buf[pos:min(e2, pos + MAX_LINE_BYTES)]))
        pos = e2 + 1
    return out


def _idle(origin: Origin | None) -> _LineInfo:
    """The one shared info per origin for the (many) lines that yield nothing else."""
    idle = _IDLE.get(origin)
    if idle is None:
        idle = _IDLE[origin] = _LineInfo(False, True, origin, (), False, True)
    return idle
_EMPTY = _LineInfo(True, True, None, (), False)
_ERROR_RANK = Level.ERROR.rank
_WARNING_RANK = Level.WARNING.rank
_NOTHING = object()


def _search(pattern: Any, text: str, started: float, timeout: float) -> Any:
    """`pattern.search` within `timeout` seconds of this thread's CPU time.

    The regex engine's own timeout counts wall-clock time, which a loaded machine stretches (other
    processes, other threads): a search that timed out having used little CPU is given one more,
    much longer, try, so that a report does not depend on the machine's load. A regex that really
    backtracks uses its CPU and times out again."""
    try:
        return pattern.search(text, timeout=timeout)
    except TimeoutError:
        if thread_time() - started >= timeout / 2:
            raise
        return pattern.search(text, timeout=timeout * 20)


def _kept_error_line(line: LogLine) -> LogLine:
    """An error line as the state keeps it: cut at MAX_ERROR_LINE_CHARS (a terminal shows a line's
    start, suggestions read it; 400 lines of 8,000 characters would hold several MiB per log)."""
    if len(line.raw) <= MAX_ERROR_LINE_CHARS and len(line.text) <= MAX_ERROR_LINE_CHARS:
        return line
    return line.model_copy(update={"text": _cut(line.text), "raw": _cut(line.raw)})


def _cut(text: str) -> str:
    return text if len(text) <= MAX_ERROR_LINE_CHARS else text[:MAX_ERROR_LINE_CHARS] + " [...]"


def _hits_for(state: MatchState, cs: LazySignature) -> SignatureHits:
    entry_hits = state.hits.get(cs.entry_id)
    if entry_hits is None:
        entry_hits = state.hits[cs.entry_id] = EntryHits()
    sh = entry_hits.by_sig.get(cs.sig.id)
    if sh is None:
        sh = entry_hits.by_sig[cs.sig.id] = SignatureHits()
    return sh


def _record(state: MatchState, cs: LazySignature, no: int, raw: str, groups: dict[str, str],
            sh: SignatureHits | None = None) -> None:
    sh = sh or _hits_for(state, cs)
    sh.count += 1
    if not sh.first_line:
        sh.first_line = no
    sh.last_line = no
    if len(sh.evidence) < MAX_EVIDENCE:
        sh.evidence.append(Evidence.model_construct(line=no, text=raw, signature=cs.sig.id, role=cs.sig.role))
    if not sh.captures and groups:
        sh.captures = dict(groups)
    for k, v in groups.items():
        vals = sh.values.setdefault(k, [])
        if len(vals) < MAX_VALUES and v not in vals:
            vals.append(v)


WRAP_MIN_CHARS = 60
"""A line shorter than this was not cut by a terminal or an editor (unless it is visibly unfinished)."""


_DETAIL_FOLLOWS = re_compile(r"Error Code \d+: [\w ]{1,30}Error\s*$")
"""TensorRT's error line cut before its "(detail)": ONNX Runtime's TensorRT-RTX provider logs the message's own
newlines ("IBuilder::buildSerializedNetwork: Error Code 1: Internal Error" / "(ScalarOp not handled ..." / "In
getEquivalentMyelinCoord at .../codeGenerator.cpp:3996)")."""
UNFINISHED_LINES = 4
"""The most lines an unfinished line is joined with."""
_VERSION_QUERY = re_compile(r"(?:>>> ?|In \[\d+\]: )?(?:print\()?(?:tensorrt|trt)\.__version__\)?$")
"""A Python prompt asking TensorRT's release (">>> trt.__version__"), whose answer is the next line ("'8.2.1.8'"): the two
are read as one line, so the release is read."""
_CMAKE_MESSAGE = re_compile(r"CMake Error at \S{1,300}:\d+ \(message\):\s*$")
"""CMake's header over a project's own `message(FATAL_ERROR ...)`, whose words are on the indented lines under it ("  TensorRT
8.5 or greater is required but ..  was found."): the header is joined with them, so the line says what failed."""


_APP_HEADER_STARTS = ("Error occurred when executing ", "An error occurred in ")
_APP_HEADER = re_compile(APP_STEP_HEADER)
"""An app's header over the error of one of its steps, the message on the next line without an exception's name
(ComfyUI: "Error occurred when executing STATIC_TRT_MODEL_CONVERSION:" over "Exporting the operator ... is not
supported", first-sight batch 37; chaiNNer: "An error occurred in a onnx Upscale Image node:"): the header is joined
with that line, so the line says what failed (`logs.is_report_frame` knows the header alone)."""
_NOT_A_MESSAGE = re_compile(r"File \"|Traceback \(|\s*$")
"""A header's next line that is no message: a traceback's header or frame."""


def _continued(line: _Line, following: Sequence[bytes] | Callable[[], Sequence[bytes]], *, cmake_message: bool,
               app_header: bool) -> str | None:
    """An unfinished line joined with the lines that finish it (`_joinings`), or None: CMake's message indented under
    its header; an app's header with its message, not with a traceback under it."""
    joinings = _joinings(line, following() if callable(following) else following, unfinished=True,
                         indented=cmake_message)
    joined = joinings[0] if joinings else None
    if app_header and joined is not None and _NOT_A_MESSAGE.match(joined, len(line.text) + 1):
        return None  # the header over a traceback: its exception line says what failed
    return joined


def _joinings(line: _Line, following: Sequence[bytes], *, unfinished: bool, indented: bool = False) -> list[str]:
    """The line joined with the lines that continue it: the next non-blank lines that carry no prefix of
    their own, while the piece before each was long (a wrapped tail). An `unfinished` line (an open
    parenthesis, or TensorRT's "Error Code N: ... Error" whose "(detail)" a wrapper put on the next lines) continues
    on the next lines whatever their length until the parenthesis closes (at most `UNFINISHED_LINES`), and is
    joined one way: without a
    separator where a terminal cut it (a long line not ending in a space), else with one space. Any
    other line is joined both ways, for the caller to try."""
    tails: list[str] = []
    before = len(line.raw)
    depth = line.text.count("(") - line.text.count(")")
    for raw in following:
        nxt = decode_line(raw).rstrip("\r")
        if not nxt.strip():
            continue  # Windows pastes: a blank line between every line
        if before < WRAP_MIN_CHARS and not (unfinished and not tails):
            break
        if indented and not nxt[:1].isspace():
            break  # CMake's message is indented under its header; an unindented line is the next message
        level, origin, _text, _raw = parse_parts(nxt)
        if level is not None or origin is not None or nxt.lstrip().startswith("["):
            break
        tails.append(nxt.strip())
        if unfinished:
            depth += nxt.count("(") - nxt.count(")")
            if depth <= 0 or len(tails) >= UNFINISHED_LINES:
                break  # the line that closes it: what follows is another message (a paste's next line)
            continue
        before = len(nxt)
    if not tails:
        return []
    glued, spaced = line.text + "".join(tails), " ".join([line.text, *tails])
    if not unfinished:
        return [glued, spaced]
    return [glued if len(line.raw) >= WRAP_MIN_CHARS and not line.raw.endswith(" ") and not indented else spaced]
