"""TensorRT versions: the one place a version string is parsed (packaging does the work).

`parse_version` is the only parser: diagnose (``--trt-version``, the TUI through
`api.check_trt_version`, the KB's version ranges) and lint (``trt-why lint --trt-version``) read
versions through it, so they accept and refuse the same strings. `normalise` is the canonical
string diagnose reports.

Accepted (case and surrounding spaces do not matter):

======================  ==============  =============================================================
text                    parse_version   notes (`normalise` keeps at most major.minor.patch)
======================  ==============  =============================================================
8.6.1, 8.6, 10          8.6.1, 8.6, 10  one to four numeric parts
8.6.1.6, 10.3.0.26      8.6.1.6, ...    the fourth part is the build number; normalise: 8.6.1
v8.6.1, TensorRT 8.6.1  8.6.1           a ``v``, or a ``TensorRT`` / ``TensorRT-`` name, in front
8.6.1 GA, 10.0.0 EA     8.6.1, 10.0.0   NVIDIA's release labels
8.6.1-1+cuda12.0        8.6.1           apt (and rpm, ``.cuda12.0``) package versions: the package
8.6.1.6-1+cuda12.0      8.6.1.6         revision and the CUDA it was built for are not TensorRT's
10.0.0b6, 8.6.1.post1   10.0.0, 8.6.1   pip pre- and post-releases count as the release they name
                                        (10.0.0b6 is TensorRT 10.0 EA: a KB range ``>=10`` and lint's
                                        10.x rules mean it)
8601, TensorRT v100300  8.6.1, 10.3.0   the integer TensorRT prints (``[TensorRT v8601]``):
                                        major*1000+minor*100+patch up to 9.x, major*10000+... from 10
======================  ==============  =============================================================

Anything else is None: "", "abc", "latest", "GA", "8.x", "1e5", "x8.6", "8.6.1abc", "8.6.1.6.2", and
integers that are neither a major version (one or two digits) nor the integer form (861, 86010).
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable
from typing import NamedTuple

from packaging.version import InvalidVersion, Version

from troubleshooter.re_programs import re_compile

_VERSION = re_compile(
    r"""\s*(?:tensorrt[\s-]*)?v?
    (?:
      (?P<release>\d+(?:\.\d+){1,3})
      (?:(?:a|b|rc)\d+)?(?:\.?post\d+)?        # pip: 10.0.0b6, 8.6.1.post1
      (?:-\d+(?:[+.~]cuda\d+(?:\.\d+)*)?)?     # apt / rpm: 8.6.1.6-1+cuda12.0
      (?:[\s-]+(?:ga|ea))?                     # release labels
    | (?P<major>\d{1,2})                        # 10
    | (?P<banner>[5-9]\d{3}|[1-9]\d{5})         # the integer form: 8601, 100300
    )\s*""",
    re.IGNORECASE | re.VERBOSE | re.ASCII,
)

KNOWN_RELEASES = [
    "7.2", "8.0", "8.2", "8.4", "8.5", "8.6", "9.0", "9.2", "9.3", "10.0", "10.1", "10.2", "10.3", "10.4",
    "10.5", "10.6", "10.7", "10.8", "10.9", "10.10", "10.11", "10.12", "10.13", "10.14", "10.15", "10.16",
    "11.0", "11.1",
]
"""Releases offered when the log does not say which one the user has (trt-facts.md §11.1)."""


RELEASE_DATES: dict[str, str] = {
    "5.1": "2019-06-17", "6.0": "2019-09-16", "7.0": "2019-12-18", "7.1": "2020-07-01", "7.2": "2020-10-20",
    "8.0": "2021-07-02", "8.2": "2021-10-05", "8.4": "2022-06-14", "8.5": "2022-11-01", "8.6": "2023-03-10",
    "9.0": "2023-08-06", "9.1": "2023-10-18", "9.2": "2023-11-27", "9.3": "2024-02-09", "10.0": "2024-03-27",
    "10.1": "2024-06-17", "10.2": "2024-07-09", "10.3": "2024-08-02", "10.4": "2024-09-18", "10.5": "2024-09-30",
    "10.6": "2024-11-05", "10.7": "2024-12-04", "10.8": "2025-01-31", "10.9": "2025-03-10", "10.10": "2025-04-28",
    "10.11": "2025-05-16", "10.12": "2025-06-10", "10.13": "2025-07-24", "10.14": "2025-11-07", "10.15": "2026-02-02",
    "10.16": "2026-03-24", "11.0": "2026-06-02", "11.1": "2026-06-24",
}
"""The first public date of each TensorRT release: NVIDIA/TensorRT's CHANGELOG.md (an EA where it lists one) or
its release tag (5.1 to 7.2, 8.0.1, 8.4.1: the CHANGELOG starts at 7.2.1; 8.0 and 8.4 had EA builds it does not
date). Releases before 5.1 (the first tag) are taken as always out."""

EARLY_ACCESS_DAYS = 120
"""How long before the date above a release may already have been in users' hands, for releases before 8.6 (their
early-access builds, 8.0's and 8.4's among them, have no date in the CHANGELOG): a log dated D leaves possible every
such release dated before D + this margin."""
RELEASE_DAYS = 14
"""The same margin from 8.6 on, where the CHANGELOG dates the early-access release itself (8.6.0 EA, 9.0.0 EA,
10.0.0 EA): binaries can precede the open-source release by days."""

JETPACK_TENSORRT: dict[str, str] = {"4.6.0": "8.0", "4.6": "8.2", "5.0": "8.4", "5.1": "8.5", "6.0": "8.6", "6.1": "10.3",
                                    "6.2": "10.3"}
"""The TensorRT a JetPack release ships (trt-facts.md §11.4: 4.6 -> 8.0.1, 4.6.1/4.6.2 -> 8.2.1, 5.0.2 -> 8.4.1,
5.1.x -> 8.5.2 and 6.0 -> 8.6 as reporters state them, 6.1 and 6.2 -> 10.3), by major.minor ("4.6.0": 4.6 itself,
whose point releases brought 8.2). A JetPack before 4.6 ships a TensorRT before 8.0 (4.6 brought 8.0); JetPack 7 is
not mapped."""


def jetpack_ships(jetpack: str) -> list[str] | None:
    """The releases a JetPack version leaves possible (None: a JetPack this table does not know)."""
    parts = [int(p) for p in jetpack.split(".")] if re.fullmatch(r"\d+(?:\.\d+){0,2}", jetpack) else []
    if len(parts) < 2:
        return None
    if parts[:2] == [4, 6] and parts[2:] in ([], [0]):
        return [JETPACK_TENSORRT["4.6.0"]]
    ships = JETPACK_TENSORRT.get(f"{parts[0]}.{parts[1]}")
    if ships is not None:
        return [ships]
    if parts[0] in (3, 4):
        return [r for r in ALL_RELEASES if Version(r) < Version("8.0")]
    return None


ALL_RELEASES = ["5.0", *RELEASE_DATES]
"""Every release (major.minor) the possible-release reasoning knows, oldest first."""

OLD_PYTHON_LOGGER_NEWEST = "8.2"
"""The newest release a log in the Python API's old logger format ("[TensorRT] ERROR: ...") leaves possible. The
default `tensorrt.Logger` printed "[TensorRT] <LEVEL>: " up to release/8.0 and "[<time>] [TRT] [E] " from the 8.2.0-EA
tag on (NVIDIA/TensorRT python/src/infer/pyCore.cpp at each tag); 8.2 rather than 8.0, because a reporter on "8.2.0"
pasted the old format (NVIDIA/TensorRT#1634) and an app's own logger may keep it."""


def before_new_python_logger(possible: list[str]) -> list[str]:
    """The releases of `possible` (empty: any) that the old Python logger format leaves possible."""
    newest = Version(OLD_PYTHON_LOGGER_NEWEST)
    return [r for r in (possible or ALL_RELEASES) if Version(r) <= newest]


def possible_releases(log_date: str | None = None, jetpack: str | None = None) -> list[str]:
    """The TensorRT releases (major.minor) a log that does not print its release leaves possible: those out by
    the log's own date (ISO, with `EARLY_ACCESS_DAYS` or `RELEASE_DAYS` of margin), those its JetPack ships. [] when neither
    narrows anything (any release)."""
    from datetime import date, timedelta

    out = list(ALL_RELEASES)
    if log_date:
        try:
            day = date.fromisoformat(log_date)
        except ValueError:
            day = None
        if day is not None:
            def out_by(release: str) -> bool:
                first = RELEASE_DATES.get(release)
                if first is None:
                    return True
                margin = EARLY_ACCESS_DAYS if Version(release) < Version("8.6") else RELEASE_DAYS
                return date.fromisoformat(first) <= day + timedelta(days=margin)

            out = [r for r in out if out_by(r)]
    ships = jetpack_ships(jetpack) if jetpack else None
    if ships is not None:
        out = [r for r in out if r in ships]
    return [] if out == ALL_RELEASES else out


@functools.cache
def _parser_messages() -> tuple[dict[str, tuple[str, ...]], str]:
    """The ONNX parser's messages and the releases whose parser holds each (`parser_messages.json`, written by
    scripts/parser_messages.py from onnx-tensorrt's release branches), and the newest release line it read."""
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).with_name("parser_messages.json")).read_text(encoding="utf-8"))
    return {m: tuple(r) for m, r in data["messages"].items()}, data["newest"]


