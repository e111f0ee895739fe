"""Settings read from the environment (`TRT_WHY_*`): a missing, bad or non-positive value leaves the default."""

from __future__ import annotations

import os
from pathlib import Path


def env_int(name: str, default: int) -> int:
    """A positive integer from the environment, else `default`."""
    try:
        value = int(os.environ.get(name, "") or default)
    except ValueError:
        return default
    return value if value > 0 else default


def env_seconds(name: str, default: float) -> float:
    """A positive number of seconds from the environment, else `default`."""
    try:
        value = float(os.environ.get(name, "") or default)
    except ValueError:
        return default
    return value if value > 0 else default


def cache_dir() -> Path:
    """Where trt-why keeps what it derives once and reuses (the compiled KB, Hyperscan databases):
    TRT_WHY_CACHE_DIR, else $XDG_CACHE_HOME/trt-why, else ~/.cache/trt-why."""
    base = os.environ.get("TRT_WHY_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "trt-why"


def cache_off() -> bool:
    """TRT_WHY_NO_CACHE set: nothing is read from or written to the cache folder."""
    return bool(os.environ.get("TRT_WHY_NO_CACHE"))


KEEP_CACHED = 8
"""Files of one kind kept in the cache folder (the most recent); older ones go when a new one is written."""


def keep_cached(path: Path, data: bytes) -> None:
    """Write `data` to `path` in the cache folder whole or not at all (a temporary file, then a rename), then remove
    all but the KEEP_CACHED most recent files of its kind (the same name before the first '-', the same suffix: the
    keys of KB versions or code no longer in use). A folder that cannot be written is simply not used."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
        kind = f"{path.name.split('-', 1)[0]}-*{path.suffix}"
        files = sorted(path.parent.glob(kind), key=lambda q: q.stat().st_mtime, reverse=True)
        for old in files[KEEP_CACHED:]:
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        pass
