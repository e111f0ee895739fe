"""core/next_steps.py: what the report says to do about an error no KB entry explains."""

from __future__ import annotations

import re
import shlex
from typing import TYPE_CHECKING, Any

import pytest

from troubleshooter import diagnose
from troubleshooter.core import next_steps
from troubleshooter.core.next_steps import fail_regex
from troubleshooter.kb.outside import builtin_kinds
from troubleshooter.models import Environment, FixStep

if TYPE_CHECKING:
    from troubleshooter.kb.stacks import Stack


def first_error_steps(payload: str, env: Environment, stack: Stack | None = None, **kw: Any) -> list[FixStep]:
    """The core's next steps with the built-in outside kinds handed in, as a report gets them."""
    return next_steps.first_error_steps(payload, env, stack, kinds=builtin_kinds(), **kw)


LINES = [
    "Error[2]: [myelinBuilderUtils.cpp::getMyelinSupportType::1270] Error Code 2: Internal Error "
    "(ForeignNode does not support data-dependent shape for now.)",
    "IExecutionContext::setInputShape: Error Code 3: API Usage Error (Parameter check failed, condition: "
    "engineDims.d[i] == dims.d[i]. Static dimension mismatch while setting input shape.)",
    "Could not find any implementation for node /model.2/Conv + PWN(PWN(/x/Sigmoid), /x/Mul).",
    "a message with regex characters: (a|b)* [x] {1} $ ^ \\ ?",
]


@pytest.mark.parametrize("line", LINES, ids=["myelin", "set-input-shape", "fusion", "metacharacters"])
def test_fail_regex_matches_the_line_again_and_variants_with_other_numbers(line: str) -> None:
    rx = fail_regex(line)
    assert re.search(rx, line)
    assert re.search(rx, re.sub(r"\d+", "77", line))
    assert len(rx) <= 200


def test_fail_regex_keeps_the_message_not_the_code_location() -> None:
    assert fail_regex(LINES[0]) == "ForeignNode does not support data-dependent shape for now"


def test_steps_name_the_front_end_and_the_known_versions() -> None:
    env = Environment(tensorrt_version="8.6.1", gpu="NVIDIA Orin", front_end="polygraphy")
    steps = first_error_steps(LINES[0], env)
    assert steps[0].command is not None and "polygraphy run" in steps[0].command.code
    reduce_cmd = steps[1].command
    assert reduce_cmd is not None
    words = shlex.split(reduce_cmd.code)
    assert words[:3] == ["polygraphy", "debug", "reduce"]
    # --fail-regex belongs to `debug reduce`: it must come before --check
    assert words.index("--fail-regex") < words.index("--check")
    assert "8.6.1" in steps[2].text and "NVIDIA Orin" in steps[2].text


def test_a_report_leads_with_the_first_unexplained_error_before_its_cascade() -> None:
    log = ("[11/02/2023-10:12:40] [E] Error[2]: [myelinBuilderUtils.cpp::getMyelinSupportType::1270] Error Code 2: "
           "Internal Error (Frobnicator does not support widgets yet.)\n"
           "[11/02/2023-10:12:40] [E] Error[2]: [builder.cpp::buildSerializedNetwork::751] Error Code 2: Internal "
           "Error (Assertion engine != nullptr failed. )\n"
           "&&&& FAILED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=m.onnx\n")
    report = diagnose(log)
    assert report.first_error is not None and report.first_error.line == 1
    assert len(report.first_error.next_steps) == 3
    assert all(d.cascade for d in report.diagnoses if d.severity == "error")
    assert report.exit_status == 1


