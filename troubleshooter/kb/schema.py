"""The schema of one knowledge-base entry (``kb/<id>.yaml``).

``python -m troubleshooter.kb.schema`` prints the JSON Schema (kept in ``kb/schema.json``).
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Collection
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from troubleshooter.models import Platform, Severity

ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"

Role = Literal["trigger", "support", "exclude"]
LineLevel = Literal["any", "warning", "error"]
Certainty = Literal["confirmed", "documented", "reported", "suggestion"]
Status = Literal["affected", "fixed", "changed", "not-applicable", "unknown"]
Precision = Literal["int8", "fp16", "bf16", "fp8", "int4", "fp4", "best", "strongly-typed", "fp32"]


FACTS = {
    "@alone": "no error line of the log comes before the entry's first trigger line (a crash pasted on its own)",
    "@no-tensorrt": "the log shows no TensorRT at all: no line of TensorRT's own logger, no TensorRT release and no stack "
                    "that runs it (a CUDA failure in another library's run)",
}
"""What the engine knows of a finding beyond its signatures, usable in `when:`/`unless:` like a signature id."""


class StrictModel(BaseModel):
    """Frozen, no unknown keys: validated from YAML (and from the KB cache) with ``model_validate``."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


def _check_specifier(value: str | None) -> str | None:
    if value is None or value.strip() in ("", "*"):
        return None
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    try:
        SpecifierSet(value)
    except InvalidSpecifier as exc:
        raise ValueError(f"{value!r} is not a version range; write it like '>=8.5,<10' ({exc})") from None
    return value


class Signature(StrictModel):
    """One regular expression that recognises a log line."""

    id: str = Field(pattern=ID_PATTERN, description="Name of the signature, unique within the entry.")
    regex: str = Field(
        description="Regex (the `regex` module's syntax) searched in the line's payload. Named groups become "
        "captures. Never anchor on a source line number or a prefix style."
    )
    role: Role = Field(
        default="trigger",
        description="trigger: any one of these makes the entry match; support: raises confidence; "
        "exclude: rules the entry out.",
    )
    level: LineLevel = Field(
        default="any",
        description="Least severity the line must have (lines without a severity tag always qualify).",
    )
    weight: float | None = Field(
        default=None, ge=0.0, le=1.0,
        description="Confidence a trigger gives (default 0.7) or a support adds (default 0.1).",
    )
    literals: list[str] = Field(
        min_length=1,
        description="Prefilter: a line is tried only if it contains one of these, so every line the regex matches "
        "must hold one (`kb validate` checks the examples).",
    )
    ignore_case: bool = Field(default=False, description="Match without regard to case.")
    after_trigger: bool = Field(
        default=False, description="For support/exclude: only lines after the first trigger count."
    )
    before_trigger: bool = Field(
        default=False,
        description="For exclude: it rules the entry out only when it comes before the first trigger (the "
        "context the trigger appeared in, not a later, unrelated line).",
    )
    note: str | None = Field(default=None, description="What this signature is for (shown by `kb explain`).")
    release_free: bool = Field(
        default=False,
        description="TensorRT's release decides nothing when this signature matched (another library refusing the GPU, "
        "a package index without the wheel): the entry's version advice and the ask for the release are left out.")
    api_added_in: str | None = Field(
        default=None,
        description="Only when the `symbol` capture names a TensorRT C++ name that its headers first declared in a release "
        "of this range (e.g. '>5.1'): the match then captures `api_added`, that release (core/api_symbols.json).")
    api_removed_in: str | None = Field(
        default=None,
        description="Only when the `symbol` capture names a TensorRT C++ name that the headers of a release of this range "
        "dropped (e.g. '>=10.0,<11'): the match then captures `api_removed`, that release.")
    requires: list[str] = Field(
        default_factory=list,
        description="Trigger only: it counts only when one of these support signatures also matched somewhere in the "
        "log (a weak line that says what failed only beside a clue elsewhere, e.g. the build's INT8 flag).")
    severity: Severity | None = Field(
        default=None,
        description="Trigger only: the severity of the diagnosis when this trigger fired the entry, instead of the "
        "entry's (e.g. a secondary notice that is only a warning where the entry's other triggers are errors). "
        "When several triggers fired, the most severe of theirs wins.",
    )

    _api_ranges = field_validator("api_added_in", "api_removed_in")(_check_specifier)

    @model_validator(mode="after")
    def _severity_on_triggers(self) -> Signature:
        if self.severity is not None and self.role != "trigger":
            raise ValueError(f"signature {self.id!r}: `severity` is for triggers only (this one is a {self.role})")
        if self.requires and self.role != "trigger":
            raise ValueError(f"signature {self.id!r}: `requires` is for triggers only (this one is a {self.role})")
        return self

    def effective_weight(self) -> float:
        if self.weight is not None:
            return self.weight
        return 0.7 if self.role == "trigger" else 0.1 if self.role == "support" else 0.0