def parser_message_releases(text: str) -> list[str] | None:
    """The releases (major.minor, oldest first) whose ONNX parser prints a message this line quotes, or None when it
    quotes none the table knows. The longest quoted messages decide (a shorter one inside a longer one is the older
    wording); a message the newest branch read still holds may be in every later release too."""
    table, newest = _parser_messages()
    found = [m for m in table if m in text]
    found = [m for m in found if not any(m != other and m in other for other in found)]
    if not found:
        return None
    releases = set(table[found[0]])
    for m in found[1:]:
        releases &= set(table[m])
    if newest in releases:
        releases |= {r for r in ALL_RELEASES if Version(r) > Version(newest)}
    return [r for r in ALL_RELEASES if r in releases] or None


@functools.cache
def _api_symbols() -> tuple[dict[str, tuple[tuple[str, str], ...]], tuple[str, ...]]:
    """TensorRT's C++ API names and the runs of releases whose headers declare each (`api_symbols.json`, written by
    scripts/api_symbols.py from NVIDIA/TensorRT's release branches), and the releases read, oldest first."""
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).with_name("api_symbols.json")).read_text(encoding="utf-8"))
    return {n: tuple((a, b) for a, b in spans) for n, spans in data["symbols"].items()}, tuple(data["releases"])


class ApiChange(NamedTuple):
    """When a release's public headers first declared a TensorRT name, and the release that first dropped it."""

    added: str | None
    """The first release whose headers declare it (None: the oldest release read already did)."""
    removed: str | None
    """The first release after `added` whose headers lack it (None: every later release read declares it)."""


