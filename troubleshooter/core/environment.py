"""Facts about the user's setup read from the log: versions, GPU, platform, precision flags.

Each fact has patterns (with prefilter literals, like KB signatures). The first line that gives a
fact wins, except where a more authoritative form appears later (``TensorRT version: 8.6.1``
beats the ``[TensorRT v8601]`` banner). Unknown stays None: nothing is guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property

from troubleshooter.core.versions import (
    ALL_RELEASES,
    before_new_python_logger,
    normalise,
    parser_message_releases,
    possible_releases,
)
from troubleshooter.models import TENSORRT_LOGGER_ORIGINS, Environment, Origin
from troubleshooter.re_programs import re_compile

Transform = Callable[["re.Match[str]"], str | None]


def _banner_version(m: re.Match[str]) -> str | None:
    """``[TensorRT v8601]`` -> 8.6.1, ``v100300`` -> 10.3.0 (the one version parser: `versions`)."""
    return normalise(m.group("v"))


def normalise_tuple(text: str) -> str | None:
    """"8, 4, 3" (a printed tuple) or "8.4.3" -> "8.4.3"."""
    parts = [p.strip() for p in re.split(r"[.,]", text) if p.strip()]
    return ".".join(parts[:3]) if parts else None


def _short(m: re.Match[str]) -> str | None:
    parts = m.group("v").split(".")
    return ".".join(parts[:3])


def _group(name: str = "v") -> Transform:
    return lambda m: m.group(name).strip() or None


@dataclass(frozen=True)
class FactPattern:
    field: str
    literals: tuple[str, ...]
    source: str
    transform: Transform
    priority: int = 0
    """Higher beats lower; equal priority: the first line wins."""
    flags: int = 0

    @cached_property
    def regex(self) -> re.Pattern[str]:
        """Compiled on the first line that holds one of the literals: most logs name few of the facts, and compiling
        every pattern at import is start-up time spent on every run."""
        return re_compile(self.source, self.flags)


def _p(fieldname: str, literals: tuple[str, ...], regex: str, transform: Transform | None = None,
       priority: int = 0, flags: int = 0) -> FactPattern:
    return FactPattern(fieldname, literals, regex, transform or _group(), priority, flags)


_V = r"(?P<v>\d+\.\d+(?:\.\d+){0,2})"
_NOT_A_FLAG_PATH = r"(?:^|(?<=[\s\"'=(,;:]))(?<!-[IL]\")(?<!-[IL]')(?!-[IL]|-isystem)[^\s\"']*?"
"""The start of the whitespace- or quote-delimited piece a release is read from, when that piece is no compiler -I, -L
or -isystem folder: a Makefile's default folder may not exist here (the compiler then takes the system's headers)."""

_NOT_WANTED = r"(?<!Could not load dynamic library ')(?<!Could not dlopen library ')(?<!dlerror: )"
_NOT_MISSING = r"(?!'; dlerror)"
"""TensorFlow's loader asking for a library it could not load names the release TensorFlow was built for, not the one
installed here (libnvinfer.so.7 beside an installed TensorRT 8): no release is read from it."""

FACTS: list[FactPattern] = [
    _p("tensorrt_version", ("TensorRT version:",), r"TensorRT version:\s*" + _V, _short, 3),
    _p("tensorrt_version", ("TensorRT v",), r"\[?TensorRT v(?P<v>\d{4,6})\b\]?", _banner_version, 2),
    _p("tensorrt_version", ("expecting library version",), r"expecting library version " + _V, _short, 2),
    # TensorRT 5-6: "The engine plan file is incompatible with this version of TensorRT, expecting 5.0.6.3got ..."
    _p("tensorrt_version", ("incompatible with this version of TensorRT, expecting",),
       r"incompatible with this version of TensorRT, expecting " + _V, _short, 2),
    # jetson-containers' package tags: "tensorrt:8.6/test.sh" (not NGC image tags, which are YY.MM: tensorrt:23.08)
    _p("tensorrt_version", ("tensorrt:",), r"\btensorrt:(?P<v>(?:[5-9]|1[01])\.\d+(?:\.\d+)?)\b(?![.-]py)", _short, 1),
    _p("tensorrt_version", ("tensorrt.__version__", "trt.__version__", "tensorrt version", "TensorRT Version",
                            "TensorRT version", "tensorrt=="),
       # not a requirement ("Inspector needs TensorRT version 8.2 and after": the installed one is older); a Python
       # prompt's answer joins its question ("trt.__version__" over "'8.2.1.8'": `matcher._VERSION_QUERY`)
       r"(?<!needs )(?<!requires )(?:(?<![\w.])(?:tensorrt|trt)\.__version__\W*|tensorrt version\W*|TensorRT [Vv]ersion\W*"
       r"|tensorrt==)" + _V
       + r"(?! (?:and|or) (?:after|later|above|newer)\b)(?!\+)", _short, 2),
    # pip's own lines: "Requirement already satisfied: tensorrt-cu12==10.4.0", "Collecting tensorrt_cu12_libs==10.4.0"
    _p("tensorrt_version", ("tensorrt-cu", "tensorrt_cu", "tensorrt==", "tensorrt_libs==", "tensorrt_bindings==",
                            "tensorrt-libs==", "tensorrt-bindings=="),
       r"\btensorrt(?:[-_]cu\d+)?(?:[-_](?:bindings|libs))?==" + _V, _short, 2),
    # pip finding it installed: "Requirement already satisfied: tensorrt in /usr/local/lib/python3.8/dist-packages
    # (8.5.2.2)" (what a later "Downloading tensorrt-8.6.1.post1.tar.gz" then fails to build is not installed)
    _p("tensorrt_version", ("Requirement already satisfied: tensorrt",),
       r"Requirement already satisfied: tensorrt(?:[-_]cu\d+)? in \S+ \((?P<v>\d+\.\d+\.\d+(?:\.\d+)?)\)", _short, 2),
    # pip's resolver naming what is installed: "... requires tensorrt<10.8.0,>=10.7.0.post1, but you have tensorrt
    # 10.8.0.43 which is incompatible."
    _p("tensorrt_version", ("but you have tensorrt",),
       r"but you have tensorrt(?:[-_]cu\d+)? (?P<v>\d+\.\d+\.\d+(?:\.\d+)?)(?:\.post\d+)? which is incompatible", _short, 2),
    # an app naming the running TensorRT against an engine's: "TensorRT model exported with a different version than
    # 10.11.0.33" (Ultralytics-style checks)
    _p("tensorrt_version", ("different version than",),
       r"(?:exported|built|serialized|created) with a different (?:TensorRT )?version than (?:TensorRT )?" + _V, _short, 2),
    # apt: a pinned install ("tensorrt=10.13.3.9-1+cuda12.9") or a dependency ("libnvinfer6 (= 6.0.1-1+cuda10.1)")
    _p("tensorrt_version", ("+cuda",),
       r"\b(?:tensorrt|libnvinfer\d*|libnvinfer-(?:dev|plugin\d*)|python3-libnvinfer(?:-dev)?)\s*(?:=|\(= ?)"
       r"(?P<v>\d+\.\d+\.\d+(?:\.\d+)?)-\d+\+cuda", _short, 1),
    # NVIDIA's local repository packages: "nv-tensorrt-repo-ubuntu1804-cuda10.1-trt6.0.1.5-ga-20190913_1-1_amd64.deb",
    # "nv-tensorrt-local-repo-cross-aarch64-l4t-10.0.1-cuda-12.4_1.0-1_all.deb"
    _p("tensorrt_version", ("nv-tensorrt-",),
       r"nv-tensorrt-(?:local-)?repo-[\w.-]*?(?:trt|-)(?P<v>\d+\.\d+\.\d+(?:\.\d+)?)-(?:ga|cuda)\b", _short, 1),
    # an install folder or a build path: "TensorRT\v8.4.2.4\include", ".../TensorRT/helpers/rel-7.1/..."
    _p("tensorrt_version", ("TensorRT\\v", "TensorRT/v", "TensorRT\\\\v"), r"TensorRT(?:[\\/]|\\\\)v" + _V, _short, 1),
    # Paddle Inference: "The Paddle lib links the 7216 version TensorRT" (major, minor, patch and build, a digit each)
    _p("tensorrt_version", ("version TensorRT",), r"links the (?P<v>[5-9]\d{3}) version TensorRT",
       lambda m: ".".join(m.group("v")[:3]), 1),
    _p("tensorrt_version", ("rel-",), r"TensorRT/(?:[\w.-]+/)*?rel-(?P<v>\d+\.\d+)/", None, 1),
    # a folder named after the release in a source path: "/share/trt/TensorRT7.2/parsers/onnx/builtin_op_importers.cpp";
    # not a compiler's -I/-L/-isystem folder ("-I/usr/local/TensorRT-7.1.3.4/include" in a Makefile): a default that
    # may not exist on this machine (the compiler skips it silently and takes the system's headers)
    _p("tensorrt_version", ("/TensorRT", "\\TensorRT"),
       _NOT_A_FLAG_PATH + r"[\\/]TensorRT-?(?P<v>(?:[5-9]|1[01])\.\d+(?:\.\d+){0,2})[\\/]", _short, 1),
    # a model or engine named after the release that built it, followed by what it was built for or the file's type
    # ("yolov5m_trt_7.2.1_cuda_11", an engine cache's "model.3162014977.trt-11.0.0.gpu-...engine", enhancr's
    # "..._1080x1920_trt_8.6.1.engine", NVIDIA demo/Diffusion's "engine/vae.trt10.7.0.plan"): weak, a name may outlive
    # its release
    _p("tensorrt_version", ("trt_", "trt-", ".trt", "_trt", "-trt"),
       r"(?:^|[\s_./\\-])trt[_-]?(?P<v>(?:[5-9]|1\d)\.\d+(?:\.\d+){0,2})"
       r"(?=[_.-](?:cuda|gpu|cu\d|sm\d|engine|plan|trt|onnx|torch|fp16|fp32|int8|bf16)(?![a-z])|[_.-]?(?:cuda|gpu)\d|\s|$)",
       _short, 0),
    # ... or with the release as TensorRT's own integer (NV_TENSORRT_VERSION): vs-mlrt's engine and timing caches,
    # "rife_v4.12_ensemble.onnx.1280x736_fp16_no-tf32_trt-8502_cudnn_I-fp16_O-fp16_NVIDIA-GeForce-RTX-3070-Ti_....engine"
    _p("tensorrt_version", ("trt-", "trt_"), r"(?:^|[\s_./\\-])trt[_-](?P<v>[5-9]\d{3}|1\d{5})(?=[_.-][A-Za-z])",
       _banner_version, 0),
    # a build's own setting: a Dockerfile's "ENV TRT_VERSION 8.2.5.1", "ARG TENSORRT_VERSION=10.3.0", CMake's -DTRT_VERSION=
    _p("tensorrt_version", ("TRT_VERSION", "TENSORRT_VERSION"),
       r"\b(?:TRT|TENSORRT)_VERSION[\s=:]+[\"']?(?P<v>(?:[5-9]|1[01])\.\d+(?:\.\d+){0,2})\b", _short, 1),
    # NVIDIA's own build paths in TensorRT 5-7 messages: ".../DIT/release/5.0/parsers/...", "C:\\p4sw\\...\\DIT\\release\\5.1\\"
    _p("tensorrt_version", ("DIT/release/", "DIT\\release\\"), r"DIT[\\/]release[\\/](?P<v>\d+\.\d+)[\\/]", None, 1),
    _p("tensorrt_version", ("onnx-tensorrt-",), r"onnx-tensorrt-(?P<v>\d+\.\d+(?:\.\d+)?)[\\/]", None, 1),
    _p("tensorrt_version", ("tensorrt_bindings", "tensorrt-cu", "tensorrt_libs", "tensorrt-bindings", "tensorrt_cu"),
       r"tensorrt[_-](?:cu\d+[_-])?(?:bindings|libs)[-=_](?P<v>\d+\.\d+(?:\.\d+){0,2})", _short, 2),
    # `pip list` ("tensorrt        10.3.0") and `conda list` ("tensorrt   8.6.1.6   py310h...   conda-forge", a build
    # and a channel after it); "Name: tensorrt" + "Version: 10.3.0" (`pip show`) is not joined
    _p("tensorrt_version", ("tensorrt ", "tensorrt-cu"),
       r"^tensorrt(?:-cu\d+)?\s+(?P<v>\d+\.\d+\.\d+(?:\.\d+)?)(?:\s+\S+){0,2}\s*$", _short, 2),
    # jetson_release / jtop: " TensorRT: 5.0.6.3"; dpkg -l: "ii  libnvinfer8  8.2.1-1+cuda10.2  arm64 ...", any of the
    # release's packages ("ii  libnvinfer-dispatch-dev  10.3.0.26-1+cuda12.5  arm64")
    _p("tensorrt_version", ("TensorRT:",), r"^\W{0,4}TensorRT:\s*v?" + _V + r"\b", _short, 2),
    _p("tensorrt_version", ("ii ",), r"^ii\s+(?:tensorrt(?:-[a-z]+)?|libnv(?:infer|onnxparsers?|parsers)[\w-]*"
       r"|python3-libnvinfer[\w-]*|nvinfer-runtime-trt-repo\S*)(?::\w+)?"
       r"\s+(?P<v>\d+\.\d+\.\d+(?:\.\d+)?)", _short, 2),
    # apt asked for a release it does not have: "E: Version '8.5.2-1+cuda11.4' for 'libnvinfer8' was not found" (the
    # release this install is for)
    _p("tensorrt_version", ("E: Version '",), r"^E: Version '(?P<v>\d+\.\d+\.\d+)(?:\.\d+)?-[^']*' for "
       r"'(?:libnv(?:infer|onnxparsers?|parsers)|tensorrt|python3-libnvinfer)", _short, 1),
    # jetson-inference's engine cache names carry NV_TENSORRT_VERSION: "ssd_mobilenet_v2_coco.uff.1.1.8201.GPU.FP16.engine"
    _p("tensorrt_version", (".GPU.", ".DLA"), r"\.\d+\.\d+\.(?P<v>[5-9]\d{3}|1\d{5})\.(?:GPU|DLA\d?)\.(?:FP16|FP32|INT8)"
       r"\.engine\b", _banner_version, 1),
    _p("tensorrt_version", ("libnvinfer",), _NOT_WANTED + r"libnvinfer(?:_[a-z_]+)?\.so\." + _V + _NOT_MISSING, _short, 1),
    _p("tensorrt_version", ("TensorRT-", "TensorRT ", "tensorrt-"),
       _NOT_A_FLAG_PATH + r"(?<![\w-])(?:TensorRT[- ]|tensorrt-)(?P<v>(?:[2-9]|1[0-9])\.\d+\.\d+(?:\.\d+)?)(?:b\d+|rc\d*)?\b",
       _short, 1),
    # a Nix store path: the derivation is named for the release ("/nix/store/<hash>-tensorrt-10.3.0.26.drv")
    _p("tensorrt_version", ("-tensorrt-",), r"/nix/store/[0-9a-z]{32}-tensorrt-(?P<v>\d+\.\d+\.\d+(?:\.\d+)?)\b", _short, 1),
    # TF-TRT: "Loaded TensorRT 8.4.3 and linked TensorFlow against TensorRT 8.4.0" (the loaded one runs)
    _p("tensorrt_version", ("Loaded TensorRT ", "loaded TensorRT "), r"[Ll]oaded TensorRT (?:version )?" + _V, _short, 2),
    _p("tensorrt_version", ("Linked TensorRT version", "linked TensorFlow against TensorRT"),
       r"(?:Linked TensorRT version:? \(?|against TensorRT )(?P<v>\d+(?:[.,] ?\d+){1,2})",
       lambda m: normalise_tuple(m.group("v")), 1),
    # an engine file named after the release that built it: "..._10.12.0.36.trt", "clip.trt10.9.0.34.plan"
    _p("tensorrt_version", (".trt", ".engine", ".plan"),
       r"(?:[_\-.]|\btrt)(?P<v>(?:[5-9]|1\d)\.\d+\.\d+\.\d+)\.(?:trt|engine|plan)\b", _short, 0),
    # ... or with three parts before ".trt" (RangeNet's "model_10.6.0.trt"); not ".engine", which a model's own release
    # names as often ("yolov5s_6.1.0.engine")
    _p("tensorrt_version", (".trt",), r"[_-](?P<v>(?:[7-9]|1[01])\.\d+\.\d+)\.trt\b", _short, 0),
    # only the major release, from a library's file name: libnvinfer.so.10, nvinfer_10.dll, nvonnxparser_10.dll
    _p("tensorrt_version", ("libnvinfer", "libnvonnxparser"),
       _NOT_WANTED + r"lib(?:nvinfer|nvonnxparser)(?:_plugin|_builder_resource|_lean|_dispatch)?\.so\.(?P<v>\d{1,2})\b(?!\.\d)"
       + _NOT_MISSING, None, 0),
    _p("tensorrt_version", ("nvinfer_", "nvonnxparser_"),
       r"\b(?:nvinfer|nvonnxparser)(?:_plugin|_builder_resource|_lean|_dispatch)?_(?P<v>\d{1,2})\.dll\b", None, 0),
    # the stacks' own versions (Environment.stack_versions)
    _p("stack:tensorrt-llm", ("TensorRT-LLM version", "tensorrt-llm", "tensorrt_llm"),
       r"(?:TensorRT-LLM version:?\s*|tensorrt[-_]llm[-=]=?)(?P<v>\d+\.\d+\.\d+(?:\.?(?:dev|rc|post)\d*)?)", None, 1),
    _p("stack:onnxruntime", ("onnxruntime", "ORT version", "ONNX Runtime version"),
       r"(?:onnxruntime(?:[-_]gpu)?(?:==|-|\s+)|ORT version:?\s*|ONNX Runtime version:?\s*)(?P<v>1\.\d+\.\d+)\b", None, 1),
    _p("stack:torch-tensorrt", ("torch_tensorrt", "torch-tensorrt", "Torch-TensorRT"),
       r"(?:torch[_-]tensorrt(?:==|-|\s+)|Torch-TensorRT (?:[Vv]ersion:? )?v?)(?P<v>\d+\.\d+\.\d+)\b", None, 1),
    _p("stack:deepstream", ("DeepStream", "deepstream-"),
       r"(?:DeepStream(?:SDK| SDK)? v?|deepstream-)(?P<v>\d\.\d(?:\.\d)?)\b", None, 1),
    _p("stack:triton", ("tritonserver:", "Triton Server version", "server_version"),
       r"(?:tritonserver:(?P<tag>\d\d\.\d\d)|(?:Triton Server version|server_version)\W+(?P<v>\d+\.\d+\.\d+))",
       lambda m: m.group("v") or m.group("tag"), 1),
    _p("cuda_version", ("CUDA Version", "CUDA version", "CUDA runtime", "CUDA Runtime Version"),
       r"CUDA (?:[Rr]untime )?[Vv]ersion:?\s*" + _V, _short, 2),
    _p("cuda_version", ("Cuda compilation tools",), r"Cuda compilation tools, release (?P<v>\d+\.\d+)", None, 3),
    _p("cuda_version", ("cuda-", "CUDA-"), r"(?:/cuda-|CUDA-|cuda-)(?P<v>\d{2}\.\d)\b", None, 1),
    _p("driver_version", ("Driver Version", "driver version"), r"[Dd]river [Vv]ersion:?\s*(?P<v>\d{3,4}(?:\.\d+){1,2})"),
    _p("gpu", ("Selected Device:",), r"Selected Device:\s*(?P<v>.+?)\s*$", None, 2),
    _p("gpu", ("Device: NVIDIA", "GPU: NVIDIA", "device: NVIDIA"), r"(?:GPU|[Dd]evice): (?P<v>NVIDIA [\w .-]+?)\s*(?:[,(]|$)"),
    _p("compute_capability", ("Compute Capability:", "compute capability"),
       r"[Cc]ompute [Cc]apability:?\s*(?P<v>\d+\.\d+)", None, 2),
    _p("jetpack", ("JetPack", "Jetpack", "jetpack"), r"[Jj]et[Pp]ack[ -]?(?P<v>\d+\.\d+(?:\.\d+)?)"),
    _p("onnx_opset", ("Opset version:",), r"Opset version:\s*(?P<v>\d+)"),
    _p("onnx_ir_version", ("ONNX IR version:",), r"ONNX IR version:\s*(?P<v>[\d.]+)"),
    _p("onnx_producer", ("Producer name:",), r"Producer name:\s*(?P<v>\S+)"),
]

_PIP_SHOW_NAME = re_compile(r"Name: tensorrt(?:[-_]cu\d+)?\s*$")
_PIP_SHOW_VERSION = re_compile(r"Version: (?P<v>\d+\.\d+(?:\.\d+){0,2})\s*$")

_DATE = re_compile(r"\[(?P<m>[01]\d)/(?P<d>[0-3]\d)/(?P<y>20[1-4]\d)-\d\d:\d\d:\d\d\]"
                   r"|(?<!\d)(?P<y2>20[1-4]\d)-(?P<m2>[01]\d)-(?P<d2>[0-3]\d)[T ]\d\d:\d\d:\d\d")
DATE_LINES = 2000
"""A date is looked for on the candidate lines among the log's first lines only (the same lines however the log
is read: whole or in parallel chunks)."""
DATE_BYTES = 200
"""Where in a line a timestamp may be: its first bytes."""

# Jetson: its boards and software; its own camera and video-conversion GStreamer elements (a dGPU has none of them)
_JETSON = re_compile(r"\b(?:Orin|Xavier|Thor)\b|(?i:\b(?:jetson|tegra|l4t|jetpack)(?:\b|_))|Unknown embedded device detected"
                     r"|\bnv(?:argus)?camerasrc\b|\bnvvidconv\b"
                     # nvcc building for an integrated GPU's architecture (Nano 5.3, TX2 6.2, Xavier 7.2, Orin 8.7); NvMedia
                     # (only when the line builds for no other architecture: a multi-arch desktop build lists several)
                     # (not ptxas naming the least architecture a feature needs: "requires .target sm_53 or higher")
                     r"|^(?!.*\b(?:compute|sm)_(?!(?:53|62|72|87)\b)\d{2,3}\b)(?!.*\brequires \.target )"
                     r".*\b(?:compute|sm)_(?:53|62|72|87)\b"
                     r"|\bnvmedia\w*")
_WSL = re_compile(r"microsoft-standard-WSL|\bWSL2?\b|/usr/lib/wsl/")
# Windows: a drive path, any DLL or program file, the Windows loader's own call, PowerShell's prompt
# (not Python's ctypes.cdll.LoadLibrary, a method every OS has: "dll = ct.cdll.LoadLibrary(str(binary_path))")
_WINDOWS = re_compile(r"\b[A-Z]:\\|(?<![\w\\])[a-z]:\\(?=[\w$])|\.exe\b|PS [A-Z]:\\|(?<!\.)\bLoadLibrary(?:Ex)?[AW]?\b"
                      # a drive written with forward slashes ("C:/Users/tmp.onnx"), a user folder whose colon a
                      # retyped paste lost ("C\Users\me\...")
                      r"|(?<![\w/])[A-Z]:/(?=\w)|(?<![\w\\])[A-Z]\\Users\\"
                      # TensorRT's source brackets with MSVC's namespace-qualified function names
                      # ("runtime.cpp::nvinfer1::Runtime::parsePlan::"; GCC builds print "runtime.cpp::parsePlan::"),
                      # MSVC's name for an anonymous namespace
                      r"|\.(?:cpp|cu|h|hpp)::nvinfer1::|`anonymous-namespace'"
                      # a crash or loader NTSTATUS, as an IDE or runner prints the exit code ("exit code -1073741819
                      # (0xC0000005)", "exited with code 3221225781")
                      r"|\bexit(?:ed with)? code:? (?:-10737\d{5}|32212\d{5})\b"
                      r"|\(0x[Cc]0000(?:005|135|374|409|0[Ff][Dd]|01[Dd])\)"
                      # PowerShell refusing a command it does not know
                      r"|is not recognized as the name of a cmdlet")
_WINDOWS_DLL = re_compile(r"\w\.dll\b")
"""A DLL's name alone: Windows, unless the log shows a Linux path too (a hint that lists each OS's library: "vcomp140.dll
or libgomp-1.dll for Windows, libgomp.so for UNIX-like OSes", DLR on a Jetson)."""
# (root's home, Nix's store, and a GNU target triple in a library or extension file name: "x86_64-linux-gnu.so")
_LINUX = re_compile(r"(?:^|\s|/)(?:usr|opt|home|workspace|root|nix/store)/[\w.+/-]*|\.so\.\d|-linux-gnu\b")
# 64-bit Arm: with TensorRT, almost always a Jetson; an Arm server (SBSA: Grace, GH200) says so elsewhere
_ARM = re_compile(r"\baarch64\b|\barm64\b")
_ARM_SERVER = re_compile(r"(?i:\bsbsa\b)|\bGrace\b|\bG[HB]200\b|\bGB10\b")
# x86 (a desktop or data-center machine, not a Jetson): the architecture, a discrete GPU's name, nvidia-smi's table
_X86 = re_compile(r"\bx86_64\b|\bamd64\b|\bGeForce\b|\b(?:RTX|GTX) ?\d|\bTesla [A-Z]?\d|\bQuadro\b|NVIDIA-SMI \d"
                  r"|\bDriver Version: \d|\b[AHL]\d{2,3}(?:-\w+)? (?:PCIe|SXM)|\bH100\b|\bA100\b")
