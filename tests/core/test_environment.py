"""Facts read from the log; unknown stays None."""

from __future__ import annotations

import re

import pytest

from troubleshooter import diagnose


def env_of(text: str, **kw: str):  # type: ignore[no-untyped-def]
    return diagnose(text, **kw).environment


TRTEXEC_HEAD = """&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --int8 --fp16 --saveEngine=m.engine
[11/02/2023-10:11:12] [I] === Device Information ===
[11/02/2023-10:11:12] [I] Selected Device: NVIDIA GeForce RTX 3090
[11/02/2023-10:11:12] [I] Compute Capability: 8.6
[11/02/2023-10:11:12] [I] TensorRT version: 8.6.1
[11/02/2023-10:11:13] [I] [TRT] Opset version:    17
[11/02/2023-10:11:13] [I] [TRT] Producer name:    pytorch
[11/02/2023-10:11:13] [I] [TRT] ONNX IR version:  0.0.8
"""


def test_trtexec_header() -> None:
    env = env_of(TRTEXEC_HEAD)
    assert env.tensorrt_version == "8.6.1"
    assert env.gpu == "NVIDIA GeForce RTX 3090"
    assert env.compute_capability == "8.6"
    assert env.precisions == ["fp16", "int8"]
    assert env.front_end == "trtexec"
    assert env.onnx_opset == 17
    assert env.onnx_producer == "pytorch"
    assert env.sources["tensorrt_version"] == 5


def test_banner_versions_for_8x_and_10x() -> None:
    assert env_of("&&&& RUNNING TensorRT.trtexec [TensorRT v8503] # trtexec --onnx=a.onnx\n").tensorrt_version == "8.5.3"
    assert env_of("&&&& RUNNING TensorRT.trtexec [TensorRT v100300] # trtexec --onnx=a.onnx\n").tensorrt_version == "10.3.0"


def test_version_from_plan_mismatch_and_library_names() -> None:
    line = "[TRT] [E] 6: The engine plan file is not compatible with this version of TensorRT, expecting library version 8.5.1.7 got 8.5.3.1, please rebuild.\n"
    assert env_of(line).tensorrt_version == "8.5.1"
    lib = "[E] [TRT] 6: [libLoader.h::DynamicLibrary::50] Error Code 6: Internal Error (Unable to load library: libnvinfer_builder_resource.so.8.4.1)\n"
    assert env_of(lib).tensorrt_version == "8.4.1"


def test_unknown_stays_none() -> None:
    env = env_of("[E] something went wrong\n")
    assert env.tensorrt_version is None
    assert env.gpu is None and env.compute_capability is None and env.platform is None
    assert env.precisions == []


def test_override_wins() -> None:
    assert env_of(TRTEXEC_HEAD, trt_version="10.3").tensorrt_version == "10.3"


def test_jetson_windows_wsl() -> None:
    assert env_of("[I] Selected Device: Orin\n[I] Compute Capability: 8.7\n").platform == "jetson"
    assert env_of("Could not load C:\\Program Files\\NVIDIA\\TensorRT\\lib\\nvinfer_10.dll\n").platform == "windows"
    assert env_of("Linux host 5.15.153.1-microsoft-standard-WSL2 x86_64\n[E] boom\n").platform == "wsl"


def test_build_success_and_failure() -> None:
    assert env_of("[I] Engine built in 41.2 sec.\n&&&& PASSED TensorRT.trtexec [TensorRT v8601]\n").build_succeeded is True
    assert env_of("[E] Engine could not be created from network\n&&&& FAILED TensorRT.trtexec\n").build_succeeded is False


def test_python_builder_flags() -> None:
    env = env_of("config.set_flag(trt.BuilderFlag.INT8)\n[TRT] [E] 4: boom\n")
    assert env.precisions == ["int8"]


def test_version_from_wheel_names() -> None:
    line = '  File "/usr/lib/python3/site-packages/tensorrt_bindings-8.6.1.dist-info/x.py", line 3\n[E] boom\n'
    assert env_of(line).tensorrt_version == "8.6.1"
    assert env_of("Successfully installed tensorrt-cu12-bindings-10.3.0 tensorrt-cu12-libs-10.3.0\n").tensorrt_version == "10.3.0"


def test_pip_list_and_polygraphy_flags() -> None:
    env = env_of("tensorrt                 10.3.0\n    Flags                  | [FP16, STRONGLY_TYPED]\n[E] boom\n")
    assert env.tensorrt_version == "10.3.0"
    assert env.precisions == ["fp16", "strongly-typed"]


def test_platform_override() -> None:
    assert env_of("[E] boom\n", platform="wsl").platform == "wsl"
    import pytest

    from troubleshooter.errors import InputError

    with pytest.raises(InputError):
        env_of("[E] boom\n", platform="mars")


