#!/usr/bin/env python3
"""Generate realistic TensorRT ``trtexec --verbose`` build logs of any size, deterministically.

A large log is made the way large logs arise in practice: a CI matrix or a sweep script runs trtexec
many times (TensorRT 8.5/8.6 releases, GPUs, precisions, workspace sizes) on one YOLO-like ONNX model
and appends everything to one file. Each run holds the line families of a real verbose build:

* the ``&&&& RUNNING`` banner, the ``[I]`` option blocks and the device information;
* plugin registration (``Registered plugin creator``) and builder start-up (``[MemUsageChange]``);
* the ONNX parser trace (``Parsing node:``, ``Searching for input:``, ``... inputs:`` / ``outputs:``,
  ``Registering layer:`` / ``tensor:``, convolution dimensions);
* for INT8 without a calibrator, ``Calibrator is not being used`` and one ``Missing scale and
  zero-point for tensor`` warning per tensor;
* graph optimisation (Conv + SiLU fusions, concat removal, ``After ...: N layers``);
* the tactic-timing section that makes up most of a verbose log (``Computing costs for``,
  ``Autotuning format combination``, ``Timing Runner``, ``Set Tactic Name``, ``Tactic: ... Time:``,
  ``Fastest Tactic``, ``Chose Runner Type``, now and then ``Skipping tactic ... due to insufficient
  memory``), with the detection head as one Myelin ``{ForeignNode[...]}``;
* the memory summary, the engine layer information, the inference trace and ``&&&& PASSED``. About
  one run in ten (``--fail-rate``) fails during timing with a build error and ``&&&& FAILED``.

Error and warning blocks are *planted* at fractions of the requested size (``--plant 0.5:opt10``,
repeatable; ``--list-kinds``). Without ``--plant`` a default set spread over the whole log is planted
(``--no-default-plants`` turns it off). A planted block starts on the first line that begins at or
after its offset. ``--manifest FILE`` writes JSON: the size, line and run counts, and every error
block (planted ones with their fraction ``at``; natural run failures with ``at`` null) with its kind,
1-based first line and line count. Plants draw their node names from a random stream of their own,
so the log with plants is the log without them plus the planted lines.

Output stops with the line that reaches the requested size (the last run is cut off there, as in the
log of a job that was stopped), then the plants not yet placed are written: the size is the request
plus that line and those plants (a few hundred bytes with the default plants). The same arguments
always give byte-identical output; lines are joined and written about 1 MiB at a time (a GiB takes
about 6 s of CPU).

    python benchmarks/gen_log.py --size 100M -o trt_100m.log
    python benchmarks/gen_log.py --size 1G --seed 7 -o trt_1g.log --manifest trt_1g.json
    python benchmarks/gen_log.py --size 2M --no-default-plants --plant 0.5:cudaoom | trt-why -

From Python (benchmarks/ on sys.path, or loaded by file path)::

    data = generate(2 << 20, seed=3, plants=[(0.5, "opt10")])   # bytes
    with open("big.log", "wb") as f:
        manifest = write_log(f.write, 1 << 30, seed=1)           # streamed; returns the manifest
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import random
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple

__all__ = ["DEFAULT_PLANTS", "PLANTS", "Block", "Manifest", "generate", "main", "parse_size", "write_log"]

CHUNK_LINES = 8192  # lines joined per write (about 1 MiB)
START = 1732238736  # 2024-11-22 01:25:36 UTC, the first run's clock

# -- the planted error and warning blocks ---------------------------------------------------------------
# {node}: an engine layer of the current run, {conv}: one of its convolution nodes, {tensor}: one of its
# tensors. Lines opening with a level tag ([E] ...) get the timestamp; the others are printed bare, as
# the ONNX parser and trtexec print them.
_CASCADE = ("[E] Engine could not be created from network", "[E] Building engine failed",
            "[E] Failed to create engine from model or file.", "[E] Engine set up failed")
_NO_IMPL = "Error Code 10: Internal Error (Could not find any implementation for node {node}{why}.)"
PLANTS: dict[str, tuple[str, ...]] = {
    "opt10": ("[E] Error[10]: [optimizer.cpp::computeCosts::3869] " + _NO_IMPL.format(node="{node}", why=""),
              "[E] [TRT] 10: [optimizer.cpp::computeCosts::3869] " + _NO_IMPL.format(node="{node}", why=""),
              *_CASCADE),
    "opt10ws": ("[E] [TRT] 10: [optimizer.cpp::computeCosts::3869] " + _NO_IMPL.format(
        node="{node}", why=" due to insufficient workspace. See verbose log for requested sizes"),),
    "cuda1": (("[E] [TRT] 1: [defaultAllocator.cpp::deallocateAsync::64] Error Code 1: Cuda Runtime "
              "(operation not supported)"),),
    "cuda700": (("[E] [TRT] 1: [checkMacros.cpp::catchCudaError::203] Error Code 1: Cuda Runtime "
                "(an illegal memory access was encountered)"),
                "[E] [TRT] 1: [reformat.cpp::executeCutensor::384] Error Code 1: CuTensor (Internal cuTensor reformat failed)"),
    "cudaoom": ("[E] [TRT] 1: [resizingAllocator.cpp::allocate::62] Error Code 1: Cuda Runtime (out of memory)",
                ("[W] [TRT] Requested amount of GPU memory (4294967296 bytes) could not be allocated. There may not be "
                "enough free memory for allocation to succeed."),
                "[E] [TRT] 2: [virtualMemoryBuffer.cpp::resizePhysical::145] Error Code 2: OutOfMemory (no further information)"),
    "dynshape": (("[E] [TRT] 4: [network.cpp::validate::3009] Error Code 4: Internal Error (images: dynamic input is "
                 "missing dimensions in profile 0.)"),),
    "kopt": (("[E] [TRT] 4: [shapeCompiler.cpp::evaluateShapeChecks::1180] Error Code 4: Internal Error (kOPT values for "
             "profile 0 violate shape constraints: {conv}: dimensions not compatible for Concat. Condition '==' "
             "violated: 80 != 40.)"),),
    "apiusage": (("[E] [TRT] 3: [builderConfig.cpp::canRunOnDLA::493] Error Code 3: API Usage Error (Parameter check failed "
                 "at: optimizer/api/builderConfig.cpp::canRunOnDLA::493, condition: dlaEngineCount > 0)"),),
    "plugin9": (("[E] [TRT] 9: [pluginV2Builder.cpp::reportPluginError::24] Error Code 9: Internal Error ({conv}: could "
                "not find any supported formats consistent with input/output data types)"),),
    "cask": ("[E] [TRT] 1: [convolutionRunner.cpp::execute::391] Error Code 1: Cask (Cask convolution execution)",),
    "myelin": (("[E] [TRT] 1: [myelinBuilderUtils.cpp::operator()::371] Error Code 1: Myelin ([myelin_graph.h:1088: "
               "attachExceptionMsgToGraph] MyelinCheckException: gvn.cpp:148: CHECK(false) failed. )"),),
    "serial": (("[E] [TRT] 1: [stdArchiveReader.cpp::StdArchiveReader::42] Error Code 1: Serialization (Serialization "
               "assertion stdVersionRead == serializationVersion failed.Version tag does not match. Note: Current "
               "Version: 232, Serialized Engine Version: 213)"),
               ("[E] [TRT] 4: [runtime.cpp::deserializeCudaEngine::66] Error Code 4: Internal Error (Engine deserialization "
                "failed.)")),
    "planver": (("[E] [TRT] 6: The engine plan file is not compatible with this version of TensorRT, expecting library "
                "version 8.6.1.6 got 8.5.3.1, please rebuild."),),
    "onnxparse": ('[E] [TRT] ModelImporter.cpp:771: While parsing node number 245 [TopK -> "/model.22/TopK_output_0"]:',
                  "[E] [TRT] ModelImporter.cpp:772: --- Begin node ---",
                  '[E] [TRT] ModelImporter.cpp:773: input: "/model.22/Reshape_output_0"',
                  "[E] [TRT] ModelImporter.cpp:774: --- End node ---",
                  "[E] [TRT] ModelImporter.cpp:777: ERROR: builtin_op_importers.cpp:4872 In function importTopK:",
                  ('[8] Assertion failed: (inputs.at(1).is_weights()) && "This version of TensorRT only supports input K '
                  'as an initializer."'),
                  "[E] Failed to parse onnx file"),
    "noimporter": ("[I] [TRT] No importer registered for op: GridSample. Attempting to import as plugin.",
                   "[I] [TRT] Searching for plugin: GridSample, plugin_version: 1, plugin_namespace: ",
                   "[E] [TRT] ModelImporter.cpp:726: ERROR: ModelImporter.cpp:168 In function parseGraph:",
                   "[6] Invalid Node - /model.22/dfl/GridSample",
                   ("[E] [TRT] ModelImporter.cpp:777: ERROR: builtin_op_importers.cpp:4870 In function "
                   "importFallbackPluginImporter:"),
                   '[8] Assertion failed: creator && "Plugin not found, are the plugin name, version, and namespace correct?"',
                   "[E] Failed to parse onnx file"),
    "alltactics": ("[V] [TRT] --------------- Timing Runner: {node} (CaskConvolution)",
                   "[V] [TRT] CaskConvolution has no valid tactics for this config, skipping",
                   "[V] [TRT] Fastest Tactic: 0xd15ea5edd15ea5ed Time: inf"),
    "cudnnver": ("[W] [TRT] TensorRT was linked against cuDNN 8.9.0 but loaded cuDNN 8.6.0",
                 "[W] [TRT] TensorRT was linked against cuBLAS/cuBLAS LT 11.11.3 but loaded cuBLAS/cuBLAS LT 11.6.5"),
    "tacticmem": ("[W] [TRT] Tactic Device request: 4098MB Available: 3048MB. Device memory is insufficient to use tactic.",
                  ("[W] [TRT] Skipping tactic 3 due to insufficient memory on requested size of 4297588736 detected for "
                  "tactic 0x0000000000000004.")),
    "fp16": ("[W] [TRT] Weights [name={conv}.weight] had the following issues when converted to FP16:",
             "[W] [TRT]  - Subnormal FP16 values detected. ",
             ("[W] [TRT]  - Values less than smallest positive FP16 Subnormal value detected. Converting to FP16 minimum "
             "subnormalized value. "),
             ("[W] [TRT] If this is not the desired behavior, please modify the weights or retrain with regularization to "
             "reduce the magnitude of the weights."),
             "[W] [TRT] - 12 weights are affected by this issue: Detected subnormal FP16 values."),
    "myelindyn": (("[W] [TRT] Myelin graph with multiple dynamic values may have poor performance if they differ. Dynamic "
                  "values are: "),
                  "[W] [TRT]  (# 0 (SHAPE images))"),
    "unstable": ("[W] * GPU compute time is unstable, with coefficient of variance = 7.84%.",
                 "[W]   If not already in use, locking GPU clock frequency or adding --useSpinWait may improve the stability."),
    "embedded": (("[W] [TRT] Unknown embedded device detected. Using 59660MiB as the allocation cap for memory on embedded "
                 "devices."),),
    "dla": ("[W] [TRT] Default DLA is enabled but layer {conv} is not supported on DLA, falling back to GPU.",
            "[W] [TRT] DLA requests all profiles have same min, max, and opt value. All dla layers are falling back to GPU"),
    "cachebad": ("[W] [TRT] Detected invalid timing cache, setup a local cache instead",),
    "unusedin": ("[W] [TRT] Unused Input: {tensor}",),
    "int64clamp": ("[W] [TRT] onnx2trt_utils.cpp:400: One or more weights outside the range of INT32 was clamped",),
    "initdtype": (("[W] [TRT] onnx2trt_utils.cpp:366: Found unsupported datatype (11) when importing initializer: "
                  "onnx::Gather_4123"),),
    "lazyoff": (("[W] [TRT] CUDA lazy loading is not enabled. Enabling it can significantly reduce device memory usage and "
                "speed up TensorRT initialization. See \"Lazy Loading\" section of CUDA documentation "
                "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#lazy-loading"),),
}
DEFAULT_PLANTS: tuple[tuple[float, str], ...] = (
    (0.02, "cudnnver"), (0.05, "fp16"), (0.08, "tacticmem"), (0.11, "myelindyn"), (0.13, "cuda1"), (0.17, "dla"),
    (0.21, "opt10ws"), (0.25, "cudaoom"), (0.29, "unusedin"), (0.33, "dynshape"), (0.37, "kopt"), (0.41, "apiusage"),
    (0.45, "plugin9"), (0.5, "opt10"), (0.53, "cask"), (0.57, "myelin"), (0.61, "serial"), (0.65, "planver"),
    (0.69, "onnxparse"), (0.73, "noimporter"), (0.77, "alltactics"), (0.81, "embedded"), (0.85, "cachebad"),
    (0.88, "int64clamp"), (0.9, "initdtype"), (0.93, "cuda700"), (0.96, "unstable"), (0.999, "opt10"), (0.9995, "cuda1"),
)
FAIL_KINDS = ("opt10", "opt10", "opt10ws", "cudaoom", "kopt", "plugin9", "myelin")  # how a natural run failure reads

# -- the matrix the runs are drawn from ---------------------------------------------------------------------------
VERSIONS = (("8601", "8.6.1"), ("8601", "8.6.1"), ("8503", "8.5.3"), ("8502", "8.5.2"))
# name, compute capability, SMs, global memory MiB, shared memory per SM KiB, bus bits, compute / memory clock GHz
DEVICES = (("NVIDIA A100-SXM4-40GB", "8.0", 108, 40377, 164, 5120, 1.41, 1.215),
           ("NVIDIA GeForce RTX 3090", "8.6", 82, 24259, 100, 384, 1.695, 9.751),
           ("Orin", "8.7", 16, 30592, 164, 128, 1.3, 0.612),
           ("Tesla T4", "7.5", 40, 14971, 64, 256, 1.59, 5.001))
PRECISIONS = (("INT8", " --int8"), ("INT8", " --int8"), ("FP16", " --fp16"), ("FP16+INT8", " --fp16 --int8"))
PLUGINS = ("BatchedNMSDynamic_TRT", "BatchedNMS_TRT", "BatchTilePlugin_TRT", "Clip_TRT", "CoordConvAC", "CropAndResizeDynamic",
           "CropAndResize", "DecodeBbox3DPlugin", "DetectionLayer_TRT", "EfficientNMS_Explicit_TF_TRT",
           "EfficientNMS_Implicit_TF_TRT", "EfficientNMS_ONNX_TRT", "EfficientNMS_TRT", "FlattenConcat_TRT",
           "GenerateDetection_TRT", "GridAnchor_TRT", "GridAnchorRect_TRT", "InstanceNormalization_TRT:2", "LReLU_TRT",
           "ModulatedDeformConv2d", "MultilevelCropAndResize_TRT", "MultilevelProposeROI_TRT",
           "MultiscaleDeformableAttnPlugin_TRT", "NMSDynamic_TRT", "NMS_TRT", "Normalize_TRT", "PillarScatterPlugin",
           "PriorBox_TRT", "ProposalDynamic", "ProposalLayer_TRT", "Proposal", "PyramidROIAlign_TRT", "Region_TRT",
           "Reorg_TRT", "ResizeNearest_TRT", "ROIAlign_TRT", "RPROI_TRT", "ScatterND", "SpecialSlice_TRT", "Split",
           "VoxelGeneratorPlugin")
# Cask convolution kernels per data type: {arch} is sm75 on Turing, else sm80
_TILES = ("64x64x64", "128x64x64", "64x128x64", "128x128x64", "256x128x32", "128x256x32")
_KERNELS = {
    "Float": (("{arch}_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nchwkcrs_nchw_tilesize{tile}_stage{stage}_warpsize{warp}"
              "_g1_tensor16x8x8"), ("{arch}_xmma_fprop_implicit_gemm_indexed_f32f32_tf32f32_f32_nchwkcrs_nchw_tilesize{tile}"
              "_stage{stage}_warpsize{warp}_g1_tensor16x8x8")),
    "Half": (("{arch}_xmma_fprop_implicit_gemm_f16f16_f16f16_f16_nhwckrsc_nhwc_tilesize{tile}_stage{stage}_warpsize{warp}"
             "_g1_tensor16x8x16"), ("{arch}_xmma_fprop_implicit_gemm_f16f16_f16f16_f16_nhwckrsc_nhwc_tilesize{tile}_stage{stage}"
             "_warpsize{warp}_g1_tensor16x8x16_t1r3s3")),
    "Int8": (("{arch}_xmma_fprop_implicit_gemm_interleaved_i8i8_i8i32_f32_nchw_vect_c_32kcrs_vect_c_32_nchw_vect_c_32_tilesize"
             "{tile}_stage{stage}_warpsize{warp}_g1_tensor16x8x32"), ("{arch}_xmma_fprop_implicit_gemm_interleaved_i8i8_i8i32_f32"
             "_nchw_vect_c_32kcrs_vect_c_32_nchw_vect_c_32_tilesize{tile}_stage{stage}_warpsize{warp}_g1_tensor16x8x32_t1r3s3")),
}


def _kernels(arch: str, dtype: str) -> list[tuple[str, str]]:
    """The kernels of a data type with their tactic ids: fixed per kernel, as TensorRT's are."""
    names = [k.format(arch=arch, tile=t, stage=s, warp=w) for k in _KERNELS[dtype] for t in _TILES for s in (3, 4, 6)
             for w in ("2x2x1", "4x2x1", "2x4x1")]
    return [(n, f"0x{random.Random(n).getrandbits(64):016x}") for n in names]


