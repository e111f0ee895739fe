"""The compiled KB cache: validated entries kept as JSON, keyed by the KB's content.

Parsing and validating ~50 YAML files and reading every signature's regex costs more than the rest
of a small run. The cache holds the validated entries (as JSON: no pickle, no code) and what the
matcher and the ranking read from the regexes. Its key is a SHA-256 of every KB file's name and bytes, of the
code that reads them (schema, loader, literal derivation) and of the package version, so editing
any entry, adding or removing one, or upgrading trt-why selects another cache file. Reading the
KB's bytes to hash them costs about a millisecond; parsing them costs a hundred.

Cached entries are rebuilt without validating them again (they were validated when the cache was
written, by this very code): a cache file of another shape fails the rebuild, and then the KB is
read from YAML. A cache that cannot be
read or written is simply ignored; TRT_WHY_NO_CACHE=1 turns it off, TRT_WHY_CACHE_DIR moves it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import hashlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from types import UnionType
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, Union, get_args, get_origin

from troubleshooter.kb.loader import KBProblem, KnowledgeBase, builtin_kb_dir, extra_kb_dirs, load_folders
from troubleshooter.records import Record

if TYPE_CHECKING:
    from troubleshooter.core.regexes import Reading

M = TypeVar("M", bound=Record)

CACHE_VERSION = "3"
KEEP_FILES = 8
"""Cache files kept (the most recent); older ones are removed when a new one is written."""


def cache_dir() -> Path:
    base = os.environ.get("TRT_WHY_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "trt-why"


def _code_files() -> list[Path]:
    """The code whose behaviour the cached data may depend on: every module of the engine and the KB layer
    (records, kb/, core/). A git checkout that changes any of them gets a new key, whatever `__version__` says."""
    package = Path(__file__).resolve().parent.parent
    files = [package / "records.py", package / "models.py"]
    for sub in ("kb", "core"):
        try:
            files.extend(sorted((package / sub).glob("*.py")))
        except OSError:
            continue
    return files


def cache_key(folders: Sequence[Path]) -> str:
    """SHA-256 of the KB files' names and bytes, the code reading them and the package version."""
    from troubleshooter import __version__

    h = hashlib.sha256(f"trt-why-kb-cache {CACHE_VERSION} {__version__}\0".encode())
    for code in _code_files():
        try:
            h.update(code.read_bytes())
        except OSError:
            h.update(b"missing\0")
    for folder in folders:
        h.update(str(folder.resolve()).encode() + b"\0")
        try:
            names = sorted(d.name for d in os.scandir(folder) if d.name.endswith((".yaml", ".yml")))
        except OSError:
            h.update(b"missing\0")
            continue
        for name in names:
            try:
                data = (folder / name).read_bytes()
            except OSError:
                data = b"\0unreadable\0"
            h.update(f"{name}\0{len(data)}\0".encode())
            h.update(data)
    return h.hexdigest()[:32]


class Derived(NamedTuple):
    """What the engine derives from each signature ("entry::signature" -> strings, regex -> reading),
    kept in the cache so that a run does not read every regex again."""

    literals: dict[str, list[str]]
    """Prefilter literals: a line holding none is not looked at for this signature."""
    required: dict[str, list[str]]
    """Strings every match holds: a line missing one is not matched against this signature."""
    readings: dict[str, Reading]
    """Each regex as it runs and its named groups (handed to `regexes.remember` when read back)."""


def load_kb_and_literals(
    extra: Sequence[str | os.PathLike[str]] = (),
) -> tuple[KnowledgeBase, Derived | None]:
    """The KB and what the matcher derives from its signatures, cached."""
    folders = [builtin_kb_dir(), *extra_kb_dirs(extra)]
    if os.environ.get("TRT_WHY_NO_CACHE"):
        return load_folders(folders), None
    path = cache_dir() / f"kb-{cache_key(folders)}.json"
    cached = _read(path)
    if cached is not None:
        return cached
    kb = load_folders(folders)
    derived = derive(kb)
    _write(path, kb, derived)
    return kb, derived


