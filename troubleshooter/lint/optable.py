"""Which ONNX ops the TensorRT ONNX parser cannot import, by TensorRT version.

Source: the support matrix of onnx-tensorrt, ``docs/operators.md``
(https://github.com/onnx/onnx-tensorrt/blob/main/docs/operators.md), rows marked ``N``, in
the snapshots for TensorRT 8.4, 8.5 and 10.15 (opset ranges from the same pages; 10.0's
range from the 10.1 page). LayerNormalization has an importer from 8.6 on.

Between two snapshots an op's support is only known when both agree; otherwise the lint
says "unknown, check operators.md of your release" instead of guessing.
"""

from __future__ import annotations

from dataclasses import dataclass

from packaging.version import Version

OPERATORS_MD = "https://github.com/onnx/onnx-tensorrt/blob/main/docs/operators.md"

_ALWAYS_N = frozenset(
    [
        "Bernoulli",
        "BitShift",
        "Compress",
        "ConcatFromSequence",
        "ConvInteger",
        "Det",
        "DynamicQuantizeLinear",
        "MatMulInteger",
        "MaxRoiPool",
        "MaxUnpool",
        "Multinomial",
        "NegativeLogLikelihoodLoss",
        "QLinearConv",
        "QLinearMatMul",
        "SequenceAt",
        "SequenceConstruct",
        "SequenceEmpty",
        "SequenceErase",
        "SequenceInsert",
        "SequenceLength",
        "SequenceMap",
        "SoftmaxCrossEntropyLoss",
        "SplitToSequence",
        "StringNormalizer",
        "TfIdfVectorizer",
        "Unique",
        "Optional",
        "OptionalGetElement",
        "OptionalHasElement",
        "MelWeightMatrix",
        "DFT",
        "AffineGrid",
        "BitwiseAnd",
        "BitwiseNot",
        "BitwiseOr",
        "BitwiseXor",
        "Col2Im",
        "CenterCropPad",
        "ImageDecoder",
        "RegexFullMatch",
        "StringConcat",
        "StringSplit",
    ]
)
"""Marked N in 10.15 (and in every earlier snapshot where the op existed)."""

_N_85 = _ALWAYS_N | frozenset(["BlackmanWindow", "HammingWindow", "HannWindow", "Hardmax", "IsInf", "LayerNormalization", "STFT"])
_N_84 = _N_85 | frozenset(
    [
        "MeanVarianceNormalization",
        "Mod",
        "NonZero",
        "OneHot",
        "RandomNormal",
        "RandomNormalLike",
        "Reciprocal",
        "RoiAlign",
        "Shrink",
    ]
)

_NEWER = frozenset(
    [
        "Attention",
        "RMSNormalization",
        "RotaryEmbedding",
        "TensorScatter",
        "Gelu",
        "Mish",
        "GroupNormalization",
        "DeformConv",
        "CastLike",
    ]
)
"""Ops with an importer in 10.15 that the 8.5 page does not list at all."""


@dataclass(frozen=True)
class Snapshot:
    """One operators.md page: the lowest TensorRT it describes, its opset range, its N ops."""

    version: Version
    opset_min: int
    opset_max: int
    unsupported: frozenset[str]


SNAPSHOTS = [
    Snapshot(Version("8.4"), 7, 13, _N_84 | _NEWER),
    Snapshot(Version("8.5"), 7, 17, _N_85 | _NEWER),
    Snapshot(Version("8.6"), 7, 17, (_N_85 - {"LayerNormalization"}) | _NEWER),
    Snapshot(Version("10.0"), 9, 20, _ALWAYS_N),
    Snapshot(Version("10.15"), 9, 24, _ALWAYS_N),
]
CURRENT = SNAPSHOTS[-1]


def snapshot_for(trt: Version | None) -> Snapshot:
    """The table that applies to ``trt`` (None = current releases)."""
    if trt is None:
        return CURRENT
    chosen = SNAPSHOTS[0]
    for snap in SNAPSHOTS:
        if trt >= snap.version:
            chosen = snap
    return chosen


def support(op_type: str, trt: Version | None) -> str:
    """'yes', 'no' or 'unknown' for an ONNX-domain op on ``trt`` (None = current releases)."""
    if op_type in _ALWAYS_N:
        return "no"
    if trt is None or trt >= CURRENT.version:
        return "yes"
    if trt < Version("9"):
        return "no" if op_type in snapshot_for(trt).unsupported else "yes"
    # 9.x .. 10.14: no snapshot; ops gained between 8.6 and 10.15 are not known either way.
    return "unknown" if op_type in SNAPSHOTS[2].unsupported else "yes"


def missing_on_8x(op_type: str) -> bool:
    """True when current releases import ``op_type`` but TensorRT 8.6 does not."""
    return op_type not in CURRENT.unsupported and op_type in SNAPSHOTS[2].unsupported
