"""Settings read from the environment (`TRT_WHY_*`): a missing, bad or non-positive value leaves the default."""

from __future__ import annotations

import os


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
