"""Lint results: frozen pydantic models, the JSON contract of ``trt-why lint --format json``.

Only pydantic and the result models are imported here, so renderers, the CLI and the join with a log report can use
these models without the ``lint`` extra (onnx) installed.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from troubleshooter.models import SEVERITY_RANK, Severity
from troubleshooter.models import Finding as Finding

LINT_SCHEMA_VERSION = 1

LintLevel = Severity
"""The report's severities, said of a model: error: TensorRT refuses the model or computes wrong results;
warning: it builds but loses precision, speed or accuracy; info: worth knowing, nothing to fix."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# `Finding` is the report's model (a diagnosis carries the same findings): defined once, in models.


class ModelIndex(_Frozen):
    """Names in the linted model, used to tie a log's node names to findings. Never serialized."""

    nodes: list[str] = Field(default_factory=list, description="Node names in graph order.")
    op_types: dict[str, str] = Field(default_factory=dict, description="Node name -> op type.")
    producers: dict[str, str] = Field(default_factory=dict, description="Tensor name -> producing node name.")
    consumers: dict[str, list[str]] = Field(default_factory=dict, description="Tensor name -> consuming node names.")
    inputs: list[str] = Field(default_factory=list, description="Graph input names.")

    def resolve(self, name: str) -> set[str]:
        """Names meant by ``name``: the node itself, or a tensor with its producer and consumers.

        TensorRT says a tensor's problem affects "any layer consuming or producing" it.
        """
        found: set[str] = set()
        if name in self.op_types:
            found.add(name)
        if name in self.producers or name in self.consumers or name in self.inputs:
            found.add(name)
        if name in self.producers:
            found.add(self.producers[name])
        found.update(self.consumers.get(name, []))
        return found


class LintReport(_Frozen):
    """Everything ``trt-why lint`` found in one model. Findings are sorted most serious first."""

    schema_version: int = LINT_SCHEMA_VERSION
    model: str = Field(description="The model path as given.")
    trt_version: str | None = Field(description="TensorRT version the lint targeted; None = current releases.")
    findings: list[Finding] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list, description="Things to know about the lint run itself.")
    _index: ModelIndex | None = PrivateAttr(default=None)

    @property
    def index(self) -> ModelIndex | None:
        """Names in the linted model (not serialized; None for a report read back from JSON)."""
        return self._index

    def with_index(self, index: ModelIndex) -> LintReport:
        """This report, carrying the model's name index (used by ``join.attach``)."""
        self._index = index
        return self

    @property
    def exit_status(self) -> int:
        """FOUND (1) when any finding is an error or a warning, else OK (0): troubleshooter.exit_codes."""
        from troubleshooter import exit_codes

        return exit_codes.FOUND if any(f.level in ("error", "warning") for f in self.findings) else exit_codes.OK

    def findings_for_nodes(self, names: Iterable[str]) -> list[Finding]:
        """Findings on any of ``names`` (node names, or tensor names resolved to their nodes)."""
        wanted: set[str] = set()
        for name in names:
            wanted.add(name)
            if self.index is not None:
                wanted.update(self.index.resolve(name))
        return [f for f in self.findings if wanted.intersection(f.nodes)]


def sort_findings(findings: Iterable[Finding], order: dict[str, int] | None = None) -> list[Finding]:
    """Most serious first; then by rule, position of the first node in the graph, and message."""
    position = order or {}

    def key(f: Finding) -> tuple[int, str, int, str, str]:
        first = f.nodes[0] if f.nodes else ""
        return (-SEVERITY_RANK[f.level], f.rule, position.get(first, -1), first, f.message)

    return sorted(findings, key=key)