# The first step for a line whose own words say what failed outside TensorRT (first-sight batch 6: each of these
# got "capture a verbose trtexec run" as its first step at first sight). Real lines, from the threads named.
KIND_LINES = [
    ("ModuleNotFoundError: No module named 'fastreid'", "linux", "`fastreid`", "sys.executable"),  # JDAI-CV/fast-reid#527
    ("ERROR: No matching distribution found for tensorflow==1.15.5+nv21.7", "jetson", "`tensorflow`",
     "pip index versions tensorflow"),  # GeekAlexis/FastMOT#214
    ("/usr/bin/ld: cannot find -lgflags", "linux", "libgflags", "grep libgflags"),  # enazoe/yolo-tensorrt#38
    ("bad file '/config/config.yml': yaml: line 8: did not find expected key", "linux", "`/config/config.yml`",
     None),  # blakeblackshear/frigate#9809
    ("[ERROR] Failed to load yaml file infer_cfg.yml, maybe you should check this file.", "linux", "`infer_cfg.yml`",
     'ls -l infer_cfg.yml'),  # PaddlePaddle/FastDeploy#750
    ("docker: Error response from daemon: unknown or invalid runtime name: nvidia.", "linux", "NVIDIA Container Toolkit",
     "nvidia-ctk runtime configure"),  # NVIDIA/dgx-spark-playbooks#26
    ("/test/test/test_tensorrt.sh: line 3: /usr/src/tensorrt/bin/trtexec: No such file or directory", "jetson",
     "`/usr/src/tensorrt/bin/trtexec`", 'ls -l /usr/src/tensorrt/bin/trtexec'),  # dusty-nv/jetson-containers#1576
    ("[Errno 2] No such file or directory: 'D:\\ComfyUI\\models\\tensorrt\\yolox_l.engine'", "windows",
     "yolox_l.engine", "dir "),  # batch 4
    # NVIDIA/TensorRT#4176 (batch 6): the line alone does not name the package (a tensorrt one, with its Collecting
    # line, is the KB's tensorrt-pip-install-failed; facefusion#473, batch 31, was onnx)
    ("  Getting requirements to build wheel ... error", "jetson", "source archive", "--only-binary=:all:"),
    ("E0118 08:31:52.149680 840 main.cc:257] failed to start HTTP service: Unavailable - Socket '0.0.0.0:1111' already "
     "in use", "linux", "port 1111", "grep ':1111 '"),  # triton-inference-server/pytriton#1 (batch 26)
    # batch 27: shell, pip and docker messages with one meaning
    ("sudo: ./yolov5: command not found", "jetson", "`./yolov5` does not exist", "ls -l ./yolov5"),  # wang-xinyu/tensorrtx#1203
    ("  Could not find ONNX_LIBRARY using the following names: libonnx.so", "linux", "libonnx.so",
     "-DONNX_LIBRARY="),  # apache/mxnet#19208
    ("ModuleNotFoundError: No module named 'transformers.models.qwen2'", "linux", "another release",
     "pip show transformers"),  # Tlntin/Qwen-TensorRT-LLM#92
    ("SystemError: PY_SSIZE_T_CLEAN macro must be defined for '#' formats", "linux", "before 3.10",
     "python --version"),  # nvidia-riva/python-clients#104
    ("original error: No module named 'fastrlock'", "linux", "CuPy", "fastrlock"),  # Nuitka/Nuitka#422
    # batch 26: PyTorch checkpoint loading in tensorrtx's gen_wts.py
    ("_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two options, "
     "do those steps only if you trust the source of the checkpoint.", "linux", "weights_only=False",
     "torch.load("),  # wang-xinyu/tensorrtx#1637
    ("_pickle.UnpicklingError: invalid load key, '\\x00'.", "linux", "not a PyTorch checkpoint",
     "head -c 120"),  # wang-xinyu/tensorrtx#111
    ("AttributeError: 'collections.OrderedDict' object has no attribute 'to'", "linux", "state_dict",
     None),  # wang-xinyu/tensorrtx#760
    ("tensorrt_runtime.cc:(.text+0x4e0): multiple definition of `tvm::runtime::contrib::TensorRTRuntimeCreate("
     "tvm::runtime::String const&, tvm::runtime::String const&, tvm::runtime::Array<tvm::runtime::String, void> const&)'",
     "linux", "both define", "CMakeLists.txt"),  # apache/tvm#7436
    ("    /usr/bin/env: \u2018python\u2019: No such file or directory", "jetson", "python3",
     "python-is-python3"),  # jkjung-avt/tensorrt_demos#529
    ("[ERROR] [hand-pose-estimation-1]: process has died [pid 10259, exit code -9, cmd '/home/robot/Documents/ros2_ws/"
     "install/ros2_trt_pose_hand/lib/ros2_trt_pose_hand/hand-pose-estimation --ros-args", "jetson", "out-of-memory",
     "dmesg"),  # NVIDIA-AI-IOT/ros2_trt_pose_hand#1
    ("ERROR: tensorflow-2.3.1-cp36-cp36m-linux_aarch64.whl is not a supported wheel on this platform.", "jetson",
     "cpXY", "pip --version"),  # Qengineering/TensorFlow-JetsonNano#2
    ("ERROR: You must give at least one requirement to install (see \"pip help install\")", "linux", "no package or path",
     None),  # NVIDIA/apex#542
    ("pull access denied for jetpack, repository does not exist or may require 'docker login': denied: requested access "
     "to the resource is denied", "jetson", "`jetpack`", "nv_tegra_release"),  # dusty-nv/ros_deep_learning#122
    ("docker: Error response from daemon: Unknown runtime specified nvidia.", "jetson", "NVIDIA Container Toolkit",
     "nvidia-ctk"),  # OE4T/meta-tegra#654
    ("** ERROR: <create_primary_gie_bin:120>: Failed to create 'primary_gie'", "jetson", "`primary_gie`",
     "gst-inspect-1.0 -b"),  # first-sight batch 1 (DeepStream)
    ("  ** ERROR: <create_osd_bin:58>: Failed to create 'nvosd0'", "linux", "`nvosd0`", "registry"),  # batch 2
    # batch 7: the same kinds in other words - TensorFlow's "; No such file", Caffe's "Could not open file", a quote a
    # paste lost
    ("tensorflow.python.framework.errors_impl.NotFoundError: ./human_detection/ssd_mobilenet_v1_coco_trt.pb; No such file "
     "or directory", "jetson", "`./human_detection/ssd_mobilenet_v1_coco_trt.pb`", "ls -l"),  # dataplayer12/homesecurity#6
    ("CaffeParser: Could not open file ../../model/MobileNetSSD_deploy.caffemodel", "linux",
     "`../../model/MobileNetSSD_deploy.caffemodel`", "ls -l"),  # Ghustwb/MobileNet-SSD-TensorRT#25
    ("PermissionError: [Errno 13] Permission denied: 'human-pose-estimation-3d-trt.pth", "linux",
     "`human-pose-estimation-3d-trt.pth`", "id"),  # Daniil-Osokin/lightweight-human-pose-estimation-3d-demo.pytorch#77
    ("/data/Downloads/tensorrtx/retinaface/calibrator.cpp:4:10: fatal error: opencv2/dnn/dnn.hpp: No such file or directory",
     "linux", "`opencv2/dnn/dnn.hpp`", "find / -path '*/'opencv2/dnn/dnn.hpp"),  # wang-xinyu/tensorrtx#373 (batch 8)
    ("ERROR: file:///home/zyx/code/FlashOCC/mmdeploy/build does not appear to be a Python project: neither 'setup.py' "
     "nor 'pyproject.toml' found.", "linux", "setup.py", "pip install -e"),  # Yzichen/FlashOCC#38 (batch 8)
    ("error: incomplete-download", "linux", "network", None),  # community-scripts/ProxmoxVE#5703 (batch 8)
    ("... model_repository_manager.cc:1927] Poll failed for model directory 'arcface_r100_v1': failed to open text file "
     "for read /models/arcface_r100_v1/config.pbtxt: No such file or directory", "linux",
     "`/models/arcface_r100_v1/config.pbtxt`", "--strict-model-config=false"),  # SthPhoenix/InsightFace-REST#94 (batch 8)
    ("ModuleNotFoundError: No module named 'pycocotools", "jetson", "`pycocotools`", "sys.executable"),  # jkjung-avt/tensorrt_demos#567
    # batch 10 (uncovered at first sight): a missing file said as "Missing config file", DeepStream without a muxer, a
    # symbol whose name the C++ signature makes long
    ("AssertionError: Missing config file tmp/hf_models/flan-t5-xxl/config.ini", "linux",
     "`tmp/hf_models/flan-t5-xxl/config.ini`", "ls -l tmp/hf_models/flan-t5-xxl/config.ini"),  # NVIDIA/TensorRT-LLM#887
    ("0:00:08.984108832 29549   0x7f01ff4850 WARN                 nvinfer gstnvinfer.cpp:1428:gst_nvinfer_process_full_"
     "frame:<daytimelamp_inference> error: NvDsBatchMeta not found for input buffer.", "jetson", "nvstreammux",
     "nvstreammux name=m"),  # marcoslucianops/DeepStream-Yolo#449
    ("centerpoint.cpp:(.text+0x2306): undefined reference to `spconv::load_engine_from_onnx(std::__cxx11::basic_string"
     "<char, std::char_traits<char>, std::allocator<char> > const&, spconv::Precision)'", "linux",
     "`spconv::load_engine_from_onnx`", None),  # NVIDIA-AI-IOT/Lidar_AI_Solution#85
    # batch 12 (uncovered at first sight)
    ("/onnx/onnx/onnx_onnx2trt_onnx .pb.h:12:2: error: #error This file was generated by a newer version of protoc w hich "
     "is", "linux", "protoc", "protoc --version"),  # onnx/onnx-tensorrt#32
    ("Error response from daemon: manifest for neuralet/jetson-nano:latest not found: manifest unknown: manifest unknown",
     "jetson", "`neuralet/jetson-nano:latest`", "docker manifest inspect"),  # galliot-us/neuralet#110
    ("< HTTP/1.1 404 Not Found", "linux", "404", "curl -v"),  # kserve/kserve#684
    ("malformed launch argument 'pose-estimation.launch.py', expected format '<name>:=<value>'", "linux",
     "`pose-estimation.launch.py`", "source install/setup.bash"),  # NVIDIA-AI-IOT/ros2_trt_pose#3
    ("    raise RuntimeError('cannot get YoloLayer_TRT plugin creator')", "linux", "`YoloLayer_TRT`",
     "plugin_creator_list"),  # jkjung-avt/tensorrt_demos#476
    ("no matching manifest for linux/arm64/v8 in the manifest list entries", "jetson", "`linux/arm64/v8`",
     "docker manifest inspect"),  # NVIDIA/TensorRT#1479
    ("tensorflow/compiler/xla/stream_executor/cuda/cuda_graph.cc:135:21: **error**: ‘cudaGraphDebugDotFlagsVerbose’ was "
     "not declared in this scope", "linux", "`cudaGraphDebugDotFlagsVerbose`",
     "grep -rn cudaGraphDebugDotFlagsVerbose"),  # tensorflow/tensorflow#60362 (batch 13)
    ("/workspace/Paddle/paddle/fluid/platform/device_context.h:64:10: fatal error: unsupported/Eigen/CXX11/Tensor: No "
     "such file or directory", "linux", "`unsupported/Eigen/CXX11/Tensor`", "find / -path"),  # Paddle#40797 (batch 13)
    ("No package libnvinfer8-8.2.0-1.cuda10 available.", "linux", "`libnvinfer8-8.2.0-1.cuda10`",
     "yum list available"),  # NVIDIA/TensorRT#1804 (batch 14)
    ('    "stderr": "E: Unable to correct problems, you have held broken packages.\\n",', "linux", "pinned version",
     "apt-cache policy"),  # autowarefoundation/autoware#6389 (batch 14)
    ("gcc: internal compiler error: Killed (program cc1plus)", "jetson", "`cc1plus`", "make -j2"),  # pytorch/TensorRT#773
    ("ERROR: Config value opt is not defined in any .rc file", "linux", "`opt`", "./configure"),  # tensorflow#26201
]