@pytest.mark.parametrize(("line", "version"), [
    # real lines (sample_logs/real, first-sight/batch-1)
    ("[TRT]   TensorRT version 4.0.2", "4.0.2"),
    ("TensorRT v8401", "8.4.1"),
    ("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\TensorRT\\v8.4.2.4\\include\\NvInfer.h(5349,1): warning C4819:", "8.4.2"),
    ("[TensorRT] ERROR: /home/jenkins/workspace/TensorRT/helpers/rel-7.1/L1_Nightly_Internal/build/source/rtSafe/"
     "resources.h (460) - Cuda Error in loadKernel: 3 (initialization error)", "7.1"),
    ("ERROR: /home/erisuser/p4sw/sw/gpgpu/MachineLearning/DIT/release/5.0/parsers/onnxOpenSource/ModelImporter.cpp:142",
     "5.0"),
    ("ERROR: /home/fffan/fffan_files/other/onnx-tensorrt-5.1/ModelImporter.cpp:552 In function importModel:", "5.1"),
    ("IBuilder::buildSerializedNetwork: Error Code 6: API Usage Error (Unable to load library: "
     "libnvinfer_builder_resource_win.so.10.2.0: cannot open shared object file", "10.2.0"),
    ("TensorRT: starting export with TensorRT 10.0.0b6...", "10.0.0"),
    # written: the major release alone, from a library's file name
    ("OSError: libnvinfer.so.10: cannot open shared object file: No such file or directory", "10"),
    ("Could not find module 'C:\\TensorRT\\lib\\nvinfer_10.dll' (or one of its dependencies)", "10"),
    ("2023-01-27 14:05:53.348636: I tensorflow/compiler/tf2tensorrt/common/utils.cc:106] Linked TensorRT version: 8.4.3",
     "8.4.3"),
    # real: first-sight batch 2 (u-jetson-benchmarks-9), jetson_release's listing
    (" TensorRT: 5.0.6.3", "5.0.6"),
    # real: first-sight batch 5 (u-mobilenet-ssd-trt-36, u-jetson-containers-935)
    ("The engine plan file is incompatible with this version of TensorRT, expecting 5.0.6.3got "
     "-2100382470.0.2.1852793695, please rebuild.", "5.0.6"),
    ("-- Testing container l4t-pytorch:r36.3.0-cu122-cp311-tensorrt (tensorrt:8.6/test.sh)", "8.6"),
    # written: dpkg -l on JetPack, conda list
    ("ii  libnvinfer8    8.2.1-1+cuda10.2    arm64    TensorRT runtime libraries", "8.2.1"),
    # dpkg -l of any package of the release (NVIDIA/TensorRT#4220, a Jetson with JetPack 6's 10.3)
    ("ii  libnvinfer-dispatch-dev              10.3.0.26-1+cuda12.5                    arm64        TensorRT development "
     "dispatch runtime libraries", "10.3.0"),
    ("ii  libnvonnxparsers10   10.3.0.26-1+cuda12.5   arm64   TensorRT ONNX libraries", "10.3.0"),
    # apt refusing the release it was asked for (NVIDIA/TensorRT#2591, first-sight batch 15)
    ("E: Version '8.5.2-1+cuda11.4' for 'libnvinfer8' was not found", "8.5.2"),
    # jetson-inference's engine cache name (dusty-nv/jetson-inference#1644, first-sight batch 16)
    ("[TRT]    failed to open engine cache file for writing /usr/local/bin/networks/SSD-Mobilenet-v2/"
     "ssd_mobilenet_v2_coco.uff.1.1.8201.GPU.FP16.engine", "8.2.1"),
    ("tensorrt                  8.6.1.6          py310_0    conda-forge", "8.6.1"),
    # real: first-sight batch 6 (each unread at first sight): a tarball, NVIDIA's local repository packages, apt's
    # pins and dependencies, pip's requirement in a failed command
    ("Step 10/18 : ADD TensorRT-2.1.2.x86_64.cuda-8.0-16-04.tar.bz2 /opt/", "2.1.2"),
    ("dpkg: error: cannot access archive 'nv-tensorrt-repo-ubuntu1804-cuda10.1-trt6.0.1.5-ga-20190913_1-1_amd64.deb': "
     "No such file or directory", "6.0.1"),
    ("E: Unable to locate package nv-tensorrt-local-repo-cross-aarch64-l4t-10.0.1-cuda-12.4_1.0-1_all.deb", "10.0.1"),
    (" tensorrt : Depends: libnvinfer6 (= 6.0.1-1+cuda10.1) but it is not going to be installed", "6.0.1"),
    ("apt-get install -y tensorrt=10.13.3.9-1+cuda12.9 'python3-libnvinfer*=10.13.3.9-1+cuda12.9'", "10.13.3"),
    ("subprocess.CalledProcessError: Command '['pip.exe', 'install', 'tensorrt_libs==9.0.1.post11.dev4']' returned "
     "non-zero exit status 1.", "9.0.1"),
    # real: first-sight batch 7 (unread at first sight): Paddle's integer of one digit per part, a JSON-escaped path
    ("W0112 13:48:25.660892  6355 tensorrt_subgraph_pass.cc:293] The Paddle lib links the 7216 version TensorRT, make "
     "sure the runtime TensorRT you are using is no less than this version", "7.2.1"),  # PaddlePaddle/Paddle#30350
    ('    "nvinfer": "C:\\\\Program Files\\\\NVIDIA GPU Computing Toolkit\\\\TensorRT\\\\v8.6\\\\lib",', "8.6"),  # laugh12321/TensorRT-YOLO#91
    # real: first-sight batch 24 (unread at first sight): a Dockerfile's setting, an app's engine cache named after
    # the release, a stack and the GPU
    ("Step 5/33 : ENV TRT_VERSION 8.2.5.1", "8.2.5"),  # wang-xinyu/tensorrtx#1010
    ('Building TensorRT engine 2x_OpenProteus_Compact_i2_70K.pth_1280x720_fp16_NVIDIA GeForce RTX 3080_trt'
     '-10.9.0.34_torch_tensorrt-2.6.0+cu126_opt-3_RVE-VERSION: 2.3.3-dev20250610.engine. This may take a while...', "10.9.0"),  # TNTwise/REAL-Video-Enhancer#134
    # real (first-sight batch 25, unread there): vs-mlrt's cache named with TensorRT's own integer (AmusementClub/vs-mlrt#74)
    ('[11/28/2023-22:20:02] [W] Could not read timing cache from: C:/Program Files (x86)/SVP 4/rife\\models'
     '\\rife\\rife_v4.12_ensemble.onnx.1280x736_fp16_no-tf32_trt-8502_cudnn_I-fp16_O-fp16_NVIDIA-GeForce-RTX-3070-Ti_aacbced1.engine.cache. A new timing cache will be generated and written.', "8.5.2"),
    # real (first-sight batch 28, unread there): a Python prompt's answer on the line under its question
    # (Qengineering/Jetson-Nano-image#27), a Nix derivation named for the release (NixOS/nixpkgs#382169)
    (">>> import tensorrt as trt\n>>> trt.__version__\n'8.2.1.8'\n>>>", "8.2.1"),
    ("error: builder for '/nix/store/9jw9zpddayxni9aj3kvjwhfbb6ih73xp-tensorrt-10.3.0.26.drv' failed to produce output path for output 'dev' at '/nix/store/9jw9zpddayxni9aj3kvjwhfbb6ih73xp-tensorrt-10.3.0.26.drv.chroot/root/nix/store/kf1aamhm74w1icy4mzb4f6j9ljklz435-tensorrt-10.3.0.26-dev'", "10.3.0"),
])
def test_the_release_is_read_from_every_way_a_log_prints_it(line: str, version: str) -> None:
    assert diagnose(line).environment.tensorrt_version == version