# macOS: its loader's words and files (dyld, .dylib, @rpath), a Darwin target, a user folder under /Users. No platform
# of the KB's is macOS: a log that shows it is read as of an unknown platform (each step says whom it is for), never as a
# Jetson's for an "arm64" in its paths (an Apple Silicon Mac's "darwin/arm64")
_MACOS = re_compile(r"\bdarwin\b|\bDarwin\b|\.dylib\b|@rpath/|\bLibrary not loaded: |(?:^|[\s'\"(=:])/Users/[\w.-]+/|\bmacOS\b"
                    r"|\.app/Contents/")
# The runtime of a program outside Python and C++, from its own lines (first-sight batch 34: ONNX Runtime from Node and
# Electron, the browser, Android, .NET and Rust got Python's steps): Node's and the browser's frames and messages, the
# JVM's and Android's, .NET's, Rust's panic and cargo. Read on any line, not only error lines: a Node stack's frames
# carry no level
_RUNTIMES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("javascript", re_compile(r"\(node:\d+\) |\bnode:internal/|\bonnxruntime-(?:node|web)\b"
                              r"|\bort\.(?:webgpu|wasm|all)(?:\.min)?\.m?js\b"
                              r"|^\s*at (?:[^\n]{1,200} \()?(?:file:///|node:)?[^\s()]{1,300}\.(?:js|mjs|cjs):\d+:\d+\)?\s*$"
                              r"|^Uncaught (?:\(in promise\) )?(?:[A-Z]\w*)?Error\b")),
    ("java", re_compile(r"^\s*at (?:ai\.onnxruntime|java|javax|android|com\.android|org\.bytedeco|dalvik)\.[\w.$<>]+\("
                        r"|\bjava\.lang\.\w+(?:Error|Exception)\b|\bai\.onnxruntime\.\w+|\(tried Java_\w+")),
    ("csharp", re_compile(r"\bSystem\.(?:[A-Z]\w*\.)*[A-Z]\w*Exception\b|\bMicrosoft\.ML\.OnnxRuntime\b"
                          r"|^\s*at [\w.`<>]+\([^)\n]*\) in [^\n]+\.cs:line \d+")),
    ("rust", re_compile(r"\bthread '[^'\n]{1,80}' panicked at\b|\bRUST_BACKTRACE\b|^\s+Compiling [\w-]+ v\d+\.\d+"
                        r"|^error: process didn't exit successfully: |\bort::[a-z_]+::|\bort-sys\b")),
)
RUNTIME_LITERALS = ("(node:", "node:internal/", "onnxruntime-node", "onnxruntime-web", "ort.webgpu", "ort.wasm", "ort.all",
                    ".js:", ".mjs:", ".cjs:",
                    "Uncaught", "at ai.onnxruntime", "at java", "at android", "at com.android", "at org.bytedeco",
                    "at dalvik", "java.lang.", "ai.onnxruntime.", "(tried Java_", "System.", "Microsoft.ML.OnnxRuntime",
                    ".cs:line ", "panicked at", "RUST_BACKTRACE", "Compiling ", "error: process didn't exit",
                    "ort::", "ort-sys")