PROGRAM_LINES = [
    # (line, what the first step names, in its command or None): the program's own errors, batch 9's real lines
    ("train.py: error: the following arguments are required: config", "`config`", "python train.py --help"),  # trt_pose#132
    ("install.py: error: argument --onnxruntime: invalid choice: 'cuda' (choose from 'default', 'cuda-12.2', "
     "'cuda-11.8', 'openvino', 'directml')", "'cuda-12.2'", "python install.py --help"),  # facefusion#156
    ("ValueError: invalid literal for int() with base 10: 'tiny'", "`ValueError`", None),  # tensorrt_demos#449
    ("TypeError: run_eval() missing 1 required positional argument: 'eval_pycocotools'", "`run_eval()`", None),  # yolov9-qat#7
    ("KeyError: 'num_detections'", "num_detections", "polygraphy inspect model"),  # TensorRT-YOLO#15
    # batch 10's uncovered lines that name what failed before TensorRT ran (each line as its thread printed it)
    ("RuntimeError: Exporting the operator grid_sampler to ONNX opset version 11 is not supported. Please feel free to "
     "request support or submit a pull request on PyTorch GitHub.", "`grid_sampler` at opset 11",
     "opset_version="),  # xuanandsix/CLRNet-onnxruntime-and-tensorrt-demo#1
    ("make: *** No rule to make target 'onnx2engine'.  Stop.", "`onnx2engine`", "cmake -S . -B build"),  # deepsort_tensorrt#6
    ("error: Microsoft Visual C++ 14.0 or greater is required. Get it with \"Microsoft C++ Build Tools\": "
     "https://visualstudio.microsoft.com/visual-cpp-build-tools/", "Build Tools", None),  # sd-webui-tensorrt#9
    ("AssertionError: output_tensor/softmax is not in graph", "`output_tensor/softmax`",
     "n.name for n in g.node"),  # ardianumam/Tensorflow-TensorRT#29
    ("torch._dynamo.exc.Unsupported: call_function UserDefinedObjectVariable(_lru_cache_wrapper) [] {}",
     "TorchDynamo", None),  # pytorch/TensorRT#1673
    ("ValueError: This ORT build has ['TensorrtExecutionProvider', 'CUDAExecutionProvider', 'CPUExecutionProvider'] "
     "enabled. Since ORT 1.9, you are required to explicitly set the providers parameter when instantiating "
     "InferenceSession.", "`providers=`", "providers=[\"TensorrtExecutionProvider\""),  # RapidAI/RapidOCR#21
    ("   size mismatch for depth_head.scratch.output_conv2.0.weight: copying a param with shape torch.Size([32, 128, 3, 3])"
     " from checkpoint, the shape in current model is torch.Size([32, 64, 3, 3]).", "torch.Size([32, 128, 3, 3])",
     None),  # spacewalk01/depth-anything-tensorrt#21 (batch 12)
    ("Try 'morpheus tools onnx-to-trt --help' for help.", "`morpheus tools onnx-to-trt --help`", None),  # Morpheus#1979
]


@pytest.mark.parametrize(("line", "named", "command"), PROGRAM_LINES)
def test_the_programs_own_error_gets_its_step_and_the_projects_tracker(line: str, named: str, command: str | None) -> None:
    first, ask = first_error_steps(line, Environment(platform="linux"))
    assert named in first.text
    assert (first.command is None) if command is None else (first.command is not None and command in first.command.code)
    assert "project's issues" in ask.text and "NVIDIA" not in ask.text and "trtexec" not in first.text


def test_a_python_exception_in_a_known_stacks_run_keeps_that_stacks_steps() -> None:
    # real: torch2trt's own converter raised it (sample_logs/real/u-torch2trt-274.log) - not "the program's own code"
    steps = first_error_steps("IndexError: list index out of range.", Environment(front_end="torch2trt"))
    assert not any("program's own code" in s.text for s in steps)


@pytest.mark.parametrize(("line", "platform", "named", "command"), KIND_LINES)
def test_a_line_that_says_what_failed_gets_that_step_first(line: str, platform: str, named: str,
                                                           command: str | None) -> None:
    steps = first_error_steps(line, Environment(platform=platform))
    assert named in steps[0].text
    if command is None:
        assert steps[0].command is None
    else:
        assert steps[0].command is not None and command in steps[0].command.code
    assert "<" not in steps[0].text  # the line's own names, no placeholder in the prose


def test_a_tensorrt_line_keeps_the_stack_steps_first() -> None:
    steps = first_error_steps(LINES[0], Environment(front_end="trtexec"))
    assert steps[0].command is not None and "trtexec" in steps[0].command.code


def test_a_name_from_the_log_is_quoted_in_the_command_and_an_unknown_one_is_left_out_of_the_prose() -> None:
    # written: a hostile file name must not become shell syntax in a command the user copies
    (step, _ask) = first_error_steps("Failed to open file /tmp/x;rm${IFS}-rf${IFS}~.onnx", Environment(platform="linux"))
    assert step.command is not None
    assert step.command.code.endswith("; pwd")
    assert shlex.split(step.command.code.removesuffix("; pwd")) == ["ls", "-l", "/tmp/x;rm${IFS}-rf${IFS}~.onnx"]
    # real (frigate-style YAML error without the file's name): the line number, and no "<name>"
    (step, _ask) = first_error_steps("yaml: line 8: did not find expected key", Environment())
    assert "(line 8)" in step.text and "<" not in step.text


def test_a_later_line_that_says_what_failed_gives_the_first_step_when_the_first_says_nothing() -> None:
    """NVIDIA-AI-IOT/deepstream-occupancy-analytics#12 (first-sight batch 12): the first failing line is a GLib notice;
    line 8's broker error says what failed."""
    steps = first_error_steps("** ERROR: <main:1088>: Failed to set pipeline to PAUSED", Environment(front_end="deepstream"),
                              later=[(8, "ERROR from sink_sub_bin_sink2: Could not configure supporting library."),
                                     (10, "unable to connect to broker library")])
    assert steps[0].text.startswith("Line 8 says what failed:") and "nvmsgbroker" in steps[0].text


def test_tensorrts_own_first_line_keeps_its_steps_whatever_follows() -> None:
    steps = first_error_steps("[E] [TRT] 1: [runtime.cpp::parsePlan::314] Error Code 1: Serialization (oops)",
                              Environment(), later=[(5, "No such file or directory: 'x.engine'")])
    assert not steps[0].text.startswith("Line 5")