def test_a_version_question_without_its_answer_reads_no_release() -> None:
    """The prompt's next line is joined only to read the answer: a question whose next line is another prompt or a
    traceback gives no release."""
    assert diagnose(">>> trt.__version__\nTraceback (most recent call last):\nNameError: name 'trt' is not defined"
                    ).environment.tensorrt_version is None


@pytest.mark.parametrize(("lines", "stack"), [
    (["I0716 09:18:42.968253 1 model_lifecycle.cc:578] successfully unloaded 'simple_int8' version 1",
      "E0716 09:18:43.1 1 model_repository_manager.cc:1234] failed to load 'yolo'"], "triton"),
    (["0:00:05.33  1168  0x7f3c0022d0 WARN   nvinfer gstnvinfer.cpp:635:gst_nvinfer_logger:<primary_gie> x",
      "[TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::32] Error Code 1: Serialization"], "deepstream"),
    (["[TensorRT-LLM] TensorRT-LLM version: 0.16.0", "[TensorRT-LLM][ERROR] Assertion failed: x"], "tensorrt-llm"),
    (["torch._inductor.exc.LoweringException: triton kernel failed", "RuntimeError: x"], None),
    (["&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=m.onnx"], "trtexec"),
    # real (first-sight batch 2, u-azure-deepstream-nano-22): deepstream-app's own error names the stack
    (["** ERROR: <create_primary_gie_bin:120>: Failed to create 'primary_gie'"], "deepstream"),
    # glog alone is not Triton (Apollo, Caffe and Paddle print it too); Triton's own sources behind it are
    (["F0914 08:40:48.724537 14532 syncedmem.cpp:56] Check failed: error == cudaSuccess (2 vs. 0)  out of memory"], None),
    (["E0420 06:14:22.457146 115 model_lifecycle.cc:638] failed to load 'tensorrt_llm' version 1"], "triton"),
    # real (dusty-nv/jetson-inference#650, first-sight batch 19): jetson-utils' Python module names the stack
    (["Exception: jetson.utils -- failed to create videoSource device"], "jetson-inference"),
    # real (open-mmlab/mmdeploy#491, first-sight batch 17): trtexec's own lines, its banner not pasted
    (["[05/17/2022-12:19:37] [E] Error[4]: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error "
      "(Engine deserialization failed.)", "[05/17/2022-12:19:37] [E] Failed to create engine from model.",
      "[05/17/2022-12:19:37] [E] Engine set up failed"], "trtexec"),
    # real (NVIDIA/Model-Optimizer#85, first-sight batch 31): ComfyUI's model manager, printed on every run
    (["Requested to load SDXL", "Loading 1 new model", "loaded completely 0.0 0.0 True",
      "[10/11/2024-13:32:10] [TRT] [E] IExecutionContext::setInputShape: Error Code 3: Internal Error (Given invalid "
      "tensor name: x. Get valid tensor names with getIOTensorName())"], "comfyui"),
    # written: a sentence that merely starts the same way
    (["Requested to load the model from disk", "[E] boom"], None),
])

def test_the_stack_is_read_from_the_lines_that_name_it(lines: list[str], stack: str | None) -> None:
    assert diagnose("\n".join(lines)).environment.front_end == stack


def test_torch_tensorrt_s_version_is_not_tensorrt_s() -> None:
    # real: first-sight batch 4 and 6 (REAL-Video-Enhancer's engine names)
    line = ("Building TensorRT engine 1xDeH264.safetensors_fp16_NVIDIA GeForce RTX 3050_torch_tensorrt-2.8.0+cu129_opt-5"
            "_854x480.engine_2.3.6.engine. This may take a while...")
    assert diagnose(line).environment.tensorrt_version is None


def test_the_stacks_own_version_is_read() -> None:
    env = diagnose("[TensorRT-LLM] TensorRT-LLM version: 0.16.0\nRuntimeError: boom").environment
    assert env.stack_versions == {"tensorrt-llm": "0.16.0"}


