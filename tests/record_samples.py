"""Sample records for tests/test_records.py (a module of their own: records resolve their annotations
in the module that declares them)."""

from __future__ import annotations

from troubleshooter.records import Record, field


def _lower(value: str) -> str:
    if value != value.lower():
        raise ValueError("label must be lower case")
    return value


class Inner(Record):
    """A nested record."""

    label: str = field(default="a", check=_lower, description="A lower-case label.")


class Outer(Record):
    """A sample record."""

    name: str = field(description="A name.")
    count: int = field(default=1, ge=0, description="How many.")
    tags: list[str] = field(default_factory=list, description="Tags.")
    inner: Inner = field(default_factory=Inner, description="A nested record.")

    def _check(self) -> None:
        if self.count > 9 and not self.tags:
            raise ValueError("a name without tags cannot count above 9")


class Point(Record, kw_only=False):
    """Fields by position too."""

    x: int
    y: int = 0


class Counter(Record, frozen=False):
    """A mutable record with a post-init step."""

    start: int = 0
    seen: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.seen.append(self.start)