def test_a_line_that_names_nothing_of_tensorrt_from_an_unknown_stack_gets_no_trtexec_step() -> None:
    """Batch 12's judge: 32 of 106 reports led with "verbose trtexec, ask NVIDIA", for a CMake step, a darknet export,
    an OpenCV assertion. Real: Pelee-TensorRT#5 (first-sight batch 10)."""
    line = ("OpenCV Error: Assertion failed (ssize.width > 0 && ssize.height > 0) in resize, file "
            "/home/nvidia/build_opencv/opencv/modules/imgproc/src/resize.cpp, line 4044")
    steps = first_error_steps(line, Environment())
    assert "not a TensorRT message" in steps[0].text and not any("trtexec" in (s.command.code if s.command else "")
                                                                 for s in steps)
    # a line that names the engine keeps the TensorRT steps (its verbose log may show the real error)
    steps = first_error_steps("Failed to build model model/resnet50int8/build/head.bbox.plan.", Environment())
    assert "not a TensorRT message" not in steps[0].text


def test_a_python_exception_that_names_nothing_of_tensorrt_points_at_its_traceback() -> None:
    """Batch 31's judges: a Python exception outside TensorRT got "the lines just above it"; its traceback's last frame
    is where it was raised. Real: mlcommons/inference_results_v3.1#5 (first-sight batch 31)."""
    steps = first_error_steps("RuntimeError: shape '[805696, 128]' is invalid for input of size 73400320",
                              Environment())
    assert "Python exception" in steps[0].text and "last `File" in steps[0].text
    assert steps[0].command is not None and "pip show" in steps[0].command.code
    # a line that is no exception keeps the general wording (real: Pelee-TensorRT#5, first-sight batch 10)
    steps = first_error_steps("OpenCV Error: Assertion failed (ssize.width > 0 && ssize.height > 0) in resize, file "
                              "/home/nvidia/build_opencv/opencv/modules/imgproc/src/resize.cpp, line 4044", Environment())
    assert "Python exception" not in steps[0].text


def test_a_build_tools_error_gets_build_steps_not_the_stacks_runtime_ones() -> None:
    """dusty-nv/jetson-inference#1492 (first-sight batch 13): nvcc's error compiling jetson-inference against another
    TensorRT's headers got detectnet's --log-level steps."""
    line = ('/jetson-inference/c/tensorNet.h(617): error: exception specification for virtual function '
            '"tensorNet::Profiler::reportLayerTime" is incompatible with that of overridden function '
            '"nvinfer1::IProfiler::reportLayerTime"')
    steps = first_error_steps(line, Environment(front_end="jetson-inference"))
    assert "build stopped" in steps[0].text and steps[0].command is not None
    assert "NvInferVersion.h" in steps[0].command.code and "detectnet" not in steps[0].command.code


def test_pypis_placeholder_package_is_named_before_the_generic_pip_step() -> None:
    """SkyworkAI/Matrix-Game#43 (batch 13): pip's "Preparing metadata ... error" says little; the placeholder message
    further down says what failed."""
    steps = first_error_steps("  Preparing metadata (setup.py) ... error", Environment(),
                              later=[(7, "error: subprocess-exited-with-error"),
                                     (16, "The package you are trying to install is only a placeholder project on "
                                          "PyPI.org repository.")])
    assert steps[0].text.startswith("Line 16 says what failed:") and "placeholder" in steps[0].text
    # NVIDIA/TensorRT-LLM#626 (batch 19): the real package is on NVIDIA's index, not a `tensorrt` from PyPI
    assert steps[0].command is not None and "--extra-index-url https://pypi.nvidia.com" in steps[0].command.code
    assert "install tensorrt " not in steps[0].command.code


def test_tensorrts_own_error_code_line_keeps_the_tensorrt_steps() -> None:
    """NVIDIA/TensorRT#3603 (first-sight batch 14): Polygraphy's "[E] 1: Unexpected exception ..." is TensorRT's logger
    (its error code before the message), not a program's own line."""
    steps = first_error_steps("1: Unexpected exception invalid unordered_map<K, T> key", Environment(front_end=None))
    assert "not a TensorRT message" not in steps[0].text


# first-sight batch 15's lines (real, each from the thread named): the step their own words call for
BATCH_15_STEPS = [
    ("ERROR: Failed building wheel for pycuda", "pip compiled `pycuda` from source", "pip install -v"),
    ("Building wheel for pycuda (pyproject.toml) ... error", "pip compiled `pycuda` from source", "nvcc"),
    ("E: Version '8.5.2-1+cuda11.4' for 'libnvonnxparsers8' was not found", "apt's repositories have no",
     "apt-cache madison libnvonnxparsers8"),
    ("[11/01/2024-01:16:39] [TRT] [E] 4: [graphShapeAnalyzer.cpp::processCheck::862] Error Code 4: Internal Error "
     "(/TopK: K exceeds the maximum value allowed (3840).)", "TopK takes K up to 3840", None),
    ("FileNotFoundError: RF-DETR engine not found: D:\\Jasna\\model_weights\\x.engine. Run engine compilation first "
     "via ensure_engines_compiled().", "\u201cRun engine compilation first via ensure_engines_compiled()\u201d", None),
    ("ValueError: Unknown architecture for AutoModelForCausalLM: ExaoneForCausalLM",
     "does not know the model `ExaoneForCausalLM`", "pip show tensorrt_llm"),
    ("[01/26/2022-17:19:06] [TRT] [E] 9: [backendBuilderConfig.cpp::validateBasicAssumptions::34] Error Code 9: "
     "Internal Error (Builder was created on device different than current device.)",  # open-mmlab/mmdeploy#112
     "The Builder was created while one GPU was current", "CUDA_VISIBLE_DEVICES=1"),
    # dusty-nv/jetson-inference#1644 (first-sight batch 16): the engine cache folder is not writable
    ("[TRT]    failed to open engine cache file for writing /usr/local/bin/networks/SSD-Mobilenet-v2/"
     "ssd_mobilenet_v2_coco.uff.1.1.8201.GPU.FP16.engine", "could not be saved to", "sudo chown -R"),
    # first-sight batch 16: TensorRT-Pro-style CUDA check (trtpro-vision-41), Torch-TensorRT (vs-animesr-5), TF (layerism-12)
    ("[2025-05-06 16:11:12][error][cuda_tools.cpp:25]:CUDA Runtime error cudaStreamCreate(&stream_) # all CUDA-capable "
     "devices are busy or unavailable, code = cudaErrorDevicesUnavailable [ 46 ] in file OnnxParser/infer/trt_infer.cpp:66",
     "exclusive compute mode", "compute_mode"),
    ("RuntimeError: Expected input tensors to have type Half, found type float", "takes Half inputs and was given float",
     None),
    ("2020-05-11 10:04:46.130023: E tensorflow/core/common_runtime/executor.cc:648] Executor failed to create kernel. "
     "Invalid argument: NodeDef mentions attr 'incompatible_shape_error' not in Op<name=NotEqual; signature=x:T, y:T -> "
     "z:bool>", "written by a newer TensorFlow", None),
    # NVIDIA/DeepLearningExamples#927 (batch 16), Tianxiaomo/pytorch-YOLOv4#93 (batch 7): a shape through a Where/Select
    ("[E] [TRT] Layer: Where_295's output can not be used as shape tensor.", "computes a shape through `Where_295`",
     "--fold-constants"),
    # shouxieai/TensorRT-Alpha#88 (batch 11): OpenCV cannot read the input image
    ("[ WARN:0@0.005] global loadsave.cpp:241 findDecoder imread_('%01d.jpg'): can't open/read file: check file "
     "path/integrity", "OpenCV could not read the input image `%01d.jpg`", "pwd"),
]


def test_a_tensorrt_build_failing_is_not_a_pip_source_build() -> None:
    steps = first_error_steps("RuntimeError: Failed to build TensorRT engine. Error details:", Environment())
    assert not any("ready-made wheel" in s.text for s in steps)