@pytest.mark.parametrize(("text", "version"), [
    # real: first-sight batch 1 (u-yolov3-trt-py-3), `pip show tensorrt` pasted above the error
    ("Name: tensorrt\nVersion: 7.0.0.11\nTypeError: Parser parse failed.", "7.0.0"),
    # real: sample_logs/real/u-other-comfyui-upscaler-trt-60, an engine file named after its release
    ("[E] building C:\\ComfyUI\\models\\tensorrt\\upscaler\\4x-UltraSharp_fp16_1x3x256x256_10.12.0.36.trt failed",
     "10.12.0"),
    # real: sample_logs/real/u-trt-4433
    ("Command: polygraphy convert onnx\\clip.opt\\model.onnx --convert-to trt --output engine\\clip.trt10.9.0.34.plan",
     "10.9.0"),
])
def test_the_release_in_pip_show_and_engine_file_names(text: str, version: str) -> None:
    assert diagnose(text).environment.tensorrt_version == version


@pytest.mark.parametrize(("text", "version"), [
    # real: first-sight batch 3 (u-comfy-rife-5), pip's own line above the import error
    ("Requirement already satisfied: tensorrt-cu12==10.4.0 in f:\\comfyui\\venv\\lib\\site-packages (from tensorrt) "
     "(10.4.0)\nModuleNotFoundError: No module named 'tensorrt'", "10.4.0"),
])
def test_the_release_in_pip_requirement_lines(text: str, version: str) -> None:
    assert diagnose(text).environment.tensorrt_version == version


def test_every_stack_pattern_match_holds_a_front_end_literal() -> None:
    """The stack patterns run only on lines holding one of FRONT_END_LITERALS: every line of every corpus that
    a stack pattern matches holds one."""
    from pathlib import Path

    from troubleshooter.core.environment import _FRONT_ENDS, FRONT_END_LITERALS

    root = Path(__file__).resolve().parents[2] / "sample_logs"
    missing = []
    for path in sorted(root.glob("**/*.log")):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if any(rx.search(line) for rx, _name in _FRONT_ENDS) and not any(lit in line for lit in FRONT_END_LITERALS):
                missing.append((path.name, line[:100]))
    assert missing == []


def test_an_ngc_image_tag_is_not_a_release() -> None:
    assert diagnose("docker run nvcr.io/nvidia/tensorrt:23.08-py3\nERROR: x").environment.tensorrt_version is None


def test_a_compiler_include_or_library_folder_is_no_release() -> None:
    # real (jkjung-avt/tensorrt_demos#189): the Makefile's default -I folder names 7.1.3.4; the Jetson Nano had 5.1.6
    cmd = ('nvcc -ccbin g++ -I"/usr/local/cuda/include" -I"/usr/local/TensorRT-7.1.3.4/include" -I"/usr/local/include" '
           '-I"plugin" -m64 -gencode arch=compute_53,code=sm_53 -Xcompiler -fPIC -c -o yolo_layer.o yolo_layer.cu\n'
           'yolo_layer.h(38): error: not a class or struct name')
    assert diagnose(cmd).environment.tensorrt_version is None
    assert diagnose("g++ x.o -L/opt/TensorRT-8.6.1.6/lib -lnvinfer\nerror: x").environment.tensorrt_version is None  # written
    # the same folder where something was loaded from it still says the release (written)
    assert diagnose("ERROR: /opt/TensorRT-8.6.1.6/lib/libnvinfer.so.8: x").environment.tensorrt_version == "8.6.1"


@pytest.mark.parametrize(("text", "platform"), [
    # real: sample_logs/real/t-library-load-failure-jetson-inf-1736 (a Jetson with no other sign of it)
    ("imagenet: error while loading shared libraries: /usr/lib/aarch64-linux-gnu/libnvinfer.so.8: file too short",
     "jetson"),
    # written: an Arm server (SBSA) says so, and is not a Jetson
    ("ERROR: /usr/lib/aarch64-linux-gnu/libnvinfer.so.10: x\nnvidia-smi: NVIDIA GH200 480GB", "linux"),
    ("ERROR: /usr/lib/x86_64-linux-gnu/libnvinfer.so.8: x", "linux"),
])
def test_64_bit_arm_with_tensorrt_is_a_jetson_unless_an_arm_server_is_named(text: str, platform: str) -> None:
    assert diagnose(text).environment.platform == platform


@pytest.mark.parametrize(("text", "alternatives"), [
    # real (first-sight batch 6, u-jetson-containers-1576: a Jetson whose paste shows only a Linux path)
    ("/test/test/test_tensorrt.sh: line 3: /usr/src/tensorrt/bin/trtexec: No such file or directory", ["jetson"]),
    # written: something x86 rules the Jetson out
    ("ERROR: /usr/lib/x86_64-linux-gnu/libnvinfer.so.8: x", []),
    ("[E] /home/u/run.py failed\n| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2 |", []),
    ("[E] /home/u/run.py failed on NVIDIA GeForce RTX 3090", []),
])
def test_a_linux_path_alone_leaves_a_jetson_possible(text: str, alternatives: list[str]) -> None:
    env = diagnose(text).environment
    assert env.platform == "linux" and env.platform_alternatives == alternatives


def test_a_jetson_left_possible_gets_the_jetson_step_too_and_each_step_says_whom_it_is_for() -> None:
    # real (first-sight batch 6, u-jetson-containers-1576)
    log = ("/test/test/test_tensorrt.sh: line 3: /usr/src/tensorrt/bin/trtexec: No such file or directory\n"
           "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
           "ModuleNotFoundError: No module named 'tensorrt'\n")
    (diag,) = [d for d in diagnose(log).diagnoses if d.id == "python-package-missing"]
    steps = [s.text for fix in diag.fixes for s in fix.detail]
    assert any(t.startswith("(Jetson)") for t in steps)
    assert not any(re.match(r"\((?:[^)]*, )?Windows\)", t) for t in steps)  # a Linux path rules Windows out
    assert diagnose(log, platform="linux").environment.platform_alternatives == []  # --platform decides


