"""Load the knowledge base: safe YAML, one entry per file, id == file stem.

A broken entry is reported with its file and field; the rest of the KB still loads
(``strict=True`` raises instead). Extra folders (``--kb DIR``, ``TRT_WHY_KB_PATH``) load after the
built-in one and may not silently override a built-in id.

What an entry's regexes must be for the engine to use them (they compile, yield a prefilter literal,
cannot backtrack catastrophically) is the engine's to say: the caller hands that check in (``check``;
``api.load_kb`` and the engine's KB pass ``core.matcher.check_entry``). The KB layer imports no engine.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from troubleshooter.envvars import env_int
from troubleshooter.errors import KBError
from troubleshooter.kb.schema import Entry

if TYPE_CHECKING:
    import yaml
    from pydantic import ValidationError

MAX_ENTRY_BYTES = 256 * 1024
"""A KB file larger than this is refused (a real entry is a few KiB)."""
MAX_YAML_NODES = env_int("TRT_WHY_MAX_YAML_NODES", 20_000)
"""A YAML file expanding past this many nodes, aliases counted each time they are used, is refused
("billion laughs"). The largest built-in entry has under 600. TRT_WHY_MAX_YAML_NODES raises it."""
MAX_YAML_DEPTH = 64
"""Collections nested deeper than this are refused (a real entry nests about 6 levels)."""

EntryCheck = Callable[[Entry, bool], None]
"""Checks an entry the schema accepted, raising KBError (with the field; the loader adds the file) when it
cannot be used; the bool says the entry comes from a folder besides the built-in KB (untrusted)."""



def _loader_class() -> Any:
    """The C YAML loader where available. PyYAML is imported only when YAML is read: a run with a
    warm KB cache never reads any."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def builtin_kb_dir() -> Path:
    """The KB that ships with the package (wheel: troubleshooter/kb_data; checkout: ./kb)."""
    here = Path(__file__).resolve().parent.parent
    packaged = here / "kb_data"
    if packaged.is_dir():
        return packaged
    return here.parent / "kb"


def extra_kb_dirs(explicit: Sequence[str | os.PathLike[str]] = ()) -> list[Path]:
    """User KB folders: --kb arguments, then TRT_WHY_KB_PATH (os.pathsep-separated)."""
    dirs = [Path(p) for p in explicit]
    env = os.environ.get("TRT_WHY_KB_PATH", "")
    dirs += [Path(p) for p in env.split(os.pathsep) if p.strip()]
    return dirs


@dataclass(frozen=True)
class KBProblem:
    """One entry that could not be loaded."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass
class KnowledgeBase:
    """The loaded entries, in id order, plus the problems met while loading."""

    entries: list[Entry]
    problems: list[KBProblem] = field(default_factory=list)
    digest: str = ""
    origins: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._by_id = {e.id: e for e in self.entries}

    def get(self, entry_id: str) -> Entry | None:
        return self._by_id.get(entry_id)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def ids(self) -> list[str]:
        return [e.id for e in self.entries]


def _count_nodes(root: yaml.Node, path: str) -> None:
    """Walk the composed YAML graph as the constructor would expand it; refuse it past MAX_YAML_NODES.

    Iterative (no recursion limit to hit); an alias is a second visit of the same node, so "billion
    laughs" documents and self-referencing anchors run out of budget instead of memory or stack.
    """
    import yaml

    budget = MAX_YAML_NODES
    stack: list[tuple[yaml.Node, int]] = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        budget -= 1
        if budget < 0:
            raise KBError(
                f"the YAML expands to more than {MAX_YAML_NODES} nodes (anchors and aliases?); refusing it", path=path
            )
        if depth > MAX_YAML_DEPTH:
            raise KBError(f"the YAML nests deeper than {MAX_YAML_DEPTH} levels; refusing it", path=path)
        if isinstance(node, yaml.SequenceNode):
            stack.extend((child, depth + 1) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.append((key, depth + 1))
                stack.append((value, depth + 1))


def _check_depth(text: str, path: str) -> None:
    """Refuse deep nesting from the parser's event stream, before the (recursive) composer sees it:
    libyaml's composer overflows the C stack on a hundred thousand nested brackets."""
    import yaml

    depth = 0
    try:
        for event in yaml.parse(text, Loader=_loader_class()):
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > MAX_YAML_DEPTH:
                    raise KBError(f"the YAML nests deeper than {MAX_YAML_DEPTH} levels; refusing it", path=path)
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
    except yaml.YAMLError as exc:
        raise KBError(f"not valid YAML: {_one_line(str(exc))}", path=path) from None


