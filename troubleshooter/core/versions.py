"""TensorRT versions: the one place a version string is parsed (packaging does the work)."""

from __future__ import annotations

import re

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

_VERSION = re.compile(r"^\s*v?(\d+(?:\.\d+){0,3})")

KNOWN_RELEASES = [
    "7.2", "8.0", "8.2", "8.4", "8.5", "8.6", "9.0", "9.2", "9.3", "10.0", "10.1", "10.2", "10.3", "10.4",
    "10.5", "10.6", "10.7", "10.8", "10.9", "10.10", "10.11", "10.12", "10.13", "10.14", "10.15", "10.16",
    "11.0", "11.1",
]
"""Releases offered when the log does not say which one the user has (trt-facts.md §11.1)."""


def parse_version(text: str | None) -> Version | None:
    """'8.6.1.6', 'v10.3', '10.3.0.26' -> Version; anything else -> None."""
    if not text:
        return None
    m = _VERSION.match(text)
    if not m:
        return None
    try:
        return Version(m.group(1))
    except InvalidVersion:
        return None


def normalise(text: str) -> str | None:
    """A user-given version, reduced to at most major.minor.patch; None when it is not a version."""
    v = parse_version(text)
    if v is None:
        return None
    return ".".join(str(p) for p in v.release[:3])


def in_range(version: str | None, spec: str | None) -> bool | None:
    """True/False when both are known, None when either is unknown."""
    if not version or not spec:
        return None
    v = parse_version(version)
    if v is None:
        return None
    return SpecifierSet(spec).contains(v, prereleases=True)