def derive(kb: KnowledgeBase) -> Derived:
    """Each signature's prefilter literals, required strings and reading, as the engine derives them."""
    from troubleshooter.core.matcher import required_strings
    from troubleshooter.core.regexes import literals_for, reading

    sigs = [(f"{e.id}::{s.id}", s) for e in kb.entries for s in e.match.signatures]
    return Derived({key: literals_for(s) for key, s in sigs}, {key: list(required_strings(s)) for key, s in sigs},
                   {s.regex: reading(s.regex) for _key, s in sigs})


def _read(path: Path) -> tuple[KnowledgeBase, Derived] | None:
    try:
        data = json.loads(path.read_bytes())
        from troubleshooter.kb.schema import Entry

        entries = [trusted(Entry, e) for e in data["entries"]]
        problems = [KBProblem(p["path"], p["message"]) for p in data["problems"]]
        literals = {str(k): [str(x) for x in v] for k, v in data["literals"].items()}
        required = {str(k): [str(x) for x in v] for k, v in data["required"].items()}
        from troubleshooter.core.regexes import Reading, remember

        readings = {str(k): Reading(str(v[0]), tuple(str(x) for x in v[1])) for k, v in data["readings"].items()}
        remember(readings)
        return KnowledgeBase(entries, problems, data["digest"], data["origins"]), Derived(literals, required, readings)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def trusted(cls: type[M], data: Any) -> M:
    """A model rebuilt from its own `model_dump(mode="json")`, without validating it again.

    The cache holds entries that were validated when it was written, by this very code (the cache key
    hashes the package's files): validating them again would import pydantic and build its validators
    for the whole KB schema on every run, the larger part of loading the KB. Raises KeyError/TypeError/ValueError on a
    cache that does not have the shape this code writes (the caller then reads the YAML)."""
    if not isinstance(data, dict):
        raise TypeError(f"{cls.__name__}: not an object")
    values = dict(data)
    plan: tuple[tuple[str, Convert], ...] = _conversions(cls)  # type: ignore[arg-type]  # a class is hashable
    for name, convert in plan:
        value = values.get(name)
        if value is not None:
            values[name] = convert(value)
    return cls.from_fields(values)


Convert = Callable[[Any], Any]


@functools.cache
def _conversions(cls: type[Record]) -> tuple[tuple[str, Convert], ...]:
    """The fields of a record whose JSON form is not their value (nested records, lists of them, dates),
    with the function that rebuilds each: worked out once per class."""
    out = []
    hints = cls.field_types()
    for name in cls.model_fields:
        convert = _converter(hints[name])
        if convert is not None:
            out.append((name, convert))
    return tuple(out)


def _converter(annotation: Any) -> Convert | None:
    origin = get_origin(annotation)
    if origin in (Union, UnionType):
        inner = [a for a in get_args(annotation) if a is not type(None)]
        return _converter(inner[0]) if len(inner) == 1 else None
    if origin is list:
        (item,) = get_args(annotation)
        each = _converter(item)
        if each is None:
            return None
        return lambda values: [None if v is None else each(v) for v in values]
    if isinstance(annotation, type):
        if issubclass(annotation, Record):
            model = annotation
            return lambda value: trusted(model, value)
        if annotation is dt.date:
            return dt.date.fromisoformat
    return None


def _write(path: Path, kb: KnowledgeBase, derived: Derived) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({
            "entries": [e.model_dump(mode="json") for e in kb.entries],
            "problems": [{"path": p.path, "message": p.message} for p in kb.problems],
            "digest": kb.digest, "origins": kb.origins, "literals": derived.literals,
            "required": derived.required, "readings": derived.readings,
        }, separators=(",", ":")), encoding="utf-8")
        os.replace(tmp, path)
        _prune(path.parent, keep=path)
    except OSError:
        pass


def _prune(folder: Path, keep: Path) -> None:
    """Remove all but the most recent cache files (the KB changes; old keys are never read again)."""
    try:
        files = sorted(folder.glob("kb-*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    for old in files[KEEP_FILES:]:
        if old != keep:
            with contextlib.suppress(OSError):
                old.unlink()