def safe_load_yaml(text: str, path: str = "<yaml>") -> Any:
    """Safe YAML (no tags that build Python objects) with guards against alias bombs and deep nesting."""
    import yaml

    _check_depth(text, path)
    loader = _loader_class()(text)
    try:
        try:
            node = loader.get_single_node()
        except yaml.YAMLError as exc:
            raise KBError(f"not valid YAML: {_one_line(str(exc))}", path=path) from None
        except RecursionError:
            raise KBError("the YAML nests too deeply; refusing it", path=path) from None
        if node is None:
            raise KBError("the file is empty", path=path)
        _count_nodes(node, path)
        try:
            return loader.construct_document(node)
        except yaml.YAMLError as exc:
            raise KBError(f"not valid YAML: {_one_line(str(exc))}", path=path) from None
        except RecursionError:
            raise KBError("the YAML nests too deeply; refusing it", path=path) from None
    finally:
        loader.dispose()


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:4]:
        loc = ".".join(str(p) for p in err["loc"]) or "(entry)"
        msg = err["msg"]
        msg = msg.removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}")
    more = len(exc.errors()) - 4
    if more > 0:
        parts.append(f"(+{more} more)")
    return "; ".join(parts)


def parse_entry(text: str, path: str, stem: str | None = None) -> Entry:
    """Validate one entry's YAML text. Raises KBError naming the file and field."""
    data = safe_load_yaml(text, path)
    if not isinstance(data, dict):
        raise KBError("an entry is a YAML mapping (id:, title:, ...)", path=path)
    from pydantic import ValidationError  # only when the KB is read from YAML (not from the cache)

    try:
        entry = Entry.model_validate(data)
    except ValidationError as exc:
        raise KBError(_describe(exc), path=path) from None
    if stem is not None and entry.id != stem:
        raise KBError(f"id {entry.id!r} must equal the file name; rename the file to {entry.id}.yaml", path=path, field="id")
    return entry


def _yaml_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        raise KBError("KB folder does not exist or is not a directory", path=str(folder))
    return sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())


def _read_limited(path: Path) -> str:
    with open(path, "rb") as handle:  # read at most the limit, whatever stat said a moment ago
        data = handle.read(MAX_ENTRY_BYTES + 1)
    if len(data) > MAX_ENTRY_BYTES:
        raise KBError(f"file larger than {MAX_ENTRY_BYTES // 1024} KiB; a KB entry is a few KiB", path=str(path))
    return data.decode("utf-8")


def _checked(entry: Entry, path: str, check: EntryCheck | None, untrusted: bool) -> None:
    """`check` on an entry read from `path`: its KBError, naming the file."""
    if check is None:
        return
    try:
        check(entry, untrusted)
    except KBError as exc:
        raise KBError(exc.message, path=path, field=exc.field) from None


def _same_folder(a: Path, b: Path | None) -> bool:
    if b is None:
        return False
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def load_folders(folders: Iterable[Path], *, strict: bool = False, builtin: Path | None = None,
                 check: EntryCheck | None = None) -> KnowledgeBase:
    """Load every entry of every folder, in order. Later folders may not override earlier ids.

    `check` (see `EntryCheck`) runs on every entry the schema accepted; entries outside ``builtin``
    (default: the packaged KB) are passed to it as untrusted (`core.matcher.check_entry` then also guards
    their regexes against catastrophic backtracking, as `kb validate` does for the built-in KB in CI).
    """
    trusted = builtin if builtin is not None else builtin_kb_dir()
    entries: dict[str, Entry] = {}
    origins: dict[str, str] = {}
    problems: list[KBProblem] = []
    digest = hashlib.sha256()
    for folder in folders:
        user_supplied = not _same_folder(folder, trusted)
        try:
            files = _yaml_files(folder)
        except KBError as exc:
            if strict:
                raise
            problems.append(KBProblem(str(folder), str(exc).split(": ", 1)[-1]))
            continue
        for path in files:
            try:
                text = _read_limited(path)
                digest.update(path.name.encode() + b"\0" + text.encode("utf-8") + b"\0")
                entry = parse_entry(text, str(path), path.stem)
                _checked(entry, str(path), check, user_supplied)
                if entry.id in entries:
                    raise KBError(
                        f"id {entry.id!r} is already defined in {origins[entry.id]}; pick another id "
                        "(built-in ids are never overridden)",
                        path=str(path),
                    )
            except (KBError, OSError, UnicodeDecodeError) as exc:
                if strict:
                    raise exc if isinstance(exc, KBError) else KBError(str(exc), path=str(path)) from None
                msg = str(exc)
                prefix = f"{path}: "
                problems.append(KBProblem(str(path), msg.removeprefix(prefix)))
                continue
            entries[entry.id] = entry
            origins[entry.id] = str(path)
    ordered = [entries[k] for k in sorted(entries)]
    return KnowledgeBase(ordered, problems, digest.hexdigest()[:16], origins)


def load_kb(extra: Sequence[str | os.PathLike[str]] = (), *, strict: bool = False,
            check: EntryCheck | None = None) -> KnowledgeBase:
    """The built-in KB plus extra folders (arguments, then TRT_WHY_KB_PATH); `check`: see `load_folders`."""
    folders = [builtin_kb_dir(), *extra_kb_dirs(extra)]
    return load_folders(folders, strict=strict, check=check)
