"""Closest known issues for error lines no diagnosis explains. A suggestion, never a verdict.

Text is masked first (numbers, hex, paths, node and tensor names, quoted strings) so that two
lines of the same message with different values look alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol

from troubleshooter.kb.schema import Entry, Signature
from troubleshooter.models import Diagnosis, LogLine, Suggestion, Unexplained
from troubleshooter.re_programs import re_compile

_MASKS = [
    (re_compile(r"\[[\w.~]+\.(?:cpp|cu|h|hpp|cc)::[\w~]+::\d+\]"), "[SRC]"),
    (re_compile(r"\b[\w.-]+\.(?:cpp|cu|h|hpp|cc|py):\d+"), "SRC"),
    (re_compile(r"0x[0-9a-fA-F]+"), "HEX"),
    (re_compile(r"(?:[A-Za-z]:)?(?:[/\\][\w.@+-]+){2,}[/\\]?"), "PATH"),
    # A quoted C++ type ('std::out_of_range', 'nvinfer1::MyelinError') names the failure: it stays.
    (re_compile(r"\"[^\"]*\"|'(?![A-Za-z_]\w*(?:::[A-Za-z_]\w*)+')[^']*'"), "STR"),
    (re_compile(r"(?<![A-Za-z])/[\w.-]+(?:/[\w.:-]+)*"), "NAME"),
    (re_compile(r"\b\d+(?:\.\d+)*\b"), "N"),
]
MIN_SCORE = 65.0
"""The lowest similarity shown as a suggestion. Measured (session 23) on the first-sight batches' covered logs whose first
error no entry explained: of 15 suggestions scored 55-65, one named the thread's cause; of 12 at 65 and above, 3 did."""

# What a line is about, beyond its boilerplate: the attribute, member, module, name, symbol, library or op it
# names. Two lines of the same shape ("AttributeError: 'X' object has no attribute 'y'") that name different
# things resemble each other only in their boilerplate: such a resemblance is not a suggestion.
_Q = "['\"`\u2018\u2019]"
_SUBJECTS = re_compile(
    rf"has no (?:attribute|member named) {_Q}?(?P<attr>[\w.]+)|No module named {_Q}?(?P<mod>[\w.]+)|"
    rf"cannot import name {_Q}?(?P<name>[\w.]+)|name {_Q}(?P<undef>\w+){_Q} is not defined|"
    rf"undefined (?:symbol|reference to)[: `']+(?P<sym>[\w:~]+)|\b(?:lib)?(?P<lib>[A-Za-z][\w+-]*?)(?:\.so(?:\.[\d.]+)?|\.dll)\b|"
    rf"(?:No importer registered for op|[Uu]nsupported (?:ONNX )?(?:operator|op(?: type)?)|op type)[: ]+"
    rf"{_Q}?(?P<op>[A-Za-z][\w.:]+)|"
    rf"unexpected keyword argument {_Q}(?P<kw>\w+)|^\s*KeyError: {_Q}(?P<key>[^'\"]+)")
_NONE_OBJECT = re_compile(r"['\"]NoneType['\"] object has no attribute {_Q}?(?P<attr>\w+)".replace("{_Q}", _Q))


_TENSORRT_ATTRIBUTES = frozenset({
    "create_execution_context", "serialize", "get_binding_shape", "num_bindings", "num_io_tensors", "get_tensor_name",
    "get_tensor_shape", "get_tensor_dtype", "get_tensor_mode", "get_binding_name", "get_binding_index",
    "binding_is_input", "get_binding_dtype", "max_batch_size", "num_optimization_profiles", "execute_v2",
    "execute_async_v2", "execute_async_v3", "set_input_shape", "set_binding_shape", "set_tensor_address",
    "create_execution_context_without_device_memory", "device_memory_size", "build_engine", "build_serialized_network",
    "deserialize_cuda_engine", "create_network", "create_builder_config", "__enter__", "nbytes"})
"""Attributes of TensorRT's engine, context, builder and serialized plan: a None in their place is one of those
objects that was never made (a failed build or load), whichever attribute the program reached for first."""


def subjects(text: str) -> frozenset[str]:
    """What the line names (lower-case; a module by its top-level package, a name by its last dotted part,
    a library without `lib` and its version); empty for a line that names nothing of the kinds above. A
    NoneType's missing attribute means "that call returned None": the line is then about the None, and the attribute
    says which object it was (`create_execution_context`: an engine; `cpu`: a tensor), so two such lines resemble each
    other only for the same attribute."""
    none = _NONE_OBJECT.search(text)
    if none:
        attr = none.group("attr")
        return frozenset({"<none>.tensorrt" if attr in _TENSORRT_ATTRIBUTES else f"<none>.{attr.lower()}"})
    found: set[str] = set()
    for m in _SUBJECTS.finditer(text):
        kind = m.lastgroup
        value = m.group(kind) if kind else None
        if value:
            found.add((value.split(".")[0] if kind == "mod" else value.rsplit(".", 1)[-1] if kind != "key" else value).lower())
    return frozenset(found)