KERNELS = {(arch, dtype): _kernels(arch, dtype) for arch in ("sm75", "sm80") for dtype in _KERNELS}
# runners timed per engine layer kind: (runner, how many tactics at most); CaskConvolution times kernels
RUNNERS: dict[str, tuple[tuple[str, int], ...]] = {
    "conv": (("CudaDepthwiseConvolution", 0), ("FusedConvActConvolution", 6), ("CudnnConvolution", 6),
             ("CaskConvolution", 36), ("CaskFlattenConvolution", 0)),
    "pwn": (("PointWiseV2", 10), ("PointWise", 2)),
    "pool": (("TiledPooling", 4), ("CudnnPooling", 1), ("CaskPooling", 6)),
    "copy": (("Reformat", 3),),
    "resize": (("Resize", 1),),
    "myelin": (("Myelin", 1),),
}
DTYPES = {"FP16": ("Float", "Half"), "INT8": ("Float", "Int8"), "FP16+INT8": ("Float", "Half", "Int8")}
# the (input, output) format combinations the builder times per layer: every pair of the run's types, same type first
COMBOS = {prec: tuple(sorted(((a, b) for a in types for b in types), key=lambda ab: ab[0] != ab[1]))
          for prec, types in DTYPES.items()}
# the detection head after its last Concat (op, name under /model.N/, shape with hw = H*W), one Myelin layer in TRT
HEAD = (("Reshape", "Reshape", (1, 144, -1)), ("Split", "Split", (1, 64, -1)), ("Reshape", "dfl/Reshape", (1, 4, 16, -1)),
        ("Transpose", "dfl/Transpose", (1, 16, 4, -1)), ("Softmax", "dfl/Softmax", (1, 16, 4, -1)),
        ("Conv", "dfl/conv/Conv", (1, 1, 4, -1)), ("Reshape", "dfl/Reshape_1", (1, 4, -1)), ("Slice", "Slice", (1, 2, -1)),
        ("Slice", "Slice_1", (1, 2, -1)), ("Sub", "Sub", (1, 2, -1)), ("Add", "Add", (1, 2, -1)), ("Div", "Div_1", (1, 2, -1)),
        ("Sub", "Sub_1", (1, 2, -1)), ("Concat", "Concat_1", (1, 4, -1)), ("Mul", "Mul_2", (1, 4, -1)),
        ("Sigmoid", "Sigmoid", (1, 80, -1)), ("Concat", "Concat_2", (1, 84, -1)))

