"""What to do next about an error line no KB entry explains, in the terms of the stack that ran TensorRT.

The report leads with such a line (``Report.first_error``); these steps go with it. They come from the
stack's file (``kb/stacks/<id>.yaml``, handed in by the caller: the core reads no file): the stack's own
verbose log and ways to isolate the failure, then, only when the failing line is TensorRT's own output
during an ONNX build, a minimal model that still fails (``polygraphy debug reduce`` with a
``--fail-regex`` built from the line), then where to ask (the stack's tracker, and what its issue
template asks for). A log whose stack is unknown says so instead of guessing one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

import regex

from troubleshooter.core.advice import MISSING, fill, polygraphy_reduce
from troubleshooter.core.logs import MAKE_FATAL, TRACEBACK_HEADER
from troubleshooter.models import Command, Environment, FixStep, Origin

if TYPE_CHECKING:
    from troubleshooter.kb.stacks import Stack

_CODE_PREFIX = re.compile(r"^(?:Error\[\d+\]:\s*|\d+:\s*)?(?:\[[\w./~-]+::[\w~]+::\d+\]\s*)?")
_ERROR_CODE = re.compile(r"Error Code \d+: [\w ]+? \((?P<inner>.+)\)\s*$")
_NUMBER = re.compile(r"\d+")
_META = re.compile(r"[.^$*+?{}\[\]\\|()]")
"""Characters that mean something in a regex (re.escape also escapes spaces and dashes: unreadable)."""
MAX_REGEX_CHARS = 80

TENSORRT_ORIGINS: frozenset[Origin] = frozenset({"trtexec", "python", "trt7"})
"""`LogLine.origin` of lines printed by TensorRT's own logger (trtexec's, the Python API's, TensorRT 7's)."""
_TENSORRT_OWN = re.compile(
    r"Error Code \d+:|\[[\w./~-]+\.(?:cpp|cu|h|hpp)::[\w~:]+::\d+\]|ModelImporter\.cpp|builtin_op_importers|"
    r"onnx2trt|onnxOpImporters|importerContext|\bIn node -?\d+|Could not find any implementation|"
    r"Parameter check failed|\[TRT\]|\[TensorRT\]"
    # TensorRT's logger's error code before the message ("1: [runtime.cpp::...]", "1: Unexpected exception ...")
    r"|^\d{1,2}: (?:\[[\w./~-]+\.(?:cpp|cu|h|hpp)::|Unexpected exception\b)")
"""What only TensorRT prints: its error codes, its source locations, the ONNX parser's files and messages."""
_RUNTIME = re.compile(r"enqueue|execute(?:V2|V3|Async)?\b|[Dd]eserializ|IExecutionContext|setInputShape|"
                      r"setBindingDimensions|runtime\.cpp|IRuntime|engine plan file|Serialization")
"""An engine that runs or loads, not one being built: no ONNX model to shrink."""
_BUILD = re.compile(r"(?i)onnx|ModelImporter|importer|In node|parser|builder|buildSerializedNetwork|buildEngine|"
                    r"tactic|Could not find any implementation|myelin|ForeignNode|network|optimi[sz]er|fusion")
_STACK_UNKNOWN = ("The log does not show which tool ran TensorRT (stack unknown). If it was trtexec, Polygraphy or "
                  "the TensorRT Python/C++ API, ask {tracker}; if another tool ran TensorRT (Triton, ONNX Runtime, "
                  "DeepStream, Torch-TensorRT...), ask that tool's tracker instead.")