class Match(StrictModel):
    signatures: list[Signature] = Field(min_length=1)
    requires: list[str] = Field(
        default_factory=list,
        description="Ids of support signatures that must also match somewhere in the log for the entry to fire.",
    )


class Applies(StrictModel):
    """Where the entry applies. Outside it, a match is demoted and the report says why."""

    trt: str | None = Field(default=None, description="TensorRT versions, e.g. '>=8.0,<10'.")
    platforms: list[Platform] = Field(default_factory=list, description="Empty: all platforms.")
    precisions: list[Precision] = Field(default_factory=list, description="Empty: any precision.")

    _trt = field_validator("trt")(_check_specifier)


HOSTED_GATE = ("true: only in a hosted notebook (Colab, Kaggle) the log's paths show; false: not there (a driver install, "
               "`docker run`, a sentence about containers: the host owns the GPU and the driver). Unset: anywhere.")
"""The `hosted` gate of a cause, a fix and a step (`core.advice.fits_setting`)."""


class Cause(StrictModel):
    text: str = Field(description="What actually goes wrong; {capture} and {tensorrt_version} are filled in.")
    certainty: Certainty = Field(
        description="confirmed (by NVIDIA / source code), documented (in NVIDIA docs), "
        "reported (seen by users, not confirmed), suggestion."
    )
    source: str | None = Field(default=None, description="URL backing the cause.")
    when: list[str] = Field(
        default_factory=list,
        description="Show this cause only when one of these signatures matched (empty: always).",
    )
    unless: list[str] = Field(
        default_factory=list, description="Not when one of these signatures matched: a sentence the log contradicts.")
    front_ends: list[str] = Field(
        default_factory=list, description="Only when the log comes from one of these stacks (trtexec, triton...).")
    not_front_ends: list[str] = Field(
        default_factory=list, description="Not when the log comes from one of these stacks: a sentence the log contradicts.")
    hosted: bool | None = Field(default=None, description=HOSTED_GATE)


class VersionAdvice(StrictModel):
    versions: str = Field(description="TensorRT version range this advice is for, e.g. '>=8.5,<9.2'.")
    status: Status
    text: str

    _versions = field_validator("versions")(_check_specifier)


class Step(StrictModel):
    text: str
    code: str | None = Field(default=None, description="A command or snippet to run.")
    lang: str | None = Field(default=None, description="Language of `code`: bash, python, cpp...")
    versions: str | None = Field(default=None, description="Only for these TensorRT versions.")
    when: list[str] = Field(default_factory=list, description="Only when one of these signatures matched.")
    unless: list[str] = Field(default_factory=list, description="Not when one of these signatures matched.")
    platforms: list[Platform] = Field(
        default_factory=list,
        description="Only on these platforms (empty: all). With the platform unknown the step is shown, labelled.")
    front_ends: list[str] = Field(
        default_factory=list,
        description="Only when the log comes from one of these stacks (triton, deepstream, onnxruntime...).")
    not_front_ends: list[str] = Field(
        default_factory=list,
        description="Not when the log comes from one of these stacks: the stack has its own form of this step.")
    hosted: bool | None = Field(default=None, description=HOSTED_GATE)
    producers: list[str] = Field(
        default_factory=list,
        description="Only when the ONNX model's producer, as the log prints it (trtexec's \"Producer name:\"), is one "
        "of these (pytorch, tf2onnx, keras2onnx, PaddlePaddle...; compared without case).")
    stack_versions: dict[str, str] = Field(
        default_factory=dict,
        description="Only for these releases of a stack's own package, by stack ({onnxruntime: '>=1.21'}): hidden when "
        "the log prints another release, shown labelled with the range when it prints none.")

    _versions = field_validator("versions")(_check_specifier)

    @field_validator("stack_versions")
    @classmethod
    def _stack_specifiers(cls, value: dict[str, str]) -> dict[str, str]:
        for spec in value.values():
            _check_specifier(spec)
        return value

    @model_validator(mode="after")
    def _lang_with_code(self) -> Step:
        if self.code is not None and not self.lang:
            raise ValueError("a step with `code` needs `lang` (bash, python, cpp, text)")
        return self


class FixSpec(StrictModel):
    title: str
    versions: str | None = Field(default=None, description="Only for these TensorRT versions.")
    when: list[str] = Field(default_factory=list, description="Only when one of these signatures matched.")
    unless: list[str] = Field(default_factory=list, description="Not when one of these signatures matched.")
    platforms: list[Platform] = Field(default_factory=list, description="Only on these platforms (empty: all).")
    front_ends: list[str] = Field(
        default_factory=list,
        description="Only when the log comes from one of these stacks (triton, deepstream, onnxruntime...).")
    not_front_ends: list[str] = Field(
        default_factory=list,
        description="Not when the log comes from one of these stacks: the stack owns what the fix would change.")
    hosted: bool | None = Field(default=None, description=HOSTED_GATE)
    steps: list[Step] = Field(min_length=1)

    _versions = field_validator("versions")(_check_specifier)