"""Literals of which every match of `_RUNTIMES` holds one."""
_RUNTIME_GATE = re_compile("|".join(re.escape(lit) for lit in RUNTIME_LITERALS))
"""The same as one search: a gated line is looked at once, not once per literal."""
_FRAME = re_compile(r'^\s*File "(?P<path>[^"\n]{1,400})", line (?P<line>\d{1,7})')
"""A Python traceback's frame: the file and line of one call."""
FRAMES_KEPT = 2000
"""Frames kept per log (the first ones): enough for the traceback of its first errors."""
_EMBEDDED_PYTHON = re_compile(r"(?P<folder>[A-Za-z]:(?:\\[^\"'\n:*?<>|\\]{1,100}){0,8}?\\python_embeded)\\"
                              r"|(?P<root>[A-Za-z]:(?:\\[^\"'\n:*?<>|\\]{1,100}){0,8}?\\ComfyUI_windows_portable)\\")
"""The interpreter a portable Windows app ships (ComfyUI portable's python_embeded\\python.exe, at the root of its
ComfyUI_windows_portable folder): packages go there, not
to the Python on PATH (first-sight batch 26's judges: five ONNX Runtime logs told to run a bare `python -m pip`)."""
_TENSORRT_ORIGINS: frozenset[Origin] = TENSORRT_LOGGER_ORIGINS | {"torch-tensorrt"}
"""The origins of lines TensorRT's logger printed, its own or through Torch-TensorRT's (`logs.parse_line`)."""
# A hosted notebook: Colab's working folder /content (its Drive at /content/drive), Kaggle's /kaggle/working and
# /kaggle/input, or the notebook's own modules. Only a path that starts at the root ("/content/x" after a space,
# a quote or a colon), not a web app's ".../static/content/..." folder. Both run on x86 machines.
_HOSTED = re_compile(r"(?P<colab>(?:^|[\s\"'(=:,\[])/content/(?=[\w.-])|\bgoogle\.colab\b"
                     r"|/usr/local/lib/python3\.\d+/dist-packages/google/colab\b)"
                     r"|(?P<kaggle>(?:^|[\s\"'(=:,\[])/kaggle/(?:working|input|temp|lib|src)\b)")