# Real lines: NeMo#3872 (trtexec, 2022), TensorRT#800 (a C++ sample, 2020), TRELLIS windows#8 (ORT, 2024).
NEMO_3872 = ("[03/22/2022-07:31:56] [E] [TRT] ModelImporter.cpp:776: --- End node ---\n"
             "[03/22/2022-07:31:56] [E] [TRT] ModelImporter.cpp:779: ERROR: builtin_op_importers.cpp:3193 In function "
             "importPad:\n")
TRELLIS_8 = ("2024-12-21 19:07:16.4418525 [E:onnxruntime:Default, provider_bridge_ort.cc:1862 onnxruntime::TryGetProviderInfo_TensorRT] "
             "C:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1539 onnxruntime::ProviderLibrary::Get "
             "[ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 \"\" when trying to load "
             "\"C:\\pinokio\\api\\trellis.git\\app\\env\\lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_tensorrt.dll\"\n")


@pytest.mark.parametrize(("text", "date", "newest"), [
    (NEMO_3872, "2022-03-22", "8.4"),  # trtexec's [MM/DD/YYYY-time]; 8.4's EA came before its June GA
    ("[09/27/2020-22:05:43] [E] [TRT] Network has dynamic or shape inputs, but no optimization profile has been defined.\n",
     "2020-09-27", "7.2"),
    (TRELLIS_8, "2024-12-21", "10.7"),  # ORT's ISO time; from 8.6 on the CHANGELOG dates EA builds: days of margin
])
def test_the_logs_own_date_bounds_the_release_it_can_be(text: str, date: str, newest: str) -> None:
    env = env_of(text)
    assert env.tensorrt_version is None
    assert env.log_date == date
    assert env.sources["log_date"] == 1
    assert env.tensorrt_possible[-1] == newest
    assert f"TensorRT {newest} or older (the log is dated {date})" == env.release_text


def test_a_printed_release_or_a_log_without_year_leaves_every_release_possible() -> None:
    assert env_of(TRTEXEC_HEAD).tensorrt_possible == []  # it prints 8.6.1
    glog = "E0119 10:11:12.123456 12345 helper.h:127] Paddle internal error\n"
    assert env_of(glog).log_date is None
    assert env_of(glog).tensorrt_possible == []
    assert env_of(glog).release_text == "TensorRT version unknown"


@pytest.mark.parametrize(("jetpack", "ships"), [("4.6.1", ["8.2"]), ("4.6", ["8.0"]), ("5.1.2", ["8.5"]), ("6.1", ["10.3"])])
def test_a_jetpack_release_gives_the_tensorrt_it_ships(jetpack: str, ships: list[str]) -> None:
    env = env_of(f"JetPack {jetpack}\n[E] [TRT] 1: [stdArchiveReader.cpp::StdArchiveReader::40] Error Code 1: Serialization "
                 "(Serialization assertion stdVersionRead == serializationVersion failed.Version tag does not match.)\n")
    assert env.tensorrt_possible == ships
    assert env.release_text == f"TensorRT {ships[0]} (JetPack {jetpack})"


def test_a_step_for_releases_the_logs_date_rules_out_is_not_shown() -> None:
    """engine-not-a-plan's 'rebuild, the engine came from an older TensorRT' fix is for TensorRT 10+: a 2020 log
    cannot be on 10; a log without a date gets it labelled."""
    line = ("[E] [TRT] 1: [stdArchiveReader.cpp::StdArchiveReader::32] Error Code 1: Serialization (Serialization "
            "assertion magicTagRead == kMAGIC_TAG failed.Magic tag does not match)\n")
    undated = diagnose(line).diagnoses[0]
    dated = diagnose(line.replace("[E]", "[09/27/2020-22:05:43] [E]")).diagnoses[0]
    assert undated.id == dated.id == "engine-not-a-plan"
    titles = lambda d: [f.title for f in d.fixes]  # noqa: E731
    assert "If the engine came from an older TensorRT, rebuild it" in titles(undated)
    assert "If the engine came from an older TensorRT, rebuild it" not in titles(dated)
    assert dated.version_advice is not None and dated.version_advice.startswith("TensorRT 7.2 or older")


def test_any_dll_or_the_windows_loader_says_windows() -> None:
    """NickSwardh/YoloDotNet#21 (batch 7): a one-line paste whose only path the user shortened to 'path\\'."""
    line = ('onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 "" '
            'when trying to load "path\\onnxruntime_providers_tensorrt.dll"\n')
    assert env_of(line).platform == "windows"
    assert env_of("[I] Loading libnvinfer_plugin.so.10 from /usr/lib/x86_64-linux-gnu\n").platform == "linux"


@pytest.mark.parametrize("line", [
    # dusty-nv/jetson-inference#57 (batch 7): the Jetson camera's GStreamer pipeline
    'nvcamerasrc fpsRange="30.0 30.0" ! video/x-raw(memory:NVMM), width=(int)1280, height=(int)720, format=(string)NV12 ! '
    "nvvidconv flip-method=2 ! video/x-raw ! appsink",
])
def test_the_jetsons_own_camera_elements_say_jetson(line: str) -> None:
    assert env_of(line + "\n").platform == "jetson"