# First-sight batch 17: real lines (sample_logs/first-sight/batch-17 holds each whole paste)
BATCH_17_STEPS = [
    # PaddlePaddle/PaddleDetection#4991: a truncated archive; NVIDIA/TensorRT-LLM backend#44: a Git LFS pointer
    ("../paddle_inference/third_party/install/openblas/lib/libopenblas.a: file not recognized: File truncated",
     "cannot read `../paddle_inference/third_party/install/openblas/lib/libopenblas.a` as a library", "git lfs pull"),
    ("#22 3747.1 /usr/bin/ld:/app/tensorrt_llm/cpp/tensorrt_llm/batch_manager/x86_64-linux-gnu/"
     "libtensorrt_llm_batch_manager_static.pre_cxx11.a: file format not recognized; treating as linker script",
     "a Git LFS pointer", "head -c 200"),
    # autowarefoundation/autoware.universe#6789: nvcc without the requested architecture
    ("nvcc fatal   : Unsupported gpu architecture 'compute_101'", "does not know `compute_101`", "--list-gpu-arch"),
    # meta-tegra#250: a Yocto image whose TensorRT recipe needs a package no layer provides
    ("  - nothing provides cuda-command-line-tools-libnvtoolsext needed by tensorrt-6.0.1+1-r0.armv8a_tegra210",
     "no package that provides `cuda-command-line-tools-libnvtoolsext`", None),
    # NVIDIA/TensorRT#270: an x86_64 TensorRT tar linked on a Jetson (the ~/ stays outside the quotes)
    ("~/Downloads/TensorRT-5.1.5.0/lib/libnvinfer.so: error adding symbols: File in wrong format",
     "built for another CPU", "file -L ~/Downloads/TensorRT-5.1.5.0/lib/libnvinfer.so"),
    # NVIDIA/retinanet-examples#297: an x86 image built on a Jetson Nano
    ("standard_init_linux.go:228: exec user process caused: exec format error", "built for another CPU", "uname -m"),
    # TheAnimeScripter#48: a model in half precision fed float
    ("Something went wrong: Input type (float) and bias type (struct c10::Half) should be the same",
     "weights are `struct c10::Half` on an input of `float`", None),
    # olegchomp/TouchDiffusion#18: a Hugging Face model id that was taken down
    ("Repository Not Found for url: https://huggingface.co/api/models/runwayml/stable-diffusion-v1-5/revision/main.",
     "refuses the model `runwayml/stable-diffusion-v1-5`", "huggingface-cli login"),
    # NVIDIA/TensorRT-RTX#8: the user's code handed the API a null layer
    ("[ERROR] IBuilderConfig::setDeviceType: Error Code 3: API Usage Error (Parameter check failed, condition: (layer) "
     "!= nullptr. )", "`IBuilderConfig::setDeviceType` was given a null `layer`", None),
    # the-database/VideoJaNai#65: the tool wrote trtexec's output to a file of its own
    ("[aji:1] trtexec failed building engine for 2x_model (see D:\\VideoJaNai\\onnx\\2x_model.trt-11.0.0.engine.build.log)",
     "The tool wrote the reason to", "trt-why"),
    # ai-dynamo/dynamo#4576: pydantic refusing TensorRT-LLM's settings
    ("2025-11-25T04:35:52.431366Z ERROR engine.get_llm_engine: Error in engine context: 2 validation errors for LlmArgs",
     "`LlmArgs` (the stack's settings) refused the options", None),
    # first-sight batch 18: wang-xinyu/tensorrtx#223, MSVC's demangled name; triton-inference-server/server#1529, S3
    ('2>yolov5.obj : error LNK2019: unresolved external symbol "public: __cdecl nvinfer1::YoloPluginCreator::'
     'YoloPluginCreator(void)" (??0YoloPluginCreator@nvinfer1@@QEAA@XZ) referenced in function',
     "(`nvinfer1::YoloPluginCreator::YoloPluginCreator`)", None),
    ("error: creating server: INTERNAL - Could not get MetaData for bucket with name XYZ",
     "could not read the bucket `XYZ`", "aws s3 ls s3://XYZ/"),
    # pytorch/TensorRT#2653: Torch-TensorRT's runtime in a forked worker
    ("  what():  [Error thrown at /home/eduardo/project/TensorRT/core/runtime/runtime.cpp:99] Expected "
     "(cudaGetDevice(reinterpret_cast<int*>(&device)) == cudaSuccess) to be true but got false",
     "CUDA is not usable in this process", "nvidia-smi -L"),
    # NVIDIA/TensorRT#3301: GNU ld, the closing quote lost in a Markdown paste
    ("tensorrt_infer.cpp:(.text+0x6c8): undefined reference to `cudaMemcpy", "(`cudaMemcpy`)", None),
    # nwesem/mtcnn_facenet_cpp_tensorRT#5: an input registered in another layout
    ("ERROR: InceptionResnetV1/Conv2d_1a_3x3/convolution: kernel weights has count 864 but 46080 was expected",
     "has 864 weights and TensorRT expected 46080", None),
    # NVIDIA-AI-IOT/redtail#112: a ROS node never built
    ("[rosrun] Couldn't find executable named caffe_ros_node below /root/ws/src/caffe_ros",
     "ROS found no built program `caffe_ros_node` in `/root/ws/src/caffe_ros`", "catkin_make"),
    # NVIDIA/TensorRT#1896: valgrind at exit
    ("==35081== Invalid free() / delete / delete[] / realloc()", "valgrind or compute-sanitizer reports `Invalid free`",
     "compute-sanitizer --tool memcheck"),
]


@pytest.mark.parametrize(("line", "said", "command"), BATCH_15_STEPS + BATCH_17_STEPS)
def test_first_sight_lines_get_the_step_their_words_call_for(line: str, said: str, command: str | None) -> None:
    """Real lines of first-sight batches 15 to 18 (each row names its thread): personalive#51/#37 (pip), TensorRT#2591
    (apt), ppq#580 (TopK), jasna#185 (the message's own remedy), exaone#2 (a TensorRT-LLM release without the model);
    a TensorRT build's own "Failed to build" is not pip's."""
    report = diagnose(line + "\n")
    first = report.first_error.next_steps[0] if report.first_error else None
    assert first is not None and said in first.text, report.first_error
    if command is not None:
        assert first.command is not None and command in first.command.code




def test_a_layer_whose_input_shapes_do_not_fit_points_at_the_layers_before_it() -> None:
    """Real line, zerollzeng/tiny-tensorrt#41 (first-sight batch 17): a model with two custom plugins."""
    report = diagnose("[02/23/2021-01:29:40] [E] [TRT] Gemm_848: attempt to multiply two matrices with mismatching "
                      "dimensions\n")
    first = report.first_error.next_steps[0] if report.first_error else None
    assert first is not None and "custom plugin's output dimensions" in first.text
    assert first.command is not None and "-e Gemm_848" in first.command.code