def boilerplate_only(query: frozenset[str], example: frozenset[str]) -> bool:
    """Both lines name something and nothing they name is shared: they share only boilerplate."""
    return bool(query) and bool(example) and not query & example
_STANDALONE = re_compile(r"Error Code \d+:|Assertion failed|^[\w.]*(?:Error|Exception): ")
MAX_UNEXPLAINED = 12


def mask(text: str) -> str:
    for rx, repl in _MASKS:
        text = rx.sub(repl, text)
    return " ".join(text.split())


Literals = Callable[[Entry, Signature], list[str]]
"""A signature's prefilter literals (the matcher knows them; deriving them again costs)."""


def derived_literals(_entry: Entry, sig: Signature) -> list[str]:
    from troubleshooter.core.regexes import literals_for

    return literals_for(sig)


def corpus_of(entry: Entry, literals: Literals = derived_literals) -> list[str]:
    """Texts that stand for an entry: its title and the example lines its triggers match."""
    return [text for text, _source in sourced_corpus_of(entry, literals)]


def sourced_corpus_of(entry: Entry, literals: Literals = derived_literals) -> list[tuple[str, str | None]]:
    """`corpus_of` with the public thread each example line was copied from (None: the title, or a
    written example). Measuring the similarity threshold leaves out a log's own thread."""
    lits = [lit for s in entry.match.signatures if s.role == "trigger" for lit in literals(entry, s)]
    texts: list[tuple[str, str | None]] = [(entry.title, None)]
    for ex in entry.examples.match:
        for line in ex.log.splitlines():
            if line.strip() and any(lit in line for lit in lits):
                texts.append((line, ex.source))
    return texts


class Suggestions(Protocol):
    """What a report needs of the KB's fuzzy search (a `Suggester`, or a stand-in that builds one only
    when a line is left unexplained)."""

    def similar(self, text: str, limit: int = 3, exclude: Sequence[str] = ()) -> list[Suggestion]: ...

    def near_miss(self, entry_id: str, text: str) -> float: ...