def test_an_apps_hint_about_the_jetson_camera_is_no_jetson() -> None:
    """nwesem/mtcnn_facenet_cpp_tensorRT#20 (batch 7): an app written for the Jetson's CSI camera prints this hint on
    a laptop with an RTX 2060 too."""
    assert env_of(" Try restarting nvargus-daemon by doing: sudo systemctl restart nvargus-daemon\n").platform != "jetson"


def test_batch_8s_shapes_a_release_folder_a_lowercase_drive_and_a_folder_named_paddle() -> None:
    """First-sight batch 8: a source path with a release folder (Qiuzhongyuan/pointpillars_pytorch_trt#9); a Windows path on a
    lowercase drive inside a folder the user called paddle, which is not Paddle Inference
    (mingj2021/segment-anything-tensorrt#1)."""
    assert env_of("ERROR: /share/trt/TensorRT7.2/parsers/onnx/builtin_op_importers.cpp:4208 In function "
                  "importVoxelGeneratorV1:\n").tensorrt_version == "7.2"
    env = env_of('  File "e:\\git\\paddle\\segment-anything\\exportRT.py", line 117, in <module>\n')
    assert env.platform == "windows"
    assert env.front_end != "paddle-inference"
    paddle = "W0112 13:48:25.660892  6355 helper.h:127] paddle/fluid/inference/tensorrt/engine.cc:301 error\n"
    assert env_of(paddle).front_end == "paddle-inference"


def test_a_parser_message_bounds_the_release_from_below_too() -> None:
    # real (NVIDIA/TensorRT#4476): a trtexec log dated 2025-06-03 quoting 8.x's Resize assertion
    log = ('[06/03/2025-13:31:36] [E] [TRT] ModelImporter.cpp:777: ERROR: builtin_op_importers.cpp:3876 In function '
           'importResize:\n[6] Assertion failed: (scaleSize == inputRank) && "The shape of input scales must align with '
           'the input rank."\n[06/03/2025-13:31:36] [E] Failed to parse onnx file')
    env = diagnose(log).environment
    assert env.tensorrt_possible == ["8.0", "8.2", "8.4", "8.5", "8.6", "9.0", "9.1"]
    assert env.release_text == ("TensorRT 8.0 to 9.1 (the log is dated 2025-06-03, the ONNX parser's message on line 2)")
    # a printed release wins over the message
    assert diagnose("[TensorRT v8601]\n" + log).environment.tensorrt_possible == []


def test_the_old_python_logger_format_bounds_the_release_from_above() -> None:
    # real (grimoire/mmdetection-to-tensorrt#7, first-sight batch 37): TensorRT's Python logger before 8.2 printed
    # "[TensorRT] ERROR: ..."; from the 8.2.0-EA tag on "[<time>] [TRT] [E] ..." (python/src/infer/pyCore.cpp)
    log = ("[TensorRT] ERROR: Parameter check failed at: engine.cpp::setBindingDimensions::949, condition: "
           "profileMinDims.d[i] <= dimensions.d[i]\n")
    env = diagnose(log).environment
    assert env.tensorrt_possible and env.tensorrt_possible[-1] == "8.2"
    assert env.release_text == "TensorRT 8.2 or older (TensorRT's old Python logger format on line 1)"
    # the line it names is the first in that format, after lines of other formats
    assert "line 2" in diagnose("[W] something else\n" + log).environment.release_text
    # a printed release wins; the new format bounds nothing
    assert diagnose("TensorRT version: 8.0.1\n" + log).environment.tensorrt_possible == []
    new_format = "[03/01/2023-10:00:00] [TRT] [E] 3: [executionContext.cpp::setInputShape::2037] Error Code 3: x\n"
    assert "8.2 or older" not in diagnose(new_format).environment.release_text


@pytest.mark.parametrize(("text", "platform"), [
    # real (triple-mu/YOLOv8-TensorRT#130): MSVC's namespace-qualified function in TensorRT's own bracket
    ("ERROR: 1: [runtime.cpp::nvinfer1::Runtime::parsePlan::314] Error Code 1: Serialization (Serialization assertion "
     "plan->header.magicTag == rt::kPLAN_MAGIC_TAG failed.)", "windows"),
    # real (jkjung-avt/tensorrt_demos#189): nvcc building for the Nano's GPU only
    ('nvcc -ccbin g++ -I"/usr/local/cuda/include" -m64 -gencode arch=compute_53,code=sm_53 -gencode '
     "arch=compute_53,code=compute_53 -Xcompiler -fPIC -c -o yolo_layer.o yolo_layer.cu\nyolo_layer.h(38): error: x",
     "jetson"),
    # written: a multi-architecture desktop build that also lists a Jetson architecture is no Jetson
    ("nvcc -gencode arch=compute_53,code=sm_53 -gencode arch=compute_86,code=sm_86 -c x.cu\nx.cu(3): error: y", None),
])
def test_the_platform_from_tensorrt_s_brackets_and_nvcc_s_architectures(text: str, platform: str | None) -> None:
    assert diagnose(text).environment.platform == platform


def test_a_tool_that_is_not_there_names_no_stack() -> None:
    # real (a project's non-CUDA docker image, first-sight batch 9): polygraphy did not run
    env = diagnose("bash: polygraphy: command not found\nERROR: x").environment
    assert env.front_end != "polygraphy"


def test_a_required_release_is_not_the_installed_one() -> None:
    # real (PaddlePaddle/Paddle3D#149, first-sight batch 10): Paddle says the installed TensorRT is older than 8.2
    line = "I1212 15:26:24.284873 18103 engine.cc:684] Inspector needs TensorRT version 8.2 and after.\nERROR: x"
    assert diagnose(line).environment.tensorrt_version is None


