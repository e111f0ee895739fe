"""The lint rules: one module per rule, its docstring is the rule's user documentation.

Each module defines ``RULE`` (the id, also used by the KB's ``lint:`` lists), ``TITLE``,
``LEVEL`` (the level its findings carry unless they say otherwise, the one its docstring's
**Level:** names first), ``KB`` (the KB entry it supports, or None) and
``check(ctx) -> Iterator[Finding]``. Modules import onnx only inside ``check``, so listing
the rules (for SARIF or docs) stays cheap.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from troubleshooter.lint.graph import LintContext
    from troubleshooter.lint.report import Finding, LintLevel

RULE_MODULES = (
    "check_model",
    "shape_inference",
    "conv_channels",
    "dangling_inputs",
    "duplicate_node_names",
    "dead_nodes",
    "unused_inputs",
    "custom_domain_op",
    "unsupported_op",
    "opset_range",
    "qdq_zero_point",
    "qdq_uint8_zero_point",
    "qdq_scale",
    "qdq_scale_constant",
    "qdq_axis_length",
    "qdq_per_channel_activation",
    "qdq_conv_weight_axis",
    "qdq_deconv_weight_axis",
    "qdq_weighted_op_partial",
    "qdq_mixed_add_concat",
    "qdq_silu_split",
    "int8_grouped_conv_channels",
    "int64_initializers",
    "instance_norm",
    "dynamic_inputs",
    "fp16_range",
)

RULE_IDS = tuple(name.replace("_", "-") for name in RULE_MODULES)
"""Every rule id, without importing the rule modules (a test checks they agree)."""


@dataclass(frozen=True)
class Rule:
    """A registered rule."""

    id: str
    title: str
    level: LintLevel
    kb: str | None
    doc: str
    check: Callable[[LintContext], Iterable[Finding]]


@cache
def all_rules() -> tuple[Rule, ...]:
    """Every rule, in registry order."""
    rules = []
    for module_name in RULE_MODULES:
        module = importlib.import_module(f"{__name__}.{module_name}")
        rules.append(
            Rule(
                id=module.RULE,
                title=module.TITLE,
                level=module.LEVEL,
                kb=module.KB,
                doc=(module.__doc__ or "").strip(),
                check=module.check,
            )
        )
    return tuple(rules)


def rules_by_id() -> dict[str, Rule]:
    """Rule id -> Rule."""
    return {rule.id: rule for rule in all_rules()}