_SIZE = re.compile(r"\s*(\d+(?:\.\d*)?)\s*([KMGT]?)(?:I?B)?\s*", re.IGNORECASE)


def parse_size(text: str) -> int:
    """Bytes in ``10M``, ``1G``, ``1.5GiB``, ``64k`` or ``12345`` (binary multiples)."""
    m = _SIZE.fullmatch(text)
    if not m:
        raise ValueError(f"not a size: {text!r} (try 10M, 100M, 1G)")
    return int(float(m.group(1)) * 1024 ** " KMGT".index(m.group(2).upper() or " "))


# -- the model ------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Node:
    """An ONNX node: its op, name, input tensors (the data input first, then initializers) and output."""

    op: str
    name: str
    inputs: tuple[str, ...]
    shapes: tuple[tuple[int, ...], ...]  # of the inputs
    out: str
    shape: tuple[int, ...]


@functools.lru_cache(maxsize=4096)
def _format(shape: tuple[int, ...], dtype: str) -> str:
    """A tensor format as the builder prints it: Half as HWC8 and Int8 as CHW32 (4-D), else linear strides."""
    if len(shape) == 4 and dtype != "Float":
        _, c, h, w = shape
        v = 8 if dtype == "Half" else 32
        cv = -(-c // v) * v
        return f"Half({cv * h * w},1:8,{w * cv},{cv})" if v == 8 else f"Int8({cv * h * w},{h * w}:32,{w},1)"
    strides = [math.prod(shape[i + 1:]) for i in range(len(shape))]
    return f"{'Half' if dtype == 'Half' else 'Float'}({','.join(map(str, strides))})"


class Layer(NamedTuple):
    """An engine layer (what the builder times): kind (a RUNNERS key), name, input and output tensors and shapes."""

    kind: str
    name: str
    inp: str
    src: tuple[int, ...]
    out: str
    dst: tuple[int, ...]


@dataclass
class Model:
    """A YOLO-like detector: ONNX nodes, and the engine layers TensorRT makes of them."""

    nodes: list[Node] = field(default_factory=list)
    layers: list[Layer] = field(default_factory=list)
    convs: list[str] = field(default_factory=list)

    def node(self, op: str, name: str, inputs: Sequence[tuple[str, tuple[int, ...]]], shape: tuple[int, ...],
             layer: str | None = None) -> tuple[str, tuple[int, ...]]:
        out = f"{name}_output_0"
        self.nodes.append(Node(op, name, tuple(t for t, _ in inputs), tuple(s for _, s in inputs), out, shape))
        if layer:
            self.layers.append(Layer(layer, name, *inputs[0], out, shape))
        return out, shape

    def conv(self, x: tuple[str, tuple[int, ...]], prefix: str, c: int, k: int = 3, stride: int = 1,
             act: bool = True) -> tuple[str, tuple[int, ...]]:
        """Conv (BN folded in), then SiLU as Sigmoid and Mul: one fused engine layer."""
        _, (n, cin, h, w) = x
        shape = (n, c, h // stride, w // stride)
        weights = prefix.strip("/").replace("/", ".") + (".conv" if act else "")
        conv = f"{prefix}/conv/Conv" if act else f"{prefix}/Conv"
        y = self.node("Conv", conv, [x, (f"{weights}.weight", (c, cin, k, k)), (f"{weights}.bias", (c,))], shape)
        self.convs.append(conv)
        if not act:
            self.layers.append(Layer("conv", conv, *x, *y))
            return y
        s = self.node("Sigmoid", f"{prefix}/act/Sigmoid", [y], shape)
        y = self.node("Mul", f"{prefix}/act/Mul", [y, s], shape)
        self.layers.append(Layer("conv", f"{conv} + PWN(PWN({prefix}/act/Sigmoid), PWN({prefix}/act/Mul))", *x, *y))
        return y

    def c2f(self, x: tuple[str, tuple[int, ...]], m: int, c: int, n: int) -> tuple[str, tuple[int, ...]]:
        """Ultralytics C2f: cv1, Split in two, n bottlenecks with a shortcut Add, Concat, cv2."""
        y = self.conv(x, f"/model.{m}/cv1", c, 1)
        half = (1, c // 2, *y[1][2:])
        parts = [self.node("Split", f"/model.{m}/Split", [y], half)]
        parts.append((f"/model.{m}/Split_output_1", half))
        for b in range(n):
            z = self.conv(parts[-1], f"/model.{m}/m.{b}/cv1", c // 2)
            z = self.conv(z, f"/model.{m}/m.{b}/cv2", c // 2)
            add = self.node("Add", f"/model.{m}/m.{b}/Add", [parts[-1], z], half)
            self.layers.append(Layer("pwn", f"PWN(/model.{m}/m.{b}/Add)", *parts[-1], *add))
            parts.append(add)
        cat = self.node("Concat", f"/model.{m}/Concat", parts, (1, c // 2 * len(parts), *half[2:]))
        self.layers.append(Layer("copy", f"/model.{m}/Split_output_1 copy", *parts[1], *parts[1]))  # Concat removed
        return self.conv(cat, f"/model.{m}/cv2", c, 1)


def build_model(layers: int) -> Model:
    """Stages of a stride-2 Conv and a C2f until about ``layers`` ONNX nodes, an SPPF, then the head."""
    md = Model()
    x: tuple[str, tuple[int, ...]] = ("images", (1, 3, 640, 640))
    m, c = 0, 16
    while len(md.nodes) < max(layers, 60) - 40:
        stride = 2 if x[1][2] > 20 else 1
        c = min(c * stride if m else c, 512)
        x = md.conv(x, f"/model.{m}", c, 3, stride)
        if len(md.nodes) < layers - 40:
            x = md.c2f(x, m + 1, c, 1 + (m // 2) % 3)
        m += 2
    x = md.conv(x, f"/model.{m}/cv1", c // 2, 1)  # SPPF
    pools = [x]
    for i in range(3):
        name = f"/model.{m}/m{'_' + str(i) if i else ''}/MaxPool"
        pools.append(md.node("MaxPool", name, [pools[-1]], x[1], "pool"))
    x = md.conv(md.node("Concat", f"/model.{m}/Concat", pools, (1, c * 2, *x[1][2:])), f"/model.{m}/cv2", c, 1)
    m += 1
    x = md.node("Resize", f"/model.{m}/Resize", [x, ("", ()), (f"/model.{m}/Constant_output_0", (4,))],
                (1, c, x[1][2] * 2, x[1][3] * 2), "resize")
    m += 1
    box = md.conv(md.conv(x, f"/model.{m}/cv2.0/cv2.0.0", 64), f"/model.{m}/cv2.0/cv2.0.1", 64)
    box = md.conv(box, f"/model.{m}/cv2.0/cv2.0.2", 64, 1, act=False)
    cls = md.conv(md.conv(x, f"/model.{m}/cv3.0/cv3.0.0", 80), f"/model.{m}/cv3.0/cv3.0.1", 80)
    cls = md.conv(cls, f"/model.{m}/cv3.0/cv3.0.2", 80, 1, act=False)
    y = head = md.node("Concat", f"/model.{m}/Concat", [box, cls], (1, 144, *x[1][2:]))
    hw = x[1][2] * x[1][3]
    for op, name, shape in HEAD:
        extra = [(f"model.{m}.dfl.conv.weight", (1, 16, 1, 1))] if op == "Conv" else []
        y = md.node(op, f"/model.{m}/{name}", [y, *extra], tuple(hw if d < 0 else d for d in shape))
    md.layers.append(Layer("myelin", f"{{ForeignNode[/model.{m}/Reshape.../model.{m}/{HEAD[-1][1]}]}}", *head, *y))
    return md


# -- the writer -----------------------------------------------------------------------------------------------------

@dataclass
class Block:
    """An error or warning block in the log: kind, first line (1-based), line count, requested fraction."""

    kind: str
    line: int
    lines: int
    at: float | None


@dataclass
class Manifest:
    """What was written: bytes, lines, trtexec runs, and the error blocks (planted and natural)."""

    size: int
    lines: int
    runs: int
    seed: int
    plants: list[Block]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class _Full(Exception):
    """The requested size is reached."""


class _Writer:
    """Writes trtexec runs until the requested size, keeping byte and line counts to place the plants."""

    def __init__(self, sink: Callable[[bytes], object], target: int, seed: int, plants: Iterable[tuple[float, str]],
                 layers: int, model: str, fail_rate: float) -> None:
        self.sink, self.target, self.seed, self.model, self.fail_rate = sink, target, seed, model, fail_rate
        self.rng = random.Random(seed)
        self.prng = random.Random(f"plants-{seed}")  # plants never shift the log's own random stream
        self.queue = sorted((int(frac * target), i, frac, kind) for i, (frac, kind) in enumerate(plants))
        self.next_plant = self.queue[0][0] if self.queue else sys.maxsize
        self.buf: list[str] = []
        self.size = self.lineno = self.runs = 0
        self.clock = START
        self.ts = ""
        self.tick(0)
        self.blocks: list[Block] = []
        self.md = build_model(layers)
        self.tensors = ["images", *(n.out for n in self.md.nodes)]
        self.arch = "sm80"

    # output ------------------------------------------------------------------------------------------------
    def tick(self, seconds: int) -> None:
        self.clock += seconds
        self.ts = time.strftime("[%m/%d/%Y-%H:%M:%S] ", time.gmtime(self.clock))

    def emit(self, texts: Sequence[str], stamp: bool = True) -> None:
        """Write lines (timestamped), placing due plants; stop at the line that reaches the requested size."""
        lines = [self.ts + t for t in texts] if stamp else list(texts)
        added = sum(map(len, lines)) + len(lines)
        if self.size + added < min(self.next_plant, self.target):  # nothing to do in between: all at once
            self.buf += lines
            self.size += added
            self.lineno += len(lines)
        else:
            for line in lines:
                self.buf.append(line)
                self.size += len(line) + 1
                self.lineno += 1
                while self.size >= self.next_plant:
                    _, _, frac, kind = self.queue.pop(0)
                    self.next_plant = self.queue[0][0] if self.queue else sys.maxsize
                    self.plant(kind, frac, self.prng)
                if self.size >= self.target:
                    raise _Full
        if len(self.buf) >= CHUNK_LINES:
            self.flush()

    def plant(self, kind: str, at: float | None, rng: random.Random, layer: str = "") -> None:
        fields = {"node": layer or rng.choice(self.md.layers).name, "conv": rng.choice(self.md.convs),
                  "tensor": rng.choice(self.tensors)}
        self.blocks.append(Block(kind, self.lineno + 1, len(PLANTS[kind]), at))
        for text in PLANTS[kind]:
            line = text.format(**fields)
            line = self.ts + line if line[:4] in ("[E] ", "[W] ", "[I] ", "[V] ") else line
            self.buf.append(line)
            self.size += len(line) + 1
            self.lineno += 1

    def flush(self) -> None:
        if self.buf:
            self.buf.append("")
            self.sink("\n".join(self.buf).encode())
            self.buf = []

    def write(self) -> Manifest:
        try:
            while True:
                self.runs += 1
                self.run()
        except _Full:
            pass
        for _, _, frac, kind in self.queue:  # offsets past the end
            self.plant(kind, frac, self.prng)
        self.flush()
        return Manifest(self.size, self.lineno, self.runs, self.seed, self.blocks)

    # one trtexec run ---------------------------------------------------------------------------------------
    def hexid(self) -> str:
        return f"0x{self.rng.getrandbits(64):016x}"

    def run(self) -> None:
        rng = self.rng
        tag, ver = rng.choice(VERSIONS)
        dev = rng.choice(DEVICES)
        self.arch = "sm75" if dev[1] == "7.5" else "sm80"
        prec, flags = rng.choice(PRECISIONS)
        ws = rng.choice((1024, 2048, 4096, 8192))
        stem = self.model.rsplit("/", 1)[-1].removesuffix(".onnx")
        cmd = (f"trtexec --onnx={self.model}{flags} --memPoolSize=workspace:{ws} --verbose "
               f"--saveEngine={stem}_{prec.lower().replace('+', '_')}_ws{ws}.engine")
        self.emit([f"&&&& RUNNING TensorRT.trtexec [TensorRT v{tag}] # {cmd}"], stamp=False)
        self.header(ver, dev, prec, ws)
        self.parse()
        if "INT8" in prec:
            self.emit([("[W] [TRT] Calibrator is not being used. Users must provide dynamic range for all tensors that "
                       "are not Int32 or Bool.")])
            self.emit([f"[W] [TRT] Missing scale and zero-point for tensor {t}, expect fall back to non-int8 "
                       "implementation for any layer consuming or producing given tensor" for t in self.tensors])
        self.optimize()
        fail_at = rng.randrange(len(self.md.layers)) if rng.random() < self.fail_rate else -1
        self.timing(prec, fail_at)
        if fail_at >= 0:
            kind = rng.choice(FAIL_KINDS)
            self.plant(kind, None, rng, self.md.layers[fail_at].name)
            if kind != "opt10":  # opt10 holds trtexec's own cascade
                self.emit(_CASCADE)
            self.emit([f"&&&& FAILED TensorRT.trtexec [TensorRT v{tag}] # {cmd}"], stamp=False)
        else:
            self.summary(prec)
            self.emit([f"&&&& PASSED TensorRT.trtexec [TensorRT v{tag}] # {cmd}"], stamp=False)
        self.tick(rng.randint(5, 60))

    def header(self, ver: str, dev: tuple[Any, ...], prec: str, ws: int) -> None:
        name, cc, sms, mem, smem, bus, cclk, mclk = dev
        rng = self.rng
        self.emit(_HEADER.format(blank="", model=self.model, prec=prec, ws=ws, name=name, cc=cc, sms=sms, mem=mem, smem=smem,
                                 bus=bus, ecc="enabled" if sms > 80 else "disabled", cclk=cclk, mclk=mclk,
                                 ver=ver).splitlines())
        self.emit([f"[V] [TRT] Registered plugin creator - ::{p.split(':')[0]} version {(p + ':1').split(':')[1]}"
                   for p in PLUGINS])
        cpu, gpu = rng.randint(15, 30), rng.randint(300, 900)
        self.emit([f"[I] [TRT] [MemUsageChange] Init CUDA: CPU +{rng.randint(1, 3)}, GPU +0, now: CPU {cpu}, GPU {gpu} (MiB)"])
        self.tick(3)
        self.emit([f"[V] [TRT] Trying to load shared library libnvinfer_builder_resource.so.{ver}",
                   f"[V] [TRT] Loaded shared library libnvinfer_builder_resource.so.{ver}",
                   (f"[I] [TRT] [MemUsageChange] Init builder kernel library: CPU +1444, GPU +266, now: CPU {cpu + 1530}, "
                   f"GPU {gpu + 266} (MiB)"),
                   "[V] [TRT] CUDA lazy loading is enabled.",
                   *_ONNX_HEADER.format(model=self.model, blank="").splitlines()])

    def parse(self) -> None:
        rng = self.rng
        for i, n in enumerate(self.md.nodes):
            dims = [", ".join(map(str, s)) for s in n.shapes]
            out = ", ".join(map(str, n.shape))
            lines = [f"[V] [TRT] Parsing node: {n.name} [{n.op}]"]
            lines += [f"[V] [TRT] Searching for input: {t}" for t in n.inputs if t]
            lines.append(f"[V] [TRT] {n.name} [{n.op}] inputs: "
                         + "".join(f"[{t} -> ({d})[FLOAT]], " if t else "[optional input, not set], "
                                   for t, d in zip(n.inputs, dims, strict=True)))
            if n.op == "Conv":
                k = n.shapes[1][2]
                s = n.shapes[0][2] // n.shape[2]
                lines += [f"[V] [TRT] Convolution input dimensions: ({dims[0]})",
                          f"[V] [TRT] Registering layer: {n.name} for ONNX node: {n.name}",
                          (f"[V] [TRT] Using kernel: ({k}, {k}), strides: ({s}, {s}), prepadding: ({k // 2}, {k // 2}), "
                          f"postpadding: ({k // 2}, {k // 2}), dilations: (1, 1), numOutputs: {n.shape[1]}"),
                          f"[V] [TRT] Convolution output dimensions: ({out})"]
            else:
                lines.append(f"[V] [TRT] Registering layer: {n.name} for ONNX node: {n.name}")
            outs = (n.out, n.out.replace("_output_0", "_output_1")) if n.op == "Split" else (n.out,)
            lines += [f"[V] [TRT] Registering tensor: {t} for ONNX tensor: {t}" for t in outs]
            lines.append(f"[V] [TRT] {n.name} [{n.op}] outputs: " + "".join(f"[{t} -> ({out})[FLOAT]], " for t in outs))
            self.emit(lines)
            if i % 100 == 99:
                self.tick(1)
        self.emit([f"[V] [TRT] Marking {self.md.nodes[-1].out} as output: output0",
                   f"[I] Finished parsing network model. Parse time: {rng.random() * 2 + 0.1:.5f}"])
        if rng.random() < 0.5:
            self.emit([("[W] [TRT] onnx2trt_utils.cpp:374: Your ONNX model has been generated with INT64 weights, while "
                       "TensorRT does not natively support INT64. Attempting to cast down to INT32.")])

    def optimize(self) -> None:
        rng = self.rng
        nodes = len(self.md.nodes)
        lines = ["[V] [TRT] Applying generic optimizations to the graph for inference.", f"[V] [TRT] Original: {nodes} layers",
                 f"[V] [TRT] After dead-layer removal: {nodes} layers",
                 f"[V] [TRT] Graph construction completed in {rng.random() * 0.01:.6f} seconds."]
        for kind, name, *_ in self.md.layers:
            if kind == "conv" and " + " in name:
                conv, pwn = name.split(" + ", 1)
                sig, mul = pwn[8:-2].split("), PWN(")
                lines += [f"[V] [TRT] Running: PointWiseFusion on {sig}", f"[V] [TRT] PointWiseFusion: Fusing {sig} with {mul}",
                          f"[V] [TRT] Running: ConvPointwiseFusion on {conv}",
                          f"[V] [TRT] ConvPointwiseFusion: Fusing {conv} with PWN(PWN({sig}), PWN({mul}))"]
            elif kind == "copy":
                lines.append(f"[V] [TRT] Generating copy for {name.removesuffix(' copy')} to "
                             f"{name.split('/Split')[0]}/Concat_output_0 because input does not support striding.")
            elif kind == "myelin":
                lines.append(f"[V] [TRT] After Myelin optimization: {len(self.md.layers)} layers")
        n = len(self.md.layers) + 20
        for step in ("After vertical fusions", "After dupe layer removal", "After final dead-layer removal",
                     "After tensor merging", "After slice removal", "After concat removal"):
            n = max(len(self.md.layers), n - rng.randint(0, 8))
            lines.append(f"[V] [TRT] {step}: {n} layers")
        lines += ["[V] [TRT] Trying to split Reshape and strided tensor",
                  f"[I] [TRT] Graph optimization time: {rng.random() * 3:.4f} seconds.",
                  "[I] [TRT] Local timing cache in use. Profiling results in this builder pass will not be stored.",
                  "[V] [TRT] Constructing optimization profile number 0 [1/1].",
                  "[V] [TRT] Reserving memory for host IO tensors. Host: 0 bytes"]
        self.emit(lines)

    def timing(self, prec: str, fail_at: int) -> None:
        """Every engine layer: its format combinations, each timed by the layer's runners."""
        rng = self.rng
        r = rng.random
        dtypes = DTYPES[prec]
        self.emit(["[V] [TRT] =============== Computing reformatting costs: "])
        for i, layer in enumerate(self.md.layers):
            if i == fail_at:
                return
            kind, name, inp, src, _, dst = layer
            lines: list[str] = []
            if r() < 0.25:
                lines += [(f"[V] [TRT] *************** Autotuning Reformat: {_format(src, 'Float')} -> "
                          f"{_format(src, dtypes[-1])} ***************"),
                          f"[V] [TRT] --------------- Timing Runner: Optimizer Reformat({inp} -> <out>) (Reformat)"]
                lines += [f"[V] [TRT] Tactic: {t} Time: {r() * 0.2 + 0.004:.6g}"
                          for t in ("0x00000000000003e8", "0x00000000000003ea", "0x0000000000000000")]
                lines.append(f"[V] [TRT] Fastest Tactic: 0x0000000000000000 Time: {r() * 0.05 + 0.004:.6g}")
            lines.append(f"[V] [TRT] =============== Computing costs for {name}")
            scale = 2.0 if kind in ("conv", "myelin") else 0.3
            combos = COMBOS[prec] if kind in ("conv", "myelin") else COMBOS[prec][:1 + int(r() * len(dtypes))]
            for dtype, out_dtype in combos:
                lines.append(f"[V] [TRT] *************** Autotuning format combination: {_format(src, dtype)} -> "
                             f"{_format(dst, out_dtype)} ***************")
                best: tuple[float, str, str] | None = None
                for runner, most in RUNNERS[kind]:
                    fastest = self.time_runner(lines, name, runner, most, dtype, scale)
                    if fastest and (best is None or fastest[0] < best[0]):
                        best = (*fastest, runner)
                if best:
                    lines.append(f"[V] [TRT] >>>>>>>>>>>>>>> Chose Runner Type: {best[2]} Tactic: {best[1]}")
            self.emit(lines)
            if r() < 0.05:
                self.tick(1 + int(r() * 4))

    def time_runner(self, lines: list[str], name: str, runner: str, most: int, dtype: str,
                    scale: float) -> tuple[float, str] | None:
        """One runner's tactics for a layer (added to ``lines``); the fastest (time, tactic), if any ran."""
        rng = self.rng
        r = rng.random
        lines.append(f"[V] [TRT] --------------- Timing Runner: {name} ({runner})")
        if most == 0 or r() < 0.15:
            lines.append(f"[V] [TRT] {runner} has no valid tactics for this config, skipping")
            return None
        count = 1 + int(r() * most)
        if runner == "CaskConvolution":
            tactics = rng.sample(KERNELS[self.arch, dtype], count)
        else:
            tactics = [("", self.hexid() if runner.startswith("Cask") else f"0x{k:016x}") for k in range(count)]
        fastest: tuple[float, str] | None = None
        for kernel, tid in tactics:
            if kernel:
                lines.append(f"[V] [TRT] {name} Set Tactic Name: {kernel} Tactic: {tid}")
            if r() < 0.01:
                lines.append(f"[V] [TRT] Skipping tactic {tid} due to insufficient memory on requested size of "
                             f"{rng.getrandbits(33) + (1 << 20)} detected for tactic {tid}.")
                continue
            t = r() * scale + 0.003
            lines.append(f"[V] [TRT] Tactic: {tid} Time: {t:.6g}")
            if fastest is None or t < fastest[0]:
                fastest = (t, tid)
        if fastest:
            lines.append(f"[V] [TRT] Fastest Tactic: {fastest[1]} Time: {fastest[0]:.6g}")
        return fastest

    def summary(self, prec: str) -> None:
        rng = self.rng
        layers = self.md.layers
        dt = DTYPES[prec][-1]
        lines = [f"[V] [TRT] Formats and tactics selection completed in {rng.random() * 300:.4f} seconds.",
                 f"[V] [TRT] After reformat layers: {len(layers)} layers",
                 f"[V] [TRT] Total number of blocks in pre-optimized block assignment: {len(layers)}",
                 "[I] [TRT] Detected 1 inputs and 1 output network tensors."]
        lines += [f"[V] [TRT] Layer: {name} Host Persistent: {rng.randint(0, 9000)} Device Persistent: 0 Scratch Memory: "
                  f"{rng.choice((0, 0, 1024, 524288))}" for _, name, *_ in layers]
        lines += [f"[I] [TRT] Total Host Persistent Memory: {rng.randint(10000, 900000)}",
                  f"[I] [TRT] Total Device Persistent Memory: {rng.randint(0, 90000)}",
                  f"[I] [TRT] Total Scratch Memory: {rng.randint(0, 9000000)}",
                  (f"[I] [TRT] [MemUsageStats] Peak memory usage of TRT CPU/GPU memory allocators: CPU {rng.randint(5, 90)} MiB, "
                  f"GPU {rng.randint(100, 4000)} MiB"),
                  f"[I] [TRT] [BlockAssignment] Started assigning block shifts. This will take {len(layers)} steps to complete.",
                  (f"[I] [TRT] [BlockAssignment] Algorithm ShiftNTopDown took {rng.random() * 20:.3f}ms to assign 9 blocks to "
                  f"{len(layers)} nodes requiring {rng.randint(1 << 20, 1 << 30)} bytes."),
                  "[V] [TRT] Total number of blocks in optimized block assignment: 9",
                  f"[I] [TRT] Total Activation Memory: {rng.randint(1 << 20, 1 << 30)}"]
        lines += [f"[V] [TRT] Finalize: {name} Set kernel index: {i % 60}" for i, (_, name, *_) in enumerate(layers)]
        lines += [f"[V] [TRT] Total number of generated kernels selected for the engine: {rng.randint(20, 80)}"]
        lines += [f"[V] [TRT] Kernel: {k} CASK_STATIC" for k in range(rng.randint(5, 20))]
        lines += ["[V] [TRT] Disabling unused tactic source: EDGE_MASK_CONVOLUTIONS",
                  "[V] [TRT] Disabling unused tactic source: JIT_CONVOLUTIONS"]
        self.emit(lines)
        self.tick(rng.randint(30, 300))
        runner = {"conv": "CaskConvolution", "pwn": "PointWiseV2", "pool": "CaskPooling", "copy": "Reformat",
                  "resize": "Resize", "myelin": "Myelin"}
        lines = [f"[V] [TRT] Engine generation completed in {rng.random() * 900:.3f} seconds.",
                 (f"[V] [TRT] Deleting timing cache: {rng.randint(100, 900)} entries, served {rng.randint(100, 9000)} hits "
                 "since creation."),
                 "[V] [TRT] Engine Layer Information:"]
        for kind, name, inp, src, out, dst in layers:
            lines.append(f"[V] [TRT] Layer({runner[kind]}): {name}, Tactic: {self.hexid()}, {inp} "
                         f"({dt}[{','.join(map(str, src))}]) -> {out} ({dt}[{','.join(map(str, dst))}])")
        lines += [(f"[I] [TRT] [MemUsageChange] TensorRT-managed allocation in building engine: CPU +{rng.randint(1, 50)}, "
                  f"GPU +{rng.randint(1, 50)}, now: CPU {rng.randint(1, 50)}, GPU {rng.randint(1, 50)} (MiB)"),
                  f"[I] Engine built in {rng.random() * 900:.3f} sec.",
                  f"[I] Created engine with size: {rng.random() * 200:.4f} MiB",
                  f"[I] [TRT] Loaded engine size: {rng.randint(5, 200)} MiB",
                  f"[I] Engine deserialized in {rng.random() * 0.3:.5f} sec.",
                  (f"[I] [TRT] [MemUsageChange] TensorRT-managed allocation in IExecutionContext creation: CPU +0, "
                  f"GPU +{rng.randint(1, 400)}, now: CPU 0, GPU {rng.randint(1, 400)} (MiB)"),
                  "[I] Setting persistentCacheLimit to 0 bytes.",
                  "[I] Using random values for input images",
                  "[I] Input binding for images with dimensions 1x3x640x640 is created.",
                  f"[I] Output binding for output0 with dimensions {'x'.join(map(str, layers[-1].dst))} is created.",
                  "[I] Starting inference",
                  f"[I] Warmup completed {rng.randint(20, 400)} queries over 200 ms",
                  f"[I] Timing trace has {rng.randint(300, 6000)} queries over 3.0 s",
                  "[I] ", "[I] === Trace details ===", "[I] Trace averages of 10 runs:"]
        for _ in range(rng.randint(10, 60)):
            g = rng.random() * 4 + 0.5
            lines.append(f"[I] Average on 10 runs - GPU latency: {g:.4f} ms - Host latency: {g + 0.4:.4f} ms "
                         f"(enqueue {rng.random():.4f} ms)")
        lines += ["[I] ", "[I] === Performance summary ===", f"[I] Throughput: {rng.random() * 2000 + 50:.3f} qps",
                  ("[I] Latency: min = 1.2 ms, max = 2.9 ms, mean = 1.5 ms, median = 1.4 ms, percentile(90%) = 1.7 ms, "
                  "percentile(95%) = 1.9 ms, percentile(99%) = 2.4 ms"),
                  "[I] Total Host Walltime: 3.00291 s", "[I] Total GPU Compute Time: 2.9 s",
                  "[I] Explanations of the performance metrics are printed in the verbose logs."]
        self.emit(lines)


# trtexec prints "Name: " with a trailing space when a value is empty: {blank} marks those lines
_HEADER = """[I] === Model Options ===
[I] Format: ONNX
[I] Model: {model}
[I] Output:
[I] === Build Options ===
[I] Max batch: explicit batch
[I] Memory Pools: workspace: {ws} MiB, dlaSRAM: default, dlaLocalDRAM: default, dlaGlobalDRAM: default
[I] minTiming: 1
[I] avgTiming: 8
[I] Precision: FP32+{prec}
[I] LayerPrecisions: {blank}
[I] Layer Device Types: {blank}
[I] Calibration: Dynamic
[I] Refit: Disabled
[I] Version Compatible: Disabled
[I] TensorRT runtime: full
[I] Lean DLL Path: {blank}
[I] Tempfile Controls: {{ in_memory: allow, temporary: allow }}
[I] Exclude Lean Runtime: Disabled
[I] Sparsity: Disabled
[I] Safe mode: Disabled
[I] Build DLA standalone loadable: Disabled
[I] Allow GPU fallback for DLA: Disabled
[I] DirectIO mode: Disabled
[I] Restricted mode: Disabled
[I] Skip inference: Disabled
[I] Save engine: {blank}
[I] Load engine: {blank}
[I] Profiling verbosity: 0
[I] Tactic sources: Using default tactic sources
[I] timingCacheMode: local
[I] timingCacheFile: {blank}
[I] Heuristic: Disabled
[I] Preview Features: Use default preview flags.
[I] MaxAuxStreams: -1
[I] BuilderOptimizationLevel: -1
[I] Input(s)s format: fp32:CHW
[I] Output(s)s format: fp32:CHW
[I] Input build shapes: model
[I] Input calibration shapes: model
[I] === System Options ===
[I] Device: 0
[I] DLACore: {blank}
[I] Plugins:
[I] setPluginsToSerialize:
[I] dynamicPlugins:
[I] ignoreParsedPluginLibs: 0
[I] {blank}
[I] === Inference Options ===
[I] Batch: Explicit
[I] Input inference shapes: model
[I] Iterations: 10
[I] Duration: 3s (+ 200ms warm up)
[I] Sleep time: 0ms
[I] Idle time: 0ms
[I] Inference Streams: 1
[I] ExposeDMA: Disabled
[I] Data transfers: Enabled
[I] Spin-wait: Disabled
[I] Multithreading: Disabled
[I] CUDA Graph: Disabled
[I] Separate profiling: Disabled
[I] Time Deserialize: Disabled
[I] Time Refit: Disabled
[I] NVTX verbosity: 0
[I] Persistent Cache Ratio: 0
[I] Inputs:
[I] === Reporting Options ===
[I] Verbose: Enabled
[I] Averages: 10 inferences
[I] Percentiles: 90,95,99
[I] Dump refittable layers:Disabled
[I] Dump output: Disabled
[I] Profile: Disabled
[I] Export timing to JSON file: {blank}
[I] Export output to JSON file: {blank}
[I] Export profile to JSON file: {blank}
[I] {blank}
[I] === Device Information ===
[I] Selected Device: {name}
[I] Compute Capability: {cc}
[I] SMs: {sms}
[I] Device Global Memory: {mem} MiB
[I] Shared Memory per SM: {smem} KiB
[I] Memory Bus Width: {bus} bits (ECC {ecc})
[I] Application Compute Clock Rate: {cclk} GHz
[I] Application Memory Clock Rate: {mclk} GHz
[I] {blank}
[I] Note: The application clock rates do not reflect the actual clock rates that the GPU is currently running at.
[I] {blank}
[I] TensorRT version: {ver}
[I] Loading standard plugins"""

_ONNX_HEADER = """[I] Start parsing network model.
[I] [TRT] ----------------------------------------------------------------
[I] [TRT] Input filename:   {model}
[I] [TRT] ONNX IR version:  0.0.8
[I] [TRT] Opset version:    17
[I] [TRT] Producer name:    pytorch
[I] [TRT] Producer version: 2.1.0
[I] [TRT] Domain:           {blank}
[I] [TRT] Model version:    0
[I] [TRT] Doc string:       {blank}
[I] [TRT] ----------------------------------------------------------------
[V] [TRT] Plugin creator already registered - ::BatchedNMSDynamic_TRT version 1
[V] [TRT] Adding network input: images with dtype: float32, dimensions: (1, 3, 640, 640)
[V] [TRT] Registering tensor: images for ONNX tensor: images"""


# -- the API --------------------------------------------------------------------------------------------------------

def write_log(sink: Callable[[bytes], object], size_bytes: int, seed: int = 1,
              plants: Iterable[tuple[float, str]] | None = None, *, layers: int = 400, model: str = "model.onnx",
              fail_rate: float = 0.1) -> Manifest:
    """Write a log of about ``size_bytes`` to ``sink`` (called with ~1 MiB chunks); return its manifest.

    ``plants``: (fraction of ``size_bytes``, kind) pairs, kinds from PLANTS; None: DEFAULT_PLANTS.
    ``layers``: ONNX nodes in the model, about; ``fail_rate``: the share of runs that fail."""
    plants = DEFAULT_PLANTS if plants is None else tuple(plants)
    for frac, kind in plants:
        if kind not in PLANTS:
            raise ValueError(f"unknown plant kind {kind!r} (known: {', '.join(PLANTS)})")
        if not 0 <= frac <= 1:
            raise ValueError(f"plant position {frac} is not a fraction between 0 and 1")
    return _Writer(sink, size_bytes, seed, plants, layers, model, fail_rate).write()


def generate(size_bytes: int, seed: int = 1, plants: Iterable[tuple[float, str]] | None = None, **options: Any) -> bytes:
    """The log as bytes (for small logs in tests); options as for write_log."""
    chunks: list[bytes] = []
    write_log(chunks.append, size_bytes, seed, plants, **options)
    return b"".join(chunks)


def _plant_arg(text: str) -> tuple[float, str]:
    frac, sep, kind = text.partition(":")
    try:
        value = float(frac)
    except ValueError:
        value = -1.0
    if not sep or kind not in PLANTS or not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r}: want FRACTION:KIND, e.g. 0.5:opt10 (kinds: --list-kinds)")
    return value, kind


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", default="10M", type=parse_size, help="about this many bytes: 10M, 100M, 1G (default 10M)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--layers", type=int, default=400, help="ONNX nodes in the model, about (default 400)")
    ap.add_argument("--model", default="model.onnx", help="ONNX file name the runs name (default model.onnx)")
    ap.add_argument("--fail-rate", type=float, default=0.1, help="share of runs that fail in timing (default 0.1)")
    ap.add_argument("--plant", action="append", default=[], type=_plant_arg, metavar="FRAC:KIND",
                    help="plant KIND at FRAC (0..1) of the size; repeatable; added to the default plants")
    ap.add_argument("--no-default-plants", action="store_true", help="plant only what --plant asks for")
    ap.add_argument("--list-kinds", action="store_true", help="list the plant kinds and exit")
    ap.add_argument("--manifest", metavar="FILE", help="write the JSON manifest of the error blocks here")
    ap.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    args = ap.parse_args(argv)
    if args.list_kinds:
        for kind, lines in PLANTS.items():
            print(f"{kind:<11} {lines[0]}")
        return 0
    plants = ([] if args.no_default_plants else list(DEFAULT_PLANTS)) + args.plant
    options = {"layers": args.layers, "model": args.model, "fail_rate": args.fail_rate}
    if args.output == "-":
        manifest = write_log(sys.stdout.buffer.write, args.size, args.seed, plants, **options)
        sys.stdout.buffer.flush()
    else:
        with open(args.output, "wb") as out:
            manifest = write_log(out.write, args.size, args.seed, plants, **options)
    if args.manifest:
        with open(args.manifest, "w", encoding="utf-8") as f:
            json.dump(manifest.to_json(), f, indent=1)
    print(f"wrote {manifest.size} bytes, {manifest.lines} lines, {manifest.runs} trtexec runs, "
          f"{len(manifest.plants)} error blocks", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