def test_the_diffusion_demos_engine_name_says_the_release() -> None:
    # real (NVIDIA/TensorRT#4315, first-sight batch 10): demo/Diffusion names its engines ".trt<version>.plan"
    log = "Building TensorRT engine for onnx/vae.opt/model.onnx: engine/vae.trt10.7.0.plan\nSegmentation fault (core dumped)"
    assert diagnose(log).environment.tensorrt_version == "10.7.0"


def test_paddle_trts_own_sources_behind_glog_say_paddle_inference() -> None:
    # real (first-sight batch 6, u-paddledet-7630): Paddle-TRT's logger helper behind glog, nothing else names Paddle
    line = ("E0119 13:18:42.726310 10018 helper.h:111] 3: [builderConfig.cpp::addOptimizationProfile::301] Error Code 3: "
            "Internal Error (Parameter check failed at: optimizer/api/builderConfig.cpp::addOptimizationProfile::301, "
            "condition: profile->isValid()")
    assert diagnose(line).environment.front_end == "paddle-inference"


@pytest.mark.parametrize(("text", "platform"), [
    # real (NVIDIA/TensorRT#203, first-sight batch 12): trtexec's input file with a forward-slash drive
    ("Input filename:   C:/Users/tmp.onnx\n[E] boom\n", "windows"),
    # real (SunOner/sunone_aimbot#19, batch 12): a retyped traceback that lost the drive's colon
    ("    File ''C\\Users\\Z\\Downloads\\yolov8_aimbot-main (4)\\yolov8_aimbot-main\\checks.py'', line 4, in<module>\n"
     "ModuleNotFoundError: No module named 'tensorrt'\n", "windows"),
    # real (neo-ai/neo-ai-dlr#450, batch 12): DLR's hint lists each OS's library; the paths are a Jetson's
    ("  File \"/usr/local/lib/python3.6/dist-packages/dlr-1.10.0-py3.6.egg/dlr/dlr_model.py\", line 39, in _load_lib\n"
     "dlr.dlr_model.DLRError: DLR library (libdlr.so) could not be loaded.\n"
     "  * OpenMP runtime is not installed (vcomp140.dll or libgomp-1.dll for Windows, libgomp.so for UNIX-like OSes)\n",
     "linux"),
    # written: a URL is no drive
    ("see https://github.com/NVIDIA/TensorRT/issues\n[E] boom\n", None),
    # real (chengzeyi/stable-fast#115, first-sight batch 31): root's home and a GNU target triple say Linux
    ("ImportError: /root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/sfast/_C.cpython-311-x86_64-linux-gnu.so: "
     "undefined symbol: _ZN2at4_ops5zeros4callE\n", "linux"),
    # written: a Windows user folder named root is no Linux path
    ("C:\\Users\\root\\app\\run.exe failed\n", "windows"),
])
def test_windows_from_a_drive_in_any_form_and_not_from_a_dll_named_beside_linux_paths(text: str, platform: str | None
                                                                                       ) -> None:
    assert diagnose(text).environment.platform == platform


@pytest.mark.parametrize(("text", "release"), [
    # real (ack00gar/FunGen#36, first-sight batch 13): the app names the running TensorRT against the engine's
    ("ERROR: TensorRT model exported with a different version than 10.11.0.33\n", "10.11.0"),
    # real (NVIDIA-AI-IOT/nanosam#24, batch 13): pip finds 8.5.2.2 installed, then fails to build 8.6.1's wheel
    ("Requirement already satisfied: tensorrt in /usr/local/lib/python3.8/dist-packages (8.5.2.2)\n"
     "Collecting tensorrt\n  Downloading tensorrt-8.6.1.post1.tar.gz (18 kB)\n"
     "  Building wheel for tensorrt (setup.py) ... error\n", "8.5.2"),
    # real (HolyWu/vs-rife#70, batch 14): pip's resolver names what is installed
    ("torch-tensorrt 2.6.0+cu126 requires tensorrt<10.8.0,>=10.7.0.post1, but you have tensorrt 10.8.0.43 which is "
     "incompatible.\n", "10.8.0"),
    # real (mafiosnik777/enhancr#48, batch 12): an app's engine cache named after the release, three parts
    ("FileNotFoundError: [Errno 2] No such file or directory: 'C:\\\\Users\\\\*****\\\\AppData\\\\Roaming\\\\.enhancr\\\\models"
     "\\\\engine\\\\sudo_shufflecugan_fp16-fp16_1080x1920_trt_8.6.1.engine'\n", "8.6.1"),
    # real (Adlik/Adlik#580, first-sight batch 17): a model named after the release and CUDA it was built with
    ("2022-06-15 10:32:54: I adlik_serving/runtime/tensorrt/model/trt_model.cc:129] After CreateTrtModel, status: "
     "instance group yolov5m_trt_7.2.1_cuda_11 of model yolov5m_trt_7.2.1_cuda_11 must be KIND_GPU\n", "7.2.1"),
    # real (the-database/VideoJaNai#65, batch 17): an engine cache named after the release and the GPU
    ("[aji:1] trtexec failed building engine for 2x_model (see D:\\GGG\\onnx\\2x_model.3162014977.trt-11.0.0"
     ".gpu-NVIDIA-GeForce-RTX-4070-Ti-SUPER-sm8.engine.build.log)\n", "11.0.0"),
    # real (Natsu-Akatsuki/RangeNet-TensorRT#26, batch 19): an engine file named after the release, three parts, .trt
    ("[INFO] Trying to deserialize previously stored: /home/rangenet/rangenet/src/rangenet/model/model_10.6.0.trt\n",
     "10.6.0"),
])
def test_the_release_the_app_or_pip_says_is_installed(text: str, release: str) -> None:
    assert diagnose(text).environment.tensorrt_version == release


