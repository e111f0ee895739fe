"""`logs.parse_line`, faster: the prefix rules tried as one alternation per step.

The result is the same as `parse_line` for every line: checked at start-up on probe lines (a
difference turns the shortcut off) and by the tests. The matcher calls `fast_parse` / `parse_parts`
on every candidate line, which is why this exists at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from troubleshooter.core import logs as _logs
from troubleshooter.core.logs import parse_line
from troubleshooter.models import Level, LogLine


def _combined_rules() -> tuple[Any, list[tuple[str | None, str | None, bool]]] | None:
    """`logs._RULES` as one alternation tried once per step instead of rule by rule.

    An alternation returns its first alternative that matches, which is the rule the loop picks
    (an empty match, which the loop skips, sends the line to `parse_line`). None if the rules do
    not combine (flags, back-references): then `parse_line` does everything.
    """
    from troubleshooter.core.regexes import looks_behind

    try:
        rules = _logs._RULES
    except AttributeError:
        return None
    parts: list[str] = []
    meta: list[tuple[str | None, str | None, bool]] = []
    flags = {rule.flags for rule, _o, _v in rules}
    if len(flags) != 1:
        return None
    for i, (rule, origin, overrides) in enumerate(rules):
        src = rule.pattern
        if not isinstance(src, str) or re.search(r"\\\d|\(\?P=|^\(\?[aiLmsux]+\)", src):
            return None  # back-references or global flags: not safely combined
        if looks_behind(src, rule.flags):
            return None  # start anchors, word boundaries or look-behinds: matching in place would differ
        names = re.findall(r"\(\?P<(\w+)>", src)
        renamed = re.sub(r"\(\?P<(\w+)>", rf"(?P<\g<1>_{i}>", src)
        parts.append(f"(?P<r{i}>{renamed})")
        meta.append((f"lvl_{i}" if "lvl" in names else None, origin, overrides))
    try:
        combined = re.compile("|".join(parts), flags.pop())
    except re.error:
        return None
    return combined, meta


_FAST: tuple[Any, list[tuple[str | None, str | None, bool]]] | bool | None = False
_PAYLOAD_LITERALS: list[str] | None = None
"""Every match of `logs._PAYLOAD_ERROR` holds one of these: the regex runs only when one is there."""


def fast_parse(no: int, raw: str) -> LogLine:
    """`logs.parse_line`, with the prefix rules tried in one regex call per step.

    The same result as `parse_line` for every line (checked at start-up on sample lines, and by the
    tests); falls back to it whenever the shortcut could differ.
    """
    level, origin, text, raw = parse_parts(raw)
    return LogLine(no=no, level=level, origin=origin, text=text, raw=raw)


def parse_parts(raw: str) -> tuple[Level | None, str | None, str, str]:
    """`fast_parse` as (level, origin, text, raw), without building the model."""
    global _FAST, _PAYLOAD_LITERALS, _FAST_FN
    if _FAST is False:
        from troubleshooter.core.regexes import derive_literals

        _PAYLOAD_LITERALS = derive_literals(_logs._PAYLOAD_ERROR.pattern) if hasattr(_logs, "_PAYLOAD_ERROR") else None
        _FAST = _combined_rules()
        try:
            if _FAST is not None:
                _FAST_FN = _make_fast_parser(*_FAST)
                if not all(_probe_ok(s) for s in _PROBES):
                    _FAST = None
        except Exception:
            _FAST = None
    parts = _fast_parse(raw) if _FAST is not None else None
    if parts is None:
        line = parse_line(0, raw)
        return line.level, line.origin, line.text, line.raw
    return parts


def _probe_ok(raw: str) -> bool:
    parts = _fast_parse(raw)
    line = parse_line(0, raw)
    return parts is not None and parts == (line.level, line.origin, line.text, line.raw)


def _fast_parse(raw: str) -> tuple[Level | None, str | None, str, str] | None:
    """`logs.parse_line` step for step, but each step of the prefix loop is one regex call.

    Keep in step with `logs.parse_line`: `parse_parts` compares the two on `_PROBES` at start-up
    and uses `parse_line` alone if they differ; tests/perf compare them on every sample log.
    """
    fn = _FAST_FN
    assert fn is not None
    result: tuple[Level | None, str | None, str, str] | None = fn(raw)
    return result


def _make_fast_parser(combined: Any, meta: list[tuple[str | None, str | None, bool]]) -> Callable[[str], Any]:  # noqa: C901, PLR0915  # mirrors logs.parse_line step for step, everything bound once: the per-line hot path
    """The body of `_fast_parse`, with everything it uses bound once."""
    L = _logs
    by_name = {f"r{i}": m for i, m in enumerate(meta)}
    max_chars = L.MAX_LINE_CHARS
    strip_ansi = L.strip_ansi
    words = L._LEVEL_WORDS
    bare = L._BARE_LEVEL.match
    traceback_, terminate, exception = L._TRACEBACK.match, L._TERMINATE.match, L._EXCEPTION.match
    payload = L._PAYLOAD_ERROR.search
    payload_level = L.payload_level
    payload_literals = _PAYLOAD_LITERALS
    error, warning, info = Level.ERROR, Level.WARNING, Level.INFO
    match = combined.match

    def parse(raw: str) -> tuple[Level | None, str | None, str, str] | None:  # noqa: C901, PLR0912  # the per-line hot path, kept in one frame on purpose (measured)
        if len(raw) > max_chars:
            raw = raw[:max_chars]
        raw = raw.rstrip("\r\n")
        if "\r" in raw:
            parts = [p for p in raw.split("\r") if p.strip()]
            raw = parts[-1] if parts else ""
        raw = strip_ansi(raw)
        rest = raw.lstrip("\ufeff ")
        level = None
        origin = None
        pos = 0  # the rules are matched in place (nothing in them looks behind the start: see above)
        for _ in range(8):
            m = match(rest, pos)
            if m is None:
                break
            end = m.end()
            if end == pos:
                return None
            lvl_group, rule_origin, overrides = by_name[m.lastgroup]
            if lvl_group is not None:
                lvl = m.group(lvl_group)
                if lvl:
                    new = words.get(lvl.upper())
                    if new is not None and (level is None or overrides):
                        level = new
            if rule_origin and (origin is None or origin in ("trt", "docker")):
                origin = rule_origin
            pos = end
        if pos:
            rest = rest[pos:]
        if level is None:
            m = bare(rest)
            if m:
                level = words[m.group("lvl").upper()]
                rest = rest[m.end():]
            elif traceback_(rest) or terminate(rest) or exception(rest):
                level = error
                origin = origin or "traceback"
        if origin == "trt":
            origin = "python" if raw.lstrip().startswith("[TRT]") or "] [TRT] [" in raw else "trtexec"
        text = rest.strip()
        if level is None or level is info:
            level = payload_level(level, text)
        elif level is warning:
            if payload_literals is None:
                if payload(text):
                    level = error
            else:
                for lit in payload_literals:
                    if lit in text:
                        if payload(text):
                            level = error
                        break
        return level, origin, text, raw

    return parse


_FAST_FN: Callable[[str], Any] | None = None


_PROBES = (
    "[08/07/2024-12:27:04] [E] [TRT] 10: [optimizer.cpp::computeCosts::3869] Error Code 10: Internal Error (x)",
    "[08/07/2024-12:27:04] [W] [TRT] Missing scale and zero-point for tensor t, expect fall back",
    "[08/07/2024-12:27:04] [V] [TRT] /m/Conv [Conv] inputs: [x -> (1, 3)[FLOAT]], ",
    "[TRT] [E] 1: [defaultAllocator.cpp::deallocateAsync::64] Error Code 1: Cuda Runtime (operation not supported)",
    "[TensorRT] ERROR: Network must have at least one output",
    "ERROR: [TRT]: UffParser: Validator error",
    "2024-01-01 10:00:00.123 [W:onnxruntime:Default, tensorrt_execution_provider.h:88 log] [2024-01-01 10:00:00 ERROR] x",
    "E0305 12:00:00.123456 1 model.cc:123] failed to load",
    "trt-1  | [08/07/2024-12:27:04] [E] Error[4]: x",
    "Traceback (most recent call last):",
    "RuntimeError: CUDA error",
    "WARNING:root:something",
    "[!] Could not load library",
    "\x1b[31m[E] red\x1b[0m",
    "progress 10%\rprogress 100%\r[E] done",
    "\x1b]0;title\x07[W] [TRT] osc \x08 and bell\x07",
    "\x1b[1;31m[08/07/2024-12:27:04] [E] [TRT] 3: colour\x1b[0m\r\n",
    "\t[I] tab\tinside",
    "&&&& FAILED TensorRT.trtexec [TensorRT v8601] # trtexec",
    "INFO - TensorRT: export failure 0.1s: No module named 'tensorrt'",
    "Segmentation fault (core dumped)",
    "2023-01-27 14:05:53.348636: W tensorflow/x/dso_loader.cc:64] Could not load dynamic library 'libnvinfer.so.7'",
    "[6] Invalid Node - /x",
    "",
    "   ",
)
