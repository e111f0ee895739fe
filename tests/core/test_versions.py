"""core/versions.py: the one TensorRT version parser."""

from __future__ import annotations

import pytest

from troubleshooter.core.versions import KNOWN_RELEASES, in_range, normalise, parse_version


@pytest.mark.parametrize(("text", "expected"), [
    ("8.6.1.6", "8.6.1.6"), ("v10.3", "10.3"), ("10.3.0.26", "10.3.0.26"), ("  8.6.1 GA", "8.6.1"),
    ("8.6.1-1+cuda12.0", "8.6.1"), ("11.0", "11.0"),
])
def test_versions_in_the_forms_logs_and_users_give_them(text: str, expected: str) -> None:
    v = parse_version(text)
    assert v is not None and str(v) == expected


@pytest.mark.parametrize("text", ["", None, "latest", "GA", "x8.6"])
def test_anything_else_is_not_a_version(text: str | None) -> None:
    assert parse_version(text) is None


def test_normalise_keeps_major_minor_patch() -> None:
    assert normalise("8.6.1.6") == "8.6.1"
    assert normalise("10.3") == "10.3"
    assert normalise("not a version") is None


@pytest.mark.parametrize(("version", "spec", "expected"), [
    ("8.6.1", ">=8.5,<10", True), ("10.0.1", ">=8.5,<10", False), ("10.0.0", "<10", False),
    ("9.3.0", ">=9", True), ("11.0", ">=11", True),
])
def test_in_range(version: str, spec: str, expected: bool) -> None:
    assert in_range(version, spec) is expected


def test_in_range_says_unknown_rather_than_guess() -> None:
    assert in_range(None, ">=8") is None
    assert in_range("8.6", None) is None
    assert in_range("nonsense", ">=8") is None


def test_known_releases_are_versions_in_order() -> None:
    parsed = [parse_version(r) for r in KNOWN_RELEASES]
    assert all(parsed) and parsed == sorted(parsed)  # type: ignore[type-var]