def fail_regex(payload: str) -> str:
    """A regex for ``polygraphy debug reduce --fail-regex`` that matches this error again (and
    its variants with other numbers): the message inside ``Error Code N: ... (...)`` when there is one."""
    text = _CODE_PREFIX.sub("", payload.strip())
    m = _ERROR_CODE.search(text)
    if m:
        text = m.group("inner")
    text = text.strip().rstrip(".")
    if len(text) > MAX_REGEX_CHARS:
        cut = text.rfind(" ", 0, MAX_REGEX_CHARS)
        text = text[: cut if cut > MAX_REGEX_CHARS // 2 else MAX_REGEX_CHARS]
    parts = _NUMBER.split(text)
    return "[0-9]+".join(_META.sub(r"\\\g<0>", part) for part in parts)


def is_tensorrt_build_line(payload: str, origin: Origin | None, env: Environment) -> bool:
    """The line is TensorRT's own output while it builds from an ONNX model: what `polygraphy debug reduce`
    can bisect. Never a wrapper's line (Triton, ONNX Runtime, Torch-TensorRT, TensorFlow, a shell, a
    traceback), never an engine that loads or runs."""
    if origin is not None and origin not in TENSORRT_ORIGINS:
        return False
    if origin is None and not _TENSORRT_OWN.search(payload):
        return False
    if _RUNTIME.search(payload):
        return False
    onnx_known = bool(env.onnx_opset or env.onnx_ir_version or env.onnx_producer)
    return onnx_known or env.front_end in ("trtexec", "polygraphy") or bool(_BUILD.search(payload))


def _versions(env: Environment, stack: Stack | None) -> str:
    facts = [("TensorRT", env.tensorrt_version), ("CUDA", env.cuda_version), ("driver", env.driver_version),
             ("GPU", env.gpu)]
    if stack is not None and env.front_end in env.stack_versions:
        facts.append((stack.version_label or stack.name, env.stack_versions[env.front_end]))
    return ", ".join(f"{label} {value}" for label, value in facts if value)


def _step(text: str, code: str | None = None, lang: str = "bash") -> FixStep:
    return FixStep.model_construct(text=text, command=Command.model_construct(lang=lang, code=code) if code else None)


class _Kind(NamedTuple):
    """An unexplained line whose own words say what failed, outside TensorRT: the step that follows from it."""

    pattern: regex.Pattern[str]
    """Every alternative captures what it names as `name` (the `regex` module allows one name in several)."""
    text: str
    """What to do: `{name}` and the pattern's other groups filled in, `[[...]]` parts only when they are known."""
    code: str | None
    """The command (Linux, macOS, WSL, Jetson: bash); the values from the log are quoted for the shell."""
    windows: str | None = None
    """The same for Windows (PowerShell), when it differs."""
    default: str = ""
    """`name` when the line does not give it."""
    program: bool = False
    """The error is the program's own (its command line, its Python code), not TensorRT's or a tool's: the next
    step is the tracker of the project the script belongs to, not NVIDIA's or the stack's."""
    lang: str = "bash"
    """The language of `code` (a Python snippet is "python")."""
    weak: bool = False
    """The line's words fit but say little ("Preparing metadata (setup.py) ... error"): a later line that a kind
    fits better gives the step instead."""
    lead_only: bool = False
    """Only for the line that leads the report when no failing line follows it, never from a later line: what it asks
    for (the rest of a traceback cut before its exception) says nothing when another line leads or more lines follow."""
    stackless: bool = False
    """Only when no known stack ran: a Python exception in a known stack's run may be raised in that stack's own code
    (torch2trt's converters, a Triton backend), whose steps and tracker then fit better."""


def _rx(pattern: str) -> regex.Pattern[str]:
    return regex.compile(pattern, regex.VERSION0)



_KINDS: tuple[_Kind, ...] = (
    # PyTorch checkpoint loading in an export script (tensorrtx's gen_wts.py, a .pt -> ONNX step; first-sight batch 26):
    # torch 2.6 made torch.load default to weights_only=True
    _Kind(_rx(r"Weights only load failed\b"),
          "PyTorch 2.6 and later load checkpoints with weights_only=True, and this file pickles more than weights (a "
          "whole model object: YOLO and most training repos' .pt). For a file you trust, pass weights_only=False to the "
          "script's torch.load call (the export script, e.g. gen_wts.py), or run the export with the PyTorch release the "
          "script was written for.",
          'grep -n "torch.load(" *.py   # then: torch.load(path, map_location="cpu", weights_only=False)',
          program=True),
    # a file that is not a PyTorch checkpoint: a Git LFS pointer ('v'), an HTML page ('<'), darknet weights ('\x00')
    _Kind(_rx(r"invalid load key, '(?P<name>[^']{1,8})'"),
          "The file given to torch.load is not a PyTorch checkpoint (its first byte is {name}): a Git LFS pointer "
          "(a few lines of text, key 'v'), an HTML error page saved by a failed download (it starts with a tag), or a "
          "file of another format (darknet .weights, ONNX, a truncated zip). Look at its size and first bytes, and "
          "download the real .pt (git lfs pull in a checkout).",
          "ls -l <the .pt file>; head -c 120 <the .pt file> | cat -v", program=True),
    # a state_dict where the script expects a model object
    _Kind(_rx(r"'collections\.OrderedDict' object has no attribute '(?P<name>\w+)'"),
          "The checkpoint holds a state_dict (the weights by name), and the script treats it as a model (`.{name}`): "
          "build the model from its class and load the weights into it (model.load_state_dict(...)), or give the "
          "script the checkpoint form it expects (a whole-model .pt, or the checkpoint's own 'model' / 'ema' key).",
          None, program=True),
    # a submodule missing from a package (first-sight batch 27: "No module named 'transformers.models.qwen2'", a model
    # the installed transformers predates; "No module named 'ultralytics.yolo'", a layout the installed one dropped)
    _Kind(_rx(r"No module named '(?P<pkg>[A-Za-z_]\w*)\.(?P<name>[\w.]+)'"),
          "Python finds `{pkg}` but not `{pkg}.{name}`: the installed {pkg} is another release than the code (or the "
          "pickled checkpoint) was written for - too old to have that module, or new enough to have moved it. Compare "
          "the installed version with the one the project pins, and install that one; if `{pkg}` is the project's own "
          "folder, run from the project's root.",
          'python -m pip show {pkg} | head -2\ngrep -rn -i "{pkg}" requirements*.txt setup.py pyproject.toml 2>/dev/null',
          program=True),
    # a C extension built for an older Python (3.10 requires PY_SSIZE_T_CLEAN for '#' formats)
    _Kind(_rx(r"PY_SSIZE_T_CLEAN macro must be defined for '#' formats"),
          "A compiled extension (its wheel or a module built from source) was made for a Python before 3.10, which "
          "this Python refuses at the call that uses it. Install the release of that package built for your Python "
          "version, or run the program on the Python it was built for.",
          "python --version; python -m pip list 2>/dev/null | head -50", program=True),
    # CuPy's import failure banner, whose last line is the real error
    _Kind(_rx(r"^original error: (?P<name>.{1,300})$"),
          "CuPy could not be imported; its own error is the last line: {name}. For a missing module, install it into "
          "the same Python; for a CUDA library, install the cupy-cudaXX wheel for the CUDA this machine has (and only "
          "one CuPy package).",
          'python -m pip list 2>/dev/null | grep -i -E "cupy|fastrlock"', program=True),
    _Kind(_rx(r"No module named '(?P<name>[\w.]+)'?"),
          "Python cannot import `{name}` in the interpreter that ran. If it is a package, install it into that "
          "interpreter (its path is the first command's answer); if it is the project's own module, run from the "
          "project's folder or install the project (`pip install -e .`).",
          'python -c "import sys; print(sys.executable)"\n'
          "python -m pip install <package>   # the pip name of {top} (it may differ: cv2 is opencv-python)"),
    _Kind(_rx(r"^(?:usage: .*\s)?(?P<prog>[\w./\\-]{1,120}): error: the following arguments are required: "
              r"(?P<name>.{1,200}?)\s*$"),
          "`{prog}` stopped at its command line: it needs `{name}`. Give what it needs as its usage line (or `--help`) "
          "shows - the README's command for this release of the script, with every path filled in.",
          "python {prog} --help", program=True),
    _Kind(_rx(r"^(?P<prog>[\w./\\-]{1,120}): error: argument (?P<name>[^:]{1,80}): invalid choice: "
              r"'(?P<value>[^']*)' \(choose from (?P<choices>.{1,300}?)\)\s*$"),
          "`{prog}` refused '{value}' for `{name}`: it takes one of {choices}. Pass one of those (the README of another "
          "release of the script may name values this one does not have).",
          "python {prog} --help", program=True),
    _Kind(_rx(r"^(?P<prog>[\w./\\-]{1,120}): error: (?:unrecognized arguments: (?P<name>.{1,200}?)"
              r"|argument (?P<name>[^:]{1,80}): (?P<detail>.{1,200}?))\s*$"),
          "`{prog}` refused its command line at `{name}`[[ ({detail})]]: a typo, a value in the wrong form, or an "
          "option of another release of the script. Compare with its usage.",
          "python {prog} --help", program=True),
    _Kind(_rx(r"(?:No matching distribution found for|Could not find a version that satisfies the requirement) "
              r"(?P<name>[\w.-]+)"),
          "pip has no `{name}` build for this Python, platform or index: list the versions it can install here, then "
          "pin one of those, use the Python version the project asks for, or add the index that publishes it.",
          "python -m pip index versions {name}\npython --version"),
    _Kind(_rx(r"you have held broken packages|The following packages have unmet dependencies"),
          "apt cannot install these packages together: a pinned version (libnvinfer-dev=..., libcudnn8-dev=...) is not in "
          "the repositories this machine has, or it needs another CUDA's packages than the ones pinned beside it. List the "
          "versions apt can see and pin ones built for the same CUDA (the +cudaX.Y suffix), or add NVIDIA's repository "
          "for that CUDA.",
          "apt-cache policy libnvinfer-dev libnvinfer8 tensorrt | head -30\napt-cache madison libnvinfer-dev | head",
          program=True),
    _Kind(_rx(r"^E: Version '(?P<version>[^']{1,80})' for '(?P<name>[^']{1,80})' was not found"),
          "apt's repositories have no `{name}` {version}: that TensorRT release is not published for this OS and CUDA "
          "(the +cudaX.Y suffix must be one the repository has). List the versions apt can see and pin one of those, "
          "or add NVIDIA's repository for the CUDA the version names.",
          "apt-cache madison {name} | head -20", program=True),
    # CMake's own message under "CMake Error at CMakeLists.txt:N (add_executable):" (the file is on the lines after it)
    _Kind(_rx(r"^\s*Cannot find source file:?\s*(?P<name>\S*)"),
          "CMake cannot find a source file the CMakeLists names (the lines after this one name it): the checkout does not "
          "have it - a submodule that was not fetched, a file the repository never committed or has since removed, or a "
          "path for another folder layout. Fetch the submodules, then check the file against the repository (or remove "
          "that target from the CMakeLists).",
          "git submodule update --init --recursive\ngit status --short | head; git log --oneline -1", program=True),
    # a data type the GPU's architecture lacks ("pre SM 80 GPUs do not support bfloat16", TensorRT-LLM's plugins)
    _Kind(_rx(r"pre SM ?(?P<sm>\d{2,3}) GPUs? do(?:es)? not support (?P<name>bfloat16|bf16|fp8|float8\w*|int4\w*)"),
          "The GPU the process runs on is older than SM {sm}, and `{name}` needs at least that: run the model in a type "
          "this GPU has (TensorRT-LLM: build the checkpoint and engine with --dtype float16), or run on a GPU of SM {sm} "
          "or newer. Check which GPU the process sees (CUDA_VISIBLE_DEVICES, the container's --gpus).",
          "nvidia-smi --query-gpu=index,name,compute_cap --format=csv; echo \"$CUDA_VISIBLE_DEVICES\""),
    # a program that could not load a file it names with its path ("poseNet -- failed to load topology json from
    # 'networks/Pose-ResNet18-Hand/hand_pose.json'"): the file is not there, or not where the relative path points
    _Kind(_rx(r"(?:[Ff]ailed to|[Cc]ould not|[Cc]ouldn't|[Uu]nable to|[Cc]annot) (?:load|open|read|find)\b[\w ]{0,40}? "
              r"(?:from|at|file:?) ['\"](?P<name>[^'\"\s]{1,300}\.(?:json|txt|onnx|uff|caffemodel|prototxt"
              r"|wts|pt|pth|yaml|yml|cfg|weights|names|labels))['\"]"),
          "The program could not load `{name}`: the file is not at that path (a relative path starts from the folder the "
          "program runs in). For a model's own files, check that the download step fetched that model (jetson-inference: "
          "its download-models.sh or the model's archive from the releases page), then run from the folder the path "
          "assumes or give the full path.",
          "ls -l {name}; pwd", program=True),
    # MSVC's linker cannot open a library the project lists (rtmpose_tensorrt#4: myelin64_1.lib, which TensorRT 8.6 does
    # not ship; a Chinese Visual Studio prints "无法打开文件")
    # MSVC: a symbol a prebuilt static library needs is not in what is linked (tensorrt_llm_batch_manager_static.lib,
    # batch 22): the prebuilt library and the sources being built are from different commits
    _Kind(_rx(r"(?P<name>[\w.-]{1,120}\.lib)\((?P<obj>[\w.-]{1,120}\.obj)\) : error LNK2019: unresolved external symbol"),
          "`{name}` ({obj}) references a symbol that nothing linked defines: the prebuilt library and the sources being "
          "built come from different commits or releases (a library checked in or fetched for another tag), or a library "
          "it needs is missing from the link. Build from one checkout whose prebuilt libraries match it (the same tag; "
          "`git lfs pull` for libraries stored in LFS), or rebuild that library from the same sources.",
          None, windows="git describe --tags; git lfs ls-files | Select-String -Pattern '\\.lib'", program=True),
    _Kind(_rx(r"LNK1104: (?:cannot open file|\u65e0\u6cd5\u6253\u5f00\u6587\u4ef6) ?['\"\u201c](?P<name>[^'\"\u201d]{1,200}\.lib)"
              r"['\"\u201d]"),
          "The linker cannot open `{name}`: the project's linker inputs list a library this install does not have (it "
          "was written for another TensorRT, CUDA or OpenCV release, whose libraries are named otherwise - TensorRT 8.6 "
          "ships no myelin64_1.lib), or its folder is not among the library directories. Look for the file; if the "
          "install has none, remove it from the project's list (Linker > Input > Additional Dependencies, or "
          "target_link_libraries).",
          "Get-ChildItem -Path C:\\ -Recurse -Filter \"{name}\" -ErrorAction SilentlyContinue | Select-Object FullName",
          lang="powershell", program=True),
    # TensorFlow's ./configure not finding TensorRT's headers under the paths it was given (tensorflow#33207)
    _Kind(_rx(r"Could not find any (?P<name>NvInfer(?:Version)?\.h) matching version '(?P<version>[^']{1,20})' "
              r"in any subdirectory"),
          "TensorFlow's configure did not find TensorRT {version}'s `{name}` under the paths it searched: TensorRT's "
          "folder is not among them. Give configure the TensorRT install folder (the tar's root, or /usr for the deb "
          "packages) when it asks, or set TENSORRT_INSTALL_PATH, and the TensorRT major it asks for must be the one "
          "installed.",
          "find / -name NvInferVersion.h 2>/dev/null | head -3\nexport TENSORRT_INSTALL_PATH=<the folder above include/>",
          program=True),
    # apt without JetPack's cross-compilation packages (TensorRT OSS's ubuntu-cross-aarch64 image, batch 22): they come
    # from SDK Manager's download, not from NVIDIA's public CUDA repository
    _Kind(_rx(r"^E: Unable to locate package (?P<name>\S*cross-aarch64\S*)"),
          "apt has no `{name}`: JetPack's cross-compilation packages (TensorRT, CUDA and cuDNN for aarch64 on an x86 "
          "host) are not in NVIDIA's public repository; they come with JetPack's download from SDK Manager. Download "
          "them with SDK Manager for your JetPack and put the .deb files where the build expects them (TensorRT OSS's "
          "cross-compile image: docker/jetpack_files).",
          "ls docker/jetpack_files 2>/dev/null | head   # the .deb files SDK Manager downloaded for the JetPack",
          program=True),
    # apt knows no package of that name: NVIDIA's repository is not added for this release, or the name is not in it
    _Kind(_rx(r"^E: Unable to locate package (?P<name>\S+)"),
          "apt has no package `{name}` in the repositories this machine knows: NVIDIA's CUDA repository (which carries "
          "TensorRT's libnvinfer packages; libnvinferN is TensorRT N) is not added for this Ubuntu release, or that name "
          "is not published for it. Add NVIDIA's repository for your Ubuntu and CUDA, then list what it has and pin one "
          "of those.",
          "apt-cache search libnvinfer | head; ls /etc/apt/sources.list.d/ | grep -i -E 'cuda|nvidia'\n"
          "lsb_release -rs    # the Ubuntu release whose NVIDIA repository to add", program=True),
    _Kind(_rx(r"^No package (?P<name>\S+) available\."),
          "yum/dnf has no `{name}` in its repositories: that version is not published for this OS and CUDA (the package "
          "name carries both). List the versions the repository has and pin one of those, or add NVIDIA's repository for "
          "the CUDA the name asks for.",
          "yum list available 'libnvinfer*' --showduplicates | head -30", program=True),
    # pip settling on TensorRT's placeholder release: no real wheel fits this Python, platform or index
    _Kind(_rx(r"yanked version: '(?P<name>(?:nvidia-)?tensorrt)' candidate \(version 0\.0\.1"
              r"|\b(?P<name>(?:nvidia-)?tensorrt)-0\.0\.1(?:\.dev\d+)?\.tar\.gz\b"),
          "pip settled on `{name}` 0.0.1, the placeholder on PyPI (yanked: not built by NVIDIA), because no real TensorRT "
          "wheel fits this Python, platform or index: each release has wheels for a few Python versions and platforms, "
          "and old releases only on NVIDIA's index. Check the Python "
          "version and which releases pip can see, then pin one that has a wheel for it (a newer pip may be needed).",
          "python --version; python -m pip --version\npython -m pip index versions tensorrt --extra-index-url https://pypi.nvidia.com",
          program=True),
    _Kind(_rx(r"The package you are trying to install is only a placeholder project on PyPI"),
          "The package pip fetched is only a placeholder on PyPI (a PyPI mirror serves the same one): the real package is "
          "on NVIDIA's index, and the message's next lines give the command. For tensorrt-llm and NVIDIA's other "
          "packages, install from https://pypi.nvidia.com; for the old nvidia-tensorrt name, install `tensorrt` (or "
          "tensorrt-cu12 / -cu11) and change the requirement. TensorRT has no macOS build.",
          "python -m pip install --no-cache-dir --extra-index-url https://pypi.nvidia.com <the package the message names>",
          program=True),
    # pip's step status when a package fails to build: which package, only the lines after it say (weakly; when they
    # name tensorrt, the KB's tensorrt-pip-install-failed explains them)
    _Kind(_rx(r"(?:Getting requirements to build wheel|Preparing metadata \(setup\.py\)) \.\.\. error"),
          "pip (or poetry, uv) is building `{name}` from its source package: there is no TensorRT wheel for this Python, "
          "platform or CUDA flavour, or the build cannot reach pypi.nvidia.com, where the package fetches the real "
          "wheels (poetry's and uv's isolated builds have no pip to fetch them with). List what pip can install, "
          "then pin a release that has a wheel for your Python; on Jetson, use JetPack's TensorRT (apt package "
          "python3-libnvinfer) instead of pip.",
          "python --version\npython -m pip index versions tensorrt --extra-index-url https://pypi.nvidia.com",
          default="tensorrt", weak=True),
    # any other package pip had to compile (pycuda on Windows or a new Python, a Jetson without a wheel)
    _Kind(_rx(r"Failed building wheel for (?P<name>[\w.-]+)"
              r"|^(?:ERROR: )?Failed to build (?![^\n]*\b(?:engine|network|model|plan|the|an?)\b)(?P<name>[\w.-]+)"
              r"(?: [\w.-]+)*\s*$"
              r"|Building wheel for (?P<name>[\w.-]+) \((?:setup\.py|pyproject\.toml)\) \.\.\. error"
              r"|Running setup\.py install for (?P<name>[\w.-]+) \.\.\. error"),
          "pip had no ready-made wheel of `{name}` for this Python and platform, so it compiled the source package, "
          "and the compile failed: the compiler's lines above pip's summary say what was missing. A package with CUDA "
          "code (pycuda) needs the CUDA toolkit's nvcc and headers (CUDA_PATH / CUDA_ROOT set) and a C++ compiler "
          "(Visual Studio Build Tools on Windows; build-essential and the python3-dev headers on Linux and Jetson); or "
          "use a Python version the package publishes wheels for.",
          "python --version; nvcc --version\n"
          "python -m pip download {name} --no-deps --only-binary=:all: -d /tmp/wheels   # a wheel for this Python?",
          windows="python --version; nvcc --version\n"
                  "python -m pip download {name} --no-deps --only-binary=:all: -d $env:TEMP\\wheels",
          program=True),
    _Kind(_rx(r"<create_\w+(?::\d+)?>: Failed to create (?:element )?'(?P<name>[\w-]+)'|no element \"(?P<name>[\w-]+)\""),
          "GStreamer could not create the `{name}` element: its plugin did not load (a library the plugin needs is "
          "missing or from another release, GStreamer's registry cache is stale after an install or upgrade, or - in a "
          "container - the container was started without the GPU: --gpus all, or --runtime nvidia on Jetson, and "
          "NVIDIA's elements such as nvstreammux cannot load). List the plugins GStreamer refused, clear its cache, and "
          "run again.",
          "gst-inspect-1.0 -b                      # plugins GStreamer blacklisted\n"
          "rm -f ~/.cache/gstreamer-1.0/registry.*.bin"),
    _Kind(_rx(r"Exporting the operator [`'\"]?(?P<name>[\w:.]+)[`'\"]? to ONNX opset version (?P<opset>\d+) is not supported"
              r"|ONNX export failed:? [Cc]ouldn't export (?:Python )?operator (?P<name>[\w:.]+)"),
          "The export stops in PyTorch, before TensorRT: this PyTorch has no ONNX form of `{name}`[[ at opset {opset}]]. "
          "Export with a higher `opset_version=` (and a PyTorch release that exports the op there), or replace the op in "
          "the model (another op, or a custom symbolic with a TensorRT plugin for it). Then check that your TensorRT's "
          "ONNX parser supports the op at that opset (onnx-tensorrt's docs/operators.md for your release).",
          'python -c "import torch; print(torch.__version__)"\n'
          "# in the export script: torch.onnx.export(model, args, \"model.onnx\", opset_version=17)", program=True),
    _Kind(_rx(r"This ORT build has \[.{0,200}\] enabled\. Since ORT 1\.9, you are required to explicitly set the providers"),
          "Since onnxruntime 1.9 every InferenceSession must be given its providers: the program (or one of its sessions) "
          "creates one without `providers=`. Pass them to every session, or use the project's release written for "
          "onnxruntime 1.9 or later.",
          "# every session the program creates:\n"
          "ort.InferenceSession(path, providers=[\"TensorrtExecutionProvider\", \"CUDAExecutionProvider\", "
          "\"CPUExecutionProvider\"])", lang="python", program=True),
    _Kind(_rx(r"NvDsBatchMeta not found for input buffer"),
          "nvinfer got a buffer without DeepStream's batch metadata: the pipeline has no nvstreammux in front of it "
          "(every nvinfer needs one upstream, even for one source), or an element between them drops the metadata. Link "
          "source -> nvstreammux -> nvinfer.",
          "gst-launch-1.0 uridecodebin uri=file:///path/video.mp4 ! m.sink_0 nvstreammux name=m batch-size=1 width=1280 "
          "height=720 ! nvinfer config-file-path=config_infer.txt ! fakesink"),
    _Kind(_rx(r"torch\._dynamo\.exc\.(?P<name>Unsupported|UserError)(?::\s*(?P<detail>.{0,120}))?"),
          "torch.compile's tracer (TorchDynamo) cannot capture this call in one graph[[: {detail}]]. Where a whole graph "
          "is needed (torch.export, Torch-TensorRT's export path, fullgraph=True), move that call out of forward() "
          "(compute it once, outside the model) or rewrite it in tensor ops; or use a path that allows graph breaks "
          "(torch.compile(model, backend=\"tensorrt\") without fullgraph).",
          None, program=True),
    _Kind(_rx(r"(?:^|\W)(?P<name>[\w/.-]{1,120}) is not in graph\b|The name '(?P<name>[^']{1,120})' refers to a Tensor which "
              r"does not exist"),
          "TensorFlow has no node `{name}` in this graph: the output (or input) name given to the conversion is not the "
          "model's. List the graph's node names (for Keras, `model.outputs`) and pass the real one.",
          'python -c "import tensorflow as tf; g=tf.compat.v1.GraphDef(); g.ParseFromString(open(\'model.pb\',\'rb\')'
          '.read()); print([n.name for n in g.node][-10:])"', program=True),
    _Kind(_rx(r"[‘'`](?P<name>[A-Za-z_]\w{2,80})[’'`] was not declared in this scope|use of undeclared identifier "
              r"[‘'`](?P<name>[A-Za-z_]\w{2,80})|[‘'`](?P<name>[A-Za-z_]\w{2,80})[’'`]: undeclared identifier"
              r"|identifier \"(?P<name>[A-Za-z_]\w{2,80})\" is undefined"),
          "The code uses `{name}`, which the headers it is compiled against do not declare: most often a library (CUDA, "
          "cuDNN, TensorRT, OpenCV, a generated header) older than the code needs, or a header the build does not "
          "include. Find which library declares `{name}` and build against a release that has it (or the code's release "
          "written for yours).",
          "grep -rn {name} /usr/local/cuda/include /usr/include 2>/dev/null | head -3", program=True),
    _Kind(_rx(r"No rule to make target [`'](?P<name>[^'`]{1,300})['`], needed by [`'](?P<target>[^'`]{1,200})['`]"),
          "make needs `{name}` to build `{target}` and it does not exist: the build files point at a file (often a "
          "library of TensorRT, CUDA or OpenCV) at a path this machine does not have. Configure again with the right "
          "paths (remove the build folder or CMakeCache.txt first), or install what is missing there.",
          "ls -l {name}\ngrep -n {name} CMakeCache.txt | head", program=True),
    _Kind(_rx(r"No rule to make target [`'](?P<name>[^'`]{1,120})['`]|No targets specified and no makefile found"),
          "make found no[[ `{name}`]] target in this folder: run it in the build folder that cmake configured (after "
          "cmake finished without errors), or the target is of another release of the project's build. On Windows, "
          "the project needs its CMake or Visual Studio build instead of make.",
          "cmake -S . -B build && cmake --build build   # then the target the README names\nmake help | head -30",
          program=True),
    _Kind(_rx(r"Microsoft Visual C\+\+ (?P<name>1\d\.\d) or greater is required"),
          "pip is compiling a package from source on Windows and needs Microsoft's C++ compiler: install the Microsoft "
          "C++ Build Tools (the \"Desktop development with C++\" workload), or install a prebuilt wheel of the package "
          "(a Python version for which it publishes one).",
          None, program=True),
    _Kind(_rx(r"size mismatch for (?P<name>[\w.]+): copying a param with shape (?P<ckpt>torch\.Size\(\[[^\]]*\]\)) from "
              r"checkpoint, the shape in current model is (?P<model>torch\.Size\(\[[^\]]*\]\))"
              r"|(?P<kind>Missing|Unexpected) key\(s\) in state_dict: \W?(?P<name>[\w.]+)"),
          "The checkpoint does not fit the model the script builds[[ (`{name}`: {ckpt} in the checkpoint, {model} in the "
          "model)]]: the weights are of another variant or size of the model (a large checkpoint into a base model), or "
          "of another release of the project. Pass the model type or config that matches the checkpoint (the script's "
          "size/encoder option), or use the checkpoint the script expects.",
          None, program=True),
    _Kind(_rx(r"This file was generated by (?:a newer|an older) version of protoc"),
          "The protobuf headers generated into the build (the ONNX .pb.h files) were made by another protoc than the "
          "protobuf headers and library the compiler uses: two protobuf installs are mixed. Use one: point the build at "
          "the protobuf whose protoc made the files (or regenerate them with that protoc), then configure again from an "
          "empty build folder.",
          "protoc --version; grep -rn 'GOOGLE_PROTOBUF_VERSION' /usr/include/google/protobuf/stubs/common.h | head -3\n"
          "rm -rf build && cmake -S . -B build -DProtobuf_PROTOC_EXECUTABLE=$(command -v protoc)", program=True),
    _Kind(_rx(r"(?:[Cc]annot|[Cc]an't|[Cc]ould not|[Ff]ailed to|[Uu]nable to) (?:get|find|load) (?:the )?(?P<name>[\w.-]{2,60}) "
              r"plugin creator"),
          "TensorRT's plugin registry has no creator for `{name}` in this process: the library that registers it was not "
          "loaded before the lookup (ctypes.CDLL in Python, dlopen or --plugins in C++/trtexec), it failed to load, or "
          "it was built against another TensorRT and registered nothing. Load it first; rebuild it against this TensorRT "
          "if it does not register.",
          'python -c "import ctypes, tensorrt as trt; ctypes.CDLL(\'./libyolo_layer.so\'); '
          "print([c.name for c in trt.get_plugin_registry().plugin_creator_list])\"   # the project's plugin library",
          program=True),
    _Kind(_rx(r"no matching manifest for (?P<name>\S+) in the manifest list entries"),
          "The image has no build for `{name}`: it was made for another platform (an x86-64 image pulled on a Jetson, "
          "or the other way). On Jetson use an image built for L4T/JetPack (nvcr.io/nvidia/l4t-*, dusty-nv's "
          "jetson-containers, or the project's Jetson Dockerfile); elsewhere, the image's own platform.",
          "docker manifest inspect <image>:<tag> | grep -A2 platform", program=True),
    # tensorrtx-style loadWeights checks (wang-xinyu/tensorrtx#119: "Assertion `input.is_open() && "Unable to load weight
    # file."' failed"; "count > 0 && "Invalid weight map file.""): the check names what is wrong with the .wts
    _Kind(_rx(r"input\.is_open\(\) && \"Unable to load weight file\.?\""),
          "The program could not open the .wts file it was given: the path is wrong from the folder it runs in, or it "
          "is a path of another machine (a Windows path inside a Linux container). Give the .wts path as it is seen "
          "where the program runs, after the `Loading weights:` line's name.",
          "pwd; ls -l *.wts", windows="Get-Location; Get-ChildItem *.wts", program=True),
    _Kind(_rx(r"count > 0 && \"Invalid weight map file\.?\""),
          "The .wts file holds no weights in the form the program reads: it is empty, cut short, or not a file the "
          "project's gen_wts.py wrote (a .pt or .onnx renamed, a file from another converter). Generate it again with "
          "the project's gen_wts.py, in the model repository's folder, and check that its first line is a count.",
          "head -c 200 <file>.wts; ls -l <file>.wts", program=True),
    # trtexec could not write the engine it built (NVIDIA/TensorRT#3866: "[E] Saving engine to file failed.")
    _Kind(_rx(r"Saving engine to file failed"),
          "The engine was built but could not be written: the --saveEngine path's folder does not exist or is not "
          "writable by this user, or the disk is full. Check the folder and the free space, or save somewhere writable.",
          "ls -ld \"$(dirname <the --saveEngine path>)\"; df -h .",
          windows="Get-Item (Split-Path <the --saveEngine path>); Get-PSDrive -PSProvider FileSystem"),
    # GNU ld passing over a library built for another CPU before it fails to find it (pytorch/TensorRT#3317: conda's
    # x86-64 ld.gold linking aarch64 libtorch)
    _Kind(_rx(r"skipping incompatible (?P<name>\S{1,300}) (?:when|while) searching for (?P<lib>\S{1,100})"),
          "The linker found `{name}` but skipped it: it is built for another CPU architecture (or word size) than the "
          "linker's target - an aarch64 library with an x86-64 toolchain, or the reverse. Use the toolchain of the "
          "machine the libraries were built for (a conda compiler may shadow the system's), or libraries built for "
          "this one.",
          "file -L {name}; which ld gcc; gcc -dumpmachine", program=True),
    # setup.py of a CUDA extension without the toolkit's location (torch.utils.cpp_extension)
    _Kind(_rx(r"CUDA_HOME environment variable is not set"),
          "The build of a CUDA extension (torch's cpp_extension) did not find the CUDA toolkit: set CUDA_HOME to the "
          "toolkit's folder (/usr/local/cuda on Linux and Jetson) in the shell that runs the build - `sudo` and "
          "`docker exec` do not keep your shell's variables - and check that the installed torch is a CUDA build.",
          "export CUDA_HOME=/usr/local/cuda; ls $CUDA_HOME/bin/nvcc\n"
          "python -c \"import torch; print(torch.version.cuda)\"   # None: a CPU-only torch",
          windows="$env:CUDA_HOME = $env:CUDA_PATH; Get-ChildItem \"$env:CUDA_HOME\\bin\\nvcc.exe\"", program=True),
    # numpy post-processing that does not fit the engine's outputs (jkjung-avt/tensorrt_demos#267, #133: "cannot reshape
    # array of size 3132 into shape (7)")
    _Kind(_rx(r"cannot reshape array of size (?P<size>\d+) into shape \((?P<name>[^)]{0,80})\)"),
          "The code's post-processing reshapes an output of {size} values into shape ({name}), which does not fit it: the "
          "engine's outputs (their number, shapes, the input size or class count it was built for) are not what this "
          "code was written for. Print the engine's inputs and outputs and compare them with what the code assumes; "
          "rebuild the engine with the project's own conversion step for this model if they differ.",
          "polygraphy inspect model <model>.engine   # the engine's inputs and outputs with their shapes",
          program=True),
    # CMake's add_subdirectory on an empty folder (under "CMake Error at CMakeLists.txt:N (add_subdirectory):"; the folder
    # is on the line before): a git submodule that was never fetched (onnx-tensorrt's third_party/onnx, pybind11)
    _Kind(_rx(r"^\s*does not contain a CMakeLists\.txt file"),
          "CMake's add_subdirectory found no CMakeLists.txt in the folder named on the line before: a git submodule that "
          "was not fetched (third_party/..., pybind11). Fetch the submodules (a pip install from a git URL or an archive "
          "has none: clone with --recursive), then configure again.",
          "git submodule update --init --recursive\ngit submodule status | head", program=True),
    # CMake reading a Windows path's backslashes as escapes ("Invalid escape sequence \P" in
    # "C:\Program Files\NVIDIA GPU Computing Toolkit\..."; CrazyAra#67)
    _Kind(_rx(r"^\s*Invalid escape sequence (?P<name>\\\S)"),
          "CMake read `{name}` in a Windows path as an escape sequence: a path written with backslashes in a CMakeLists, "
          "a -D value or an environment variable. Write it with forward slashes (C:/Program Files/...), or use "
          "file(TO_CMAKE_PATH ...) on a variable that holds a Windows path.",
          None, windows="Select-String -Path CMakeLists.txt -Pattern '\\\\' | Select-Object -First 5", program=True),
    # docker build without a file its Dockerfile copies (TensorRT OSS's cross-compile image: docker/jetpack_files,
    # which SDK Manager downloads; TensorRT#1671)
    _Kind(_rx(r"COPY failed: (?:file not found in build context|forbidden path)[^\n]{0,80}?stat (?P<name>\S{1,200}): "
              r"file does not exist"
              r"|COPY failed: stat [^\n]{0,200}?(?P<name>[^\s/]\S{0,200}): no such file or directory"),
          "docker build found no `{name}` in the build context (the folder given to docker build, minus .dockerignore): "
          "the file must be there before the build - a download step of the project's README (TensorRT OSS's "
          "cross-compile images need the JetPack files from SDK Manager in docker/jetpack_files), or the build was run "
          "from another folder than the one the Dockerfile expects.",
          "ls -la {name}; cat .dockerignore 2>/dev/null | head", program=True),
    # pip refusing a wheel file that is not a zip (a Git LFS pointer, a cut download; ChatRTX#116)
    _Kind(_rx(r"Wheel '(?P<pkg>[^']{1,100})' located at (?P<name>\S{1,300}\.whl) is invalid"),
          "pip could not read the wheel file `{name}`: it is not a whole wheel - a Git LFS pointer (the repository was "
          "cloned without git-lfs, so the file is a few hundred bytes of text) or a cut download. Check its size and "
          "first bytes, then fetch it again (git lfs pull in the repository, or download it again).",
          "ls -l {name}; head -c 120 {name}",
          windows="Get-Item {name} | Select-Object Length; Get-Content {name} -TotalCount 2", program=True),
    # TensorRT-LLM naming the build option its engine lacks ("When KV cache block reuse is set, model has to be built with
    # paged context FMHA", tensorrtllm_backend; "KV-cache-less is only supported for context", batch 23)
    _Kind(_rx(r"KV-cache-less is only supported for context"),
          "The TensorRT-LLM engine was built without a KV cache (--kv_cache_type disabled): such an engine runs only the "
          "context (prefill) phase, and generating tokens needs a KV cache. Build it again with the paged KV cache.",
          "trtllm-build --checkpoint_dir <checkpoint> --output_dir <engine dir> --kv_cache_type paged"),
    _Kind(_rx(r"(?:model|engine) (?:has to|must) be built with (?P<name>[\w -]{3,60}?)\s*(?:\(|$|[.;])"),
          "The TensorRT-LLM engine was built without what this run needs (`{name}`): build it again with that option "
          "(trtllm-build --help names it: --use_paged_context_fmha enable, a paged KV cache), or turn off the runtime "
          "feature that needs it (the model's config.pbtxt parameters, e.g. enable_kv_cache_reuse false).",
          "trtllm-build --help | grep -i -E 'paged|kv_cache|fmha'\n"
          "grep -o '\"plugin_config\": {[^}]*}' <engine dir>/config.json   # what the engine was built with"),
    # jetson-utils' CUDA call failing with CUDA's unknown error (dusty-nv/jetson-inference#1788: gone when run as root;
    # #1901, #1358 in the camera and display code)
    _Kind(_rx(r"^\[cuda\]\s+unknown error \(error 999\)"),
          "CUDA failed with its unknown error (999) in jetson-utils' camera, colour or display code (the [cuda] line after "
          "this one names the file), not in the model: on Jetson, most often a user without access to the GPU devices "
          "(it works as root: add the user to the `video` group and log in again), or a GPU left in a bad state by an "
          "earlier crash (reboot). Try the camera alone with video-viewer.",
          "groups | grep -w video || sudo usermod -aG video $USER   # then log out and in\n"
          "video-viewer /dev/video0 --headless   # the camera without any model", program=True),
    # a jetson-inference / jetson-utils Python binding refusing its arguments without an exception (#1299: poseNet.Process
    # given a cv2 image)
    _Kind(_rx(r"SystemError: <built-in method (?P<name>\w+) of (?P<cls>jetson[._](?:inference|utils)\.(?P<short>\w+)) object at "
              r"0x[0-9a-fA-F]+> returned NULL without setting an error"),
          "The {cls} binding's `{name}` refused its arguments without saying why: most often an image that is not a "
          "cudaImage (a numpy array from cv2: convert it with jetson_utils.cudaFromNumpy, in RGB order), or the arguments "
          "in another order or type than this release's binding takes. Check its signature.",
          "python3 -c \"import jetson_inference, jetson_utils; help(jetson_inference.{short}.{name})\"",
          program=True),
    # jetson-utils drawing with CUDA-OpenGL interop and no display (dusty-nv/jetson-inference, batch 23)
    _Kind(_rx(r"invalid OpenGL or DirectX context \(error 219\)"),
          "CUDA could not use an OpenGL context: the program opens a display window (glDisplay, the default output) "
          "and there is no display for it - an SSH session without X forwarding, a container without the X socket, a "
          "board with no screen attached. Run it headless (another output: a file, an RTP/RTSP stream, --headless) or "
          "give it the display (DISPLAY, and the X11 socket in the container).",
          "echo $DISPLAY; ls /tmp/.X11-unix\n<program> --headless <input> output.mp4   # or an rtp:// output",
          program=True),
    # pkg-config (CMake's pkg_check_modules) without a package: "None of the required 'zlib' found" (TensorRT OSS on
    # Windows, batch 22)
    _Kind(_rx(r"None of the required '(?P<name>[^']{1,100})' found"),
          "CMake's pkg-config lookup found no `{name}`: install its development package (Linux: the -dev / -devel "
          "package; Windows: vcpkg, then pass its toolchain file to CMake), or point the build at where it is.",
          "pkg-config --modversion {name}; apt-cache search {name} | grep -- -dev | head -3",
          windows="vcpkg install {name}:x64-windows\n"
                  "cmake -B build -DCMAKE_TOOLCHAIN_FILE=<vcpkg>/scripts/buildsystems/vcpkg.cmake",
          program=True),
    # ctest's summary of a test program that failed (onnxruntime's build with the TensorRT EP, batch 22)
    _Kind(_rx(r"^\s*\d+/\d+ Test +#\d+: (?P<name>\S+) \.*\s*\*{3}(?:Failed|Exception|Timeout)"),
          "The test program `{name}` failed; ctest's line does not say which case. Run it alone with its output: the "
          "first failing case and its message are there (a test that needs a GPU, a model file or a network download "
          "fails differently from a broken build).",
          "ctest -R {name} --output-on-failure 2>&1 | grep -m5 -E 'FAILED|Failure|error'", program=True),
    # Open MPI stopping every rank (TensorRT-LLM's executor, Triton's tensorrtllm backend)
    _Kind(_rx(r"MPI_ABORT was invoked on rank (?P<name>\d+)"),
          "Open MPI stopped every process because rank {name} gave up: the error that made it do so is that rank's own "
          "output, earlier than this banner (its first [TensorRT-LLM][ERROR] or exception line). Find that line in the "
          "whole log of rank {name}.",
          "grep -n -m5 -E 'ERROR|Error|Exception|Assertion' <the whole log>"),
    # Windows' loader refusing to start a program ("The code execution cannot proceed because opencv_world490d.dll was
    # not found", depth-anything-tensorrt#9): a DLL of a library the program links, not TensorRT's (the KB has those)
    _Kind(_rx(r"(?:The code execution cannot proceed because|The program can't start because) (?P<name>[^\s\\/]{1,200}"
              r"\.dll) (?:was not found|is missing)"),
          "Windows could not start the program: `{name}` is neither beside the .exe nor in a folder on PATH. Copy it "
          "from the library's bin folder (OpenCV: build\\x64\\vc16\\bin) next to the .exe, or add that folder to PATH; "
          "a name ending in `d` before .dll is a Debug build's DLL, which only a Debug build of the program asks for.",
          None, windows="where.exe {name}\n$env:PATH -split ';'", program=True),
    # zsh globbing a package extra before pip runs ("zsh: no matches found: streamdiffusion[tensorrt]")
    _Kind(_rx(r"^zsh: no matches found: (?P<name>\S*\[[^\]\s]+\]\S*)"),
          "zsh read the square brackets of `{name}` as a file pattern and never ran the command: quote the requirement.",
          "pip install {name}", program=True),
    _Kind(_rx(r"^malformed launch argument '(?P<name>[^']{1,200})'"),
          "ros2 launch read `{name}` as a launch argument: it did not find the package named before it, most often "
          "because this shell has not sourced the workspace that built it. Source the workspace's setup file in this "
          "shell, then launch again.",
          "source install/setup.bash   # in the workspace that built the package\nros2 pkg list | grep -i <package>",
          program=True),
    _Kind(_rx(r"manifest for (?P<name>\S+) not found: manifest unknown|manifest unknown"),
          "The registry has no image[[ `{name}`]]: the tag does not exist (an image published without `latest`, or for "
          "another platform or release). List the tags the project publishes and pull one of those.",
          "docker manifest inspect <image>:<tag>   # a tag from the project's README or registry page", program=True),
    _Kind(_rx(r"unable\\? to\\? connect\\? to\\? broker\\? library|Could not configure supporting library"),
          "DeepStream's message broker sink (nvmsgbroker) could not start: its protocol library (proto-lib, e.g. "
          "libnvds_kafka_proto.so) could not connect to the broker at conn-str, or the library path is wrong. Check that "
          "the broker (Kafka, MQTT, AMQP, Redis) runs and is reachable from this machine, and the sink's proto-lib, "
          "conn-str and topic; or turn the msgconv/msgbroker sink off to run the pipeline without it.",
          "grep -n -A8 'msg-broker\\|type=6' <deepstream_app_config>.txt"),
    # a server that cannot listen: Triton's "failed to start HTTP service: Unavailable - Socket '0.0.0.0:1111' already in
    # use" (PyTriton's own start, first-sight batch 26), Python's "[Errno 98] ... address already in use"
    _Kind(_rx(r"Socket '(?P<host>[^'\s]{0,80}?):(?P<name>\d{2,5})' already in use"
              r"|\[Errno (?:98|48|10048)\][^\n]{0,120}?\('(?P<host>[^']{0,80})', (?P<name>\d{2,5})\)"
              r"[^\n]{0,40}?address already in use"
              r"|\b[Aa]ddress already in use\b"),
          "Another process already listens on port {name}: an earlier server still running (a restarted container, "
          "a second instance, another service). Stop it, or start this one on free ports (tritonserver --http-port / "
          "--grpc-port / --metrics-port; PyTriton: TritonConfig(http_port=..., grpc_port=..., metrics_port=...)).",
          "sudo ss -ltnp | grep ':{name} '        # the process holding the port",
          windows="Get-NetTCPConnection -LocalPort {name} | Select-Object LocalAddress, LocalPort, OwningProcess",
          default="<port>"),
    _Kind(_rx(r"^<?\s?HTTP/\d(?:\.\d)? (?P<name>4\d\d)\b"),
          "The server answered {name}: the request reached a server that refused it - a wrong path, model name or "
          "version (404), a missing token (401/403), or a body in the wrong form (400). Check the URL and the model's "
          "name and version against the server's model list; behind an ingress (KServe, Knative, Istio) the Host "
          "header must be the service's own host name.",
          "curl -v http://<host>:<port>/v2/models/<model>   # Triton/KServe v2; the server's own model list"),
    _Kind(_rx(r"^Try ['\"](?P<name>[^'\"]{1,200}) --help['\"] for help"),
          "`{name}` refused its command line (Click prints this line only after a usage error; the line after it, "
          "\"Error: ...\", says which option or path). Compare the command with `{name} --help`: a missing argument, a "
          "path that does not exist, an option of another release.",
          None, program=True),
    _Kind(_rx(r"internal compiler error: Killed \(program (?P<name>[\w+-]+)\)|\bc\+\+: fatal error: Killed signal terminated "
              r"program (?P<name>[\w+-]+)"),
          "The compiler (`{name}`) was killed: the machine ran out of memory while compiling, most often with many "
          "parallel jobs on a Jetson or a small VM. Build with fewer jobs, and add swap on a Jetson.",
          "make -j2        # bazel: --jobs=2 --local_ram_resources=HOST_RAM*.5; pip/setup.py: MAX_JOBS=2\n"
          "sudo fallocate -l 8G /swapfile && sudo chmod 600 /swapfile && sudo mkswap /swapfile && sudo swapon /swapfile",
          program=True),
    _Kind(_rx(r"Config value '?(?P<name>[\w-]+)'? is not defined in any \.rc file|no such package "
              r"'@(?P<name>local_config_\w+)//"),
          "bazel does not know[[ `{name}`]]: the project's configure step was not run in this checkout (it writes the "
          ".bazelrc entries and the local_config_* repositories, TensorRT's among them), or this bazel release is not "
          "the one the project asks for. Run the project's configure (TensorFlow: ./configure, answering the TensorRT "
          "questions) with its bazel version, then build again.",
          "./configure          # the project's own; then the build command from its README\nbazel --version",
          program=True),
    _Kind(_rx(r"(?:cannot find|\u627e\u4e0d\u5230) -l(?P<name>[\w.+-]+)"),
          "The linker cannot find lib{name}: install its development package, or give the folder that holds it to the "
          "build (-L / CMAKE_PREFIX_PATH / LIBRARY_PATH). A library of the project itself (no package has it) is made "
          "by an earlier step of the same build: build that target first (its own error, if it failed, comes before "
          "this line), and look for it under the build folder - a Debug build may name it lib{name}_debug.",
          "ldconfig -p | grep lib{name}\nfind . /usr/local -name lib{name}\\* 2>/dev/null | head   # the project's own build"),
    _Kind(_rx(r"undefined reference to [`'](?P<name>[^'`(\s]{1,200})(?:\([^'`]{0,600}\))?(?: const)?(?:['`]|\s*$)"
              # MSVC's demangled name: access and calling convention first ("public: __cdecl ns::Cls::Cls(void)")
              r"|unresolved external symbol \"?(?:(?:public|private|protected): )?(?:(?:static|virtual) )?"
              r"(?:[^\"(]{0,200}? )?(?:__cdecl |__stdcall |__fastcall |__thiscall )?(?P<name>[\w:~<>]{1,200})(?=\()"
              r"|unresolved external symbol \W?(?P<name>[^\s\"(]{1,120})"),
          "A symbol the program uses (`{name}`) is in none of the libraries it links: add the library that defines it "
          "to the link, or rebuild that library with the same compiler, ABI and release (a header from one release "
          "and a library from another give the same error).",
          None),
    _Kind(_rx(r"bad file '(?P<name>[^']+)'|[Ee]rror (?:parsing|loading|reading) (?:config(?:uration)? )?(?:file )?'?"
              r"(?P<name>[^\s':]+\.(?:ya?ml|json|txt|cfg|ini|pbtxt))|yaml: line (?P<line>\d+)"),
          "The configuration file[[ `{name}`]] does not parse[[ (line {line})]]: open it at that line; the mistake "
          "is usually an indentation, a tab or a missing colon or quote.",
          None),
    _Kind(_rx(r"failed to open text file for read (?P<name>\S*config\.pbtxt)"),
          "Triton found no `{name}` for this model: write it (platform \"tensorrt_plan\", max_batch_size, the engine's "
          "inputs and outputs), or let Triton generate it from the model - from 22.07 (Triton 2.24) it does unless "
          "--disable-auto-complete-config is given; before, only with --strict-model-config=false.",
          "tritonserver --model-repository=/models --strict-model-config=false   # before 22.07: generate the config"),
    # gcc in any locale ("NvInfer.h: 没有那个文件或目录", zh_CN), MSVC's C1083 ("无法打开包括文件: “unistd.h”", a Chinese
    # Visual Studio)
    _Kind(_rx(r"fatal error: (?P<name>[\w./+-]+?(?:\.(?:h|hh|hpp|hxx|cuh|inl))?): (?:No such file or directory"
              r"|\u6ca1\u6709\u90a3\u4e2a\u6587\u4ef6\u6216\u76ee\u5f55)"
              r"|fatal error C1083: (?:Cannot open include file|\u65e0\u6cd5\u6253\u5f00\u5305\u62ec\u6587\u4ef6): "
              r"[\"'\u201c](?P<name>[\w./+-]+)[\"'\u201d]"),
          "The compiler cannot find the header `{name}`: the library it belongs to is not installed with its headers, "
          "or was built without that part (OpenCV without its dnn module, DeepStream's sources not installed), or its "
          "include folder is not given to the build (-I, include_directories, CPATH). Find which package holds it. "
          "A POSIX header (unistd.h, dlfcn.h, sys/time.h) under MSVC means code written for Linux: it needs a Windows "
          "port of that part, not another install.",
          "find / -path '*/'{name} 2>/dev/null | head",
          windows="Get-ChildItem -Path C:\\ -Recurse -Filter {name} -ErrorAction SilentlyContinue | "
                  "Select-Object -First 3 FullName"),
    _Kind(_rx(r"(?:file://)?(?P<name>[^\s:]\S*) does not appear to be a Python project: "
              r"neither 'setup\.py' nor 'pyproject\.toml' found"),
          "pip was pointed at `{name}`, a folder with no setup.py or pyproject.toml: run it on the folder of the project "
          "that has one (often the repository's root or its python/ folder, not the build folder).",
          "ls {name}/.. | head; python -m pip install -e <the folder that holds setup.py>"),
    _Kind(_rx(r"(?:No such file or directory|(?:cannot|[Cc]ould not|[Uu]nable to) open file|cannot stat"
              r"|[Ff]ailed to (?:open|load|read) (?:\w+ )?file)"
              r"[:\s'\"]{0,4}(?P<name>[^\s'\"]*[/\\.][^\s'\"]*)"
              r"|(?:^|\s)(?P<name>[^\s'\":;]*[/\\.][^\s'\":;]*)[:;] (?:No such file or directory|cannot open)"
              r"|[\"'](?P<name>[^\"']*[/\\][^\"']*)[\"']\W{0,3}(?:\(?No such file or directory|not found|does not exist)"
              r"|[Mm]issing (?:[\w-]+ ){0,2}file:?\s['\"]?(?P<name>[^\s'\"]*[/\\.][^\s'\"]*)"),
          "The run needs `{name}` and it is not there: check the path (a relative path starts from the folder the "
          "program runs in) and that the step that makes or downloads the file ran and succeeded.",
          "ls -l {name}; pwd", "dir {name}; pwd"),
    # CMake's find_library / find_path that found nothing (the message under "CMake Error at ... (find_library):")
    _Kind(_rx(r"Could not find (?P<name>[A-Z][A-Z0-9_]{1,60}) using the following names: (?P<lib>[^\s,]{1,120})"),
          "CMake looked for {lib} (`{name}`) and found it nowhere it searches: that library is not built or installed "
          "yet (a prerequisite of this build - build it first), or it is in a folder CMake is not told about. Build or "
          "install it, then give CMake its path.",
          "find / -name '{lib}*' 2>/dev/null | grep -v /proc/ | head\n"
          "cmake -D{name}=<the path find printed> ..   # or: -DCMAKE_PREFIX_PATH=<its install prefix>",
          program=True),
    # the linker finding one symbol in two object files (tvm#7436: one source compiled into two targets linked together)
    _Kind(_rx(r"multiple definition of [`'\u2018](?P<name>[^'\u2019(<\n]{1,300})"),
          "Two object files linked together both define `{name}`: the same source is compiled into two targets that end "
          "up in one library (a CMake glob or a source list that names the file twice, an optional component switched "
          "on twice), or a function is defined in a header without `inline`. Find which targets compile the file that "
          "defines it (the 'first defined here' line names both objects) and keep it in one.",
          "grep -rn --include=CMakeLists.txt --include='*.cmake' -e '<the .cc file that defines it>' .",
          program=True),
    # a program named by its path that is not there ("sudo: ./yolov5: command not found": the build made another name)
    _Kind(_rx(r"(?:^|[\s:])(?P<name>\.{0,2}/[\w./+-]{1,200}): (?:command )?not found\s*$"),
          "`{name}` does not exist at that path: the build that makes it failed or made it under another name (a "
          "project's README may name an older target), or the command ran from another folder. List what the build "
          "made, then run that file from the folder that holds it.",
          "ls -l {name}; ls -l $(dirname {name})"),
    # a script whose #! line asks for `python` where only python3 exists (Ubuntu 20.04+, JetPack 5+)
    _Kind(_rx(r"/usr/bin/env: ['\u2018\"](?P<name>python[\d.]*)['\u2019\"]: No such file or directory"),
          "The script's first line runs `{name}`, and this system has no command of that name (Ubuntu 20.04 and later, "
          "JetPack 5 and later install only python3). Run the script with python3, or install the package that makes "
          "`python` mean python3.",
          "command -v python3 {name}\nsudo apt-get install python-is-python3   # or: python3 <script>"),
    # a process the kernel killed: ROS 2 launch's "process has died [pid 10259, exit code -9, ...]", a shell's 137
    _Kind(_rx(r"process has died \[pid \d+, exit code (?P<name>-9|137)\b|exited with (?:exit )?code (?P<name>137)\b"),
          "The process was killed (signal 9, exit code {name}): most often the kernel's out-of-memory killer (a Jetson "
          "or container short of RAM while it loads or builds a model), else someone or something stopped it. Look for "
          "the kernel's OOM record and the memory in use; add swap or free memory, or use a smaller model or batch.",
          "sudo dmesg | grep -i -E 'out of memory|killed process' | tail -5; free -h"),
    # pip refusing a wheel whose tags do not fit this interpreter or CPU (a cp36 wheel for a Python 3.8, an aarch64 one on x86)
    _Kind(_rx(r"(?P<name>\S+\.whl) is not a supported wheel on this platform"),
          "pip refuses `{name}`: its tags (cpXY: the Python version; the platform: aarch64 / x86_64, manylinux / linux) "
          "do not fit the Python that runs pip. Use the wheel built for this Python and CPU (on Jetson, for its JetPack "
          "and its python3), or run pip from the Python the wheel was built for.",
          "python3 -m pip --version; python3 -c \"import sys, platform; print(sys.version, platform.machine())\""),
    # pip run with nothing to install: a path argument lost from the command line ("pip install -v ... ./")
    _Kind(_rx(r"You must give at least one requirement to install"),
          "pip was given no package or path to install: the last argument of the command (a package name, or `.` / "
          "`./` for the project in this folder) is missing, or a line break in a copied multi-line command cut it off.",
          None, program=True),
    # docker: an image name or tag that does not exist on the registry (or needs a login)
    _Kind(_rx(r"pull access denied for (?P<name>[^\s,]{1,200}), repository does not exist"),
          "Docker found no image `{name}`: the name or tag does not exist on that registry (an image published only for "
          "some JetPack / L4T releases, a tag typed from an old README), or it is private and needs docker login. Check "
          "the image's tag list on its registry page and use a tag that exists for your platform.",
          "docker search {name} | head; cat /etc/nv_tegra_release 2>/dev/null   # Jetson: the L4T release to match"),
    _Kind(_rx(r"(?:^|[\s:])(?P<name>[\w.+-]{2,40}): (?:command )?not found\s*$"
              r"|'(?P<name>[\w.+-]{2,40})' is not recognized as an internal or external command"),
          "`{name}` is not installed, or not on PATH for the shell that ran the command.",
          "command -v {name} || echo 'not on PATH'", "Get-Command {name}"),
    _Kind(_rx(r"unknown or invalid runtime name: nvidia|[Uu]nknown runtime specified nvidia"
              r"|could not select device driver \"[^\"]*\" with capabilities: "
              r"\[\[gpu\]\]"),
          "Docker cannot give the container a GPU: the NVIDIA Container Toolkit is missing or not configured for this "
          "Docker. Install it, configure Docker's runtime, restart Docker, then start the container with --gpus all.",
          "sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker\n"
          "docker run --rm --gpus all ubuntu nvidia-smi"),
    _Kind(_rx(r"error sending request for url \((?P<name>https?://[^\s)]+)\)|Failed to establish a new connection"
              r"|Connection (?:refused|timed out|reset by peer)|Temporary failure in name resolution|^error: incomplete-download"
              r"|Could not resolve host(?:: (?P<name>\S+))?"),
          "A download or request failed on the network[[ (`{name}`)]]: check that this machine (or container) reaches it "
          "- proxy, DNS, a firewall, or an expired or missing API key for that service.",
          None),
    _Kind(_rx(r"(?P<name>/[^\s:'\"]+)['\"]?: Permission denied|Permission denied: '(?P<name>[^'\s]+)'?"),
          "The program may not read or write `{name}`: check its owner and mode (a file made by root in a container, "
          "a read-only mount).",
          "ls -l {name}; id"),
    _Kind(_rx(r"^\s*KeyError: (?P<q>['\"])(?P<name>[^'\"]{1,120})(?P=q)\s*$"),
          "The code looks up `{name}` and finds no such key. When `{name}` is an input or output tensor name, the engine "
          "(or its ONNX) was made by another export than the one this code expects - names such as num_detections / "
          "num_dets or output0 differ between exporters and releases: list the engine's I/O names, then export with "
          "the project's own script or change the names in its code.",
          "polygraphy inspect model model.engine    # the engine's input and output names", program=True, stackless=True),
    # an app that cannot write its engine cache ("[TRT] failed to open engine cache file for writing
    # /usr/local/bin/networks/...engine", jetson-inference's networks folder installed by root)
    _Kind(_rx(r"failed to (?:open|write) (?:the )?engine (?:cache )?file for writing:? (?P<name>\S+)"),
          "The engine was built but could not be saved to `{name}`: that folder is not writable for this user (a models "
          "folder installed by root, a read-only mount in a container). The app builds the engine again on every start "
          "until it can write there: give this user write access to the folder, or point the app at a writable copy.",
          "ls -ld \"$(dirname {name})\"\nsudo chown -R \"$USER\" \"$(dirname {name})\""),
    # every GPU busy: another process holds it in an exclusive compute mode ("all CUDA-capable devices are busy or
    # unavailable", cudaErrorDevicesUnavailable)
    _Kind(_rx(r"(?P<name>cudaErrorDevicesUnavailable|all CUDA-capable devices are busy or unavailable)"),
          "CUDA found the GPU but cannot use it: it is in an exclusive compute mode and another process holds it, or "
          "it is unavailable (a MIG or vGPU setup without a slice for this process). See which processes use it and its "
          "compute mode; stop the other process or set the default mode.",
          "nvidia-smi --query-gpu=name,compute_mode --format=csv\nnvidia-smi --query-compute-apps=pid,process_name "
          "--format=csv\nsudo nvidia-smi -c DEFAULT    # if the mode is EXCLUSIVE_PROCESS and that is not wanted"),
    # a compiled engine given inputs of another dtype (Torch-TensorRT's execute_engine: "Expected input tensors to have
    # type Half, found type float")
    _Kind(_rx(r"Expected input tensors to have type (?P<name>\w+), found type (?P<got>\w+)"),
          "The compiled engine takes {name} inputs and was given {got}: cast the inputs to the engine's type before the "
          "call (an FP16 engine: x.half()), or compile it for the dtype you pass (torch_tensorrt.Input(dtype=...)).",
          None),
    # TensorFlow reading a graph that a newer TensorFlow wrote ("NodeDef mentions attr 'incompatible_shape_error' not in
    # Op<...>; ... Check whether your GraphDef-interpreting binary is up to date with your GraphDef-generating binary.")
    _Kind(_rx(r"NodeDef mentions attr '(?P<name>\w+)' not in Op<"),
          "The graph was written by a newer TensorFlow than the one reading it (attribute `{name}` is unknown to this "
          "release): export it with the TensorFlow release of the runtime (a TF-TRT script, TF Serving, Triton's "
          "TensorFlow backend), or move the runtime to the exporting release.",
          None),
    # TensorRT's objects belong to the GPU that was current when they were made ("Builder was created on device
    # different than current device.", mmdeploy with --device cuda:1)
    _Kind(_rx(r"(?P<name>Builder|Runtime|Engine|[Ee]xecution context) was created on device different than current "
              r"device"),
          "The {name} was created while one GPU was current and used while another was: TensorRT's objects belong to "
          "the device current when they were made. Make the GPU you want current before creating the builder (or "
          "runtime) and keep it current for the whole build and run - or expose only that GPU to the process, so it "
          "is device 0.",
          "CUDA_VISIBLE_DEVICES=1 <your command>   # then ask for device 0 (cuda:0) inside the program",
          windows="$env:CUDA_VISIBLE_DEVICES = \"1\"; <your command>   # then device 0 (cuda:0) inside the program"),
    # a shape computed through a layer TensorRT cannot use for shapes ("Layer: Where_295's output can not be used as
    # shape tensor.", "(Unnamed Layer* 426)[Select]'s output ...": TensorRT 7 and ONNX exports with shape arithmetic)
    _Kind(_rx(r"Layer: (?P<name>.{1,200}?)'s output can not be used as shape tensor"),
          "The exported graph computes a shape through `{name}` (a Where/Select), which this TensorRT cannot use as a "
          "shape tensor. Export with fixed input shapes and fold the shape arithmetic into constants (onnx-simplifier, "
          "or Polygraphy's constant folding), export with the exporter release the project names (maintainers pointed "
          "YOLOv4's case at PyTorch 1.5's export), or build with a newer TensorRT and its ONNX parser.",
          "polygraphy surgeon sanitize model.onnx --fold-constants -o folded.onnx   # with fixed input shapes\n"
          "trtexec --onnx=folded.onnx --saveEngine=model.engine"),
    # OpenCV cannot read the input ("imread_('%01d.jpg'): can't open/read file: check file path/integrity")
    _Kind(_rx(r"imread_?\('(?P<name>[^']{1,300})'\): can't open/read file"),
          "OpenCV could not read the input image `{name}`: the path does not exist from the program's working "
          "directory, is not an image OpenCV reads, or (a name with %d in it) was taken as a numbered sequence. Check "
          "the path the program was given against the folder it runs in.",
          "ls -l {name}; pwd",
          windows="Get-Item {name}; Get-Location", program=True),
    # PyTorch given an input of another dtype than the weights (a model in half precision fed float, or back)
    _Kind(_rx(r"Input type \((?P<name>[^)]{1,60})\) and (?:bias|weight) type \((?P<other>[^)]{1,60})\) should be the same"),
          "PyTorch ran a layer whose weights are `{other}` on an input of `{name}`: the model and its input are in "
          "different precisions (a model loaded or cast to half, fed float; or a fallback that switched one and not "
          "the other). Cast the input to the model's dtype (`x.to(next(model.parameters()).dtype)`), or the model to "
          "the input's, before the export or the run that failed.",
          None, program=True),
    # Hugging Face refusing a model id ("401 Client Error ... Repository Not Found for url:
    # https://huggingface.co/api/models/runwayml/stable-diffusion-v1-5/revision/main")
    _Kind(_rx(r"Repository Not Found for url: https://huggingface\.co/(?:api/models/)?(?P<name>[\w.-]+/[\w.-]+)"
              r"|(?:401|403) Client Error[^\n]{0,200}?huggingface\.co/(?:api/models/)?(?P<name>[\w.-]+/[\w.-]+)"),
          "Hugging Face refuses the model `{name}`: it is gated or private (log in with a token and accept its licence "
          "on its page), or it was renamed or removed (runwayml/stable-diffusion-v1-5 was taken down in 2024; a copy "
          "lives at stable-diffusion-v1-5/stable-diffusion-v1-5). Open https://huggingface.co/{name} in a browser, "
          "then log in or point the app at a model id that exists.",
          "huggingface-cli login\nhuggingface-cli download {name} --revision main --include '*.json'   # does it resolve?"),
    # a tool that wrote the reason to a file of its own ("trtexec failed building engine for X (see X.engine.build.log)",
    # bitbake's "Logfile of failure stored in: ...", CMake's "See also .../CMakeError.log")
    _Kind(_rx(r"(?:\(see |[Ll]ogfile of failure stored in: |See also \"|see (?:the )?(?:full )?log (?:at|in) )"
              r"(?P<name>[^\s)\"]{1,400}\.(?:log|txt|out))"),
          "The tool wrote the reason to `{name}`, and this paste does not hold it: open that file and read its first "
          "error (the last lines only repeat that it failed), or run trt-why on it.",
          "trt-why {name}",
          windows="trt-why {name}"),
    # ONNX Runtime's TensorRT provider refusing an option's value ("The value for the key 'trt_engine_cache_enable'
    # should be 'True' or 'False'.")
    _Kind(_rx(r"[Tt]he value for the key '(?P<name>\w+)' should be (?P<value>[^.\n]{1,80})"),
          "ONNX Runtime's TensorRT provider refused the value given for `{name}`: it takes {value}. This release reads "
          "provider options as strings - pass the value quoted, as the message writes it (\"True\", not True or 1).",
          None),
    # pydantic refusing a stack's settings ("2 validation errors for LlmArgs" - TensorRT-LLM, Dynamo, Triton's configs)
    _Kind(_rx(r"\b(?:\d+) validation errors? for (?P<name>[A-Z]\w+)"),
          "`{name}` (the stack's settings) refused the options listed under this line: each names a field and what was "
          "wrong with it. Remove or rename those fields for this release and backend (options of another backend or "
          "release are refused), using the values the messages name.",
          None),
    # TensorRT's API given a null object ("IBuilderConfig::setDeviceType: Error Code 3: API Usage Error (Parameter check
    # failed, condition: (layer) != nullptr. )")
    _Kind(_rx(r"(?P<api>I?\w+::\w+): Error Code 3: API Usage Error \(Parameter check failed,?(?: at: [^,]{1,200},)? "
              r"condition: \(?(?P<name>\w+)\)? != nullptr"),
          "`{api}` was given a null `{name}`: the call that should have produced it returned nothing - an add/get call "
          "that failed (its own error is usually printed just before), an index or name that does not exist in the "
          "network, or an object already destroyed. Check the return value of the call that made `{name}` before "
          "passing it on.",
          None, program=True),
    # CMake configured from a folder below the project's root ("Unknown CMake command \"set_ifndef\"" in TensorRT OSS's
    # samples/CMakeSamplesTemplate.txt, after "No project() command is present")
    _Kind(_rx(r"Unknown CMake command \"(?P<name>\w+)\""),
          "CMake does not know `{name}`: a function the project defines in its top-level CMakeLists (or a module that "
          "one includes), so this folder was configured on its own. Configure from the repository's root (or the "
          "folder its README names), with the options it documents.",
          "cmake -S <repository root> -B build && cmake --build build -j"),
    # Triton's model repository on cloud storage it cannot read ("Could not get MetaData for bucket with name XYZ")
    _Kind(_rx(r"Could not get MetaData for bucket with name (?P<name>\S+)"),
          "The server could not read the bucket `{name}` that holds the model repository: its credentials, region or "
          "endpoint do not reach it from where the server runs (a pod's mounted credentials, a role without list "
          "rights), or the repository path is written in another form than the server expects (s3://bucket/path; "
          "s3://host:port/bucket/path for a custom endpoint). Check the same access from inside the container.",
          "aws s3 ls s3://{name}/   # from inside the server's container or pod, with its credentials\n"
          "env | grep -E '^AWS_(ACCESS_KEY_ID|SECRET_ACCESS_KEY|DEFAULT_REGION|SESSION_TOKEN)=' | cut -d= -f1"),
    # a project's own compiled module that needs a symbol no loaded library defines (jetson_utils_python.so built from
    # one checkout, its library from another)
    _Kind(_rx(r"(?P<name>[^\s:'\"]{1,300}\.(?:so|pyd)[\w.]*): undefined symbol: (?P<symbol>\S{1,300})"),
          "`{name}` needs `{symbol}`, which no library loaded with it defines: it was built against another release "
          "or branch of the library that should define it (a module from one checkout or version installed beside a "
          "library from another, an old copy left in site-packages or /usr/local/lib). Rebuild and reinstall the "
          "whole project from one checkout (the release or branch for your JetPack / platform), after removing the "
          "old install; the second command names the symbol and the library that should hold it.",
          "ldd -r {name} | grep -i undefined | head\necho {symbol} | c++filt",
          program=True),
    # CUDA unusable in this process, reported by a library's own check ("Expected (cudaGetDevice(...) == cudaSuccess) to
    # be true but got false": Torch-TensorRT's runtime in a forked worker)
    _Kind(_rx(r"Expected \((?P<name>cuda\w+)\(.{0,200}\) == cudaSuccess\) to be true but got false"),
          "`{name}` failed inside the library, so CUDA is not usable in this process. The usual reasons: the process "
          "was forked from one that had already used CUDA (CUDA does not survive fork: start the workers fresh - "
          "Python's spawn start method, exec after fork in C++ - or touch CUDA only in the workers), or this process "
          "sees no GPU "
          "(CUDA_VISIBLE_DEVICES, a container without the GPU).",
          "nvidia-smi -L; echo CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES   # a GPU this process may see"),
    # TensorRT's shape check on a layer whose inputs do not fit ("Gemm_848: attempt to multiply two matrices with
    # mismatching dimensions"): the shapes come from the layers before it
    _Kind(_rx(r"(?P<name>[^\s:]{1,200}): attempt to multiply two matrices with mismatching dimensions"),
          "TensorRT's shapes for the inputs of `{name}` do not fit each other, and those shapes come from the layers "
          "before it: a custom plugin's output dimensions (its getOutputDimensions / getOutputShapes) when the model "
          "has plugins, or a Reshape or Flatten exported for another input size. Print the shapes TensorRT computed "
          "layer by layer and find the first that differs from the framework's.",
          "trtexec --onnx=model.onnx --verbose 2>&1 | grep -F -e {name} | head -40\n"
          "polygraphy inspect model model.onnx --show layers | grep -B4 -A4 -F -e {name}",
          windows="trtexec --onnx=model.onnx --verbose 2>&1 | Select-String -SimpleMatch {name} | Select-Object -First 40"),
    # a layer's weights that do not fit the input TensorRT computed for it ("InceptionResnetV1/Conv2d_1a_3x3/convolution:
    # kernel weights has count 864 but 46080 was expected": 160 input channels seen, 3 in the weights)
    _Kind(_rx(r"(?P<name>[^\s:]{1,300}): kernel weights has count (?P<have>\d+) but (?P<want>\d+) was expected"),
          "`{name}` has {have} weights and TensorRT expected {want}: the input it computed for that layer has another "
          "channel count than the weights were made for. Most often the network's input was given in another layout "
          "- height-width-channels dims where channels-first is expected (UFF's register_input takes (C, H, W), or "
          "the NHWC order flag), or the wrong input size - or a layer before it changed the shape. Check the input "
          "shape and order the conversion registered against the model's.",
          None),
    # ROS not finding a node's program ("[rosrun] Couldn't find executable named caffe_ros_node below /root/ws/src/...")
    _Kind(_rx(r"Couldn't find executable named (?P<name>\S+)(?: below (?P<pkg>\S+))?"
              r"|can't locate node \[(?P<name>[^\]\s]+)\] in package \[(?P<pkg>[^\]\s]+)\]"),
          "ROS found no built program `{name}`[[ in `{pkg}`]]: the package was not built (or its build failed earlier), "
          "or this shell has not sourced the workspace that built it. Build the workspace, read the build's first "
          "error if it fails, then source its setup file in the shell that runs the node.",
          "catkin_make        # ROS 1 (or: catkin build); ROS 2: colcon build --packages-select <package>\n"
          "source devel/setup.bash   # ROS 2: source install/setup.bash",
          program=True),
    # the linker given a file that is not a library: a truncated download, a Git LFS pointer in place of the archive
    _Kind(_rx(r"(?P<name>[^\s:]{1,300}\.(?:a|so[\d.]*|lib|o)):(?:\d+:)? (?:file (?:format )?not recognized"
              r"(?P<detail>[^\n]{0,60}))"),
          "The linker cannot read `{name}` as a library[[ ({detail})]]: the file is not one - a download that stopped "
          "early (truncated), or a Git LFS pointer (a few lines of text) checked out in place of the real archive. Look "
          "at its size and first bytes; fetch the LFS objects, or download and unpack the package again.",
          "ls -l {name}; head -c 200 {name} | cat -v\ngit lfs install && git lfs pull   # in a git checkout"),
    # a library or program built for another CPU: an x86_64 TensorRT tar or docker image on an aarch64 Jetson
    _Kind(_rx(r"(?P<name>[^\s:]{1,300}): error adding symbols: [Ff]ile in wrong format"
              r"|(?P<exec>exec(?: user process caused)?: exec format error|cannot execute binary file: Exec format error)"),
          "The program, library or image[[ `{name}`]] is built for another CPU than this machine (typically an x86_64 "
          "TensorRT tar, library or docker image on an aarch64 Jetson, or an arm64 one on a PC). On Jetson use "
          "JetPack's own TensorRT (/usr/lib/aarch64-linux-gnu, the nvidia-jetpack packages) and l4t / arm64 images; on "
          "a PC, the x86_64 downloads. Compare the file's architecture with the machine's.",
          "uname -m; file -L {name}\ndocker image inspect --format '{{.Architecture}}' <image>   # for a container"),
    # nvcc asked for a GPU architecture its CUDA release does not know
    _Kind(_rx(r"nvcc (?:fatal|error)\s*: (?:Unsupported gpu architecture|Value '?\w+'? is not defined for option "
              r"'gpu-architecture') '?(?P<name>(?:compute|sm)_\w+)"),
          "This CUDA release's nvcc does not know `{name}`: the build's architecture list (CMAKE_CUDA_ARCHITECTURES, "
          "-gencode/-arch flags, TORCH_CUDA_ARCH_LIST) asks for a GPU newer than this toolkit supports, or one that a "
          "later CUDA renamed. List what this nvcc knows, then drop `{name}` from the list or build with the CUDA "
          "release that knows it.",
          "nvcc --version | tail -2; nvcc --list-gpu-arch\ngrep -rnE 'CUDA_ARCHITECTURES|gencode|arch=' --include=CMakeLists.txt "
          "--include='*.cmake' . | head"),
    # dnf / yum / bitbake (Yocto) without a package the recipe or the install needs
    _Kind(_rx(r"nothing provides (?P<name>\S+) needed by (?P<by>\S+)"),
          "The package manager has no package that provides `{name}`, which `{by}` needs: the feed or layer that "
          "has it is missing, or it is named otherwise in this release (a Yocto layer of another branch, a CUDA or "
          "JetPack release without it). Add the layer or repository that provides it, or use the recipe's branch "
          "that matches your BSP and CUDA.",
          None),
    # valgrind's or compute-sanitizer's report on a CUDA / TensorRT program: leaks, invalid frees
    _Kind(_rx(r"^==\d+==\s+(?P<name>Invalid (?:free|delete|read|write)|Mismatched free|ERROR SUMMARY|definitely lost"
              r"|[\d,]+ (?:\([\d,]+ direct, [\d,]+ indirect\) )?bytes in [\d,]+ blocks are (?:definitely|possibly) lost)"
              r"|^=========\s+(?P<name>Leaked \d+ bytes|Invalid __\w+__ (?:read|write)|Program hit )"),
          "valgrind or compute-sanitizer reports `{name}`. In a CUDA / TensorRT program, blocks allocated inside "
          "libcuda, libnvinfer or libcudnn and still held at exit are mostly the driver's and TensorRT's own "
          "process-wide pools and caches, which valgrind cannot tell from leaks; an invalid free or access, or a "
          "block allocated from your own code, is a real bug. Tell them apart: run the step that seems to leak many "
          "times in one process and watch the memory (a real leak grows with each run), and check the destruction "
          "order (execution contexts, then engines, then the runtime or builder, before CUDA is torn down at exit).",
          "compute-sanitizer --tool memcheck --leak-check full ./your_app   # device memory\n"
          "/usr/bin/time -v ./your_app 2>&1 | grep 'Maximum resident'     # host memory: compare 1 run and 100",
          windows="compute-sanitizer --tool memcheck --leak-check full .\\your_app.exe   # device memory\n"
                  "Get-Process your_app | Select-Object PeakWorkingSet64   # host memory, while it runs: 1 run and 100",
          program=True),
    # a TensorRT limit the message states ("/TopK: K exceeds the maximum value allowed (3840)")
    _Kind(_rx(r"(?P<name>[^\s(:]{1,200}): K exceeds the maximum value allowed \((?P<max>\d+)\)"),
          "TensorRT's TopK takes K up to {max}, and `{name}` asks for more: lower K where the model is made (a "
          "detector's pre-NMS top-k, a decoder's candidate count) and export again, or run that TopK outside TensorRT "
          "(after the engine, in the program).",
          None),
    # a stack's release that does not know the model ("Unknown architecture for AutoModelForCausalLM:
    # ExaoneForCausalLM", TensorRT-LLM's "Currently supported multi-modal models are llava, ... Got qwen2_vl.")
    _Kind(_rx(r"(?:[Uu]nknown|[Uu]nsupported) (?:model )?architecture(?: for \w+)?:? ['\"]?(?P<name>[\w.-]+)"
              r"|[Mm]odel (?:type |architecture )?['\"]?(?P<name>[\w.-]+)['\"]? is not (?:yet )?supported"
              r"|[Cc]urrently supported [\w -]{0,40}models are .{0,300}?Got (?P<name>[\w.-]+)"),
          "This release of the stack does not know the model `{name}`: look it up in the supported-models list of the "
          "release that ran (TensorRT-LLM, Optimum and the serving stacks list them per release). A newer release may "
          "add it; otherwise use a model the release supports.",
          "pip show tensorrt_llm optimum transformers 2>/dev/null | grep -E '^(Name|Version)'",
          windows="pip show tensorrt_llm optimum transformers"),
    # the model file is not a binary ONNX model: protobuf fell back to reading it as text and stopped on its first
    # line (a Git LFS pointer starts "version https://git-lfs..."; a failed download is an HTML page)
    _Kind(_rx(r"Error parsing text-format (?:onnx2trt_onnx|onnx)\.ModelProto: 1:\d+: (?:.{0,120}?no field named "
              r"\\?\"(?P<name>\w+)\\?\"|.{0,200})"),
          "The model file is not a binary ONNX model: the parser read it as text and stopped on its first line[[ (it "
          "starts with `{name}`)]]. A file that starts with \"version https://git-lfs\" is a Git LFS pointer (the "
          "repository's large files were not fetched); an HTML page or a short text is a failed download. Look at its "
          "size and first bytes, then fetch the real file.",
          "ls -l model.onnx; head -c 200 model.onnx | cat -v      # the file the program opened\n"
          "git lfs install && git lfs pull   # in the project's git checkout",
          windows="Get-Item model.onnx | Select-Object Length; Get-Content model.onnx -TotalCount 3\n"
          "git lfs install; git lfs pull   # in the project's git checkout"),
    # the UFF file holds no graph: the conversion that wrote it failed, or the program opened another (empty) file
    _Kind(_rx(r"UffParser: Unsupported number of graph (?P<name>0)\b"),
          "The .uff file the parser opened holds no graph: it is empty or not a UFF file (a conversion that failed or "
          "wrote nothing, a model that was never downloaded, or a path that resolves to another file from the folder the "
          "program runs in). Check the file's size and path, and convert it again reading that step's own output.",
          "ls -l *.uff; pwd"),
    # a host/device copy refused: the host array does not fit the device buffer sized from the engine's bindings
    _Kind(_rx(r"(?P<name>cuMemcpy(?:HtoD|DtoH|DtoD)\w*|memcpy_(?:htod|dtoh)\w*) failed: invalid argument"),
          "`{name}` refused the copy: the host array and the device buffer do not fit each other, or the buffer is not "
          "valid in the CUDA context that is current. The buffer was sized from the engine's binding shape and type: an "
          "array of another shape, dtype or layout (an image resized to another size, float64 instead of float32, a "
          "non-contiguous view) does not fit it; with two engines or threads, each buffer belongs to the context it was "
          "allocated in (push that context before its copies). Print the engine's input shape and the array's.",
          None, program=True),
    # jetson-utils could not open the input or output the script named
    _Kind(_rx(r"jetson\.utils -- failed to create (?P<name>videoSource|videoOutput) device|"
              r"(?P<name>videoSource|videoOutput) -- failed to create"),
          "jetson-utils could not open the {name} the script was given: a file path that does not exist from the folder "
          "the script runs in (give the full path), a camera that is not there (/dev/video0, csi://0), or a URI form it "
          "does not know. Check the path and the devices.",
          "ls -l \"$(pwd)\"; ls /dev/video* 2>/dev/null", program=True),
    # TensorRT could not use cuBLAS / cuBLASLt ("cuBLAS Error in initializeCommonContext: 1 (Could not initialize
    # cublas ...)", TensorRT 8.0's "ltWrapper.cpp::setupHeuristic ... Assertion cublasStatus == CUBLAS_STATUS_SUCCESS")
    _Kind(_rx(r"(?P<name>cuBLAS(?:Lt)?) Error in \w+: \d+|Could not initialize (?P<name>cublas)"
              r"|Assertion (?P<name>cublas)(?:Lt)?Status == CUBLAS_STATUS_SUCCESS failed"),
          "TensorRT could not use {name}: the cuBLAS it loaded does not fit (another CUDA's library on the path; a CUDA "
          "10.2 without its two patch releases, which TensorRT 7.2 and 8.x's cuBLASLt tactics need - installing them "
          "fixed onnx-tensorrt#617), or cuBLAS could not get GPU memory when it started. Build once without the cuBLAS "
          "tactics to see whether cuBLAS is the failing part, then check which cuBLAS the process loads against the "
          "CUDA TensorRT was built for (or try NVIDIA's TensorRT container, whose CUDA is known to fit).",
          "trtexec --onnx=model.onnx --tacticSources=-CUBLAS,-CUBLAS_LT      # TensorRT 7.2 to 9.x\n"
          "ldconfig -p | grep -E 'libcublas(Lt)?\\.so'; nvcc --version | tail -1"),
    # jetson-utils built without NumPy: its NumPy converters do not exist (dusty-nv/jetson-inference#1017, the
    # maintainer: rebuild and reinstall after installing NumPy)
    _Kind(_rx(r"module 'jetson[._]utils' has no attribute '(?P<name>cuda(?:To|From)Numpy)'"),
          "jetson-utils was built without NumPy support (its CMake step did not find NumPy for this Python), so "
          "`{name}` does not exist. Install NumPy for the Python that runs the script, then configure, build and "
          "install jetson-inference again - installing NumPy alone does not add the converters.",
          "sudo apt-get install python3-numpy libpython3-dev\n"
          "cd jetson-inference/build && cmake ../ && make -j$(nproc) && sudo make install && sudo ldconfig",
          program=True),
    # Python's words for code written against another release of a library: a module without the name the code
    # imports or calls ("module 'nvidia.dali' has no attribute 'pipeline_def'", "cannot import name 'QuantConfig' from
    # 'tensorrt_llm.models.modeling_utils' (/usr/.../modeling_utils.py)"), and a call the installed signature does not take
    _Kind(_rx(r"module '(?P<name>[\w.]{1,120})' has no attribute '(?P<attr>\w{1,120})'?"
              r"|cannot import name '(?P<attr>\w{1,120})' from '(?P<name>[\w.]{1,120})'"
              r"(?: \((?!unknown location)(?P<path>[^)\n]{1,300})\)?)?"),
          "The `{name}` that Python imports has no `{attr}`[[ (it took {name} from {path})]]: the code was written for "
          "another release of that package (`{attr}` came later, or was renamed or removed since), or a file or folder "
          "named `{top}` beside the script shadows it. See which file Python takes and which release is installed, then "
          "install the release the script, its README or its requirements name (or use this release's name for it).",
          "python -c \"import {name} as m; print(m.__file__)\"\npip list 2>/dev/null | grep -i {top}",
          windows="python -c \"import {name} as m; print(m.__file__)\"\npip list | findstr /i {top}",
          program=True),
    _Kind(_rx(r"(?P<name>[\w.]{1,120})\(\) (?:got an unexpected keyword argument '(?P<arg>\w{1,120})'"
              r"|takes (?:from )?\d+ (?:to \d+ )?positional arguments? but \d+ (?:was|were) given"
              r"|missing \d+ required (?:positional |keyword-only )?arguments?: (?P<arg>'\w{1,120}'))"),
          "`{name}()` was called with arguments that its installed release does not take[[ (`{arg}`)]]: the calling code "
          "was written for another release of the library that defines `{name}` (a parameter added, renamed or removed "
          "between releases). The traceback's last two frames name that library and the file that called it: install "
          "the release the calling code was written for (its README or requirements), or change the call to fit this "
          "release.",
          None, program=True),
    # a call returned None and the code used the result: the call before failed quietly ("'NoneType' object has no
    # attribute 'shape'" after cv2.imread of a missing file); TensorRT's own None (a failed build or deserialisation)
    # is build-failed-cascade's, matched before this
    _Kind(_rx(r"'NoneType' object (?:has no attribute '(?P<name>\w{1,120})'?|is not (?:subscriptable|iterable|callable))"),
          "A call returned None and the code went on to use its result[[ (`.{name}`)]]: that call failed quietly. The "
          "last frame's line shows which call made the value: a loader that returns None for a missing or unreadable "
          "file (cv2.imread, a model, engine or config load), a lookup that found nothing, or a build or load whose own "
          "error or warning line is above this one. Check that call's input first: the path it opened exists, is "
          "readable and is what it should be.",
          None, program=True),
    # an object of another type or release than the code expects ("'TRTInferSession' object has no attribute
    # 'model_root_dir'" inside the library's own code; "'dict' object has no attribute 'model'" in a script)
    _Kind(_rx(r"'(?P<name>\w{1,120})' object has no attribute '(?P<attr>\w{1,120})'?"),
          "A `{name}` object has no `{attr}`. If the traceback's last frame is in the library that defines `{name}` "
          "(site-packages/<library>), its own code reads an attribute it never set on this path: a bug of that release "
          "or a set-up step it skipped (look above for a warning); try its previous or next release and search its "
          "issues for this line. If the last frame is the script's own, the object is not what the script expects: made "
          "by another release of its library, or read from a file that holds something else (a checkpoint's dict where "
          "a model was expected).",
          None, program=True),
    _Kind(_rx(r"^\s*(?P<name>TypeError|ValueError|AttributeError|IndexError|NameError|UnboundLocalError|AssertionError"
              r"|ZeroDivisionError|IndentationError|SyntaxError|json\.decoder\.JSONDecodeError)"
              r"(?::\s*(?P<detail>.{0,160}))?$"),
          "Python raised `{name}`[[: {detail}]]. The last `File \"...\", line N` frame of the traceback above it says "
          "where: in the script's own files, the script and what it was given do not fit (arguments, a checkpoint or "
          "config from another release of the project, a model file named otherwise than the script parses); in "
          "site-packages/<library>, that library refused it - compare the library's release (`pip show <library>`) "
          "with the one the script or its README names, and read the library's docs for that call.",
          None, program=True, stackless=True),
    # TensorRT's builder not created, in a program's words ("VapourSynth encountered a fatal error: Cannot create infer
    # builder", vs-NNVISR): createInferBuilder returned null, and TensorRT's logger said why on the lines before
    _Kind(_rx(r"(?i:cannot create infer builder|could not create (?:the )?(?:infer )?builder|builder creation failed"
              r"|createInferBuilder (?:failed|returned (?:null|nullptr|NULL)))"),
          "TensorRT could not create its builder (createInferBuilder returned null): CUDA did not start (no GPU "
          "visible, a driver older than this TensorRT's CUDA), a TensorRT library did not load (the builder resource "
          "library, a DLL of another release first on the path), or the GPU is one this release does not support. "
          "TensorRT's logger prints which on the lines just before: run it again with the logger at verbose and read "
          "them; check the GPU and driver first.",
          "nvidia-smi", weak=True),
    # Triton's (KServe v2) HTTP endpoint refusing the request body: {"error":"Unable to parse 'inputs': attempt to access
    # non-existing object member 'inputs'"}, {"error":"failed to parse the request JSON buffer: Invalid value. at 0"}
    _Kind(_rx(r"Unable to parse '(?P<name>\w+)'(?:: attempt to access non-existing object member)?"
              r"|failed to parse the request JSON buffer"),
          "The server could not read the request body as KServe v2 inference JSON[[ (no `{name}` member)]]: it takes "
          "`{\"inputs\": [{\"name\": ..., \"shape\": [...], \"datatype\": \"FP32\", \"data\": [...]}]}`, sent as JSON "
          "(Content-Type: application/json; curl's `-d` alone sends a form). The model's metadata gives each input's "
          "name, shape and datatype; tritonclient builds the body for you.",
          "curl -s localhost:8000/v2/models/<model>"),
    # a Python traceback's header that leads because the paste ends before its exception line (IPython's header names
    # the exception: "AttributeError                            Traceback (most recent call last)")
    _Kind(_rx("^" + TRACEBACK_HEADER),
          "The paste ends before the traceback's last line, the one that names the error[[ (`{name}`)]] and its "
          "message: that line says what failed, and the last `File ...` frame above it where. Run it again and keep the "
          "traceback to its end (a notebook prints it under the cell; copy all of it).",
          "<your command> 2>&1 | tail -n 40", "<your command> 2>&1 | Select-Object -Last 40", weak=True,
          lead_only=True),
    # the message carries its own remedy ("... engine not found: X. Run engine compilation first via
    # ensure_engines_compiled().", "Please reinstall ...", "Did you mean ...?"): weakly, so a later line whose words a
    # kind above fits better gives the step, and TensorRT's own lines keep their stack's steps
    _Kind(_rx(r"(?:^|[.!:;]\s+|\s-\s)(?P<hint>(?:[Pp]lease |[Tt]ry |[Rr]e-?run |[Rr]un |[Rr]e-?install |[Ii]nstall "
              r"|[Uu]pgrade |[Dd]owngrade |[Mm]ake sure |[Ee]nsure |[Ss]pecify |[Yy]ou (?:may |might |should |need to "
              r"|must )|[Cc]onsider )(?![^\n]{0,200}?\b(?:report|issue|contact|developers?|logs?|input|registered)\b)"
              r"[^\n]{3,200}?)(?:[.!?]\s*$|[.!]\s|$)"),
          "The message itself says what to do: \u201c{hint}\u201d. Do that first: it is the program's own hint for this "
          "failure.",
          None, weak=True, stackless=True),
)
"""By the words of the line: a missing Python module, pip finding no build (or building tensorrt from its source
package), an onnxruntime without the GPU providers, a GStreamer element that cannot be created (DeepStream), a library
the linker cannot find, a symbol no library defines, a configuration file that does not parse, a missing file, a
missing command, Docker without the NVIDIA runtime, the network, permissions. The first that matches gives the first
step, and the stack's TensorRT steps (a verbose TensorRT log, a reduced model) are left out: they would show nothing."""


_TENSORRT_WORDS = re.compile(r"(?i)tensor_?rt|\btrt|nvinfer|engine|onnx|plugin|cuda|cudnn|cublas|myelin|tactic|serializ"
                             r"|optimi[sz]ation profile|builder|parser|jetson|jetpack|\bgpu\b|\bdla\b|\.plan\b|int8|fp16"
                             r"|calibrat|quantiz")
"""Words of TensorRT and what it runs on: a line that holds none, from a run no known stack made, is not TensorRT's."""
_NOT_TENSORRT = ("This line is not a TensorRT message and names nothing of TensorRT: the program, script or tool that "
                 "ran printed it (its own check, a build step, a library it loads). The lines just above it in the "
                 "whole output name the step that failed and what it was given; a verbose TensorRT log would not show "
                 "more.")
_BUILD_TOOL = re.compile(
    r"[\w.)\]-]:\d+(?::\d+)?: (?:fatal )?(?:error|\*\*error\*\*)\b|\.\w{1,4}\(\d+\)(?:: | : )(?:fatal )?error\b"
    r"|\b(?:fatal )?error (?:C|LNK)\d{4}\b|CMake Error|"
    r"^(?:g?make|ninja)(?:\[\d+\])?: \*\*\*|" + MAKE_FATAL + "|"
    r"collect2(?:\.exe)?: error|\bld(?:\.exe)?: |^ERROR: \S*BUILD(?:\.bazel)?:\d+|"
    r"^FAILED: |\bnvcc (?:fatal|error)|error: command '[^']*(?:gcc|g\+\+|cc1plus|cl\.exe|nvcc)[^']*' failed|"
    r"returned a non-zero code|executor failed running|Configuring incomplete|BUILD(?:\.bazel)?:\d+:\d+: Compiling \S+ failed")
"""A compiler's, linker's, make's, CMake's, bazel's or docker build's own error line: the program was never built."""
_BUILD_FAILED = ("The build stopped at this compile, link or configure step, before anything ran, so no TensorRT "
                 "runtime step applies. Fix the first error of the build (later ones follow from it), and check the "
                 "versions the project's build asks for - compiler, CUDA, cuDNN, TensorRT, the framework - against what "
                 "this machine has (a header or library of another release gives errors like this one).")
_BUILD_VERSIONS = ("gcc --version | head -1; nvcc --version | tail -2; cmake --version | head -1\n"
                   "find / -name NvInferVersion.h 2>/dev/null | head -3   # the TensorRT headers the build may take")
_BUILD_VERSIONS_WINDOWS = ("cl 2>&1 | Select-Object -First 1; nvcc --version; cmake --version\n"
                          "Get-ChildItem -Path C:\\ -Recurse -Filter NvInferVersion.h -ErrorAction SilentlyContinue | "
                          "Select-Object -First 3 FullName   # the TensorRT headers the build may take")


def _platform_step(text: str, bash: str, powershell: str, env: Environment) -> FixStep:
    """A step whose command is written in the shell of the log's platform (PowerShell on Windows, bash elsewhere)."""
    return _step(text, powershell, "powershell") if env.platform == "windows" else _step(text, bash)


def _build_failed(env: Environment) -> FixStep:
    """The build-stopped step, with the version checks in the shell of the log's platform."""
    return _platform_step(_BUILD_FAILED, _BUILD_VERSIONS, _BUILD_VERSIONS_WINDOWS, env)


_BUILD_SUMMARY = re.compile(
    r"^(?:\d+ errors? detected in the compilation of|Error limit reached\.|Compilation terminated\."
    r"|CMake Error at \S+\.cmake:\d+ \(message\):|Error generating file\b|collect2(?:\.exe)?: error: ld returned \d+"
    r"|(?:g?make|mingw32-make|ninja)(?:\[\d+\])?: \*\*\* .{0,300}\bError \d+|ninja: build stopped"
    r"|\S+: recipe for target .{1,200} failed|(?:ERROR: )?\S+:\d+:\d+: (?:Linking|Compiling) of rule '[^']{1,300}' failed)")
"""A build's summary of a failure (nvcc's error count, FindCUDA's "Error generating file", collect2's exit status,
make's "*** [...] Error N"): the line that says why comes before it."""
_BUILD_SUMMARY_TEXT = ("This line is the build's summary of a failure. The line that says why - the compiler's "
                       "`file:line: error: ...`, or the linker's `undefined reference` / `cannot find -lX` - comes before "
                       "it, and no such line was read here: it is missing from the paste. Build again with one job, keep "
                       "the whole output, and read its first error line.")
_BUILD_AGAIN = ("make -j1 2>&1 | tee build.log        # or: cmake --build build -j 1 2>&1 | tee build.log\n"
                "grep -n -m5 -E \"error|undefined reference|cannot find\" build.log")
_BUILD_AGAIN_WINDOWS = ("cmake --build build -j 1 2>&1 | Tee-Object build.log\n"
                        "Select-String -Path build.log -Pattern \"error\" | Select-Object -First 5")
_PROJECT_TRACKER = ("If the script is a project's (a repository's demo, export or install script), search that project's "
                    "issues for this line, then ask there with the exact command, the whole output and the project's "
                    "release or commit; the error is in its code or its use, not in TensorRT.")


def _kind_of(payload: str, env: Environment, *, lead: bool = False) -> tuple[_Kind, regex.Match[str]] | None:
    """The first kind whose words the line has (`_KINDS`, in order), and its match. `lead`: the line leads the report
    and no failing line follows it (a `lead_only` kind applies)."""
    for kind in _KINDS:
        if (kind.stackless and env.front_end is not None) or (kind.lead_only and not lead):
            continue
        m = kind.pattern.search(payload)
        if m is not None:
            return kind, m
    return None


def _kind_step(kind: _Kind, m: regex.Match[str], env: Environment) -> FixStep:
    name = ((m.group("name") if "name" in kind.pattern.groupindex else None) or kind.default).rstrip(".,;:)")
    values = {k: v or MISSING for k, v in m.groupdict().items()}
    values.update(name=name or MISSING, top=name.split(".")[0] if name else MISSING)
    windows = env.platform == "windows" and kind.windows is not None
    code, lang = (kind.windows, "powershell") if windows else (kind.code, kind.lang)
    return _step(fill(kind.text, values), fill(code, values, lang) if code else None, lang)


def kind_step(payload: str, env: Environment) -> FixStep | None:
    """The step the line's own words call for, when they say what failed outside TensorRT (`_KINDS`)."""
    found = _kind_of(payload, env)
    return _kind_step(*found, env) if found is not None else None


def first_error_steps(payload: str, env: Environment, stack: Stack | None = None, *,
                      origin: Origin | None = None, later: Sequence[tuple[int, str]] = ()) -> list[FixStep]:
    """Next steps for the first error line nothing in the KB explains (`payload`: the line without its
    wrapper, `origin`: the wrapper `parse_line` recognised). `stack`: the file of the stack that ran
    TensorRT (`env.front_end`; for an unknown stack, the plain TensorRT one); None: the generic steps.
    `later`: the unexplained failing lines after it (number, payload): when this line's words name nothing, the
    first of those that says what failed gives the first step, naming its line."""
    # a lead_only kind when no failing line follows (else the paste was not cut there: an exception whose name no grammar
    # reads, Paddle's EnforceNotMet)
    found = _kind_of(payload, env, lead=not later)
    said_by = None
    tensorrt_own = (origin in TENSORRT_ORIGINS) or (origin is None and _TENSORRT_OWN.search(payload) is not None)
    if (found is None or found[0].weak) and not tensorrt_own:  # TensorRT's own line keeps its stack's steps
        weak_later: tuple[int, tuple[_Kind, regex.Match[str]]] | None = None
        for no, text in later:
            better = _kind_of(text, env)
            if better is None:
                continue
            if not better[0].weak:
                found, said_by = better, no
                break
            weak_later = weak_later or (no, better)
        else:
            if found is None and weak_later is not None:
                said_by, found = weak_later
    if found is not None and found[0].weak and tensorrt_own:
        found = None  # TensorRT's own line keeps its stack's steps over a weak reading of its words
    if found is not None:
        # The line says what failed, outside TensorRT: its step, then where to ask (the project's tracker for the
        # program's own error); TensorRT's verbose log and a reduced model would not show more.
        first = _kind_step(*found, env)
        if said_by is not None:
            first = first.model_copy(update={"text": f"Line {said_by} says what failed: {first.text}"})
        if found[0].program:
            return [first, _step(_PROJECT_TRACKER)]
        return [first, _step(_report_text(stack, env)) if stack is not None else _ask_upstream(env)]
    if not tensorrt_own and _BUILD_SUMMARY.search(payload):
        # The first error line the paste holds is the build's summary: the compiler's or linker's own line, which says
        # why, came before it and was not pasted
        return [_platform_step(_BUILD_SUMMARY_TEXT, _BUILD_AGAIN, _BUILD_AGAIN_WINDOWS, env),
                _build_failed(env), _step(_PROJECT_TRACKER)]
    if not tensorrt_own and _BUILD_TOOL.search(payload):
        # A compile, link or configure step failed: the stack's runtime steps (its verbose log, its config) do not
        # apply to a build that never produced the program.
        return [_build_failed(env), _step(_PROJECT_TRACKER)]
    if env.front_end is None and not tensorrt_own and not _TENSORRT_WORDS.search(payload):
        # Nothing says TensorRT ran, and the line is no TensorRT message and names nothing of it (a build step, a
        # script's own check, a library): a verbose trtexec run would not show more.
        return [_step(_NOT_TENSORRT), _step(_PROJECT_TRACKER)]
    if stack is None:
        return _generic_steps(payload, env, origin)
    key = env.front_end or "unknown"
    steps = [_step(s.text, s.code, s.lang) for s in stack.steps if not s.front_ends or key in s.front_ends]
    if stack.reduce and is_tensorrt_build_line(payload, origin, env):
        steps.append(_step("If it fails while TensorRT builds from the ONNX model: shrink the model to the part that "
                           "still fails with this error.", polygraphy_reduce(fail_regex(payload), env)))
    steps.append(_step(_report_text(stack, env)))
    return steps


def _report_text(stack: Stack, env: Environment) -> str:
    tracker = stack.tracker
    where = f"{tracker.name} ({tracker.new_issue})"
    head = (_STACK_UNKNOWN.format(tracker=where) if env.front_end is None
            else f"Ask upstream, where {stack.name} failures are reported: {where}, after searching it for this error.")
    versions = _versions(env, stack)
    return (f"{head} Its template asks for: {'; '.join(tracker.asks)}."
            + (f" The log shows: {versions}." if versions else "")
            + " `trt-why --format issue <log>` drafts that issue from this log.")


def _generic_steps(payload: str, env: Environment, origin: Origin | None) -> list[FixStep]:
    """The steps without a stack file (none serves this stack, or the files could not be read)."""
    verbose = {
        "polygraphy": "polygraphy run model.onnx --trt -vv > build.log 2>&1",
        "onnxruntime": "ORT_TENSORRT_VERBOSE_LOGGING=1 (or session log_severity_level=0), then run again > build.log 2>&1",
    }.get(env.front_end or "", "trtexec --onnx=model.onnx --verbose > build.log 2>&1")
    steps = [_step("Capture the whole run at verbose level and run trt-why on it: the lines just before this one "
                   "usually name the layer or the call.", f"{verbose}\ntrt-why build.log")]
    if is_tensorrt_build_line(payload, origin, env):
        steps.append(_step("If it fails while building from an ONNX model: shrink the model to the part that still "
                           "fails with this error.", polygraphy_reduce(fail_regex(payload), env)))
    steps.append(_ask_upstream(env))
    return steps


def _ask_upstream(env: Environment) -> FixStep:
    versions = _versions(env, None)
    return _step("Ask upstream (the tracker of the tool that ran TensorRT; NVIDIA/TensorRT for trtexec, "
                 "Polygraphy and the TensorRT API) with: this line, the whole log with --verbose, the exact "
                 "command, " + (f"{versions}, " if versions else "the TensorRT, CUDA and driver versions, the GPU, ")
                 + "the OS or container, and the model (or the reduced one).")