# Python's words for code written against another release of a library, and for a result the code did not check.
# Real lines, each from the corpus log named beside it.
API_RELEASE_LINES = [
    # first-sight/batch-17/u-dali-backend-96.log
    ("AttributeError: module 'nvidia.dali' has no attribute 'pipeline_def'",
     "The `nvidia.dali` that Python imports has no `pipeline_def`", "import nvidia.dali as m"),
    # u-trt-llm-1786.log (a Windows conda path)
    ("ImportError: cannot import name 'LLaMAConfig' from 'tensorrt_llm.models' "
     "(C:\\Users\\11319\\.conda\\envs\\trt_llm\\lib\\site-packages\\tensorrt_llm\\models\\__init__.py)",
     "it took tensorrt_llm.models from C:\\Users", "grep -i tensorrt_llm"),
    # u-trt-llm-1890.log
    ("TypeError: Mapping.__init__() got an unexpected keyword argument 'moe_tp_size'",
     "`Mapping.__init__()` was called with arguments that its installed release does not take (`moe_tp_size`)", None),
    # u-trt-3481-a.log
    ("TypeError: compute_amax() missing 1 required positional argument: 'method'",
     "`compute_amax()` was called", None),
    # u-sunone-aimbot-272.log / u-ultralytics-6902.log (the paste lost the closing quote)
    ("AttributeError: 'NoneType' object has no attribute 'create_execution_context",
     "A call returned None and the code went on to use its result (`.create_execution_context`)", None),
    # first-sight/batch-17/u-rapidocr-694.log
    ("AttributeError: 'TRTInferSession' object has no attribute 'model_root_dir'",
     "A `TRTInferSession` object has no `model_root_dir`", None),
]


@pytest.mark.parametrize(("line", "says", "command"), API_RELEASE_LINES,
                         ids=["module-attribute", "import-name", "keyword", "missing-argument", "none", "object"])
def test_python_api_errors_name_the_package_and_what_it_lacks(line: str, says: str, command: str | None) -> None:
    steps = first_error_steps(line, Environment())
    assert says in steps[0].text
    if command is None:
        assert steps[0].command is None
    else:
        assert steps[0].command is not None and command in steps[0].command.code
    assert "search that project's issues" in steps[1].text  # the project's own tracker, not NVIDIA's


def test_an_unknown_location_is_not_named_as_where_python_took_the_module() -> None:
    # first-sight/batch-14/u-ray-llm-139.log: a compiled part missing from the installed package (no path to name)
    steps = first_error_steps("ImportError: cannot import name 'trt_llm_engine_py' from 'tensorrt_llm.libs' "
                              "(unknown location)", Environment())
    assert "has no `trt_llm_engine_py`" in steps[0].text and "unknown location" not in steps[0].text


def test_the_windows_form_lists_packages_with_findstr() -> None:
    steps = first_error_steps("AttributeError: module 'pyds' has no attribute 'MODE_GPU'", Environment(platform="windows"))
    assert steps[0].command is not None and "findstr /i pyds" in steps[0].command.code
    assert "grep" not in steps[0].command.code


# batch 19's unexplained lines whose words say what failed (real lines; first-sight/batch-19 holds each paste)
BATCH_19_LINES = [
    # NVIDIA-AI-IOT/CUDA-PointPillars#93: a Git LFS pointer in place of the ONNX model
    ('[libprotobuf ERROR google/protobuf/text_format.cc:298] Error parsing text-format onnx2trt_onnx.ModelProto: 1:9: '
     'Message type "onnx2trt_onnx.ModelProto" has no field named "version".', "(it starts with `version`)", "git lfs pull"),
    # tensorlayer/hyperpose#299: an empty UFF file
    ("ERROR: UffParser: Unsupported number of graph 0", "holds no graph", "ls -l *.uff"),
    # Star-Clouds/CenterFace#71: a host array that does not fit the engine's input buffer
    ("pycuda._driver.LogicError: cuMemcpyHtoDAsync failed: invalid argument", "`cuMemcpyHtoDAsync` refused the copy", None),
    # adityamwagh/SuperSLAM#1 (batch 19): CMake's message on the line under its "CMake Error at ... (add_executable):"
    ("  Cannot find source file:", "CMake cannot find a source file", "git submodule update --init --recursive"),
    # huggingface/optimum-nvidia#122 (batch 19): bfloat16 on a GPU older than SM 80
    ("[TensorRT-LLM][ERROR] tensorrt_llm::common::TllmException: [TensorRT-LLM][ERROR] Assertion failed: Unsupported data "
     "type, pre SM 80 GPUs do not support bfloat16 (/src/tensorrt_llm/cpp/tensorrt_llm/plugins/gptAttentionCommon/"
     "gptAttentionCommon.cpp:446)", "older than SM 80, and `bfloat16` needs", "compute_cap"),
    # dusty-nv/jetson-inference#1295 (batch 19): a model's own file not downloaded
    ("[TRT]    poseNet -- failed to load topology json from 'networks/Pose-ResNet18-Hand/hand_pose.json'",
     "could not load `networks/Pose-ResNet18-Hand/hand_pose.json`", "ls -l networks/Pose-ResNet18-Hand/hand_pose.json"),
    # Dominic23331/rtmpose_tensorrt#4 (batch 20): a Chinese Visual Studio's linker, a library TensorRT 8.6 does not ship
    ("1>LINK : fatal error LNK1104: \u65e0\u6cd5\u6253\u5f00\u6587\u4ef6\u201cmyelin64_1.lib\u201d",
     "cannot open `myelin64_1.lib`", "Get-ChildItem"),
    # tensorflow/tensorflow#45410 (batch 20): apt without NVIDIA's repository
    ("E: Unable to locate package libnvinfer6", "apt has no package `libnvinfer6`", "apt-cache search libnvinfer"),
    # NVIDIA/TensorRT#1414 (batch 20): TensorRT 8.0's cuBLASLt heuristic on CUDA 10.2
    ("[TensorRT] ERROR: 2: [ltWrapper.cpp::setupHeuristic::327] Error Code 2: Internal Error (Assertion cublasStatus == "
     "CUBLAS_STATUS_SUCCESS failed.)", "TensorRT could not use cublas", "--tacticSources=-CUBLAS,-CUBLAS_LT"),
    # dusty-nv/jetson-inference#1017 (batch 20): jetson-utils built without NumPy
    ("AttributeError: module 'jetson.utils' has no attribute 'cudaToNumpy'", "built without NumPy support",
     "sudo make install"),
    # dusty-nv/jetson-inference#650: a relative image path from another folder
    ("Exception: jetson.utils -- failed to create videoSource device", "could not open the videoSource", "/dev/video"),
]


@pytest.mark.parametrize(("line", "says", "command"), BATCH_19_LINES, ids=["lfs-pointer", "empty-uff", "memcpy", "cmake-source", "bf16-pre-sm80", "model-file", "lnk1104", "apt-unknown", "cublas", "numpy", "video"])
def test_batch_19_lines_name_what_failed(line: str, says: str, command: str | None) -> None:
    first = first_error_steps(line, Environment(platform="linux"))[0]
    assert says in first.text
    assert (first.command is None) if command is None else (first.command is not None and command in first.command.code)


@pytest.mark.parametrize(("line", "platform", "command"), [
    # real, first-sight batch 19: collect2's summary without the linker's lines (dlunion/tensorRTIntegrate#9), FindCUDA's
    # summary without nvcc's (dusty-nv/jetson-inference#22); make's summary from batch 19's centerpoint-livox paste
    ("collect2: error: ld returned 1 exit status", "linux", "make -j1 2>&1 | tee build.log"),
    ("CMake Error at jetson-inference_generated_cudaOverlay.cu.o.cmake:264 (message):", "jetson", "grep -n -m5"),
    ("gmake: *** [Makefile:146: all] Error 2", "windows", "Tee-Object build.log"),
])
def test_a_build_summary_says_the_line_that_says_why_is_missing(line: str, platform: str, command: str) -> None:
    steps = first_error_steps(line, Environment(platform=platform))
    assert "summary of a failure" in steps[0].text and "missing from the paste" in steps[0].text
    assert steps[0].command is not None and command in steps[0].command.code
    assert "NvInferVersion.h" in (steps[1].command.code if steps[1].command else "")


