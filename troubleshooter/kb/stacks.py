"""The stacks that run TensorRT, as data: one YAML file each in ``kb/stacks/`` (``kb/stacks/<id>.yaml``).

A stack file says what to do about an error no KB entry explains, in that stack's own terms (its verbose
log, its way to isolate the failure, each step with the stack's own documentation as `source`), where
such a failure is reported (the tracker, what its issue template asks for) and how to reproduce it.
`core.next_steps` turns it into a report's next steps; `render.issue` into an upstream issue draft.

The files live in a subfolder of the KB: the entry loader (`kb.loader`) reads only the KB folder's own
``*.yaml`` files, so a stack is never read as a KB entry. A stack is read when a report needs it (a log
whose first error nothing explains), one small file, not at start-up.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field

from troubleshooter.kb.schema import ID_PATTERN, StrictModel
from troubleshooter.models import RUNTIME_LANGUAGES, Language

URL = r"^https://"


class StackStep(StrictModel):
    """One thing to do about an unexplained error, in the stack's own terms."""

    text: str = Field(min_length=10, description="What to do and why, for someone whose run just failed.")
    code: str | None = Field(default=None, description="The command or snippet (placeholders in <angle brackets>).")
    lang: str = Field(default="bash", description="Language of `code`: bash, python, text, ini...")
    windows: str | None = Field(default=None, description="The same for Windows (PowerShell), when it differs. A "
                                "POSIX command with Linux-only syntax and no Windows form is left out on Windows.")
    source: str = Field(pattern=URL, description="The stack's own documentation that this step follows.")
    front_ends: list[str] = Field(
        default_factory=list,
        description="Only for logs from these front ends (for a stack file that covers several; 'unknown' for a "
        "log whose stack is unknown). Empty: always.")
    providers: list[str] = Field(
        default_factory=list,
        description="Only for logs that name one of these ONNX Runtime execution providers "
        "(`Environment.execution_providers`, e.g. TensorrtExecutionProvider). Empty: always.")
    unless_providers: list[str] = Field(
        default_factory=list,
        description="Not for logs that name one of these ONNX Runtime execution providers (a step for the CUDA or "
        "CPU provider, where the TensorRT one never ran).")
    languages: list[Language] = Field(
        default_factory=list,
        description="Only for programs in these languages (`Environment.language`: a binding's own step, Node's or "
        "Java's). Empty: any - except that a step running Python is not shown to a program of another runtime "
        "(`models.RUNTIME_LANGUAGES`).")

    def fits(self, front_end: str, providers: list[str], language: str | None = None) -> bool:
        """Whether this step is for a log of this front end that names these execution providers, of a program in
        this language (None: unknown)."""
        if self.languages:
            if language not in self.languages:
                return False
        elif language in RUNTIME_LANGUAGES and runs_python(self.code, self.lang):
            return False
        return ((not self.front_ends or front_end in self.front_ends)
                and (not self.providers or any(p in providers for p in self.providers))
                and not any(p in providers for p in self.unless_providers))


_RUNS_PYTHON = re.compile(r"(?m)(?:^|[;&|]\s*)(?:\S*[\\/])?(?:python[\d.]*|pip[\d.]*|py)(?:\.exe)?\s")


def runs_python(code: str | None, lang: str | None) -> bool:
    """Whether a step's code is Python or runs it (python, pip): help for a Python program only."""
    return (lang or "").lower() == "python" or bool(code and _RUNS_PYTHON.search(code))


class Tracker(StrictModel):
    """Where a failure of this stack is reported."""

    name: str = Field(description="owner/repo for a GitHub tracker, else the forum's name.")
    new_issue: str = Field(pattern=URL, description="The page that opens a new issue (or forum topic).")
    search: str = Field(pattern=URL, description="The tracker's search, to which the search terms are appended "
                        "(URL-encoded).")
    template: str = Field(pattern=URL, description="The issue template (or the forum's posting guide) `asks` follows.")
    asks: list[str] = Field(min_length=1, description="What that template asks for, in its own order.")
    when: str | None = Field(default=None, description="For an extra tracker: when to use it rather than the first.")


class Stack(StrictModel):
    """A stack that runs TensorRT: its next steps for an unexplained error, its tracker, its reproduction."""

    id: str = Field(pattern=ID_PATTERN, description="Equals the file stem.")
    name: str = Field(description="The stack's name as its users say it.")
    front_ends: list[str] = Field(
        min_length=1, description="The `Environment.front_end` values this file serves ('unknown': a log whose "
        "stack is unknown).")
    version_label: str | None = Field(default=None, description="What `Environment.stack_versions` holds for it, "
                                      "e.g. 'Triton (container release)'.")
    reduce: bool = Field(
        default=False,
        description="Its users hold the ONNX model TensorRT's parser builds, so `polygraphy debug reduce` can "
        "shrink it when the failing line is TensorRT's own output during an ONNX build.")
    steps: list[StackStep] = Field(min_length=1, description="Next steps, most useful first.")
    reproduce: StackStep = Field(description="The smallest run that shows the failure, for an issue.")
    attachments: list[str] = Field(min_length=1, description="What to attach to an issue (the tracker asks for).")
    tracker: Tracker
    also: list[Tracker] = Field(default_factory=list, description="Other trackers, each with `when` to use it.")