def api_change(name: str) -> ApiChange | None:
    """What the headers say of a C++ name a compiler could not find ('nvinfer1::ScatterMode', 'IPluginV3',
    'IBuilder::setMaxWorkspaceSize': the last part counts), or None when every release read declares it or none does
    (a name of the program's own, or a header not included at all)."""
    table, releases = _api_symbols()
    spans = table.get(name.rsplit("::", 1)[-1].strip())
    if not spans:
        return None
    first, end = spans[0]
    added = first if first != releases[0] else None
    at = releases.index(end)
    removed = releases[at + 1] if at + 1 < len(releases) else None
    return ApiChange(added, removed)


def any_in_range(releases: list[str], spec: str | None) -> bool:
    """Is some release of `releases` (those a log leaves possible) in the range `spec`?"""
    return any(in_range(r, spec) for r in releases)


def _from_integer(digits: str) -> str:
    """8601 -> 8.6.1 (8.x / 9.x: major*1000 + minor*100 + patch); 100300 -> 10.3.0 (major*10000 + ...)."""
    if len(digits) == 4:
        return f"{digits[0]}.{digits[1]}.{int(digits[2:])}"
    return f"{int(digits[:2])}.{int(digits[2:4])}.{int(digits[4:])}"


def parse_version(text: str | None) -> Version | None:
    """A TensorRT version in any form of the table in this module's docstring, else None.

    The Version holds the release numbers only (up to four parts): no pre-release, post-release or
    local part, so comparisons read as TensorRT releases."""
    if not text:
        return None
    m = _VERSION.fullmatch(text)
    if m is None:
        return None
    release = m.group("release") or m.group("major") or _from_integer(m.group("banner"))
    try:
        return Version(release)
    except InvalidVersion:  # pragma: no cover - the pattern admits only dotted digits
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
    clauses = _clauses(spec)
    if clauses is None:  # a form the KB does not use (wildcards, ~=, ===): packaging decides
        from packaging.specifiers import SpecifierSet

        return SpecifierSet(spec).contains(v, prereleases=True)
    return all(compare(v, bound) for compare, bound in clauses)


_CLAUSE = re_compile(r"\s*(>=|<=|==|!=|<|>)\s*(\d+(?:\.\d+)*)\s*", re.ASCII)
_COMPARE: dict[str, Callable[[Version, Version], bool]] = {
    ">=": operator.ge, "<=": operator.le, "<": operator.lt, ">": operator.gt, "==": operator.eq, "!=": operator.ne}
_SPECS: dict[str, list[tuple[Callable[[Version, Version], bool], Version]] | None] = {}


def _clauses(spec: str) -> list[tuple[Callable[[Version, Version], bool], Version]] | None:
    """`>=8.5,<10` as comparisons of release numbers, or None for any other form.

    For a version that is a release (which `parse_version` always gives) against release bounds,
    these comparisons are what packaging's SpecifierSet decides (tests check it on every range in
    the KB); importing SpecifierSet costs a one-shot run ~10 ms (it brings packaging.tags)."""
    if spec not in _SPECS:
        out: list[tuple[Callable[[Version, Version], bool], Version]] | None = []
        for part in spec.split(","):
            m = _CLAUSE.fullmatch(part)
            if m is None:
                out = None
                break
            out.append((_COMPARE[m.group(1)], Version(m.group(2))))  # type: ignore[union-attr]
        _SPECS[spec] = out
    return _SPECS[spec]