def test_a_windows_build_gets_its_version_checks_in_powershell() -> None:
    # batch 20's judge: Linux commands (gcc, find /) on a Visual Studio build
    for line in ("main.cpp(12): fatal error C1083: Cannot open include file: 'foo.h'",
                 "main.cpp(12): error C2065: 'x': undeclared identifier"):
        steps = [st for st in first_error_steps(line, Environment(platform="windows")) if st.command is not None]
        assert steps and all(st.command.lang == "powershell" for st in steps if st.command is not None)
        assert not any("gcc" in st.command.code or "find /" in st.command.code for st in steps if st.command is not None)


# Real lines of first-sight batches 21 and 22 that no step read at first sight (the thread named in each comment): the
# first step now says what the line names.
BATCH_21_22_LINES = [
    # spacewalk01/depth-anything-tensorrt#9: Windows' loader dialog for a DLL that is not TensorRT's
    ("The code execution cannot proceed because opencv_world490d.dll was not found. Reinstalling the program may fix "
     "the problem", "windows", "`opencv_world490d.dll`", "where.exe opencv_world490d.dll"),
    # cumulo-autumn/StreamDiffusion#106: zsh globbing a package extra
    ("zsh: no matches found: streamdiffusion[tensorrt]", "linux", "quote the requirement",
     "pip install 'streamdiffusion[tensorrt]'"),
    # wang-xinyu/tensorrtx#119: the loadWeights check on a .wts the program could not open
    ("yolov5: /yolov5/tensorrtx/yolov5/common.hpp:128: std::map<std::__cxx11::basic_string<char>, nvinfer1::Weights> "
     "loadWeights(std::__cxx11::string): Assertion `input.is_open() && \"Unable to load weight file.\"' failed.",
     "linux", "could not open the .wts", "ls -l *.wts"),
    # NVIDIA/TensorRT#3866: trtexec built the engine and could not save it
    ("[05/15/2024-11:45:16] [E] Saving engine to file failed.", "jetson", "could not be written", "df -h"),
    # pytorch/TensorRT#3317: ld skipping a library of another CPU
    ("/opt/conda/bin/../lib/gcc/x86_64-conda-linux-gnu/12.4.0/../../../../x86_64-conda-linux-gnu/bin/ld.gold: warning: "
     "skipping incompatible bazel-out/aarch64-opt/bin/_solib_aarch64/libtorch_cpu.so while searching for torch_cpu",
     "linux", "another CPU architecture", "file -L"),
    # NVIDIA/TensorRT-LLM#3736 (batch 22): Open MPI stopping every rank
    ("MPI_ABORT was invoked on rank 0 in communicator MPI_COMM_WORLD", "linux", "rank 0 gave up", "grep -n"),
    # (batch 22) pkg-config without zlib on a TensorRT OSS build
    ("  None of the required 'zlib' found.", "linux", "found no `zlib`", "pkg-config --modversion zlib"),
    # microsoft/onnxruntime#5232: ctest's line for a failed test program
    ("1/3 Test #1: onnxruntime_test_all .............***Failed  229.37 sec", "windows", "`onnxruntime_test_all` failed",
     "ctest -R onnxruntime_test_all --output-on-failure"),
    # jkjung-avt/tensorrt_demos#267: post-processing that does not fit the engine's outputs
    ("ValueError: cannot reshape array of size 3132 into shape (7)", "linux", "3132 values into shape (7)",
     "polygraphy inspect model"),
    # (batch 22) gcc in zh_CN and MSVC in Chinese not finding a header
    ("inference_helper/inference_helper/inference_helper_tensorrt.cpp:30:10: fatal error: NvInfer.h: "
     "\u6ca1\u6709\u90a3\u4e2a\u6587\u4ef6\u6216\u76ee\u5f55", "linux", "header `NvInfer.h`", "find / -path"),
    ("src\\postprocess_cuda.hpp(6,10): fatal error C1083: \u65e0\u6cd5\u6253\u5f00\u5305\u62ec\u6587\u4ef6: "
     "\u201cunistd.h\u201d: No such file or directory", "windows", "header `unistd.h`", "Get-ChildItem"),
]


@pytest.mark.parametrize(("line", "platform", "says", "command"), BATCH_21_22_LINES,
                         ids=["win-loader", "zsh-glob", "wts-open", "save-engine", "ld-incompatible", "mpi-abort",
                              "pkg-config", "ctest", "numpy-reshape", "gcc-zh", "msvc-zh"])
def test_batch_21_and_22_lines_name_what_failed(line: str, platform: str, says: str, command: str) -> None:
    first = first_error_steps(line, Environment(platform=platform))[0]  # type: ignore[arg-type]
    assert says in first.text
    assert first.command is not None and command in first.command.code
    assert diagnose(line).failure == ("warning:" not in line)  # ld's skip is a warning: the failure is the line after


@pytest.mark.parametrize(("lines", "says", "command"), [
    # (batch 22) CMake's message body under its header: a submodule folder without a CMakeLists.txt
    (["CMake Error at CMakeLists.txt:37 (add_subdirectory):", "  The source directory", "",
      "    /onnx-tensorrt/third_party/onnx", "", "  does not contain a CMakeLists.txt file."],
     "git submodule", "git submodule update --init --recursive"),
    # CrazyAra#67 (batch 22): a Windows path's backslash read as an escape
    (["CMake Error at CMakeLists.txt:344 (add_executable):", "  Syntax error in cmake code at", "",
      "    C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2/samples/common/logger.cpp", "",
      "  Invalid escape sequence \\P"], "forward slashes", None),
])
def test_cmake_message_bodies_say_what_failed(lines: list[str], says: str, command: str | None) -> None:
    """The message under CMake's header leads (the header says where, the body what: batch 27), with its step."""
    report = diagnose("\n".join(lines))
    assert report.failure and report.first_error is not None
    assert not report.first_error.text.startswith("CMake Error at")
    first = report.first_error.next_steps[0]
    assert says in first.text
    assert command is None or (first.command is not None and command in first.command.code)


@pytest.mark.parametrize(("line", "platform", "says", "command"), [
    # NVIDIA/TensorRT#1671 (batch 22): the cross-compile image without its JetPack files
    ("COPY failed: file not found in build context or excluded by .dockerignore: stat docker/jetpack_files: file does "
     "not exist", "linux", "`docker/jetpack_files`", "ls -la docker/jetpack_files"),
    # (batch 22) ChatRTX: a wheel that is a Git LFS pointer or a cut download
    ("ERROR: Wheel 'tensorrt-llm' located at D:\\rtx\\dist\\tensorrt_llm-0.9.0-cp310-cp310-win_amd64.whl is invalid.",
     "windows", "Git LFS pointer", "Get-Item"),
], ids=["docker-copy", "wheel-invalid"])
def test_build_inputs_that_are_missing_or_broken_are_named(line: str, platform: str, says: str, command: str) -> None:
    first = first_error_steps(line, Environment(platform=platform))[0]  # type: ignore[arg-type]
    assert says in first.text
    assert first.command is not None and command in first.command.code