@dataclass(frozen=True)
class StackBook:
    """Every stack, by the front end it serves."""

    stacks: dict[str, Stack]
    """id -> stack."""

    def for_front_end(self, front_end: str | None) -> Stack | None:
        """The stack that serves this front end (None: a log whose stack is unknown)."""
        key = front_end or "unknown"
        return next((s for s in self.stacks.values() if key in s.front_ends), None)


def stacks_dir() -> Path:
    """The stack files that ship with the package (beside the built-in KB's entries)."""
    from troubleshooter.kb.loader import builtin_kb_dir

    return builtin_kb_dir() / "stacks"


def _built(data: dict[str, Any]) -> Stack:
    """A stack from a file's data with `model_construct`, without validating it (the built-in files are validated
    by the tests and `trt-why kb validate`): a report that needs one builds no validator (measured: 3 ms for
    two stacks, against 28 ms validated in a fresh process)."""
    def step(d: dict[str, Any]) -> StackStep:
        return StackStep.model_construct(**d)

    def tracker(d: dict[str, Any]) -> Tracker:
        return Tracker.model_construct(**d)

    return Stack.model_construct(**{**data, "steps": [step(s) for s in data["steps"]], "reproduce": step(data["reproduce"]),
                                    "tracker": tracker(data["tracker"]), "also": [tracker(t) for t in data.get("also", [])]})


def parse_stack(text: str, path: str, stem: str | None = None, *, validate: bool = True) -> Stack:
    """One stack file, validated (`validate=False`: only built, for a report). Raises KBError naming the file
    and field."""
    from troubleshooter.errors import KBError
    from troubleshooter.kb.loader import _describe, safe_load_yaml

    data = safe_load_yaml(text, path)
    if not isinstance(data, dict):
        raise KBError("a stack is a YAML mapping (id:, name:, steps:, tracker: ...)", path=path)
    if validate:
        from pydantic import ValidationError

        try:
            stack = Stack.model_validate(data)
        except ValidationError as exc:
            raise KBError(_describe(exc), path=path) from None
    else:
        try:
            stack = _built(data)
        except (KeyError, TypeError, AttributeError) as exc:
            raise KBError(f"not a stack file ({exc}); run `trt-why kb validate`", path=path) from None
    if stem is not None and stack.id != stem:
        raise KBError(f"id {stack.id!r} must equal the file name; rename the file to {stack.id}.yaml", path=path)
    return stack


def load_stacks(folder: Path | None = None, *, validate: bool = True) -> StackBook:
    """Every stack file of `folder` (default: the built-in ones). Raises KBError on a broken file."""
    from troubleshooter.kb.loader import _read_limited

    folder = folder or stacks_dir()
    stacks: dict[str, Stack] = {}
    if folder.is_dir():
        for path in sorted(folder.glob("*.yaml")):
            stack = parse_stack(_read_limited(path), str(path), path.stem, validate=validate)
            stacks[stack.id] = stack
    return StackBook(stacks)


@functools.cache
def builtin_stacks() -> StackBook:
    """The built-in stacks, read once per process."""
    return load_stacks(validate=False)


PLAIN_TENSORRT = "tensorrt"
"""The stack file of TensorRT's own tools (trtexec, Polygraphy, the API), which also serves an unknown stack."""


@functools.cache
def _one(stack_id: str) -> Stack | None:
    from troubleshooter.kb.loader import _read_limited

    path = stacks_dir() / f"{stack_id}.yaml"
    return parse_stack(_read_limited(path), str(path), path.stem, validate=False) if path.is_file() else None


def stack_for(front_end: str | None) -> Stack | None:
    """The built-in stack serving this front end (None: unknown stack); None when no file serves it or the
    files cannot be read (a report without stack-specific steps, never a failed report).

    Reads one file, the one named after the stack (or plain TensorRT's), when it serves it: a report pays
    for one small YAML file, not for every stack's."""
    from troubleshooter.errors import KBError

    key = front_end or "unknown"
    try:
        for stack_id in (front_end, PLAIN_TENSORRT):
            stack = _one(stack_id) if stack_id and "/" not in stack_id else None
            if stack is not None and key in stack.front_ends:
                return stack
        return builtin_stacks().for_front_end(front_end)
    except (KBError, OSError, UnicodeDecodeError):
        return None