HOSTED_LITERALS = ("/content/", "google.colab", "google/colab", "/kaggle/")
PIP_SHOW_LITERALS = ("Name: tensorrt", "Version: ")
PLATFORM_LITERALS = ("Orin", "Xavier", "Jetson", "Tegra", "L4T", "JetPack", "Jetpack", "Thor", "embedded device",
                     "camerasrc", "nvvidconv", "compute_53", "compute_62", "compute_72", "compute_87", "sm_53", "sm_62",
                     "sm_72", "sm_87", "nvmedia", "::nvinfer1::", "anonymous-namespace",
                     "jetson", "tegra", "l4t", "jetpack", "JETSON", "TEGRA",
                     "WSL", "/usr/lib/wsl", ":\\", "\\Users\\", ".dll", ".exe", "LoadLibrary",
                     "exit code -10737", "exit code 32212", "exit code: -10737", "exit code: 32212",
                     "exited with code -10737", "exited with code 32212", "(0xC0000", "(0xc0000",
                     "is not recognized as the name of a cmdlet",
                     # a drive with a forward slash: each letter's own literal (":/" alone would be a timestamp's
                     # characters, which stops the matcher from setting trtexec's timestamps aside)
                     *(f"{letter}:/" for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
                     "/usr/", "/opt/", "/home/", "/workspace/", "/root/", "/nix/store/", "-linux-gnu",
                     ".so.",
                     "x86_64", "amd64", "GeForce", "RTX", "GTX", "Tesla ", "Quadro", "NVIDIA-SMI", "Driver Version: ", "PCIe",
                     "SXM", "H100", "A100",
                     "aarch64", "arm64", "sbsa", "SBSA", "Grace", "GH200", "GB200", "GB10",
                     "darwin", "Darwin", ".dylib", "@rpath/", "Library not loaded: ", "/Users/", "macOS", ".app/Contents/")

_CMDLINE = re_compile(r"&&&& RUNNING .*?# (?P<cmd>.*)$|(?P<cmd2>(?:\S*/)?(?:trtexec|polygraphy (?:run|convert)) .*)$")
_PRECISION_LINE = re_compile(r"\bPrecision: (?P<p>[A-Z0-9+]+)|^Flags\s+\|\s+\[(?P<flags>[A-Z0-9_, ]*)\]")
_FLAG_MAP = {"--int8": "int8", "--fp16": "fp16", "--bf16": "bf16", "--fp8": "fp8", "--int4": "int4",
             "--best": "best", "--stronglyTyped": "strongly-typed", "--strongly-typed": "strongly-typed"}
_PY_FLAGS = re_compile(r"BuilderFlag\.(?P<f>INT8|FP16|BF16|FP8|INT4)|\b(?P<g>int8|fp16)_mode\s*=\s*True|"
                       r"\b(?P<h>int8|fp16|bf16)=True|enabled_precisions\W+\{?(?P<ep>[^}]*)")
PRECISION_LITERALS = ("&&&& RUNNING", "trtexec ", "polygraphy run", "polygraphy convert", "Precision: ", "Flags ",
                      "BuilderFlag.", "_mode", "=True", "enabled_precisions")

_SUCCESS = re_compile(r"&&&& PASSED|Engine built in|Engine generation completed in|Finished engine building|"
                      r"Saved engine to|Serialized engine|Engine build succeeded|Building engine finished|"
                      r"\[I\] PASSED \||"
                      # a ROS workspace's package built (colcon, catkin tools): a CMake warning before it was no failure
                      r"^Finished\s+<<< \S+ \[|"
                      # a test runner's summary with no test failed (DeepStream's run-deepstream-tests, ctest): an
                      # error line of one test that recovered was no failure of the run
                      r"^Tests failed:\s+0\s*$|\b100% tests passed, 0 tests failed out of \d+")
_FAILURE = re_compile(r"&&&& FAILED|Engine could not be created|Building engine failed|engine != nullptr|"
                      r"Failed to create engine|Invalid Engine|\[I\] FAILED \||^Failed\s+<<< \S+|"
                      r"^Tests failed:\s+[1-9]\d*\s*$|\btests passed, [1-9]\d* tests failed out of \d+")
BUILD_LITERALS = ("&&&& PASSED", "Engine built in", "Engine generation completed", "Finished engine building",
                  "Saved engine to", "Serialized engine", "Engine build succeeded", "Building engine finished",
                  "PASSED |", "&&&& FAILED", "Engine could not be created", "Building engine failed",
                  "engine != nullptr", "Failed to create engine", "Invalid Engine", "FAILED |", "<<< ", "Tests failed:",
                  " tests failed out of ")

_FRONT_ENDS = [
    # (pattern, stack): in the order a stack wins when a log shows several (the wrapper that owns the run
    # first: a Triton log holds TensorRT's lines, a DeepStream log nvinfer's and TensorRT's). Each pattern
    # names the stack itself, not a word it shares with others ("triton" alone is also OpenAI's compiler).
    (re_compile(r"tritonserver|[Tt]riton [Ii]nference [Ss]erver|TRITONBACKEND|libtriton_|triton_python_backend"
                r"|model_repository_manager|tritonclient|\bTRTIS\b|[Tt]riton(?:Server| server)\b"
                # Triton's own sources behind its glog prefix (glog alone is also Apollo's, Caffe's, Paddle's)
                r"|\s(?:model_lifecycle|backend_model(?:_instance)?|model_config_utils|pinned_memory_manager"
                r"|cuda_memory_manager|backend_manager|infer_request|(?:http|grpc)_server|logging)\.cc:\d+\]"
                # its model table, pasted alone ("| Model          | Version | Status   |"); its endpoints that did not start
                r"|^\|\s*Model\s+\|\s*Version\s+\|\s*Status\s+\|"
                r"|failed to start (?:HTTP|GRPC|Metrics|SageMaker|Vertex AI) service: "
                # its model control's reply, relayed by a client or a product built on it (first-sight batch 36)
                r"|failed to load '[^']{1,200}', no version is available"), "triton"),
    (re_compile(r"[Dd]eep[Ss]tream|gstnvinfer|NvDsInfer|nvdsinfer|deepstream-app|nvinferserver|\bgie\b"
                r"|<create_\w+_bin(?::\d+)?>"), "deepstream"),  # deepstream-app's own errors: "<create_primary_gie_bin:120>"
    (re_compile(r"TensorRT-LLM|tensorrt_llm|trtllm-(?:build|serve|bench)|\[TRT-LLM\]"), "tensorrt-llm"),
    (re_compile(r"[Tt]orch-TensorRT|torch_tensorrt|\bTRTorch\b|trtorch|\[__torch__\.[\w.]+_trt_engine\]"), "torch-tensorrt"),
    # mmdeploy runs ONNX Runtime and TensorRT as its backends (its own targets: mmdeploy_onnxruntime_ops)
    (re_compile(r"\bmmdeploy(?:\b|_)"), "mmdeploy"),
    (re_compile(r"onnxruntime|TensorrtExecutionProvider|Ort::Exception|\bORT\b"), "onnxruntime"),
    (re_compile(r"TF-TRT|TrtGraphConverter|TRTEngineOp|tensorflow/compiler/tf2tensorrt|trt_convert"), "tf-trt"),
    # Ultralytics by name, its export's own lines, and AutoBackend's "Loading best.engine for TensorRT inference..."
    (re_compile(r"[Uu]ltralytics|\bYOLOv8\b.*export|export\.py.*engine|TensorRT: (?:starting export|export failure)"
                r"|^Loading \S+\.engine for TensorRT inference\.\.\."), "ultralytics"),
    # ComfyUI by name, or by the model manager's lines it prints on every run ("Requested to load SDXL", "loaded
    # completely 0.0 0.0 True")
    (re_compile(r"ComfyUI|comfy[/\\._]|^Requested to load [A-Z]\w*\s*$"
                r"|^loaded (?:completely|partially) [\d.]+ [\d.]+ (?:True|False)\b"), "comfyui"),
    (re_compile(r"jetson[-_.]inference|jetson[_.]utils|\b(?:detectNet|imageNet|segNet|poseNet) --|tensorNet\.cpp"),
     "jetson-inference"),
    # Paddle by name, its C++ namespace or its own source tree ("paddle/fluid/...", "paddle/phi/..."); not a folder
    # of the user's that happens to be called paddle ("e:\\git\\paddle\\segment-anything\\...")
    (re_compile(r"(?<![\\/])[Pp]addle(?:[Pp]addle|OCR|X|Detection)?\b(?![\\/])|paddle[\\/](?:fluid|phi)\b|paddle_inference"
                r"|paddle::|(?:\b|_)pd_op\.\w"
                # Paddle-TRT's own sources behind its glog prefix ("E0811 ... helper.h:131] ", the subgraph pass)
                r"|\b[IWEF]\d{4} [\d:.]+\s+\d+ (?:helper\.h|tensorrt_subgraph_pass\.cc|op_teller\.cc"
                r"|analysis_predictor\.cc):\d+\]"), "paddle-inference"),
    (re_compile(r"\btorch2trt\b"), "torch2trt"),
    (re_compile(r"[Pp]olygraphy"), "polygraphy"),
    # trtexec by name, or by its own lines when the paste lost its banner ("[E] Engine set up failed")
    (re_compile(r"TensorRT\.trtexec|\btrtexec\b|\[E\] (?:Engine set up failed|Failed to create engine from model\.)"
                r"|\[I\] === (?:Model|Build|Inference|System|Reporting) Options ==="), "trtexec"),
]
FRONT_END_LITERALS = ("trtexec", "olygraphy", "orch-TensorRT", "torch_tensorrt", "onnxruntime", "TRTorch", "trtorch",
                      "_trt_engine]", "helper.h:", "tensorrt_subgraph_pass.cc", "op_teller.cc", "analysis_predictor.cc",
                      "TensorrtExecutionProvider", "Ort::Exception", "ORT", "riton", "TRITON", "TRTIS", "| Version",
                      "failed to start ", "no version is available",
                      "model_repository_manager", "eepStream", "eepstream", "gstnvinfer", "NvDsInfer", "nvdsinfer",
                      "nvinferserver", "gie", "<create_", "TensorRT-LLM", "tensorrt_llm", "trtllm-", "TRT-LLM", "TF-TRT",
                      "TrtGraphConverter", "TRTEngineOp", "tf2tensorrt", "trt_convert", "ltralytics", "YOLOv8",
                      "export.py", "TensorRT: ", "for TensorRT inference", "ComfyUI", "comfy",
                      "Requested to load ", "loaded completely ", "loaded partially ", "mmdeploy", "jetson",
                      "detectNet", "imageNet",
                      "segNet", "poseNet", "tensorNet", "addle", "pd_op.", "torch2trt",
                      # Triton's sources behind its glog prefix
                      "model_lifecycle.cc", "backend_model", "model_config_utils.cc", "memory_manager.cc",
                      "backend_manager.cc", "infer_request.cc", "_server.cc", "logging.cc",
                      # trtexec's own lines
                      "Engine set up failed", "Failed to create engine from model", " Options ===")
STACKS = tuple(name for _rx, name in _FRONT_ENDS)
"""The stacks a log can be recognised as (`Environment.front_end`), the wrappers first."""

_PROVIDER = re_compile(r"\b(?P<name>[A-Z][A-Za-z]{1,20})ExecutionProvider\b"
                       r"|\b(?P<file>tensorrt|cuda|dml|rocm|migraphx|openvino)_execution_provider\b")
"""An ONNX Runtime execution provider by its class name ("CUDAExecutionProvider", also in a list of those
available) or by its source file in a log prefix ("tensorrt_execution_provider.h:...")."""
PROVIDER_LITERALS = ("ExecutionProvider", "_execution_provider")
"""Every `_PROVIDER` match holds one of these (the lines the environment is offered: `all_literals`)."""
_PROVIDER_FILES = {"tensorrt": "Tensorrt", "cuda": "CUDA", "dml": "Dml", "rocm": "ROCM", "migraphx": "MIGraphX",
                   "openvino": "OpenVINO"}


def _provider_name(m: re.Match[str]) -> str:
    return f"{m.group('name') or _PROVIDER_FILES[m.group('file')]}ExecutionProvider"


PARSER_MESSAGE_LITERAL = "Assertion failed"
"""The lines whose quoted parser message may tell the release (`versions.parser_message_releases`)."""


def all_literals() -> list[str]:
    lits: set[str] = (set(PLATFORM_LITERALS) | set(HOSTED_LITERALS) | set(PRECISION_LITERALS) | set(BUILD_LITERALS)
                      | set(RUNTIME_LITERALS) | {'File "'}
                      | set(FRONT_END_LITERALS)
                      | set(PIP_SHOW_LITERALS) | set(PROVIDER_LITERALS) | {PARSER_MESSAGE_LITERAL})
    for fact in FACTS:
        lits.update(fact.literals)
    return sorted(lits)


_NAMES_ONLY = re_compile(r": (?:command )?not found\s*$|is not recognized as an internal or external command"
                         r"|: invalid choice: .{0,200}\(choose from ")
"""Lines that name a tool or a version only to say it is missing or to list what may be chosen ("polygraphy: command
not found", argparse's "(choose from 'cuda-12.2', ...)"): nothing of the environment is read from them."""


@dataclass
class EnvCollector:
    """Accumulates facts line by line; `result()` gives the Environment."""

    values: dict[str, tuple[int, str, int]] = field(default_factory=dict)  # field -> (priority, value, line)
    precisions: dict[str, int] = field(default_factory=dict)
    platform_hits: dict[str, int] = field(default_factory=dict)
    hosted: tuple[int, str] | None = None
    """The first line whose path shows a hosted notebook, and which one (colab, kaggle)."""
    front_ends: dict[str, int] = field(default_factory=dict)
    """Each stack the log names, with the first line that names it."""
    frames: list[tuple[int, str, int]] = field(default_factory=list)
    """Python traceback frames (line of the log, file, line in the file), the first `FRAMES_KEPT`."""
    tensorrt_seen: int | None = None
    """The first line TensorRT's own logger printed (trtexec's, the Python API's, TensorRT 7's, Torch-TensorRT's tags)."""
    runtimes: dict[str, int] = field(default_factory=dict)
    """Each runtime outside Python and C++ the log's lines show (`_RUNTIMES`), with the first line that shows it."""
    python: tuple[int, str] | None = None
    """The first line whose path shows an app's own interpreter (`_EMBEDDED_PYTHON`), and that interpreter."""
    origin_front_end: str | None = None
    providers: dict[str, int] = field(default_factory=dict)
    """Each ONNX Runtime execution provider the log names, with the first line that names it."""
    last_build: tuple[int, bool] | None = None
    pip_show_at: int = -2
    """The line of a `pip show tensorrt` "Name: tensorrt" (its "Version:" follows on the next line)."""
    log_date: tuple[int, str] | None = None
    """The first dated line's number and its date (ISO)."""
    parser_releases: tuple[int, tuple[str, ...]] | None = None
    """The first line quoting a message of the ONNX parser's that only some releases print, and those releases."""
    old_logger: int | None = None
    """The first line in the Python API's logger format before 8.2 ("[TensorRT] ERROR: ...", origin trt7)."""

    def feed(self, no: int, text: str, raw: str) -> None:
        if _NAMES_ONLY.search(text):
            return  # a tool that is not there, or a list of choices: it names versions and stacks that did not run
        for fact in FACTS:
            if not any(lit in text for lit in fact.literals):
                continue
            m = fact.regex.search(text)
            if not m:
                continue
            value = fact.transform(m)
            if not value:
                continue
            old = self.values.get(fact.field)
            if old is None or fact.priority > old[0]:
                self.values[fact.field] = (fact.priority, value, no)
        self._parser_message(no, text)
        if _PIP_SHOW_NAME.match(text):
            self.pip_show_at = no
        elif no == self.pip_show_at + 1:
            m = _PIP_SHOW_VERSION.match(text)
            if m and self.values.get("tensorrt_version", (0,))[0] < 2:
                self.values["tensorrt_version"] = (2, ".".join(m.group("v").split(".")[:3]), no)
        self._platform(no, raw)
        self._program(no, raw)
        self._precisions(no, text)
        if _SUCCESS.search(text):
            self.last_build = (no, True)
        elif _FAILURE.search(text):
            self.last_build = (no, False)
        self._stacks(no, raw)

    def _program(self, no: int, raw: str) -> None:
        """The failing program's own lines: a Python traceback's frames, another runtime's words (`_RUNTIMES`), an
        app's own interpreter in a path."""
        if self.python is None and ("python_embeded" in raw or "ComfyUI_windows_portable" in raw) and (
                m := _EMBEDDED_PYTHON.search(raw)) is not None:
            self.python = (no, (m.group("folder") or m.group("root") + "\\python_embeded") + "\\python.exe")
        if 'File "' in raw and len(self.frames) < FRAMES_KEPT and (frame := _FRAME.search(raw)) is not None:
            self.frames.append((no, frame.group("path"), int(frame.group("line"))))
        if _RUNTIME_GATE.search(raw) is not None:
            for name, rx in _RUNTIMES:
                if name not in self.runtimes and rx.search(raw):
                    self.runtimes[name] = no

    def _stacks(self, no: int, raw: str) -> None:
        """The stacks and ONNX Runtime providers the raw line names (a wrapper's prefix names its stack); the stack
        patterns only run on a line holding one of their literals (every match holds one:
        tests/core/test_environment.py checks it on every corpus)."""
        if any(lit in raw for lit in PROVIDER_LITERALS):
            for m in _PROVIDER.finditer(raw):
                self.providers.setdefault(_provider_name(m), no)
        if len(self.front_ends) < len(_FRONT_ENDS) and any(lit in raw for lit in FRONT_END_LITERALS):
            for rx, name in _FRONT_ENDS:
                if name not in self.front_ends and rx.search(raw):
                    self.front_ends[name] = no

    def _parser_message(self, no: int, text: str) -> None:
        if self.parser_releases is None and PARSER_MESSAGE_LITERAL in text:
            releases = parser_message_releases(text)
            if releases:
                self.parser_releases = (no, tuple(releases))

    def note_date(self, no: int, raw: str) -> None:
        """The log's date from a timestamp that carries a year (trtexec's ``[03/22/2022-10:11:12]``, an ISO
        ``2024-12-03 10:11:12`` of Python logging, TensorFlow, ONNX Runtime, docker) in the line's first bytes:
        the matcher offers the candidate lines among the first `DATE_LINES` until one has it."""
        m = _DATE.search(raw, 0, DATE_BYTES)
        if m is None:
            return
        y, mo, d = (m.group("y"), m.group("m"), m.group("d")) if m.group("y") else (m.group("y2"), m.group("m2"), m.group("d2"))
        try:
            when = date(int(y), int(mo), int(d))
        except ValueError:
            return
        if when <= date.today():
            self.log_date = (no, when.isoformat())

    def absorb(self, later: EnvCollector, line_offset: int) -> None:
        """Take in what another collector saw on the lines that follow this one's (its line numbers
        shifted by `line_offset`): the state one collector would have after both runs of lines.

        Every field keeps the first line that set it (the highest priority first, for facts), except
        the build outcome, where the last line wins; so the merge is exact in any grouping.
        """
        for name, (priority, value, no) in later.values.items():
            old = self.values.get(name)
            if old is None or priority > old[0]:
                self.values[name] = (priority, value, no + line_offset)
        for name, no in later.precisions.items():
            self.precisions.setdefault(name, no + line_offset)
        for name, no in later.platform_hits.items():
            self.platform_hits.setdefault(name, no + line_offset)
        if self.hosted is None and later.hosted is not None:
            self.hosted = (later.hosted[0] + line_offset, later.hosted[1])
        for name, no in later.front_ends.items():
            self.front_ends.setdefault(name, no + line_offset)
        for name, no in later.runtimes.items():
            self.runtimes.setdefault(name, no + line_offset)
        self.frames.extend((no + line_offset, path, at) for no, path, at in later.frames[:FRAMES_KEPT - len(self.frames)])
        for name, no in later.providers.items():
            self.providers.setdefault(name, no + line_offset)
        if self.origin_front_end is None:
            self.origin_front_end = later.origin_front_end
        if self.tensorrt_seen is None and later.tensorrt_seen is not None:
            self.tensorrt_seen = later.tensorrt_seen + line_offset
        if self.log_date is None and later.log_date is not None and later.log_date[0] + line_offset <= DATE_LINES:
            self.log_date = (later.log_date[0] + line_offset, later.log_date[1])
        if later.last_build is not None:
            self.last_build = (later.last_build[0] + line_offset, later.last_build[1])
        if self.parser_releases is None and later.parser_releases is not None:
            self.parser_releases = (later.parser_releases[0] + line_offset, later.parser_releases[1])
        if self.old_logger is None and later.old_logger is not None:
            self.old_logger = later.old_logger + line_offset

    def note_origin(self, origin: Origin | None, no: int = 0) -> None:
        if origin in ("onnxruntime", "torch-tensorrt") and self.origin_front_end is None:
            self.origin_front_end = origin
        if origin in _TENSORRT_ORIGINS and self.tensorrt_seen is None:
            self.tensorrt_seen = no
        if origin == "trt7" and self.old_logger is None:
            self.old_logger = no

    def _platform(self, no: int, raw: str) -> None:
        for name, rx in (("jetson", _JETSON), ("wsl", _WSL), ("windows", _WINDOWS), ("windows-dll", _WINDOWS_DLL),
                         ("linux", _LINUX), ("arm", _ARM), ("macos", _MACOS),
                         ("arm-server", _ARM_SERVER), ("x86", _X86)):
            if name not in self.platform_hits and rx.search(raw):
                self.platform_hits[name] = no
        if self.hosted is None and any(lit in raw for lit in HOSTED_LITERALS):
            m = _HOSTED.search(raw)
            if m:
                self.hosted = (no, "colab" if m.group("colab") else "kaggle")
                self.platform_hits.setdefault("linux", no)
                self.platform_hits.setdefault("x86", no)  # a hosted notebook is never a Jetson

    def _precisions(self, no: int, text: str) -> None:
        m = _CMDLINE.search(text)
        if m:
            cmd = m.group("cmd") or m.group("cmd2") or ""
            if cmd and "command" not in self.values:
                self.values["command"] = (0, cmd.strip()[:2000], no)
            for token in cmd.split():
                flag = token.split("=", 1)[0]
                if flag in _FLAG_MAP:
                    self.precisions.setdefault(_FLAG_MAP[flag], no)
        m2 = _PRECISION_LINE.search(text)
        if m2:
            parts = m2.group("p").split("+") if m2.group("p") else [p.strip() for p in m2.group("flags").split(",")]
            for part in parts:
                if part in ("INT8", "FP16", "BF16", "FP8", "INT4"):
                    self.precisions.setdefault(part.lower(), no)
                elif part == "STRONGLY_TYPED":
                    self.precisions.setdefault("strongly-typed", no)
        for m3 in _PY_FLAGS.finditer(text):
            name = m3.group("f") or m3.group("g") or m3.group("h")
            if name:
                self.precisions.setdefault(name.lower(), no)
            elif m3.group("ep"):
                for word in ("int8", "half", "float16", "fp16", "bfloat16"):
                    if word in m3.group("ep"):
                        self.precisions.setdefault({"half": "fp16", "float16": "fp16", "bfloat16": "bf16"}.get(word, word), no)

    def _platform_read(self) -> tuple[str | None, int | None]:
        """The platform the log's lines show, and the line that shows it (None, None: none)."""
        macos = "macos" in self.platform_hits
        arm_jetson = "arm" in self.platform_hits and "arm-server" not in self.platform_hits and not macos
        for name in ("jetson", "wsl", "windows", "windows-dll", "arm", "linux"):
            if macos and name in ("windows-dll", "linux"):
                continue  # a Mac's /usr paths and a DLL named in passing: still a Mac (an unknown platform here)
            if name == "arm" and not arm_jetson:
                continue
            if name == "windows-dll" and "linux" in self.platform_hits:
                continue  # a DLL named beside Linux paths: a hint listing each OS's library, not this machine
            if name in self.platform_hits:
                return {"arm": "jetson", "windows-dll": "windows"}.get(name, name), self.platform_hits[name]
        return None, None

    def result(self, trt_version_override: str | None = None, platform_override: str | None = None) -> Environment:
        vals = {k: v[1] for k, v in self.values.items()}
        sources = {k: v[2] for k, v in self.values.items()}
        if trt_version_override:
            vals["tensorrt_version"] = trt_version_override
            sources.pop("tensorrt_version", None)
        platform, line = self._platform_read()
        if line is not None:
            sources["platform"] = line
        if platform is None and vals.get("compute_capability") in ("5.3", "6.2", "7.2", "8.7"):
            platform = "jetson"  # integrated-GPU compute capabilities exist only on Jetson / DRIVE
        # Linux read from a path alone: a Jetson has the same paths; only something x86 rules it out
        alternatives = ["jetson"] if platform == "linux" and "x86" not in self.platform_hits else []
        if platform_override:
            platform = platform_override
            alternatives = []
            sources.pop("platform", None)
        hosted = self.hosted[1] if self.hosted else None
        if self.hosted:
            sources["hosted"] = self.hosted[0]
        stack_versions = {k.split(":", 1)[1]: vals.pop(k) for k in [k for k in vals if k.startswith("stack:")]}
        for key in [k for k in sources if k.startswith("stack:")]:
            sources.pop(key)
        if self.providers:
            sources["execution_providers"] = min(self.providers.values())
        front = next((name for name in STACKS if name in self.front_ends), None) or self.origin_front_end
        if front in self.front_ends:
            sources["front_end"] = self.front_ends[front]
        if self.python:
            sources["python"] = self.python[0]
        opset = vals.pop("onnx_opset", None)
        log_date = self.log_date[1] if self.log_date else None
        if self.log_date:
            sources["log_date"] = self.log_date[0]
        possible = [] if vals.get("tensorrt_version") else possible_releases(log_date, vals.get("jetpack"))
        if self.parser_releases is not None and not vals.get("tensorrt_version"):
            narrowed = [r for r in (possible or ALL_RELEASES) if r in self.parser_releases[1]]
            if narrowed and narrowed != possible:  # a message against the log's own date: the date stands
                possible = narrowed
                sources["tensorrt_possible"] = self.parser_releases[0]
        if self.old_logger is not None and not vals.get("tensorrt_version"):
            older = before_new_python_logger(possible)
            if older and older != possible:  # with a date or a JetPack that already rules the new logger out: no change
                possible = older
                sources["tensorrt_logger"] = self.old_logger
        env = Environment.model_construct(
            None,  # the fields set: pydantic works them out (a `**vals` key would otherwise be taken for it)
            **vals,
            onnx_opset=int(opset) if opset else None,
            platform=platform,
            platform_alternatives=alternatives,
            hosted=hosted,
            log_date=log_date,
            tensorrt_possible=possible,
            precisions=sorted(self.precisions),
            front_end=front,
            stack_versions=stack_versions,
            execution_providers=sorted(self.providers, key=self.providers.__getitem__),
            build_succeeded=self.last_build[1] if self.last_build else None,
            python=self.python[1] if self.python else None,
            sources=sources,
        )
        return env
