"""`re` patterns built from a program kept between runs, instead of compiled again on every run.

`re` parses a pattern and generates its program in Python; only matching runs in C. The line grammar's
alternations (`core.logs`) and the literal finder's passes (`reading.finders`) are large, and compiling
them was ~70 ms of a ~450 ms one-shot run (benchmarks/bench_startup.py). The program (the opcodes `re`
hands to its C engine, `_sre`) depends only on the pattern, the flags and the interpreter, so a caller
that keeps the records between runs (`cli.shared`, in the cache folder) seeds them here (`seed`) before
the core is imported, and writes back what `export` returns after the command.

A record is made only when the pattern it rebuilds equals `re.compile`'s own (pattern objects compare
by their program), and used only when the C engine accepts it (`_sre` validates every program it is
given); anything else compiles as `re` does. An interpreter without `_sre`'s entry point (another
implementation) simply compiles every time. This module keeps tables in memory and opens no file.
"""

from __future__ import annotations

import importlib
import re
import sys
from typing import Any, AnyStr

try:
    _sre: Any = importlib.import_module("_sre")
    _parser: Any = importlib.import_module("re._parser" if sys.version_info >= (3, 11) else "sre_parse")
    _compiler: Any = importlib.import_module("re._compiler" if sys.version_info >= (3, 11) else "sre_compile")
    _ENGINE: Any = _sre if hasattr(_sre, "compile") and hasattr(_compiler, "_code") else None
except ImportError:  # pragma: no cover - not CPython
    _ENGINE = None

Key = tuple[str | bytes, int]
Record = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]
"""What `_sre.compile` takes after the pattern: the final flags, the program, the group count - 1, the group
names to numbers and numbers to names."""

RUNTIME = (f"{sys.implementation.cache_tag}-{getattr(_ENGINE, 'MAGIC', 0)}-{getattr(_ENGINE, 'CODESIZE', 0)}"
           if _ENGINE is not None else "")
"""What a record is valid for (the interpreter and its regex engine's program format); '' when records are
not used. A caller keeps one table per value."""

MAX_RECORDS = 2048
"""A table larger than this is written back with only the records this process compiled (the literal finder's
passes change with the KB: old ones would pile up)."""

_records: dict[Key, Record] = {}
_fresh: set[Key] = set()
_compiled: dict[Key, re.Pattern[Any]] = {}


def re_compile(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """`re.compile(pattern, flags)`, from its kept program when there is one."""
    key: Key = (pattern, int(flags))
    done = _compiled.get(key)
    if done is not None:
        return done
    record = _records.get(key)
    if record is not None:
        try:
            built: re.Pattern[AnyStr] = _ENGINE.compile(pattern, *record)
        except Exception:
            del _records[key]
        else:
            _compiled[key] = built
            return built
    built = re.compile(pattern, flags)
    _compiled[key] = built
    if _ENGINE is not None:
        record = _record(pattern, int(flags))
        if record is not None and _rebuilt(pattern, record) == built:
            _records[key] = record
            _fresh.add(key)
    return built


def _record(pattern: str | bytes, flags: int) -> Record | None:
    """What `re._compiler.compile` hands to `_sre.compile`, worked out the same way."""
    try:
        parsed = _parser.parse(pattern, flags)
        code = _compiler._code(parsed, flags)
        names = dict(parsed.state.groupdict)
        by_number: list[str | None] = [None] * parsed.state.groups
        for name, number in names.items():
            by_number[number] = name
        return (int(flags | parsed.state.flags), [int(c) for c in code], parsed.state.groups - 1, names, tuple(by_number))
    except Exception:
        return None


def _rebuilt(pattern: str | bytes, record: Record) -> re.Pattern[Any] | None:
    try:
        return _ENGINE.compile(pattern, *record)  # type: ignore[no-any-return]
    except Exception:
        return None


def seed(table: object) -> int:
    """Add the records of a table `export` wrote (for this RUNTIME); entries of any other shape are skipped.
    Returns how many were taken."""
    if _ENGINE is None or not isinstance(table, list):
        return 0
    taken = 0
    for row in table:
        if not (isinstance(row, tuple | list) and len(row) == 7):
            continue
        pattern, flags, final, code, groups, names, by_number = row
        if not (isinstance(pattern, str | bytes) and isinstance(flags, int) and isinstance(final, int)
                and isinstance(code, list) and isinstance(groups, int) and isinstance(names, dict)
                and isinstance(by_number, tuple | list)):
            continue
        _records.setdefault((pattern, flags), (final, code, groups, names, tuple(by_number)))
        taken += 1
    return taken


def export() -> list[tuple[Any, ...]] | None:
    """The table to keep, when this process made records the table did not hold; else None (nothing to write)."""
    if not _fresh:
        return None
    keys = list(_records) if len(_records) <= MAX_RECORDS else [k for k in _records if k in _compiled]
    _fresh.clear()
    return [(k[0], k[1], *_records[k]) for k in keys]