@pytest.mark.parametrize(("line", "says", "command"), [
    # (batch 23) TensorRT-LLM naming the build option the engine lacks
    ("[TensorRT-LLM][ERROR] Assertion failed: When KV cache block reuse is set, model has to be built with paged context "
     "FMHA", "`paged context FMHA`", "trtllm-build --help"),
    (" what():  [TensorRT-LLM][ERROR] Assertion failed: KV-cache-less is only supported for context", "without a KV cache",
     "--kv_cache_type paged"),
    # (batch 23) jetson-utils drawing with no display
    ("[cuda]      invalid OpenGL or DirectX context (error 219) (hex 0xDB)", "no display", "--headless"),
], ids=["trtllm-built-with", "trtllm-kv-cache-less", "opengl-context"])
def test_lines_that_name_a_missing_build_option_or_display(line: str, says: str, command: str) -> None:
    first = first_error_steps(line, Environment(platform="linux"))[0]
    assert says in first.text
    assert first.command is not None and command in first.command.code


@pytest.mark.parametrize(("line", "says", "command"), [
    # dusty-nv/jetson-inference#1788 (batch 23): jetson-utils' CUDA call with CUDA's unknown error, fine as root
    ("[cuda]      unknown error (error 999) (hex 0x3E7)", "`video` group", "usermod -aG video"),
    # dusty-nv/jetson-inference#1299 (batch 23): a binding refusing a cv2 image
    ("SystemError: <built-in method Process of jetson.inference.poseNet object at 0x7fae89f510> returned NULL without "
     "setting an error", "cudaFromNumpy", "help(jetson_inference.poseNet.Process)"),
], ids=["jetson-utils-999", "jetson-binding-null"])
def test_jetson_utils_and_binding_lines_are_not_model_loading(line: str, says: str, command: str) -> None:
    first = first_error_steps(line, Environment(platform="jetson"))[0]
    assert says in first.text
    assert first.command is not None and command in first.command.code


@pytest.mark.parametrize(("line", "platform", "says", "command"), [
    # (batch 22) TensorRT OSS's cross-compile image: JetPack's cross packages come from SDK Manager
    ("E: Unable to locate package libnvinfer-dev-cross-aarch64", "linux", "SDK Manager", "jetpack_files"),
    # (batch 22) a prebuilt static library from another commit than the sources
    ("tensorrt_llm_batch_manager_static.lib(trtGptModelV1.obj) : error LNK2019: unresolved external symbol \"public: "
     "void __cdecl tensorrt_llm::runtime::GptSession::generate(void)\"", "windows", "different commits", "git describe"),
    # tensorflow#33207 (batch 22): TensorFlow's configure without TensorRT's headers
    ("Could not find any NvInferVersion.h matching version '5' in any subdirectory:", "linux", "TENSORRT_INSTALL_PATH",
     "find / -name NvInferVersion.h"),
], ids=["apt-cross", "lnk2019-prebuilt", "tf-configure"])
def test_build_inputs_from_another_source_are_named(line: str, platform: str, says: str, command: str) -> None:
    first = first_error_steps(line, Environment(platform=platform))[0]  # type: ignore[arg-type]
    assert says in first.text
    assert first.command is not None and command in first.command.code


@pytest.mark.parametrize("lines", [
    # real (NVIDIA-AI-IOT/torch2trt#413, first-sight batch 25): Jupyter's header, the paste cut in the frames
    ["---------------------------------------------------------------------------",
     "AttributeError                            Traceback (most recent call last)",
     "/usr/local/lib/python3.6/dist-packages/torch/nn/modules/module.py in __call__(self, *input, **kwargs)",
     "--> 491             result = self.forward(*input, **kwargs)"],
    # written: the plain header, the paste cut after the first frame
    ["Traceback (most recent call last):", '  File "export.py", line 12, in <module>', "    main()"],
], ids=["ipython", "python"])
def test_a_traceback_cut_before_its_exception_asks_for_its_last_line(lines: list[str]) -> None:
    report = diagnose("\n".join(lines) + "\n")
    assert report.exit_status == 1 and report.first_error is not None
    first = report.first_error.next_steps[0]
    assert "ends before the traceback's last line" in first.text
    assert first.command is not None and "tail -n 40" in first.command.code


def test_a_whole_traceback_gets_no_cut_traceback_step() -> None:
    report = diagnose("Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\n"
                      "ZeroDivisionError: division by zero\n")
    assert report.first_error is not None and report.first_error.text.startswith("ZeroDivisionError")
    assert all("ends before the traceback" not in s.text for s in report.first_error.next_steps)


@pytest.mark.parametrize("line", [
    # real (first-sight batch 25): Triton's HTTP endpoint refusing the body (triton-inference-server/server#1845,
    # kserve/kserve#1283)
    '{"error":"failed to parse the request JSON buffer: Invalid value. at 0"}',
    "{\"error\":\"Unable to parse 'inputs': attempt to access non-existing object member 'inputs'\"}(base)",
])
def test_a_request_body_triton_cannot_read_gets_the_v2_json_form(line: str) -> None:
    first = first_error_steps(line, Environment())[0]
    assert "KServe v2 inference JSON" in first.text and '"inputs"' in first.text
    assert first.command is not None and "/v2/models/" in first.command.code


def test_a_builder_that_was_not_created_gets_its_three_causes() -> None:
    # real (tongyuantongyu/vs-NNVISR#7, first-sight batch 25): the program's own words for a null builder
    first = first_error_steps("VapourSynth encountered a fatal error: Cannot create infer builder", Environment())[0]
    assert "createInferBuilder returned null" in first.text
    assert first.command is not None and "nvidia-smi" in first.command.code


def test_portable_comfyui_on_windows_gets_powershell_steps_and_its_own_python() -> None:
    # comfyanonymous/ComfyUI#6792 (batch 32, real): a portable ComfyUI on Windows; the stack's steps were grep and a
    # bare `python`, neither of which that user could run as shown
    from pathlib import Path

    log = Path(__file__).parents[2] / "sample_logs/first-sight/batch-32/g32a-r-ComfyUI-6792.log"
    report = diagnose(log.read_text(encoding="utf-8"))
    assert report.environment.platform == "windows" and report.first_error is not None
    codes = [s.command.code for s in report.first_error.next_steps if s.command is not None]
    assert codes and not any(re.search(r"\bgrep\b|\|\s*head\b", c) for c in codes)
    assert any("Select-String" in c for c in codes)
    embedded = "C:\\Users\\ziadh\\OneDrive\\Desktop\\ComfyUI_windows_portable\\python_embeded\\python.exe"
    assert any(f'& "{embedded}" -c' in c for c in codes)


def test_an_apps_error_header_is_read_with_the_message_under_it() -> None:
    # real (comfyanonymous/ComfyUI_TensorRT#21, first-sight batch 37): ComfyUI's header over the exception's message,
    # without its name, then the traceback; the header alone led and got ComfyUI's generic steps
    log = ("Error occurred when executing STATIC_TRT_MODEL_CONVERSION:\n\n"
           "Exporting the operator 'aten::scaled_dot_product_attention' to ONNX opset version 17 is not supported. "
           "Please feel free to request support or submit a pull request on PyTorch GitHub: "
           "https://github.com/pytorch/pytorch/issues.\n\n"
           'File "/home/ubuntu/ComfyUI/execution.py", line 151, in recursive_execute\n'
           "output_data, output_ui = get_output_data(obj, input_data_all)\n")
    report = diagnose(log)
    assert report.first_error is not None and report.first_error.line == 1
    assert "scaled_dot_product_attention" in report.first_error.text
    assert "aten::scaled_dot_product_attention" in report.first_error.next_steps[0].text
    # over a traceback, the header is not joined with its frame
    framed = diagnose("Error occurred when executing KSampler:\n\n"
                      'File "/home/u/ComfyUI/execution.py", line 151, in recursive_execute\n'
                      "RuntimeError: CUDA error: out of memory\n")
    assert framed.first_error is None or 'File "' not in framed.first_error.text
