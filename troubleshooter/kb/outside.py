"""Failures outside TensorRT, as data: ``kb/outside/kinds.yaml``, one kind per recurring line.

An error line no KB entry explains often says what failed in its own words, outside TensorRT: a Python
module that is missing, pip finding no wheel, apt without NVIDIA's repository, a linker that cannot find a
library, a program's own command line refused. Each kind is a pattern over such a line (the `regex` module's
syntax, VERSION0) and the step that follows from it; `core.next_steps` takes the first kind whose pattern
the line has, in the file's order. The file is read when a report first needs it (a first error nothing
explains), never at start-up, and it lives in a subfolder so the entry loader never reads it as an entry.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from pydantic import Field

from troubleshooter.kb.schema import ID_PATTERN, StrictModel


class KindExample(StrictModel):
    """A real line the kind is for, and where it was met."""

    line: str = Field(min_length=3, description="The line as the log printed it (its wrapper included): a report "
                      "reads it as it would any line, and this kind must be the first whose `match` it has.")
    source: str = Field(min_length=5, description="The log it came from (a path under sample_logs/) or, for a "
                        "message no gathered log holds, the URL of the code that prints it.")


class OutsideKind(StrictModel):
    """An unexplained line whose own words say what failed outside TensorRT, and the step that follows."""

    id: str = Field(pattern=ID_PATTERN, description="Unique in the file; what a test or a commit names.")
    why: str | None = Field(default=None, description="The class of failure and where it was met (threads, batches).")
    match: str = Field(min_length=3, description="The line's words (`regex` module, VERSION0). Every alternative "
                       "captures what it names as `name` (the module allows one name in several alternatives).")
    text: str = Field(min_length=10, description="What to do: `{name}` and the pattern's other groups filled in, "
                      "`[[...]]` parts only when they are known.")
    code: str | None = Field(default=None, description="The command (Linux, macOS, WSL, Jetson: bash); the values "
                             "from the log are quoted for the shell.")
    windows: str | None = Field(default=None, description="The same for Windows (PowerShell), when it differs.")
    lang: str = Field(default="bash", description="The language of `code` (a Python snippet is python).")
    default: str = Field(default="", description="`name` when the line does not give it.")
    program: bool = Field(default=False, description="The error is the program's own (its command line, its Python "
                          "code), not TensorRT's or a tool's: the next step is the tracker of the project the script "
                          "belongs to, not NVIDIA's or the stack's.")
    weak: bool = Field(default=False, description="The words fit but say little: a later line that a kind fits "
                       "better gives the step instead.")
    lead_only: bool = Field(default=False, description="Only for the line that leads the report when no failing line "
                            "follows it, never from a later line.")
    stackless: bool = Field(default=False, description="Only when no known stack ran: a Python exception in a known "
                            "stack's run may be raised in that stack's own code, whose steps fit better.")
    examples: list[KindExample] = Field(min_length=1, description="Real lines it is for (`trt-why kb validate` "
                                        "and the tests check that this kind is the one each gets).")


class OutsideFile(StrictModel):
    """The file: its kinds, in the order they are tried."""

    kinds: list[OutsideKind] = Field(min_length=1)


def kinds_path() -> Path:
    """The kinds file that ships with the package (beside the built-in KB's entries)."""
    from troubleshooter.kb.loader import builtin_kb_dir

    return builtin_kb_dir() / "outside" / "kinds.yaml"


def parse_kinds(text: str, path: str, *, validate: bool = True) -> tuple[OutsideKind, ...]:
    """The kinds of a file's text, validated (`validate=False`: only built, for a report: the built-in file is
    validated by the tests and `trt-why kb validate`). Raises KBError naming the file and field."""
    from troubleshooter.errors import KBError
    from troubleshooter.kb.loader import _describe, safe_load_yaml

    data: Any = safe_load_yaml(text, path)
    if not isinstance(data, dict) or not isinstance(data.get("kinds"), list):
        raise KBError("the kinds file is a YAML mapping with a `kinds:` list", path=path)
    if validate:
        from pydantic import ValidationError

        try:
            kinds = tuple(OutsideFile.model_validate(data).kinds)
        except ValidationError as exc:
            raise KBError(_describe(exc), path=path) from None
        ids = [k.id for k in kinds]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise KBError(f"kind ids must be unique: {', '.join(twice)}", path=path)
        return kinds
    try:
        return tuple(OutsideKind.model_construct(**{**k, "examples": [KindExample.model_construct(**e)
                                                                       for e in k.get("examples", ())]})
                     for k in data["kinds"])
    except TypeError as exc:
        raise KBError(f"not a kinds file ({exc}); run `trt-why kb validate`", path=path) from None


def load_kinds(path: Path | None = None, *, validate: bool = True) -> tuple[OutsideKind, ...]:
    """The kinds of `path` (default: the built-in file). Raises KBError on a broken file."""
    from troubleshooter.kb.loader import _read_limited

    path = path or kinds_path()
    return parse_kinds(_read_limited(path), str(path), validate=validate)


@functools.cache
def builtin_kinds() -> tuple[OutsideKind, ...]:
    """The built-in kinds, read once per process."""
    return load_kinds(validate=False)
