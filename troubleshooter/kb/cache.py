"""The compiled KB cache: validated entries kept as JSON, keyed by the KB files' content.

Parsing and validating ~40 YAML files costs more than the rest of a small run. The cache holds
the validated entries; it is rebuilt whenever any KB file changes (its key is a hash of every
file's name, size and modification time, checked with one stat per file, and of the content
digest stored inside). A cache that cannot be read or written is simply ignored.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path

from troubleshooter.kb.loader import KBProblem, KnowledgeBase, builtin_kb_dir, extra_kb_dirs, load_folders
from troubleshooter.kb.schema import Entry

CACHE_VERSION = "1"


def cache_dir() -> Path:
    base = os.environ.get("TRT_WHY_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "trt-why"


def _stamp(folders: Sequence[Path]) -> str:
    h = hashlib.sha256(CACHE_VERSION.encode())
    from troubleshooter import __version__

    h.update(__version__.encode())
    for folder in folders:
        h.update(str(folder.resolve()).encode() + b"\0")
        try:
            names = sorted(os.scandir(folder), key=lambda d: d.name)
        except OSError:
            h.update(b"missing\0")
            continue
        for d in names:
            if d.name.endswith((".yaml", ".yml")):
                st = d.stat()
                h.update(f"{d.name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()[:24]


def load_kb_cached(extra: Sequence[str | os.PathLike[str]] = ()) -> KnowledgeBase:
    """The KB, from the cache when it is current, else from YAML (then cached)."""
    folders = [builtin_kb_dir(), *extra_kb_dirs(extra)]
    if os.environ.get("TRT_WHY_NO_CACHE"):
        return load_folders(folders)
    stamp = _stamp(folders)
    path = cache_dir() / f"kb-{stamp}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        entries = [Entry.model_validate(e) for e in data["entries"]]
        problems = [KBProblem(p["path"], p["message"]) for p in data["problems"]]
        return KnowledgeBase(entries, problems, data["digest"], data["origins"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    kb = load_folders(folders)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({
            "entries": [e.model_dump(mode="json") for e in kb.entries],
            "problems": [{"path": p.path, "message": p.message} for p in kb.problems],
            "digest": kb.digest, "origins": kb.origins,
        }), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass
    return kb