class Reference(StrictModel):
    url: str = Field(pattern=r"^https?://")
    title: str | None = None


class Example(StrictModel):
    name: str = Field(pattern=ID_PATTERN)
    log: str = Field(min_length=1, description="A real-format log snippet.")
    captures: dict[str, str] = Field(default_factory=dict, description="Expected captures (subset).")
    trt_version: str | None = Field(default=None, description="Pretend the log says this TensorRT version.")
    source: str | None = Field(
        default=None, description="The public thread the lines were copied from (verbatim); none for a written example."
    )


class Examples(StrictModel):
    match: list[Example] = Field(default_factory=list, description="Logs the entry must match.")
    no_match: list[Example] = Field(default_factory=list, description="Near misses the entry must not match.")


class Entry(StrictModel):
    """One failure family."""

    id: str = Field(pattern=ID_PATTERN, description="Stable id; equals the file stem.")
    title: str = Field(min_length=3, max_length=90, description="One line, what went wrong.")
    severity: Severity
    tags: list[str] = Field(default_factory=list)
    summary: str | None = Field(default=None, description="Two or three sentences for the KB browser.")
    cascade: bool = Field(
        default=False, description="A generic consequence ('build failed'); never outranks a specific entry."
    )
    match: Match
    applies: Applies = Field(default_factory=Applies)
    causes: list[Cause] = Field(min_length=1)
    asks: list[str] = Field(default_factory=list, description="Facts that would decide between causes.")
    version_advice: list[VersionAdvice] = Field(default_factory=list)
    fixes: list[FixSpec] = Field(default_factory=list)
    lint: list[str] = Field(default_factory=list, description="Ids of lint rules that confirm this on a model.")
    explains: list[str] = Field(
        default_factory=list,
        description="Entries whose failure this one causes: when both fire, this one is shown first, as the root.")
    reduce: bool = Field(
        default=False, description="Offer a `polygraphy debug reduce --fail-regex` command built from the trigger."
    )
    references: list[Reference] = Field(min_length=1)
    last_verified: _dt.date
    examples: Examples
    todo: list[str] = Field(default_factory=list, description="Known gaps, recorded rather than hidden.")

    def live_triggers(self, matched: Collection[str]) -> list[str]:
        """The ids of the triggers among `matched` (signature ids that matched) that count: a trigger with `requires`
        counts only beside one of those supports."""
        return [s.id for s in self.match.signatures if s.role == "trigger" and s.id in matched
                and (not s.requires or any(r in matched for r in s.requires))]

    def _check_signatures(self) -> list[str]:
        """The signature ids, after checking that they are unique, that one is a trigger and what `requires` names."""
        ids = [s.id for s in self.match.signatures]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"match.signatures: duplicate signature ids {dupes}")
        if not any(s.role == "trigger" for s in self.match.signatures):
            raise ValueError("match.signatures: at least one signature needs role: trigger")
        for req in self.match.requires:
            if req not in ids:
                raise ValueError(f"match.requires: {req!r} is not a signature id of this entry")
        supports = {s.id for s in self.match.signatures if s.role == "support"}
        for sig in self.match.signatures:
            for req in sig.requires:
                if req not in supports:
                    raise ValueError(f"match.signatures.{sig.id}.requires: {req!r} is not a support signature of this entry")
        return ids

    @model_validator(mode="after")
    def _conventions(self) -> Entry:
        ids = [*self._check_signatures(), *FACTS]
        for i, cause in enumerate(self.causes):
            for sid in (*cause.when, *cause.unless):
                if sid not in ids:
                    raise ValueError(f"causes.{i}.when/unless: {sid!r} is not a signature id of this entry (or a FACTS id)")
        for i, fix in enumerate(self.fixes):
            for where, spec in [(f"fixes.{i}", fix)] + [(f"fixes.{i}.steps.{j}", st) for j, st in enumerate(fix.steps)]:
                for sid in (*spec.when, *spec.unless):
                    if sid not in ids:
                        raise ValueError(f"{where}: {sid!r} (when/unless) is not a signature id of this entry")
        if self.severity == "error" and not self.fixes:
            raise ValueError("fixes: an entry of severity error needs at least one fix")
        if len(self.examples.match) < 1:
            raise ValueError("examples.match: add at least one log the entry must match")
        if len(self.examples.no_match) < 1:
            raise ValueError("examples.no_match: add at least one near miss the entry must not match")
        return self


def json_schema() -> str:
    """The JSON Schema of an entry, as published in kb/schema.json."""
    schema = Entry.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "trt-why knowledge-base entry"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":  # pragma: no cover
    print(json_schema(), end="")