class Suggester:
    """Fuzzy search over the KB's titles and example lines, on masked text."""

    def __init__(self, entries: Sequence[Entry], literals: Literals = derived_literals) -> None:
        """`literals`: each signature's prefilter literals (by default derived from its regex)."""
        self.titles = {e.id: e.title for e in entries}
        self.tags = {e.id: list(e.tags) for e in entries}
        self.text: dict[str, str] = {}
        for e in entries:
            lits = [lit for sig in e.match.signatures for lit in literals(e, sig)]
            self.text[e.id] = " ".join(lits + corpus_of(e, literals)[1:]).lower()
        self.keys: list[str] = []
        self.choices: list[str] = []
        self.lines: list[str] = []
        """The example line (or title) behind each choice, as the KB has it."""
        self.sources: list[str | None] = []
        self.subjects: list[frozenset[str]] = []
        """What each choice names (`subjects`): a line naming other things shares only boilerplate with it."""
        from troubleshooter.core.logs import parse_line

        self.near_misses: dict[str, list[str]] = {}
        """Masked lines of each entry's no_match examples: what its authors said it is not."""
        for e in entries:
            near = [mask(parse_line(0, ln).text) for ex in e.examples.no_match for ln in ex.log.splitlines() if ln.strip()]
            self.near_misses[e.id] = [m for m in near if len(m) >= 8]
            for t, source in sourced_corpus_of(e, literals):
                payload = parse_line(0, t).text
                masked = mask(payload)
                if len(masked) >= 8:
                    self.keys.append(e.id)
                    self.choices.append(masked)
                    self.lines.append(payload)
                    self.sources.append(source)
                    self.subjects.append(subjects(payload))

    def similar(self, text: str, limit: int = 3, exclude: Sequence[str] = (),
                leave_out_source: str | None = None) -> list[Suggestion]:
        """The entries whose example lines resemble this line most (score 0..100 on masked text).

        `leave_out_source` ignores the examples copied from that thread (to measure the similarity
        threshold on a log without its own lines in the KB)."""
        from rapidfuzz import fuzz, process  # only when a line needs a suggestion

        masked = mask(text)
        if not masked or not self.choices:
            return []
        best: dict[str, tuple[float, int]] = {}
        named = subjects(text)
        for _choice, score, idx in process.extract(masked, self.choices, scorer=fuzz.token_sort_ratio, limit=40):
            key = self.keys[idx]
            if key in exclude or score < MIN_SCORE or boilerplate_only(named, self.subjects[idx]):
                continue
            if leave_out_source is not None and self.sources[idx] == leave_out_source:
                continue
            if key not in best or score > best[key][0]:
                best[key] = (float(score), idx)
        ranked = sorted(best.items(), key=lambda kv: (-kv[1][0], kv[0]))[:limit]
        return [Suggestion.model_construct(id=k, title=self.titles[k], score=round(s, 1), example=self.lines[i])
                for k, (s, i) in ranked]

    def near_miss(self, entry_id: str, text: str) -> float:
        """How closely the line resembles one of the entry's no_match examples (0..100)."""
        from rapidfuzz import fuzz, process

        found = process.extractOne(mask(text), self.near_misses.get(entry_id, []), scorer=fuzz.token_sort_ratio)
        return float(found[1]) if found else 0.0

    def search(self, query: str, limit: int = 10) -> list[Suggestion]:
        """Free-text search (KB browser, MCP): ids, titles, tags and example lines.

        Exact words in the id or title weigh most, so "int8 depthwise" ranks the depthwise entry
        above every other INT8 one; fuzzy matches on example lines break the rest of the ties.
        """
        from rapidfuzz import fuzz, process  # only when a line needs a suggestion

        q = " ".join(query.lower().split())
        words = [w for w in re.split(r"[^a-z0-9_]+", q) if len(w) > 1]
        if not q:
            return []
        scores: dict[str, float] = {}
        for key, title in self.titles.items():
            head = f"{key.replace('-', ' ')} {title.lower()} {' '.join(self.tags.get(key, []))}"
            fuzzy = max(fuzz.token_set_ratio(q, head), fuzz.partial_ratio(q, key.replace("-", " ")))
            hay = head + " " + self.text.get(key, "")
            exact = sum(1 for w in words if re.search(rf"\b{re.escape(w)}", hay)) / max(1, len(words))
            phrase = 1.0 if len(q) > 6 and q in hay else 0.0
            scores[key] = 0.5 * fuzzy + 35.0 * exact + 20.0 * phrase
        masked_q = mask(query)
        for _c, s, idx in process.extract(masked_q, self.choices, scorer=fuzz.partial_ratio, limit=60):
            k = self.keys[idx]
            scores[k] = max(scores[k], scores[k] * 0.7 + float(s) * 0.3)
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
        return [Suggestion.model_construct(id=k, title=self.titles[k], score=round(min(s, 100.0), 1))
                for k, s in ranked if s > 45]


def unexplained(error_lines: Sequence[tuple[LogLine, frozenset[str]]], diagnoses: Sequence[Diagnosis],
                fired: set[str], suggester: Suggestions) -> list[Unexplained]:
    """Error lines that no fired entry matched, grouped by masked text.

    A line inside a run of consecutive error lines that holds an explained line (a parser error's
    node dump, a stack of consequences) belongs to that explanation and is not listed.
    """
    covered: set[int] = set()
    specific: set[int] = set()  # lines a root explains (not a crash or "build failed" cascade)
    for d in diagnoses:
        shown = {e.line for e in d.evidence} | set(d.consequences)
        covered |= shown
        if not d.cascade:
            specific |= shown
    cascades = {d.id for d in diagnoses if d.cascade}
    explained = [ln.no in covered or bool(ids & fired) for ln, ids in error_lines]
    # A run's lines belong to a root the run holds; a crash line ("Aborted (core dumped)") explains
    # nothing around it: the heap message just before it says why, and stays listed.
    explains_run = [ln.no in specific or bool(ids & (fired - cascades)) for ln, ids in error_lines]
    # Runs of consecutive error lines (a gap of 2 allows Windows pastes' blank lines).
    run_explained: list[bool] = [False] * len(error_lines)
    start = 0
    for i in range(1, len(error_lines) + 1):
        if i == len(error_lines) or error_lines[i][0].no - error_lines[i - 1][0].no > 2:
            flag = any(explains_run[start:i])
            for j in range(start, i):
                run_explained[j] = flag
            start = i
    groups: dict[str, list[LogLine]] = {}
    for (line, _ids), own, run in zip(error_lines, explained, run_explained, strict=True):
        if own or (run and not _STANDALONE.search(line.text)):
            continue
        groups.setdefault(mask(line.text), []).append(line)
    diagnosed = {d.id for d in diagnoses}
    out: list[Unexplained] = []
    for lines in list(groups.values())[:MAX_UNEXPLAINED]:
        first = lines[0]
        out.append(Unexplained.model_construct(line=first.no, text=first.raw, count=len(lines),
                               similar=suggester.similar(first.text, exclude=sorted(diagnosed))))
    return out
