"""Every command the KB shows fits the release and the platform it is shown to.

A step is shown to the releases in the intersection of its entry's `applies.trt`, its fix's `versions`
and its own `versions`, and to the platforms in the intersection of the three `platforms` lists (an empty
list is every platform). For every step with code:

- every trtexec flag it uses exists in every one of those releases (`TRTEXEC_FLAGS`, read from trtexec's
  source), and every gated TensorRT Python name it uses exists there (`PYTHON_API`);
- a shell step with Linux-only syntax is not shown on Windows, a step with Windows-only syntax only on
  Windows, a step with Jetson-only commands only on Jetson;
- desktop driver installs and x86 container images / PyPI TensorRT wheels are not shown on Jetson (and a
  Linux driver install is not shown in WSL either, where the driver belongs to Windows).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from troubleshooter.core.shell_syntax import LINUX_ONLY, POSIX_SHELLS, WINDOWS_ONLY, WINDOWS_SHELLS, hits
from troubleshooter.core.versions import in_range
from troubleshooter.kb.loader import load_kb

KB = load_kb()

# --------------------------------------------------------------------------------------------------------
# trtexec flags and the releases that have them.
#
# Read from NVIDIA/TensorRT (fetched snapshot): `git show <ref>:samples/common/sampleOptions.cpp` (plus
# samples/trtexec/trtexec.cpp) at every release branch release/6.0 ... release/11.1 and the tags 8.2.0-EA,
# 8.2.1, v8.6.0, v8.6.1; a flag "exists" when its quoted name ("--fp16") is parsed there (help text does
# not count). release/5.1 has no sampleOptions.cpp: its samples/opensource/trtexec/trtexec.cpp parses flags
# with parseBool/parseString(argv[j], "name", ...), read the same way. 5.0 and earlier are not in the
# snapshot (5.1 is the first release with OSS trtexec). In 11.x `--int8`, `--std` and `--serialized` are
# parsed only by SafeBuilderOptions/TaskInferenceOptions (the safety builder), not by trtexec's
# BuildOptions, so they count as removed; this matches /work/shared/trt-facts.md ("trtexec 11.x: --int8,
# --calib, --fp16, --bf16, --fp8, --int4, --best removed", TRT 11 trtexec migration guide).
# A removed flag makes trtexec stop with "Unknown option: --flag" (trtexec.cpp). The trtexec README is no
# guide here: release/11.0's samples/trtexec/README.md still shows `--fp16` and `--int8` examples.
TRTEXEC_FLAGS: dict[str, str] = {
    # precision flags: present 5.1 (fp16/int8) .. 10.16, gone from BuildOptions in release/11.0
    "--fp16": ">=5.1,<11",
    "--int8": ">=5.1,<11",
    "--best": ">=7.1,<11",  # first in release/7.1
    "--bf16": ">=9.0,<11",  # first in release/9.0
    "--fp8": ">=8.6,<11",  # first in tag v8.6.0
    "--int4": ">=10.1,<11",  # first in release/10.1
    "--calib": ">=5.1,<11",
    "--noTF32": ">=7.1",  # release/7.1 .. 11.1
    "--stronglyTyped": ">=9.0",  # release/9.0 .. 11.1 (a deprecated no-op in 11.x)
    "--layerPrecisions": ">=8.4,<11",  # release/8.4 .. 10.16
    "--layerOutputTypes": ">=8.4,<11",
    "--precisionConstraints": ">=8.2.1,<11",  # tag 8.2.1 (not 8.2.0-EA) .. 10.16
    # memory / batch / build
    "--workspace": ">=5.1,<10",  # deprecated from 8.4 ("deprecated by --memPoolSize"), gone in release/10.0
    "--memPoolSize": ">=8.4",  # release/8.4 .. 11.1
    "--explicitBatch": ">=6.0,<10",  # a no-op with a warning in 9.x, gone in release/10.0
    "--buildOnly": ">=6.0,<10",  # "deprecated by --skipInference" from 8.6, gone in release/10.0
    "--skipInference": ">=8.6",  # tag v8.6.0 .. 11.1
    "--maxBatch": ">=6.0,<9",  # release/6.0 .. 8.6 (implicit batch), gone in release/9.0
    "--batch": ">=5.1,<9",
    "--minTiming": ">=6.0,<10",
    "--avgTiming": ">=6.0",
    "--builderOptimizationLevel": ">=8.6",
    "--tacticSources": ">=7.2",
    "--timingCacheFile": ">=8.0",  # release/8.0 .. 11.1
    "--hardwareCompatibilityLevel": ">=8.6",  # tag v8.6.0 .. 11.1; "sameComputeCapability" value from 10.x
    "--versionCompatible": ">=8.6",
    "--excludeLeanRuntime": ">=8.6",
    "--sparsity": ">=8.0",
    "--refit": ">=7.2",
    # plugins
    "--plugins": ">=5.1",  # deprecated from 8.6 ("use --staticPlugins"), still parsed in 11.1
    "--staticPlugins": ">=8.6",  # tag v8.6.0 .. 11.1
    "--dynamicPlugins": ">=8.6",
    "--setPluginsToSerialize": ">=8.6",
    # InstanceNormalization: --nativeInstanceNorm is absent from tags v8.6.0 and v8.6.1; release/8.6 got it
    # with the "Mass integration for 23.08 release" commit (headers still 8.6.1), so only trtexec builds from
    # 23.08 on have it in 8.6 (kept at >=8.6 here; the KB step says so); release/9.0 .. 9.3 have it, 10.0 not.
    "--nativeInstanceNorm": ">=8.6,<10",
    "--pluginInstanceNorm": ">=10.0",  # alias --pi; release/10.0 .. 11.1
    # engine files and inspection
    "--onnx": ">=5.1",
    "--saveEngine": ">=5.1",
    "--loadEngine": ">=5.1",
    "--getPlanVersionOnly": ">=9.0",  # first in release/9.0 (not in 8.6), still in 11.1
    "--verbose": ">=5.1",
    "--help": ">=5.1",
    "--dumpLayerInfo": ">=8.2",  # tag 8.2.0-EA .. 11.1
    "--exportLayerInfo": ">=8.2",
    "--profilingVerbosity": ">=8.2",  # 7.x had --nvtxMode
    "--dumpProfile": ">=6.0",
    "--separateProfileRun": ">=7.2",
    # shapes, I/O, inference
    "--minShapes": ">=6.0",
    "--optShapes": ">=6.0",
    "--maxShapes": ">=6.0",
    "--shapes": ">=6.0",
    "--inputIOFormats": ">=6.0",
    "--outputIOFormats": ">=6.0",
    "--loadInputs": ">=6.0",
    "--useCudaGraph": ">=6.0",
    "--useSpinWait": ">=5.1",
    "--noDataTransfers": ">=7.2",
    "--duration": ">=6.0",
    "--iterations": ">=5.1",
    "--device": ">=5.1",
    # DLA
    "--useDLACore": ">=5.1",
    "--allowGPUFallback": ">=5.1",
}

# TensorRT Python names whose presence depends on the release. Read from NVIDIA/TensorRT `python/src` at
# release/8.0 ... release/11.1 (`git grep '"name"' <ref> -- python/src`; the bindings are not in the OSS tree
# before 8.0, so lower bounds below 8.0 are not checked), the BuilderFlag values from `enum class BuilderFlag` in
# include/NvInfer.h at the same branches (kFP8 8.6, kBF16 9.0, kINT4 10.1, kFP4 10.8; kOBEY_PRECISION_CONSTRAINTS
# 8.2; STRICT_TYPES gone from the 10.0 bindings), and /work/shared/trt-facts.md (8.x -> 10.x and 10.x -> 11.x
# migration). Comments in Python code are ignored ("# was config.max_workspace_size").
PYTHON_API: dict[str, tuple[str, str]] = {
    "plugin_creator_list": (r"\bplugin_creator_list\b", "<11"),  # in release/10.16 pyPlugin.cpp, not 11.0
    "all_creators": (r"\ball_creators\b", ">=10.0"),  # first in release/10.0
    "max_workspace_size": (r"\bmax_workspace_size\b", "<10"),
    "build_engine": (r"\.build_engine\(", "<10"),
    "set_memory_pool_limit": (r"\bset_memory_pool_limit\b", ">=8.4"),
    "name-based I/O": (r"\b(?:num_io_tensors|set_input_shape|execute_async_v3|get_tensor_profile_shape|"
                       r"infer_shapes|get_tensor_mode|set_tensor_address)\b", ">=8.5"),
    "BuilderFlag.FP8": (r"\bBuilderFlag\.FP8\b", ">=8.6,<11"),
    "BuilderFlag.BF16": (r"\bBuilderFlag\.BF16\b", ">=9.0,<11"),
    "BuilderFlag.INT4": (r"\bBuilderFlag\.INT4\b", ">=10.1,<11"),
    "BuilderFlag.FP4": (r"\bBuilderFlag\.FP4\b", ">=10.8,<11"),
    "BuilderFlag.FP16/INT8": (r"\bBuilderFlag\.(?:FP16|INT8)\b", "<11"),
    "precision constraints": (r"\bBuilderFlag\.(?:OBEY|PREFER)_PRECISION_CONSTRAINTS\b", ">=8.2,<11"),
    "STRICT_TYPES": (r"\bBuilderFlag\.STRICT_TYPES\b", "<10"),
    "calibrators": (r"\b(?:int8_calibrator|set_calibration_profile|IInt8\w*Calibrator\w*|dynamic_range)\b", "<11"),
    "NATIVE_INSTANCENORM": (r"\bNATIVE_INSTANCENORM\b", ">=8.6"),
    "STRONGLY_TYPED": (r"\bSTRONGLY_TYPED\b", ">=9.0"),
    "EXPLICIT_BATCH": (r"\bEXPLICIT_BATCH\b", "<11"),
    "allocate_async": (r"\b(?:allocate_async|deallocate_async)\b", ">=10.0"),
}

# One representative of every release in the snapshot (8.2.0/8.2.1 and 8.6.0/8.6.1 split where a flag
# arrived in the patch release). 11.2+ are assumed to keep 11.1's flags.
RELEASES = (["5.1", "6.0", "7.0", "7.1", "7.2", "8.0", "8.2.0", "8.2.1", "8.4", "8.5", "8.6.0", "8.6.1",
             "9.0", "9.1", "9.2", "9.3"] + [f"10.{i}" for i in range(17)] + ["11.0", "11.1", "11.4"])
PLATFORMS = ("linux", "windows", "wsl", "jetson")

# Commands that exist only on Jetson.
JETSON_ONLY = [
    ("tegrastats", r"\btegrastats\b"),
    ("jetson_clocks", r"\bjetson_clocks\b"),
    ("nvidia-jetpack", r"\bnvidia-jetpack\b"),
    ("nvpmodel", r"\bnvpmodel\b"),
    ("L4T image", r"\bl4t-\w+"),
]
# Not for Jetson: its driver comes with JetPack, its containers are l4t / iGPU images, TensorRT comes with
# JetPack (the PyPI tensorrt wheels are x86_64 / SBSA builds).
DESKTOP_DRIVER_CODE = r"\bnvidia-driver\b|\bubuntu-drivers\b|\bcuda-drivers\b|\bNVIDIA-Linux-\S*\.run\b|\S+\.run\b"
DRIVER_TEXT = (r"(?i)\b(?:install|update|upgrade|reinstall)\w*\s+(?:the\s+|a\s+|your\s+)?(?:latest\s+|newer\s+|new\s+)?"
               r"(?:NVIDIA\s+)?(?:GPU\s+)?drivers?\b")
NVIDIA_SMI = r"\bnvidia-smi\b"  # Jetson: none on JetPack 4 and 5 (JetPack 6 has a reduced one)
X86_IMAGE = r"\bdocker\s+run\b(?![^\n]*(?:l4t|igpu|jetson|jetpack))"
PYPI_TENSORRT = (r"\bpip3?\s+install\b[^\n]*(?:[\s\"'](?:tensorrt|torch-tensorrt|torch_tensorrt)(?:-cu\d+)?\b|"
                 r"download\.pytorch\.org/whl)")


def _steps() -> Iterator[tuple[str, object, object, object]]:
    for entry in KB.entries:
        for fi, fix in enumerate(entry.fixes):
            for si, step in enumerate(fix.steps):
                yield f"{entry.id}/fix{fi}/step{si}", entry, fix, step


def shown_releases(entry, fix, step) -> list[str]:  # type: ignore[no-untyped-def]
    specs = [s for s in (entry.applies.trt, fix.versions, step.versions) if s]
    return [r for r in RELEASES if all(in_range(r, s) for s in specs)]


def shown_platforms(entry, fix, step) -> set[str]:  # type: ignore[no-untyped-def]
    out = set(PLATFORMS)
    for lst in (entry.applies.platforms, fix.platforms, step.platforms):
        if lst:
            out &= set(lst)
    return out


_TRTEXEC = re.compile(r"(?:^|(?<=[\s;&|(/\"'`]))trtexec(?:\.exe)?\b(?P<args>[^\n|;&>]*)", re.MULTILINE)
_FLAG = re.compile(r"(?<![\w-])(--[A-Za-z][\w-]*)")


def trtexec_flags(code: str) -> list[str]:
    code = code.replace("\\\n", " ").replace("`\n", " ").replace("^\n", " ")
    flags: list[str] = []
    for m in _TRTEXEC.finditer(code):
        flags.extend(f for f in _FLAG.findall(m.group("args")) if f not in flags)
    return flags


def _python_code(step) -> str:  # type: ignore[no-untyped-def]
    if not step.code:
        return ""
    lang = (step.lang or "").lower()
    if lang == "python":
        return "\n".join(re.sub(r"\s#.*$|^\s*#.*$", "", line) for line in step.code.splitlines())
    if lang in POSIX_SHELLS + WINDOWS_SHELLS:
        return "\n".join(re.findall(r"python3?\s+-c\s+(\"[^\"]*\"|'[^']*')", step.code))
    return ""


_hits = hits


def _describe(where: str, step) -> str:  # type: ignore[no-untyped-def]
    first = (step.code or step.text).strip().splitlines()[0]
    return f"{where}: {first[:100]}"


# --------------------------------------------------------------------------------------------------------
# The checks, as functions of one step, so that the tests below can also prove that they catch bad steps.


def trtexec_problems(entry, fix, step) -> list[str]:  # type: ignore[no-untyped-def]
    if not step.code or (step.lang or "").lower() not in POSIX_SHELLS + WINDOWS_SHELLS:
        return []
    releases = shown_releases(entry, fix, step)
    out = []
    for flag in trtexec_flags(step.code):
        spec = TRTEXEC_FLAGS.get(flag)
        if spec is None:
            out.append(f"{flag} is not in TRTEXEC_FLAGS (read its releases from sampleOptions.cpp and add it)")
            continue
        missing = [r for r in releases if not in_range(r, spec)]
        if missing:
            out.append(f"{flag} exists in {spec} but the step is shown to {', '.join(missing)}")
    return out


def python_api_problems(entry, fix, step) -> list[str]:  # type: ignore[no-untyped-def]
    code = _python_code(step)
    if not code:
        return []
    releases = [r for r in shown_releases(entry, fix, step) if in_range(r, ">=8.0")]
    out = []
    for name, (rx, spec) in PYTHON_API.items():
        if re.search(rx, code):
            missing = [r for r in releases if not in_range(r, spec)]
            if missing:
                out.append(f"{name} exists in {spec} but the step is shown to {', '.join(missing)}")
    return out


def platform_problems(entry, fix, step) -> list[str]:  # type: ignore[no-untyped-def]
    lang = (step.lang or "").lower()
    code = step.code or ""
    plats = shown_platforms(entry, fix, step)
    out = []
    if lang in POSIX_SHELLS:
        linux = _hits(LINUX_ONLY, code)
        if linux and "windows" in plats:
            out.append(f"Linux-only syntax ({', '.join(linux)}) shown on Windows: gate it `platforms:` without windows")
    windows = _hits(WINDOWS_ONLY, code) + (["a Windows shell"] if lang in WINDOWS_SHELLS else [])
    if windows:
        if plats - {"windows"}:
            out.append(f"Windows-only syntax ({', '.join(windows)}) shown on {', '.join(sorted(plats - {'windows'}))}: "
                       "gate it `platforms: [windows]`")
        linux_in_windows = _hits(LINUX_ONLY, code) if lang in WINDOWS_SHELLS else []
        if linux_in_windows:
            out.append(f"a Windows step uses Linux-only syntax ({', '.join(linux_in_windows)})")
    jetson = _hits(JETSON_ONLY, code)
    if jetson and plats - {"jetson"}:
        out.append(f"Jetson-only command ({', '.join(jetson)}) shown on {', '.join(sorted(plats - {'jetson'}))}: "
                   "gate it `platforms: [jetson]`")
    return out


def jetson_problems(entry, fix, step) -> list[str]:  # type: ignore[no-untyped-def]
    lang = (step.lang or "").lower()
    code = step.code or ""
    plats = shown_platforms(entry, fix, step)
    out = []
    shell = lang in POSIX_SHELLS + WINDOWS_SHELLS
    if shell and re.search(DESKTOP_DRIVER_CODE, code):
        bad = plats & {"jetson", "wsl"}
        if bad:
            out.append(f"a desktop driver install shown on {', '.join(sorted(bad))} "
                       "(JetPack brings Jetson's driver; WSL uses the Windows driver)")
    if "jetson" in plats and re.search(DRIVER_TEXT, f"{fix.title}. {step.text}"):
        out.append("tells Jetson users to install/update the driver (it comes with JetPack): gate it without jetson")
    if shell and "jetson" in plats and re.search(X86_IMAGE, code):
        out.append("an x86 container image shown on Jetson (use an l4t / iGPU image there)")
    if shell and "jetson" in plats and re.search(PYPI_TENSORRT, code):
        out.append("a PyPI TensorRT / Torch-TensorRT / pytorch.org wheel shown on Jetson (TensorRT comes with JetPack)")
    if shell and "jetson" in plats and re.search(NVIDIA_SMI, code) and "JetPack 6" not in step.text:
        out.append("nvidia-smi shown on Jetson (JetPack 4 and 5 have none): gate it without jetson and give the "
                   "Jetson step beside it (tegrastats, the module's model), or say it is for JetPack 6")
    return out


CHECKS = {"trtexec flags": trtexec_problems, "Python API": python_api_problems,
          "platform syntax": platform_problems, "Jetson": jetson_problems}


@pytest.mark.parametrize("check", list(CHECKS))
def test_every_command_fits_where_it_is_shown(check: str) -> None:
    problems = []
    for where, entry, fix, step in _steps():
        problems += [f"{_describe(where, step)}\n    -> {p}" for p in CHECKS[check](entry, fix, step)]
    assert not problems, f"{len(problems)} step(s):\n" + "\n".join(problems)


# --------------------------------------------------------------------------------------------------------
# The checks themselves.


class _Obj:
    def __init__(self, **kw: object) -> None:
        self.__dict__.update(kw)


def _fake(code: str, lang: str = "bash", *, trt: str | None = None, versions: str | None = None,
          platforms: tuple[str, ...] = (), text: str = "Do it") -> tuple[object, object, object]:
    entry = _Obj(applies=_Obj(trt=trt, platforms=[]))
    fix = _Obj(versions=None, platforms=[], title="Fix")
    step = _Obj(code=code, lang=lang, versions=versions, platforms=list(platforms), text=text)
    return entry, fix, step


def test_flag_extraction() -> None:
    assert trtexec_flags("trtexec --onnx=m.onnx --fp16 --memPoolSize=workspace:4096 > b.log 2>&1") == [
        "--onnx", "--fp16", "--memPoolSize"]
    assert trtexec_flags("polygraphy debug reduce m.onnx -o r.onnx --check trtexec --onnx=x.onnx") == ["--onnx"]
    assert trtexec_flags("/usr/src/tensorrt/bin/trtexec --loadEngine=a \\\n  --verbose | grep x") == [
        "--loadEngine", "--verbose"]
    assert trtexec_flags("polygraphy run m.onnx --trt --fp16") == []


@pytest.mark.parametrize("code,versions,ok", [
    ("trtexec --onnx=m.onnx --fp16", None, False),  # 11.x has no --fp16
    ("trtexec --onnx=m.onnx --fp16", "<11", True),
    ("trtexec --loadEngine=m.engine --getPlanVersionOnly", None, False),
    ("trtexec --loadEngine=m.engine --getPlanVersionOnly", ">=10", True),
    ("trtexec --onnx=m.onnx --workspace=4096", ">=8.4", False),
    ("trtexec --onnx=m.onnx --workspace=4096", "<8.4", True),
    ("trtexec --onnx=m.onnx --staticPlugins=./libp.so", ">=8.0", False),
    ("trtexec --onnx=m.onnx --precisionConstraints=obey", ">=8.2,<11", False),  # not in 8.2.0 EA
    ("trtexec --onnx=m.onnx --noSuchFlag", ">=10", False),
])
def test_trtexec_check(code: str, versions: str | None, ok: bool) -> None:
    assert (trtexec_problems(*_fake(code, versions=versions)) == []) is ok


@pytest.mark.parametrize("code,lang,platforms,ok", [
    ("ldd $(which trtexec) | grep nvinfer", "bash", (), False),
    ("ldd $(which trtexec) | grep nvinfer", "bash", ("linux", "wsl", "jetson"), True),
    ("CUDA_LAUNCH_BLOCKING=1 python infer.py", "bash", (), False),
    ("export CUDA_MODULE_LOADING=LAZY", "bash", ("linux",), True),
    ("sudo apt-get install tensorrt", "bash", ("windows", "linux"), False),
    ("head -c 64 model.engine | xxd", "bash", (), False),
    ("trtexec --onnx=m.onnx --verbose 2>&1 | grep -E 'Clamping to'", "bash", (), False),
    ("rm -f calib.cache", "bash", ("linux", "wsl", "jetson"), True),
    ("Remove-Item -ErrorAction SilentlyContinue calib.cache", "powershell", ("windows",), True),
    ("trtexec --onnx=model.onnx --saveEngine=model.engine", "bash", (), True),
    ('$env:CUDA_MODULE_LOADING = "LAZY"', "powershell", (), False),
    ('$env:CUDA_MODULE_LOADING = "LAZY"', "powershell", ("windows",), True),
    ("dumpbin /dependents trtexec.exe", "powershell", ("windows",), True),
    ("ldd trtexec", "powershell", ("windows",), False),
    ('os.add_dll_directory(r"C:\\TensorRT\\lib")', "python", (), False),
    ("sudo tegrastats", "bash", ("linux", "jetson"), False),
    ("sudo tegrastats", "bash", ("jetson",), True),
])
def test_platform_check(code: str, lang: str, platforms: tuple[str, ...], ok: bool) -> None:
    assert (platform_problems(*_fake(code, lang, platforms=platforms)) == []) is ok


@pytest.mark.parametrize("code,platforms,text,ok", [
    ("sudo apt-get install --only-upgrade nvidia-driver-550", ("linux", "wsl"), "Do it", False),
    ("sudo apt-get install --only-upgrade nvidia-driver-550", ("linux",), "Do it", True),
    ("sudo sh cuda_12.4.0_550.54.14_linux.run", ("linux", "jetson"), "Do it", False),
    ("nvidia-smi", (), "Install the latest driver", False),
    ("nvidia-smi", ("linux", "windows", "wsl"), "Install a synchronous allocator (when driver and TensorRT cannot change)",
     True),
    ("nvidia-smi --query-compute-apps=pid,used_memory --format=csv", (), "See what holds the GPU", False),
    ("nvidia-smi", ("jetson",), "JetPack 6 - the GPU's state", True),
    ("nvidia-smi", ("linux", "windows", "wsl"), "Install the latest driver", True),
    ("docker run --gpus all nvcr.io/nvidia/tensorrt:24.05-py3 trtexec", ("linux", "jetson"), "Do it", False),
    ("docker run --runtime nvidia nvcr.io/nvidia/l4t-tensorrt:r8.6.2-devel trtexec", ("jetson",), "Do it", True),
    ('pip install --upgrade "tensorrt-cu12>=10.9,<11"', (), "Do it", False),
    ('pip install --upgrade "tensorrt-cu12>=10.9,<11"', ("linux", "windows", "wsl"), "Do it", True),
])
def test_jetson_check(code: str, platforms: tuple[str, ...], text: str, ok: bool) -> None:
    assert (jetson_problems(*_fake(code, platforms=platforms, text=text)) == []) is ok


def test_python_api_check() -> None:
    code = "names = [c.name for c in trt.get_plugin_registry().plugin_creator_list]"
    assert python_api_problems(*_fake(code, "python"))
    assert not python_api_problems(*_fake(code, "python", versions="<11"))
    assert python_api_problems(*_fake("print(registry.all_creators)", "python", versions=">=8.6"))
    assert not python_api_problems(*_fake("x = 1  # was config.max_workspace_size", "python", versions=">=10"))
    assert python_api_problems(*_fake('python -c "import tensorrt as trt; b.build_engine(n, c)"', versions=">=8.0"))


def test_flag_table_ranges_parse() -> None:
    for flag, spec in TRTEXEC_FLAGS.items():
        assert any(in_range(r, spec) for r in RELEASES), flag


def test_a_platform_step_stands_alone() -> None:
    """A step shown for one platform is read where its siblings for other platforms are hidden: it cannot say "the same"
    of a step the reader never sees (batch 30: a Windows user of gpu-arch-unsupported read "the same search in the
    project's build files", after nothing)."""
    import re

    from troubleshooter.kb.loader import builtin_kb_dir, load_folders

    leaning = re.compile(r"^(?:[\w /()+.]{0,60} - )?(?:the same\b|find the setting the same way)", re.IGNORECASE)
    problems = [f"{e.id}: {step.text[:80]}" for e in load_folders([builtin_kb_dir()]).entries for fix in e.fixes
                for step in fix.steps if step.platforms and leaning.match(step.text)]
    assert not problems, problems


# --------------------------------------------------------------------------------------------------------
# The next steps for a line the KB does not explain: the stacks' steps and the kinds outside TensorRT hold a
# POSIX command and, where written, its Windows (PowerShell) form. A Windows log gets the Windows form, or no
# command when the POSIX one has Linux-only syntax (`next_steps._shell_step`); the forms themselves must fit.


def _outside_steps() -> Iterator[tuple[str, str, str, str | None]]:
    from troubleshooter.kb.outside import builtin_kinds
    from troubleshooter.kb.stacks import builtin_stacks

    for kind in builtin_kinds():
        if kind.code or kind.windows:
            yield f"kinds/{kind.id}", kind.code or "", kind.lang, kind.windows
    for stack in builtin_stacks().stacks.values():
        for i, st in enumerate(stack.steps):
            if st.code or st.windows:
                yield f"stacks/{stack.id}/step{i}", st.code or "", st.lang, st.windows


OUTSIDE_STEPS = list(_outside_steps())


@pytest.mark.parametrize(("where", "code", "lang", "windows"), OUTSIDE_STEPS, ids=[s[0] for s in OUTSIDE_STEPS])
def test_outside_step_forms_fit_their_platform(where: str, code: str, lang: str, windows: str | None) -> None:
    if windows is not None:
        assert not _hits(LINUX_ONLY, windows), f"{where}: its Windows form uses Linux-only syntax"
    if lang in POSIX_SHELLS:
        assert not _hits(WINDOWS_ONLY, code), f"{where}: its POSIX form uses Windows-only syntax"


@pytest.mark.parametrize(("where", "code", "lang", "windows"), OUTSIDE_STEPS, ids=[s[0] for s in OUTSIDE_STEPS])
def test_outside_step_shown_on_windows_runs_there(where: str, code: str, lang: str, windows: str | None) -> None:
    from troubleshooter.core.next_steps import _shell_step
    from troubleshooter.core.shell_syntax import linux_only
    from troubleshooter.models import Environment

    shown = _shell_step("text of the step", code or None, lang, windows, Environment(platform="windows"))
    if shown.command is not None:
        assert not linux_only(shown.command.code, shown.command.lang), f"{where}: a Linux-only command on Windows"
    linux = _shell_step("text of the step", code or None, lang, windows, Environment(platform="linux"))
    assert (linux.command.code if linux.command else "") == code, f"{where}: Linux gets its POSIX form"


def test_windows_log_keeps_a_portable_command_and_drops_a_linux_one() -> None:
    from troubleshooter.core.next_steps import _shell_step
    from troubleshooter.models import Environment

    win = Environment(platform="windows")
    portable = _shell_step("t" * 10, 'python -c "import a; g=a.B(); g.c()"', "bash", None, win)
    assert portable.command is not None and portable.command.code.startswith("python -c")
    dropped = _shell_step("t" * 10, "grep -n x build.log | head", "bash", None, win)
    assert dropped.command is None and dropped.text == "t" * 10
    given = _shell_step("t" * 10, "grep -n x build.log | head", "bash", "Select-String x build.log", win)
    assert given.command is not None and given.command.lang == "powershell"


def test_a_jetson_log_gets_tegrastats_where_a_pc_gets_nvidia_smi() -> None:
    # Jetson has no nvidia-smi on JetPack 4 and 5: the memory and compute-capability checks have a Jetson step beside
    # the nvidia-smi one, which is not shown there
    from troubleshooter.core.advice import fixes_for
    from troubleshooter.models import Environment

    entry = next(e for e in KB.entries if e.id == "gpu-out-of-memory")
    sig = "torch-cuda-oom"
    jetson = [s.command.code for f in fixes_for(entry, Environment(platform="jetson"), {}, [sig])
              for s in f.detail if s.command is not None]
    linux = [s.command.code for f in fixes_for(entry, Environment(platform="linux"), {}, [sig])
             for s in f.detail if s.command is not None]
    assert not any("nvidia-smi" in c for c in jetson) and any("tegrastats" in c for c in jetson)
    assert any("nvidia-smi" in c for c in linux) and not any("tegrastats" in c for c in linux)