def test_a_ros_package_that_finished_building_makes_a_warning_before_it_no_failure() -> None:
    """Real lines (dusty-nv/ros_deep_learning#145, first-sight batch 17): colcon's CMake warning about an optional
    package, then "Finished <<<": the build passed. A package that fails ("Failed <<<") stays a failure."""
    warning = ('CMake Warning at CMakeLists.txt:19 (find_package):\n'
               '  Could not find a configuration file for package "VPI" that is compatible\n'
               '  with requested version "2.0".\n')
    passed = diagnose("Starting >>> ros_deep_learning\n--- stderr: ros_deep_learning\n" + warning
                      + "---\nFinished <<< ros_deep_learning [2.76s]\n")
    assert passed.exit_status == 0 and not passed.failure
    failed = diagnose("Starting >>> ros_deep_learning\n--- stderr: ros_deep_learning\n" + warning
                      + "---\nFailed   <<< ros_deep_learning [2.3s, exited with code 1]\n")
    assert failed.exit_status == 1 and failed.failure


def test_onnxruntime_execution_providers_the_log_names() -> None:
    """The providers a log names, by class name or by the provider's source file in ONNX Runtime's prefix, in the
    order first named (real lines: microsoft/onnxruntime#6002, insightface's "Applied providers")."""
    log = ("2020-12-02 20:13:00.0152939 [E:onnxruntime:, inference_session.cc:1186 onnxruntime::InferenceSession::"
           "Initialize::<lambda_044c38595e6e7e9be3a8d8d57e7f8996>::operator ()] Exception during initialization: "
           "D:\\devTools\\onnxruntime\\onnxruntime\\core\\providers\\tensorrt\\tensorrt_execution_provider.cc:480 "
           "onnxruntime::TensorrtExecutionProvider::GetSupportedList graph_build.Resolve().IsOK() was false.\n"
           "Applied providers: ['CUDAExecutionProvider', 'CPUExecutionProvider'], with options: {}\n")
    env = diagnose(log).environment
    assert env.execution_providers == ["TensorrtExecutionProvider", "CUDAExecutionProvider", "CPUExecutionProvider"]
    assert env.sources["execution_providers"] == 1
    assert diagnose("[I] [TRT] Loaded engine size: 12 MiB\n").environment.execution_providers == []


@pytest.mark.parametrize(("text", "hosted"), [
    # real (first-sight batch 30, g30f-c-Efficient-Live-Portrait-10): a traceback through Colab's /content folder
    ('  File "/content/Efficient-Live-Portrait/run_live_portrait.py", line 27, in <module>\n'
     "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n", "colab"),
    # real (first-sight batch 26, g26b-r-mmdeploy-48): a Drive checkpoint under /content
    ("load checkpoint from local path: /content/drive/MyDrive/faster_rcnn_r50_fpn_1x_coco_20200130-047c8118.pth\n",
     "colab"),
    # real (sample_logs/real/t-gpu-arch-unsupported-dfine-seg-20): Kaggle's working folder
    ('  File "/kaggle/working/custom_d_fine/src/dl/export.py", line 183, in main\n', "kaggle"),
    # written: a web app's own "content" folder is not Colab's, nor is a Linux path with no notebook in it
    ("ERROR: cannot read /var/www/static/content/model.onnx\n", None),
    ('  File "/home/u/content/run.py", line 3, in <module>\n', None),
])
def test_a_hosted_notebook_is_read_from_its_paths(text: str, hosted: str | None) -> None:
    env = diagnose(text).environment
    assert env.hosted == hosted
    if hosted:
        # a hosted notebook runs on x86 Linux: no Jetson left possible, and the line it was read from is kept
        assert env.platform == "linux" and env.platform_alternatives == []
        assert env.sources["hosted"] >= 1


def test_a_hosted_notebook_gets_its_runtime_setting_not_docker_or_a_driver_install() -> None:
    """Colab with no GPU runtime: libcuda.so.1 is missing because the notebook has no GPU, not because a container
    was started without one (real lines: first-sight batch 30, g30f-c-Efficient-Live-Portrait-10)."""
    tail = ('  File "/usr/local/lib/python3.10/dist-packages/pycuda/driver.py", line 66, in <module>\n'
            "    from pycuda._driver import *  # noqa\n"
            "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n")
    colab = '  File "/content/Efficient-Live-Portrait/LivePortrait/commons/utils/tensorrt_driver.py", line 2, in <module>\n'
    home = '  File "/home/u/Efficient-Live-Portrait/LivePortrait/commons/utils/tensorrt_driver.py", line 2, in <module>\n'

    def advice(log: str) -> tuple[str, str]:
        (diag,) = [d for d in diagnose(log).diagnoses if d.id == "cuda-init-or-driver-mismatch"]
        return " ".join(diag.causes), "\n".join(diag.fixes[0].steps if diag.fixes else [])

    why, fix = advice(colab + tail)
    assert "hosted notebook" in why and "docker build" not in why
    assert "Change runtime type" in fix.splitlines()[0]
    all_steps = "\n".join(s for d in diagnose(colab + tail).diagnoses for f in d.fixes for s in f.steps)
    assert "docker run" not in all_steps and "ubuntu-drivers" not in all_steps
    why, fix = advice(home + tail)
    assert "docker build" in why and "Change runtime type" not in fix and "docker run" in fix
