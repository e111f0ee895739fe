"""The compiled KB cache: validated entries kept in a marshal file, keyed by the KB's content.

Parsing and validating ~50 YAML files and deriving every signature's prefilter literals costs
more than the rest of a small run. The cache holds the validated entries (as JSON) and what the caller
derived from them (tables of strings: the matcher's literals and each signature's compiled regex, which
`core.matcher.derive` works out - the compiled form is the `regex` module's own pickle of it, which
`core.regexes.thaw_pattern` reads back allowing no callable but the one that builds a pattern; this
module reads no regex). Its key is a SHA-256 of every KB file's name and bytes, of the code that reads
them (the models, kb/, core/: the schema, the loader, the engine that checks and derives) and of the
Python and `regex` releases, so editing any entry, adding or removing one, or upgrading trt-why's code
or the regex library selects another cache file. Reading the KB's bytes to hash them costs about a
millisecond; parsing them costs a hundred.

Only a KB loaded as the engine loads it (with its `check` and `derive`) is written: a cached entry
is trusted as checked. A caller without them reads a cache already written, or the YAML.

Cached entries are rebuilt with `model_construct`, without validating them again (they were validated
when the cache was written, by this very code): a cache file of another shape fails the rebuild, and
then the KB is read from YAML. The file holds the entries' JSON form (dicts, lists, strings, numbers) in
`marshal`'s format, which this interpreter reads back in half the time `json` takes (the file is ~2 MB:
~15 ms of a one-shot run); the key holds the Python release, whose format it is.
A cache that cannot be read or written is simply ignored;
TRT_WHY_NO_CACHE=1 turns it off, TRT_WHY_CACHE_DIR moves it.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import marshal
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import UnionType
from typing import Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel

from troubleshooter.envvars import KEEP_CACHED, cache_dir, cache_off, keep_cached
from troubleshooter.kb.loader import EntryCheck, KBProblem, KnowledgeBase, builtin_kb_dir, extra_kb_dirs, load_folders
from troubleshooter.kb.schema import Entry

M = TypeVar("M", bound=BaseModel)

CACHE_VERSION = "5"
KEEP_FILES = KEEP_CACHED
"""Cache files kept (the most recent); older ones are removed when a new one is written."""


def _code_files() -> list[Path]:
    """The code whose behaviour the cached data may depend on: every module of the engine and the KB layer
    (models, kb/, core/: the engine checks the entries and derives the tables). A git checkout or an upgrade
    that changes any of them gets a new key; one that changes none keeps a cache that is still right (the
    version is not in the key: reading it from the package metadata would cost every run ~40 ms)."""
    package = Path(__file__).resolve().parent.parent
    files = [package / "models.py"]
    for sub in ("kb", "core"):
        try:
            files.extend(sorted((package / sub).glob("*.py")))
        except OSError:
            continue
    return files


def cache_key(folders: Sequence[Path]) -> str:
    """SHA-256 of the KB files' names and bytes, of the code reading them, and of the Python and `regex` releases
    (the compiled patterns kept are the `regex` module's program for this interpreter)."""
    import regex  # the engine has imported it already

    h = hashlib.sha256(f"trt-why-kb-cache {CACHE_VERSION}\0{sys.version}\0{regex.__version__}\0".encode())
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


Tables = dict[str, dict[str, list[str]]]
"""What a caller derives from the KB's entries and keeps with them in the cache: named tables of strings
by key (`core.matcher.Derived`)."""


def load_kb_cached(
    extra: Sequence[str | os.PathLike[str]] = (), *, check: EntryCheck | None = None,
    derive: Callable[[Sequence[Entry]], Tables] | None = None,
) -> tuple[KnowledgeBase, Tables | None]:
    """The KB (built-in and `extra` folders) and what `derive` makes of its entries, from the cache when it holds
    them. `check`: see `loader.load_folders`. Without `check` and `derive`, a cache file is read if one
    exists, and none is written."""
    folders = [builtin_kb_dir(), *extra_kb_dirs(extra)]
    if cache_off():
        return load_folders(folders, check=check), None
    path = cache_dir() / f"kb-{cache_key(folders)}.marshal"
    cached = _read(path)
    if cached is not None:
        return cached
    kb = load_folders(folders, check=check)
    if check is None or derive is None:
        return kb, None
    derived = derive(kb.entries)
    _write(path, kb, derived)
    return kb, derived


def _read(path: Path) -> tuple[KnowledgeBase, Tables] | None:
    try:
        data = marshal.loads(path.read_bytes())
        entries = [trusted(Entry, e) for e in data["entries"]]
        problems = [KBProblem(p["path"], p["message"]) for p in data["problems"]]
        derived = {str(name): {str(k): [str(x) for x in v] for k, v in table.items()}
                   for name, table in data["derived"].items()}
        return KnowledgeBase(entries, problems, data["digest"], data["origins"]), derived
    except (OSError, ValueError, EOFError, KeyError, TypeError, AttributeError):
        return None


def trusted(cls: type[M], data: Any) -> M:
    """A model rebuilt from its own `model_dump(mode="json")` with `model_construct`, without validating it again.

    The cache holds entries that were validated when it was written, by this very code (the cache key
    hashes the package's files). Validating them again costs a one-shot run about 100 ms, a third of it:
    pydantic builds the validators of the whole KB schema (and looks up its plugins) on every run. What
    JSON cannot say (nested models, dates) is rebuilt here, from the fields' annotations. Raises
    KeyError/TypeError/ValueError on a cache that does not have the shape this code writes (the caller
    then reads the YAML)."""
    make: Callable[[Any], M] = _maker(cls)
    return make(data)


@functools.cache
def _maker(cls: type[M]) -> Callable[[Any], M]:
    """`trusted` for one class, with what it looks up on the class worked out once (the KB has ~3,600 models)."""
    keys = cls.model_fields.keys()
    conversions = _conversions(cls)
    build = _builder(cls)

    def make(data: Any) -> M:
        if not isinstance(data, dict) or data.keys() != keys:
            raise KeyError(f"{cls.__name__}: not the fields this code writes")
        values = dict(data)
        for name, convert in conversions:
            value = values[name]
            if value is not None:
                values[name] = convert(value)
        return build(values) if build is not None else cls.model_construct(**values)

    return make


@functools.cache
def _builder(cls: type[M]) -> Callable[[dict[str, Any]], M] | None:
    """What `model_construct` does when every field is given, for a model with nothing else for it to do (no
    aliases, no extra fields, no private attributes, no post-init): a third of its cost on the KB's ~3,000
    nested models. None for any other model (then `model_construct` itself runs)."""
    fields = cls.model_fields
    if (cls.__pydantic_root_model__ or cls.__pydantic_post_init__ or cls.model_config.get("extra") == "allow"
            or cls.__private_attributes__
            or any(f.alias is not None or f.validation_alias is not None for f in fields.values())):
        return None
    names = tuple(fields)
    new = cls.__new__
    setattr_ = object.__setattr__

    def build(values: dict[str, Any]) -> M:  # `values` holds exactly the fields, in their order (see _maker)
        m = new(cls)
        setattr_(m, "__dict__", values)
        setattr_(m, "__pydantic_fields_set__", set(names))
        setattr_(m, "__pydantic_extra__", None)
        setattr_(m, "__pydantic_private__", None)
        return m

    return build


Convert = Callable[[Any], Any]


@functools.cache
def _conversions(cls: type[BaseModel]) -> tuple[tuple[str, Convert], ...]:
    """The fields of a model whose JSON form is not their value (nested models, lists of them, dates),
    with the function that rebuilds each: worked out once per class."""
    out = []
    for name, info in cls.model_fields.items():
        convert = _converter(info.annotation)
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
        return None if each is None else lambda values: [each(v) for v in values]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        model = annotation
        return lambda value: trusted(model, value)
    if annotation is dt.date:
        return dt.date.fromisoformat
    return None


def _write(path: Path, kb: KnowledgeBase, derived: Tables) -> None:
    keep_cached(path, marshal.dumps({
        "entries": [e.model_dump(mode="json") for e in kb.entries],
        "problems": [{"path": p.path, "message": p.message} for p in kb.problems],
        "digest": kb.digest, "origins": kb.origins, "derived": derived,
    }))
