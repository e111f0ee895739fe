"""The failure grammar (core/logs.py): an error line is recognised by its shape wherever a stack puts it.

Each case is one line and the level it must get. `real`: copied from the public thread named beside it
(sample_logs/first-sight or sample_logs/real hold the whole paste); `written`: a line written for this
test, in the shape the stack prints (no public paste of that shape is in the corpora yet).
"""

from __future__ import annotations

import pytest

from troubleshooter import diagnose
from troubleshooter.core.logs import ERROR_MARKERS, MARKER_PATTERNS, is_error_line, parse_line
from troubleshooter.models import Level

ERRORS = [
    # a level as a field of the prefix, in another position or delimiter
    ("written", "2024-05-01 10:00:00|myapp|error|failed to deserialize cuda engine"),
    ("written", 'time="2024-05-01T10:00:00Z" level=error msg="model load failed: engine plan incompatible"'),
    ("written", "app-1  | [ERROR] Engine file could not be loaded"),
    ("written", "12:01:02 [E] [TRT] 1: [stdArchiveReader.cpp::StdArchiveReader::32] Error Code 1: Serialization"),
    ("real trtllm-serve, NVIDIA/TensorRT-LLM#7692",
     "[2025-09-11 17:02:59] ERROR base_events.py:1821: Task exception was never retrieved"),
    ("written", "pasted: E0305 12:00:00.123456 1 model_repository_manager.cc:1234] failed to load 'yolo' version 1"),
    ("written", "[TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp"),
    # a server's JSON error object as the whole paste
    ("written", "{\"error\":\"failed to load model 'densenet': version 1 is at UNAVAILABLE state\"}"),
    # exception lines: module-qualified, quoted, indented, without their traceback, repr'd with literal \n
    ("written", "tensorrt_llm.bindings.Error: [TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp"),
    ("written", '"ValueError: Input shape mismatch"'),
    ("written", "    RuntimeError: CUDA error: an illegal memory access was encountered"),
    ("real PaddleOCR, PaddlePaddle/PaddleOCR#17392",
     "In user code:\\n\\n\\n    InvalidArgumentError: Cannot find input name input_0x5bbf1306e2d0 in TRT engine"),
    ("written", "torch.jit.frontend.NotSupportedError: Compiled functions can't take variable number of arguments"),
    # a native call failing with its code, CUDA's error names
    ("written", "libcuda.so:cuInit failed : 999"),
    ("written", "cudaGetDeviceCount returned 35"),
    ("written", "CUBLAS_STATUS_NOT_INITIALIZED"),
    # a process that ended badly
    ("written", "Process finished with exit code -1073741515 (0xC0000135)"),
    ("written", "free(): invalid pointer"),
    ("real TensorRT-LLM crash handler, NVIDIA/TensorRT-LLM#5970", "*** Process received signal ***"),
    ("real TensorRT-LLM crash handler, NVIDIA/TensorRT-LLM#5970", "Signal: Aborted (6)"),
    # build tools and programs refusing their arguments
    ("real mmdeploy demo, open-mmlab/mmdeploy#375",
     "error LNK2019 unresolved external symbol mmdeploy_detector_create_by_path, referenced in function main"),
    ("real jetson-inference, dusty-nv/jetson-inference#1282", "make: *** No targets specified and no makefile found.  Stop."),
    ("real tensorrtx-style yolov5 app", "arguments not right!"),
    ("real ort crate, pykeio/ort#86",
     "ort::execution_providers: An error occurred when attempting to register `TensorrtExecutionProvider`: "
     "key/value cannot be empty"),
    ("real DeepStream-Yolo, marcoslucianops/DeepStream-Yolo#193", "Num classes mismatch. Configured: 35, detected by network: 1"),
    ("real Paddle Inference", "C++ Call Stacks (More useful to developers):"),
    ("real jetson-containers, dusty-nv/jetson-containers#34",
     "test/data/ILSVRC2012_img_val_subset_5k.tar.gz: No such file or directory"),
    ("written", "run.sh: 53: run.sh: figlet: not found"),
    # first-sight batch 2 (sample_logs/first-sight/batch-2), learned after its first-sight score
    ("real cortex, janhq/cortex#1020", "\u00d7 Model loading failed"),
    ("real jetson_benchmarks", "Error in Build, Please check the log in: ./models_nano"),
    ("real docker build, tensorrtx",
     "The command '/bin/sh -c sudo ./yolov5 -d yolov5s.engine ../samples' returned a non-zero code: 255"),
    ("real tensorrtx", "read yolov5s.engine error!"),
    ("real tensorrtx", "Load engine file failed: D:/YOLOv8/yolov8_tensorrt-main/weights/yolov8n.engine"),
    ("real jetson-containers", "unauthorized: authentication required"),
    ("real Polygraphy, NVIDIA/TensorRT#3745", "polygraphy inspect model: error: argument --model-type: invalid choice: "
     "'basic' (choose from 'frozen', 'keras', 'ckpt', 'onnx', 'engine', 'uff', 'trt-network-script', 'caffe')"),
    ("real tensorrtx on Windows", "invalid numeric argument '/Wfatal-errors'"),
    ("real Riva", "RPC failed: Error: Unavailable model requested. Lang: en-US, Type: offline"),
    ("real tensorrtllm_backend", "Received an error from server:"),
    ("real Torch-TensorRT (pytest)", "  E           RuntimeError: TensorRT engine was not built to target the loaded "
     "TensorRT runtime platform (target: windows_x86_64, current: win_x86_64)"),
    ("real Torch-TensorRT install", "     RuntimeError:"),
    ("real yolov5-face", "AssertionError"),
    ("real tensorrtllm_backend (flattened)", "[TRT-LLM] [I] Loading HF LLaMA ... from /Mixtral-8x7B-v0.1/ Traceback "
     "(most recent call last): File \"/tensorrtllm_backend/tensorrt_llm/examples/llama/build.py\", line 906"),
    # first-sight batch 3, learned after its first-sight score
    ("real Windows crash report", "      Attempt to read from address 0000000000000000"),
    ("real mpirun summary", "  Exit code:    1"),
    ("real Visual Studio error list", "C2664\t\u201cbool google::protobuf::TextFormat::Parse(...)\u201d: could not transfrom"),
    ("real ffmpeg", "pipe:: Invalid data found when processing input"),
    # first-sight batch 3 (u-mmdeploy-279): GCC in Chinese
    ("real gcc zh_CN", "/usr/include/c++/4.8.2/bits/c++0x_warning.h:32:2: \u9519\u8bef\uff1a#error This file requires compiler "
     "and library support for the ISO C++ 2011 standard."),
    # first-sight batch 4 (each was silent at first sight)
    ("real python OSError text", "[Errno 2] No such file or directory: 'D:\\\\ComfyUI-aki-v1.7\\\\ComfyUI\\\\models\\\\tensorrt\\\\dwpose\\\\yolox_l.engine'"),
    ("real mmdet2trt import", "plugin not found."),
    ("real docker on another CPU", 'standard_init_linux.go:211: exec user process caused "exec format error"'),
    ("real triton without GPU", "instance group resnet_0 of model resnet has kind KIND_GPU but no GPUs are available"),
    ("real nsight compute", "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance "
     "Counters on the target device 0."),
    ("real onnx parser text fallback", ' Error parsing text-format onnx2trt_onnx.ModelProto: 1:10: Message type '
     '"onnx2trt_onnx.ModelProto" has no field named "https"'),
    ("real triton backend", "Unable to find 'libtriton_tensorrt_plan.so' for model 'object_detection', searched: "
     "/models/object_detection/1, /models/object_detection, /opt/tritonserver/backends/tensorrt_plan"),
    # first-sight batch 5
    ("real Visual Studio debugger zh_CN", "0x00007FFF7138420D (cudnn64_8.dll) (QtPaddle.exe \u4e2d)\u5904\u6709\u672a\u7ecf"
     "\u5904\u7406\u7684\u5f02\u5e38: \u8bf7\u6c42\u4e86\u4e25\u91cd\u7684\u7a0b\u5e8f\u9000\u51fa"),
    ("real Visual Studio output zh_CN", "\u7a0b\u5e8f\u201c[15824] Test_Algorithm.exe\u201d\u5df2\u9000\u51fa\uff0c"
     "\u8fd4\u56de\u503c\u4e3a -1073740791 (0xc0000409)\u3002"),
    ("real cmake", "-- Library that was found nvinfer_LIB_PATH-NOTFOUND"),
    ("real cmake compiler", "Compiler: CMAKE_CUDA_COMPILER-NOTFOUND "),
    ("written gcc de_DE", "x.cpp:3:10: schwerwiegender Fehler: NvInfer.h: Datei oder Verzeichnis nicht gefunden"),
    # first-sight batch 6 (each was silent at first sight)
    ("real bazel, ApolloAuto/apollo#14257", "(03:04:19) ERROR: /apollo/modules/perception/lidar/lib/detector/"
     "point_pillars_detection/BUILD:119:13: error while parsing .d file: /apollo/x.pic.d (No such file or directory)"),
    ("real bazel, ApolloAuto/apollo#14257", "(03:04:19) FAILED: Build did NOT complete successfully"),
    ("real glog fatal check, ApolloAuto/apollo#15132", "*** Check failure stack trace: ***"),
    ("real Visual Studio error list zh_CN, FairMOT_TensorRT#4", "      \u9519\u8bef        LNK2001        \u65e0\u6cd5"
     "\u89e3\u6790\u7684\u5916\u90e8\u7b26\u53f7 \"class onnx2trt_onnx::TensorShapeProtoDefaultTypeInternal"),
    ("real docker build, NVIDIA/gpu-rest-engine#31", "ADD failed: stat /var/lib/docker/tmp/docker-builder161170432/"
     "TensorRT-2.1.2.x86_64.cuda-8.0-16-04.tar.bz2: no such file or directory"),
    ("real Jan server log, janhq/jan#2834", '2024-04-26T09:19:08.832Z [SERVER]::{"reqId":"req-t","res":{"statusCode":500},'
     '"req":{},"msg":"request completed","responseTime":133.75729999993928}'),
    ("real mmengine logger, open-mmlab/mmyolo#948", "12/14 17:15:38 - mmengine - ERROR - D:\\anaconda\\envs\\mmdeploy"
     "\\lib\\site-packages\\mmdeploy\\apis\\core\\pipeline_manager.py - pop_mp_output - 80 - "
     "`mmdeploy.apis.pytorch2onnx.torch2onnx` with Call id: 0 failed. exit."),
    ("real NIM container, NVIDIA/nim-deploy#92", '{"level": "None", "time": "None", "message": "[09-25 19:03:45.989 ERROR  '
     'nim_sdk::hub::repo rust/nim-sdk/src/hub/repo.rs:119] error sending request for url (https://api.ngc.nvidia.com/v2/x)"}'),
    ("real catkin, PRBonn/rangenet_lib#13", "Errors     << rangenet_lib:cmake /home/pam/catkin_ws/logs/rangenet_lib/"
     "build.cmake.000.log"),
    ("real TensorRT sample_ssd, NVIDIA/TensorRT#1007", "Cuda error in file src/implicit_gemm.cu at line 648: invalid device function"),
    ("real apt, NVIDIA/TensorRT#4593", "Package libnvinfer-doc is not available, but is referred to by another package."),
    ("real apt, NVIDIA/TensorRT#834", "The following packages have unmet dependencies."),
    ("real conda, NVIDIA/TensorRT#4727", "InvalidMatchSpec: Invalid spec 'cuda-python ==12.2.0;python_version<=\"3.10\"': "
     "Invalid version '12.2.0;python_version<=\"3.10\"': invalid character(s)"),
    ("real docker BuildKit without its step number, NVIDIA/TensorRT-LLM#2360",
     "125.3 CMake Error at tensorrt_llm/CMakeLists.txt:299 (configure_file):"),
    ("real cmake find_package, cyrusbehr/YOLOv8-TensorRT-CPP#16",
     '  Could NOT find TensorRT (missing: TensorRT_LIBRARY) (found version "..")'),
    ("real cmake, NVIDIA/TensorRT#1522", "Find TensorRT libs at TENSORRT_LIBRARY_INFER-NOTFOUND;TENSORRT_LIBRARY_INFER_PLUGIN-NOTFOUND"),
    ("real CUDA samples deviceQuery, dusty-nv/jetson-inference#1731", "Result = FAIL"),
    ("written C++ terminate", "  what():  std::bad_alloc"),
    # batch 7's shapes: glibc's assert with the quote a Markdown paste ate, a named component's ERROR line, a message
    # that opens with its kind of error, "Couldn't"
    ("real glibc assert, indra4837/yolov4_trt_ros#13", "python3: yolo_layer.cu:71: nvinfer1::YoloLayerPlugin::YoloLayerPlugin"
     "(const void*, size_t): Assertion d == a + length' failed."),
    ("real PyCUDA, asmirnou/watsor#29", "PyCUDA ERROR: The context stack was not empty upon module cleanup."),
    ("real WhisperLive, collabora/WhisperLive#207", "[05/05/2024-23:58:41] Unexpected error: Input audio chunk is too short"),
    ("real Clara AIAA, NVIDIA/ai-assisted-annotation-client#62 (batch 8): an exception behind bracketed time and pid fields",
     "[2020-11-09 21:15:36.127404] [pid 314:tid 140079523043072] TimeoutError: Unable to get status for "
     "'clara_train_covid19_ct_lung_seg'"),
    ("real rosrun, wayyeah/PointPillarTensorRT-ROS#2", "[rosrun] Couldn't find executable named pointpillar below /home/***/catkin_ws/src/pointpillar"),
    # batch 9's shapes: a ROS 2 launch prefix, syslog, apt/dpkg, the docker CLI, the linker and the C library in
    # Chinese, an "Error <doing>" line
    ("real ROS 2 launch, autowarefoundation/autoware_universe#11933",
     "[autoware_bevfusion_node-1] terminate called after throwing an instance of 'std::runtime_error'"),
    ("real syslog, NVIDIA-AI-IOT/jetbot#304", "Nov  3 10:02:25 jetbot-2G nvargus-daemon[5043]: SCF: Error InvalidState: "
     "Session has suffered a critical failure (in src/api/Session.cpp, function capture(), line 667)"),
    ("real apt, NVIDIA-AI-IOT/jetcard#46", "E: Sub-process /usr/bin/dpkg returned an error code (1)"),
    ("real dpkg, NVIDIA-AI-IOT/jetcard#46", "Errors were encountered while processing:"),
    ("real docker CLI, NVIDIA-AI-IOT/jetbot#307", "docker: invalid reference format."),
    ("real ld in Chinese, Syencil/tensorRT#11", "/usr/bin/ld: \u627e\u4e0d\u5230 -lyolo5trt"),
    ("real gcc in Chinese, leo/yolov8-trt#6", "Windows.h: \u6ca1\u6709\u90a3\u4e2a\u6587\u4ef6\u6216\u76ee\u5f55"),
    ("real TensorFlow C++, tensorflow/tensorflow#52599", "Error executing session.Run() INVALID_ARGUMENT: 2 root error(s) found."),
    # batch 10's shapes
    ("real OBS, obsproject/obs-studio#11913",
     "17:56:58.580: [NVIDIA VIDEO FX]: FX disabled, redistributable not found or could not be loaded."),
    ("real cmd.exe in Chinese, warmshao/FasterLivePortrait#140",
     "'.\\venv\\Scripts\\activate' \u4e0d\u662f\u5185\u90e8\u6216\u5916\u90e8\u547d\u4ee4\uff0c\u4e5f\u4e0d\u662f\u53ef\u8fd0\u884c\u7684\u7a0b\u5e8f"),
    ("real CM automation, mlcommons/inference#1773", "CM error: no scripts were found with above tags and variations"),
    ("real systemd, jamie8johnson/cqs#1576", "May 07 13:09:05 cqs-watch.service: Main process exited, code=dumped, status=8/FPE"),
    ("real GStreamer on a Jetson, toolboc/Intelligent-Video-Analytics-with-NVIDIA-Jetson-and-Microsoft-Azure#22",
     "(gst-plugin-scanner:6): GStreamer-WARNING **: 01:59:48.111: Failed to load plugin '/usr/lib/aarch64-linux-gnu/"
     "gstreamer-1.0/libgstnvvideosink.so': /usr/lib/aarch64-linux-gnu/libGLdispatch.so.0: cannot allocate memory in "
     "static TLS block"),
    ("real mmdeploy's assertion, open-mmlab/mmdeploy#2848",
     "#assertion/home/smartgis/workspace/project/mmdeploy/csrc/mmdeploy/backend_ops/tensorrt/batched_nms/trt_batched_nms.cpp,103"),
    ("real TorchDynamo, pytorch/TensorRT#1673 (a class of an exceptions module, not named ...Error)",
     "torch._dynamo.exc.Unsupported: call_function UserDefinedObjectVariable(_lru_cache_wrapper) [] {}"),
    # first-sight batch 12: shapes the batch's pastes showed unseen
    ("real clang behind its include chain, edgeimpulse/example-standalone-inferencing-linux#14",
     "In file included from ./edge-impulse-sdk/classifier/ei_fil_result_struct.h:25: ./model-parameters/model_variables.h"
     ":58:19: error: use of undeclared identifier 'trained_onnx_arena_size"),
    ("real curl -v, kserve/kserve#684", "< HTTP/1.1 404 Not Found"),
    ("real zsh's job report, NVIDIA-AI-IOT/tf_trt_models#47",
     "[1]    27275 killed     python3 camera_tf_trt.py --image --filename  --model ssd_mobilenet_v2_coco"),
    ("real Click's usage error, nv-morpheus/Morpheus#1979", "Try 'morpheus tools onnx-to-trt --help' for help."),
    ("real PyTorch's load_state_dict without its header, spacewalk01/depth-anything-tensorrt#21",
     "   size mismatch for depth_head.scratch.output_conv2.0.weight: copying a param with shape torch.Size([32, 128, 3, 3])"
     " from checkpoint, the shape in current model is torch.Size([32, 64, 3, 3])."),
    ("real ros2 launch without the workspace sourced, NVIDIA-AI-IOT/ros2_trt_pose#3",
     "malformed launch argument 'pose-estimation.launch.py', expected format '<name>:=<value>'"),
    ("real traceback pasted without its header and exception line, jkjung-avt/tensorrt_demos#476",
     "    raise RuntimeError('cannot get YoloLayer_TRT plugin creator')"),
    ("real docker on a Jetson, NVIDIA/TensorRT#1479", "no matching manifest for linux/arm64/v8 in the manifest list entries"),
    ("real PyTorch on an RTX 5090, NVIDIA/TensorRT-LLM#3347",
     "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation."),
    # first-sight batch 13
    ("real bonnet's freeze script, PRBonn/bonnet#62", "Error saving TensorRT UFF model"),
    ("real onnxruntime's message without its ValueError, chroma-core/chroma#1004",
     "This ORT build has ['TensorrtExecutionProvider', 'CUDAExecutionProvider', 'CPUExecutionProvider'] enabled. Since "
     "ORT 1.9, you are required to explicitly set the providers parameter when instantiating InferenceSession."),
    ("real gcc in a Markdown paste that kept its bold, tensorflow/tensorflow#60362",
     "tensorflow/compiler/xla/stream_executor/cuda/cuda_graph.cc:135:21: **error**: ‘cudaGraphDebugDotFlagsVerbose’ was "
     "not declared in this scope"),
    # first-sight batch 14
    ("real ansible's apt task, autowarefoundation/autoware#6389",
     '    "stderr": "E: Unable to correct problems, you have held broken packages.\\n",'),
    ("real yum, NVIDIA/TensorRT#1804", "No package libnvinfer8-8.2.0-1.cuda10 available."),
    ("real gcc killed while building Torch-TensorRT, pytorch/TensorRT#773 (first-sight batch 13)",
     "gcc: internal compiler error: Killed (program cc1plus)"),
    ("real torch_tensorrt's own runtime not imported, under a UserWarning, pytorch/TensorRT#2577",
     "C:\\Users\\Tomas\\AppData\\Local\\Programs\\Python\\Python310\\lib\\site-packages\\torch_tensorrt\\_Device.py:19: "
     "UserWarning: Unable to import torchscript frontend core and torch-tensorrt runtime. Some dependent features may "
     "be unavailable."),
    # first-sight batch 15
    ("real shell, dusty-nv/jetson-inference#1749", "bash: ./detectnet-console.py: no such file or directory"),
    ("real a build script, autowarefoundation/autoware.universe (first-sight batch 15, u-autoware-arch-476)",
     "gdown: command not found. External files could not be downloaded."),
    ("real the same colcon build", "TensorRT is NOT Available"),
    ("real the same colcon build", "CUDA NOT FOUND"),
    ("real pkg-config in a DeepStream app's make (first-sight batch 15, u-centerface-ds-2)", "No package 'opencv4' found"),
    ("real pytest's summary, pytorch/TensorRT#3909",
     "FAILED models/test_engine_cache.py::TestEngineCache::test_torch_compile_graph_break"),
    ("real TensorRT OSS plugin assertion in a Markdown paste, NVIDIA/TensorRT#765",
     "#assertion/home/nvidia/folder/TensorRT/plugin/gridAnchorPlugin/gridAnchorPlugin.cpp,206_"),
    ("real BuildKit's failing instruction (first-sight batch 15, u-trtllm-backend-810)",
     " 100 | >>> FROM ${BASE_IMAGE} AS final_stage"),
    ("real ZED SDK, stereolabs/zed-sdk#375", "This operation will be run only once and may take a few minutes   "
     "Done[ZED] [Object Detection] MODEL_NOT_FOUND"),
    ("real boost::stacktrace of a crash, triton-inference-server/server#4744",
     " 3# abort in /usr/lib/x86_64-linux-gnu/libc.so.6"),
    ("real WinDbg stack, microsoft/onnxruntime#26935", " # Child-SP          RetAddr               Call Site"),
    ("real symbolized crash stack under a syslog tag, NVIDIA/tensorrt-laboratory#39",
     "2021-01-12 23:51:36.470807 camera_master[4078]:   0: nvinfer1::LogStream::Buf::sync() at ??:?"),
    ("real PyCUDA at exit, quoted, NVIDIA/TensorRT#2014",
     '"PyCUDA ERROR: The context stack was not empty upon module cleanup."'),
    # first-sight batch 17
    ("real a tactic that failed to run stays an error, NVIDIA/TensorRT#4179",
     "[10/02/2024-16:32:50] [E] Error[9]: Error Code: 9: Skipping tactic 0x651002a8d73048a1 due to exception misaligned "
     "address"),
    ("real a shell told to run a folder, blakeblackshear/frigate#6336",
     "/opt/nvidia/nvidia_entrypoint.sh: line 49: exec: /tensorrt_models.sh: cannot execute: Is a directory"),
    ("real the same", "/opt/nvidia/nvidia_entrypoint.sh: line 49: /tensorrt_models.sh: Is a directory"),
    ("real valgrind at exit, NVIDIA/TensorRT#1896", "==35081== Invalid free() / delete / delete[] / realloc()"),
    ("real valgrind's summary, microsoft/onnxruntime#14043",
     "==7697== ERROR SUMMARY: 4239 errors from 359 contexts (suppressed: 16 from 4)"),
    ("real valgrind's leak record, NVIDIA/TensorRT#2883",
     "==16998== 152 bytes in 1 blocks are possibly lost in loss record 1,152 of 2,026"),
    ("real compute-sanitizer, NVIDIA/TensorRT-RTX#14", "========= Leaked 4 bytes at 0xdf6e00000"),
    ("real perf_analyzer (Triton Model Analyzer), triton-inference-server/model_analyzer#962",
     "Thread [0] had error: in ensemble 'ensemble-model', [request id: <id_unknown>] inference input 'attention_mask' "
     "data-type is 'BYTES', but model 'text-classification-modernbert' expects 'INT64'"),
    ("real an app giving up, nwesem/mtcnn_facenet_cpp_tensorRT#19", "Empty frame! Exiting... "),
    ("real the cross linker, NVIDIA/TensorRT#1332",
     "/usr/lib/gcc-cross/aarch64-linux-gnu/7/../../../../aarch64-linux-gnu/bin/ld: warning: libnvrtc.so.10.2, needed "
     "by /pdk_files/tensorrt/lib/libnvinfer.so, not found (try using -rpath or -rpath-link)"),
    ("real a compiler error respaced by a translator, onnx/onnx-tensorrt#54",
     "/home/nvidia/work/onnx-tensorrt/onnx2trt.hpp: 44: 14: error: 'function' in namespace 'std' does not name a "
     "template type"),
    ("real numpy's assert_allclose in mmdeploy's check, open-mmlab/mmdetection#6564", "(shapes (96, 5), (97, 5) mismatch)"),
    ("real Triton's python backend at I, triton-inference-server/tensorrtllm_backend#648",
     'I1127 13:25:50.480183 47468 pb_stub.cc:366] "Failed to initialize Python stub: AssertionError: [TensorRT-LLM]'
     '[ERROR] Currently supported multi-modal models are llava, blip2-opt, vila and mllama. Got qwen2_vl.'),
    # batch 19's shapes (first-sight/batch-19 holds each whole paste)
    ("real GNU make's $(error), mlcommons/inference_results_v1.1#6",
     "Makefile:236: *** MLPerf Inference v1.1 code requires NVIDIA Driver Version >= 465.xx.  Stop"),
    ("real pip settling on the yanked placeholder, NVIDIA/TensorRT#2896",
     "WARNING: The candidate selected for download or install is a yanked version: 'tensorrt' candidate (version 0.0.1 "
     "at https://files.pythonhosted.org/packages/b0/9b/0588892fb68abccfaf26e56fc3c45a3cab3638ad8b488302fdbfce655455/"
     "tensorrt-0.0.1.tar.gz#sha256=1fc07bfdd6f6a876c602580435a7cdebe8abbf51413c818cd25f6bca95b43489 (from "
     "https://pypi.org/simple/tensorrt/))"),
    ("real a native call failing with its code, obsproject/obs-studio#10637",
     "[noise suppress: 'Noise Suppression'] NvAFX_Load() failed with error 1"),
    ("real GStreamer's error message printed by a Python app, zhouyuchong/face-recognition-deepstream#17",
     'GstMessageError, gerror=(GError)NULL, debug=(string)"gstnvmsgbroker.cpp\\(401\\):\\ '
     'legacy_gst_nvmsgbroker_start\\ \\(\\):\\ /GstPipeline:pipeline0/GstNvMsgBroker:nvmsg-broker:\\012unable\\ '
     'to\\ connect\\ to\\ broker\\ library"; ##########################'),
    ("real ROS 2 launch's epoch time before its level, dusty-nv/jetson-inference#1778 (first-sight batch 20)",
     "1704759117.7718298 [ERROR] [launch]: Caught exception in launch (see debug for traceback): invalid syntax "
     "(video_source.ros2.launch, line 1)"),
    ("real GNU ld in a Chinese locale, shouxieai/tensorRT_Pro#155 (first-sight batch 20)",
     "/usr/local/TensorRT-7.0.0.11/lib/libnvinfer.so\uff1a\u5bf9\u2018cudaStreamDestroy@libcudart.so.10.0\u2019"
     "\u672a\u5b9a\u4e49\u7684\u5f15\u7528"),
    ("real Python logging's dashed fields, open-mmlab/mmdeploy#2328",
     "2023-11-28:11:00:01 - root - ERROR - The shape of the mask [100] at index 0 does not match the shape of the "
     "indexed tensor [99, 640, 640] at index 0"),
    ("real the ONNX checker's context line, NVIDIA/Model-Optimizer#156",
     "==> Context: Bad node spec for node. Name: onnx::MatMul_4725_DequantizeLinear OpType: DequantizeLinear"),
    ("real Visual Studio's unhandled exception in a Chinese locale, PaddlePaddle/Paddle#30026",
     "0x00007FF9E4843B29 \u5904(\u4f4d\u4e8e detector.exe \u4e2d)\u6709\u672a\u7ecf\u5904\u7406\u7684\u5f02\u5e38: "
     "Microsoft C++ \u5f02\u5e38: paddle::platform::EnforceNotMet\uff0c\u4f4d\u4e8e\u5185\u5b58\u4f4d\u7f6e "
     "0x0000004B7594CE80 \u5904\u3002"),
    # first-sight batch 24's shapes (real lines)
    ("real ptxas in a docker build, collabora/WhisperLive#177",
     "688.3 ptxas /tmp/tmpxft_00000f2a_00000000-6_customAllReduceKernels.ptx, line 2273; error   : Feature 'f16 "
     "arithemetic and compare instructions' requires .target sm_53 or higher"),
    ("real checkpoint converter, NVIDIA/TensorRT-LLM#1984",
     "Don't know how to rename transformer.model.layers.0.pre_feedforward_layernorm.weight"),
    ("real Triton on MIG, triton-inference-server/server#7906", "CacheManager Init Failed. Error: -17"),
    ("real onnxruntime gem, ankane/onnxruntime-ruby#10",
     "OnnxRuntime::Error: /onnxruntime_src/include/onnxruntime/core/common/logging/logging.h:294 static const "
     "onnxruntime::logging::Logger& onnxruntime::logging::LoggingManager::DefaultLogger() Attempt to use DefaultLogger "
     "but none has been registered."),
    ("written", "ptxas fatal   : Unresolved extern function '_Z3foov'"),
    ("real Triton model table, triton-inference-server/hugectr_backend#58",
     '|            |         |   <frozen importlib._bootstrap>(703): _load_unlocked                                            |'),
    ("real modal's runner, modal-labs/modal-examples#747",
     "Runner failed with exception: FileNotFoundError(2, 'No such file or directory')"),
    # first-sight batch 26 (sample_logs/first-sight/batch-26), learned after its first-sight score
    ("real ONNX Runtime's build.py, microsoft/onnxruntime#1777",
     "2019-09-07 15:39:21,386 Build [ERROR] - cuda_home and cudnn_home paths must be specified and valid."),
    ("real OpenCV's DNN importer, UNeedCryDear/yolov7-opencv-dnn-cpp#7",
     "[ERROR:0@0.173] global onnx_importer.cpp:1051 handleNode DNN/ONNX: ERROR during processing node with 5 inputs "
     "and 1 outputs: [NonMaxSuppression]:(onnx_node!/end2end/NonMaxSuppression) from domain='ai.onnx'"),
    ("real deepstream-app, marcoslucianops/DeepStream-Yolo#267", "** ERROR: <parse_config_file:536>: parse_config_file failed"),
    ("real a notebook's error output as JSON, pytorch/TensorRT#1565", '\t"name": "RuntimeError",'),
    ("real docker build on l4t-base, otamajakusi/dockerfile-yolov5-jetson#11", "/usr/bin/python3: No module named pip"),
    ("real holohub's run script, nvidia-holoscan/holohub#454",
     "/usr/bin/python3: Error while finding module specification for 'tinychat.serve.controller' "
     "(ModuleNotFoundError: No module named 'tinychat')"),
    ("real TensorRT sample built alone, NVIDIA/TensorRT#373", 'Unknown CMake command "set_ifndef".'),
    ("real A1111's extension installer, AUTOMATIC1111/stable-diffusion-webui-tensorrt#11",
     "stderr: Traceback (most recent call last):"),
    # first-sight batch 27
    ("real bazel in Apollo's dev container, ApolloAuto/apollo#3975", "Command 'build_opt_gpu' not found. Try 'bazel help'."),
    ("real CuPy's import banner in a Nuitka build, Nuitka/Nuitka#422", "original error: No module named 'fastrlock'"),
    ("real GNU ld building TVM with TensorRT, apache/tvm#7436",
     "tensorrt_runtime.cc:(.text+0x4e0): multiple definition of `tvm::runtime::contrib::TensorRTRuntimeCreate("
     "tvm::runtime::String const&, tvm::runtime::String const&, tvm::runtime::Array<tvm::runtime::String, void> const&)'"),
    # first-sight batch 30 (each was silent at first sight)
    ("real Jetson flashing, jetsonhacks/bootFromExternalStorage#9", "No devices to flash"),
    ("real a flashing script's message in parentheses, jetsonhacks/bootFromExternalStorage#44",
     "(ERROR: Unsupported device."),
    ("real the loader, cyrusbehr/tensorrt-cpp-api#46",
     "./run_inference_benchmark: /lib/x86_64-linux-gnu/libcublas.so.12: version `libcublas.so.12' not found (required by "
     "/lib/x86_64-linux-gnu/libnvinfer_plugin.so.8)"),
    # first-sight batch 31 (each was silent at first sight)
    ("real two outputs joined on one line, Hale423/CenterPoint#5",
     "pointNum : {51916}[01/18/2022-11:34:29] [E] [Error] File Size Error! 1038336"),
    ("real a traceback flattened into a post, inducer/pycuda#338",
     "from pycuda.compyte.dtypes import (  # noqa: F401   ModuleNotFoundError: No module named 'pycuda.compyte' "),
    ("real FFmpeg refusing the piped stream, HolyWu/vs-rife#67",
     "[yuv4mpegpipe @ 0x55f529804ac0] Invalid magic number for yuv4mpeg."),
    ("written FFmpeg's top-level form", "input.mp4: Invalid data found when processing input"),
    ("real Go gRPC, mudler/LocalAI#969",
     'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp '
     '127.0.0.1:38191: connect: connection refused"'),
    ("real Optimum's output check, huggingface/setfit#467",
     "\t\t-[x] values not close enough, max diff: 2.1155929565429688 (atol: 0.0001)"),
    ("real FastDeploy refusing a backend, PaddlePaddle/FastDeploy#553",
     "PaddleDetection/PPYOLO is not supported with backend Backend::TRT."),
    ("real TensorRT's error text without its tag, huggingface/optimum#401",
     "Internal Error (Int8 precision has been set for a layer or layer output, but int8 is not configured in the "
     "builder)"),
    # first-sight batch 32 (sample_logs/first-sight/batch-32), learned after its first-sight score
    ("real ncnn's Vulkan start-up, k4yt3x/video2x#660", "vkCreateInstance failed -3"),
    ("real ncnn's Vulkan start-up, k4yt3x/video2x#1001", "vkEnumeratePhysicalDevices failed -3"),
    ("real video2x, k4yt3x/video2x#531", "invalid gpu device"),
    ("real ComfyUI's import-times table, comfyanonymous/ComfyUI#6792",
     "2025-02-12T09:01:17.866288 -    0.0 seconds (IMPORT FAILED): C:\\Users\\ziadh\\OneDrive\\Desktop\\"
     "ComfyUI_windows_portable\\ComfyUI\\custom_nodes\\ImageReward"),
    ("real facerestore_cf, mav-rik/facerestore_cf#24",
     "Failed inference for CodeFormer: ImageModelDescriptor.__call__() got an unexpected keyword argument 'w'"),
    ("real rembg, danielgatis/rembg (comfyui-rocm#15)", "No onnxruntime backend found."),
    ("real Scriberr behind docker compose, rishikanthc/Scriberr#158",
     "app-1  | Diarization failed: module 'whisperx' has no attribute 'DiarizationPipeline'"),
    ("real Unreal Engine's log, an Azure Kinect plugin", "AzureKinectLog: Error: Kinect device (id : 0) was not found"),
    ("real roop's status tag", "[ROOP.CORE] Frames not found..."),
    ("real facefusion's status tag, facefusion/facefusion#248", "[FACEFUSION.CORE] Merging video failed"),
    ("real TVM's TensorRT runtime logger",
     "tvm/src/runtime/contrib/tensorrt/tensorrt_logger.h:51: Error: ERROR: (Unnamed Layer* 3) [Shuffle]: volume "
     "mismatch. Input dimensions [720,1,256] have volume 184320 and output dimensions [256] have volume 256."),
    ("real torch._dynamo's backend failure, hidet-org/hidet#202",
     "BackendCompilerFailed: hidet_backend raised NotImplementedError: hidet: Tensor.to(..., device=...) is not "
     "supported"),
    ("real a Node service behind docker compose, jakowenko/double-take#621",
     "double-take    | error: compreface process error: connect ECONNREFUSED 127.0.0.1:80"),
    ("real gst-launch refusing its pipeline (under WARNING), joshualemmon/gst-plugins-tf#1",
     'WARNING: erroneous pipeline: no element "gst_tf_detection"'),
    ("real mmdetection, open-mmlab/mmdetection#6303", "No such file ''"),
    # first-sight batch 33 (sample_logs/first-sight/batch-33), learned after its first-sight score
    ("real docker compose, fangfufu/Linux-Fake-Background-Webcam#12",
     "for linux-fake-background-webcam-master_fakecam_1  Cannot start service fakecam: error gathering device "
     'information while adding custom device "/dev/video2": no such file or directory'),
    ("real CTranslate2 in BallonsTranslator, dmMaze/BallonsTranslator#869",
     "Unsupported model binary version. This executable supports models with binary version v6 or below, but the "
     "model has binary version v67324752."),
    ("real CTranslate2, OpenNMT/CTranslate2#1076",
     "Conv1D on GPU currently requires the cuDNN library which is not integrated in this build"),
    ("real the kernel's kill after a progress bar, Rudrabha/Wav2Lip#469",
     "  0%|          | 0/2 [00:00<?, ?it/sKilled"),
    ("real gRPC-go's dial error, NVIDIA/k8s-device-plugin#438",
     '}. Err: connection error: desc = "transport: Error while dialing dial tcp 10.xx.xxx.xxx:8080: connect: connection '
     'refused"'),
    # first-sight batch 34: rich's bracketed short date (behind a container manager's export), a browser console's
    # source link, JavaScript's uncaught error, a JSON error object whose message is not its first field, a JSON
    # message that is an exception line, logfmt's exception value, X11's connection refusal, a module that could not
    # be launched, the kernel's kill in lower case, DALI's failed check, an assert pasted with its AssertionError
    ("real immich, immich-app/immich#8474", "[04/02/24 17:44:52] ERROR    Exception in worker process"),
    ("real immich, immich-app/immich#10726",
     "2024/07/01 18:06:58\tstdout\t[07/01/24 10:06:58] ERROR    Worker (pid:105) was sent code 139!"),
    ("real onnxruntime-web, microsoft/onnxruntime#15796",
     "audioProcessor.js:2 Error during inference: Error: no available backend found. ERR: [webgpu] RuntimeError: null "
     "function or function signature mismatch"),
    ("real onnxruntime-web, microsoft/onnxruntime#11980", "Uncaught (in promise) Error: no available backend found. ERR: "),
    ("real onnxruntime-server, microsoft/onnxruntime#2442",
     '{"error_code": 400, "error_message": "ONNX Runtime Status Code: 4. No model loaded of that name."}'),
    ("real infinity, michaelfeil/infinity#106",
     '   "message": "InternalServerError: the loaded moded cannot fullyfill `rerank`.options are {\'embed\'} inherited '
     'from model_class=<class \'infinity_emb.transformer.embedder.sentence_transformer.SentenceTransformerPatched\'>",'),
    ("real milvus, milvus-io/milvus#43225",
     "reason=<MilvusException: (code=1100, message=invalid parameter[expected=valid index][actual=invalid index type: "
     "GPU_CAGRA])>"),
    ("real boxmot, mikel-brostrom/boxmot#417", ": cannot connect to X server"),
    ("real apollo, ApolloAuto/apollo#4315", "Could not launch module perception. Is it already built?"),
    ("real torchvision, pytorch/vision#5131", "killed"),
    ("real DALI, NVIDIA/DALI#1588",
     'Assert on "HasArgument(name)" failed: Argument "sequence_length" is not supported by operator "VideoReader"'),
    # first-sight batch 35: kohya_ss' time with microseconds after a dash, Singularity's padded level, Sunshine's
    # colon-separated date, colcon's logger, FFmpeg without the encoder, NVENC's status, nvidia-container-cli's mount
    # error, pkg_resources' conflict, pip's refused option, BuildKit's failed step, a script's Python-version check,
    # torchrun's failed-script summary, LM Studio's crashed model
    ("real kohya_ss, bmaltais/kohya_ss#3300", "16:35:37-591289 ERROR No image folders found in /content/dataset. Please"),
    ("real Singularity, sylabs/singularity#3668",
     "ERROR  : Unknown image format/type: /tmp/test/ubuntu_14.04-2020-09-16-119fd5e2c6ae.sif"),
    ("real colcon, NVIDIA-ISAAC-ROS/isaac_ros_map_localization#4", "[0.441s] ERROR:colcon:colcon build: Duplicate package names not supported:"),
    ("real dizqueTV, vexorian/dizquetv#218", "Unknown encoder 'h264_nvenc'"),
    ("real nvidia-container-cli, NVIDIA/nvidia-container-runtime#123",
     "nvidia-container-cli: mount error: stat failed: /dev/nvidiactl: no such file or directory"),
    ("real StabilityMatrix, LykosAI/StabilityMatrix#814", "no such option: --extra-index-url https://download.pytorch.org/whl/cu121"),
    ("real InvokeAI, invoke-ai/InvokeAI#2253",
     "Your version of Python is too low. You need at least 3.9.0 but you have 3.7.9. We recommend Python 3.10.9 from "
     "https://www.python.org/downloads/release/python-3109/"),
    ("real TRL, huggingface/trl#1829", "/trl/trl/commands/scripts/sft.py FAILED"),
    ("real LM Studio, lmstudio-ai/lmstudio-bug-tracker#297",
     "The model has crashed without additional information. (Exit code: 18446744072635812000)"),
    ("real mmsegmentation, open-mmlab/mmsegmentation#1659",
     "assert is_tensorrt_plugin_loaded(), 'TensorRT plugin should be compiled.' AssertionError: TensorRT plugin should "
     "be compiled"),
]

NOT_ERRORS = [
    # real (dusty-nv/jetson-containers#375, triton-inference-server/server#4331; first-sight batch 24): docker's pull
    # notice, find(1) in a container's start-up banner
    "Unable to find image 'dustynv/jetson-utils:r36.2.0' locally",
    "find: '/usr/lib/ssl/private': Permission denied",
    # real (triton-inference-server/core#324, first-sight batch 24): a stop asked for, then a clean shutdown
    "Signal (15) received.",
    "Signal (2) received.",  # written
    "ptxas info    : Used 32 registers, 380 bytes cmem[0]",  # written
    # lines that healthy runs print, in the same shapes
    "2024-05-01 10:00:00|myapp|info|engine loaded",
    'time="2024-05-01T10:00:00Z" level=info msg="model ready"',
    "[08/07/2024-12:27:04] [V] [TRT] Tactic: 0x0000000000000000 Time: 0.01 failed: insufficient memory",
    "Process finished with exit code 0",
    "cudaGetDeviceCount returned 0",
    "[I] [TRT] Loaded engine size: 12 MiB",
    "INFO base_events.py:10: server started",
    "[12/01/2024-10:00:00] [W] [TRT] Using an engine plan file across different models of devices is not recommended",
    "CUBLAS_STATUS_SUCCESS",
    "x.cpp:3:10: Warnung: unused variable 'Fehler' [-Wunused-variable]",
    # real (pytorch/TensorRT#1891, first-sight batch 14): Python's warnings module, an optional library
    "/usr/local/lib/python3.8/dist-packages/torch_tensorrt/fx/tracer/acc_tracer/acc_ops.py:840: UserWarning: Unable to "
    "import torchvision related libraries.: No module named 'torchvision'. Please install torchvision lib in order to "
    "lower stochastic_depth",
    # real (HolyWu/vs-rife#70, first-sight batch 14): pip's resolver notice under its own ERROR tag, after an install
    # that succeeded (the maintainer: not fatal)
    "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This "
    "behaviour is the source of the following dependency conflicts.",
    # real (sample_logs/real/t-trt8-api-removed-trt-cpp-api-41): CMake's status line about an optional tool
    "-- ccache: not found",
    # real (sample_logs/real/u-triton-tensorrtx-423): Triton logs it at E on multi-GPU machines and goes on
    "E0301 02:32:55.140850 1 server.cc:139] failed to enable peer access for some device pairs",
    "Found 2 GPUs available for inference",
    "\u7a0b\u5e8f\u201c[15824] Test_Algorithm.exe: \u7a0b\u5e8f\u8ddf\u8e2a\u201d\u5df2\u9000\u51fa\uff0c\u8fd4\u56de\u503c\u4e3a 0 (0x0)\u3002",
    "==PROF== Connected to process 36055 (/usr/bin/nvidia-smi)",
    # batch 6's shapes on healthy lines
    "(03:04:19) INFO: Elapsed time: 1.547s, Critical Path: 0.50s",
    "12/14 17:15:38 - mmengine - INFO - Export PyTorch model to ONNX: work_dir/end2end.onnx.",
    "-- Could NOT find TensorRT (missing: TensorRT_LIBRARY)",
    '{"reqId":"req-t","res":{"statusCode":200},"msg":"request completed"}',
    "Result = PASS",
    "Finished  <<< catkin                      [ 4.6 seconds ]",
    "python3: yolo_layer.cu:71: loading plugin, assertion checks passed",
    "PyCUDA INFO: context created on device 0",
    "[2020-11-09 21:15:36.127364] [pid 314:tid 140079523043072]   File \"apps/aas/trtis/trtis_session.py\", line 41, in __init__",
    "failed to import ttsfrd, use WeTextProcessing instead",  # real, QwenAudio/CosyVoice#877 (batch 7)
    "Unexpected token counts: 0",
    "[autoware_bevfusion_node-1] [I] [TRT] Applying optimizations and building TensorRT CUDA engine.",  # real, #11933
    "Nov  3 10:02:25 jetbot-2G systemd[1]: Started Argus daemon.",  # written
    "/usr/bin/ld: warning: libcudart.so.10.2, needed by libnvinfer.so, may conflict with libcudart.so.11.0",  # written
    # batch 15's shapes on healthy lines (written)
    "TensorRT is Available",
    '-- Found CUDA: /usr/local/cuda (found version "11.4")',
    "PASSED models/test_engine_cache.py::TestEngineCache::test_dynamo_compile_with_custom_engine_cache",
    " 100 |     FROM ${BASE_IMAGE} AS final_stage",
    "I1127 13:25:50.480183 47468 pb_stub.cc:366] Python stub initialized: model qwen2_vl ready",
    " 7# __gxx_personality_v0 in /usr/lib/x86_64-linux-gnu/libstdc++.so.6",
    # real (tensorflow/tensorrt#136, hunglc007/tensorflow-yolov4-tflite#99): TF-TRT's empty engine cache before build();
    # TensorFlow's own next line says the engines are then built at run time
    "2019-10-22 10:27:09.608673: W tensorflow/core/framework/op_kernel.cc:1655] OP_REQUIRES failed at "
    "trt_engine_resource_ops.cc:183 : Not found: Container TF-TRT does not exist.",
    # real (microsoft/onnxruntime#22164): ORT's provider logs TensorRT 10's tactic rejections at ERROR; the session was
    # created
    "E onnxruntime: [2024-09-20 12:15:43   ERROR] Error Code: 9: Skipping tactic 0xaa15e43058248292 due to exception "
    "canImplement1 [tensorrt_execution_provider.h:88 onnxruntime::TensorrtLogger::log]",
    "mkdir: cannot create directory ‘build’: File exists",  # real, we0091234/yolov7-face-tensorrt#6 (batch 8)
    # batch 17's shapes on healthy lines (written)
    "Done! Exiting...",
    "==7697== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 16 from 4)",
    "==7697== All heap blocks were freed -- no leaks are possible",
    "==7697==    definitely lost: 0 bytes in 0 blocks",
    "========= ERROR SUMMARY: 0 errors",
    "drwxr-xr-x 2 root root 4096 Nov 28 08:33 models",
    # batch 19's shapes on healthy lines (written)
    "make[1]: Leaving directory '/src/build'",
    "cudaSetDevice() succeeded",
    "Collecting tensorrt==10.8.0.43",
    "2023-11-28:10:59:12 - root - INFO - Finish pipeline mmdeploy.apis.pytorch2onnx.torch2onnx",
    "1704759117.6037271 [INFO] [launch]: Default logging verbosity is set to INFO",  # real, the same paste
    "WARNING: The candidate selected for download or install is a yanked version: 'somepkg' candidate (version 1.2.0)",
    # first-sight batch 26: vs-mlrt's notice on a healthy first build (real, AmusementClub/vs-mlrt#52), and the same
    # shapes at a healthy level (written)
    "Could not read timing cache from: F:/Hybrid/64bit/onnx_models/1x_Alias_200000_G.onnx.1440x1088_fp16_workspace"
    "1073741824_trt-8501_cudnn_I-fp32_O-fp32_NVIDIA-GeForce-RTX-4080_d3d7bd0.engine.cache. A new timing cache will be "
    "generated and written.",
    "[ WARN:0@0.012] global cap_gstreamer.cpp:1405 open OpenCV | GStreamer warning: Cannot query video position",
    "** INFO: <bus_callback:291>: Pipeline ready",
    "2024-11-11 08:33:16,650 tools_python_utils [INFO] - flatbuffers module is not installed.",
    '    "name": "resnet50",',
    # batch 31's shapes at a healthy level (written): a trtexec info line joined mid-line, a decoder's per-frame
    # notice on a live stream, gRPC's OK status, a capability a tool reports without failing
    "pointNum : {51916}[01/18/2022-11:34:29] [I] [INFO] pointNum : 51916",
    "[h264 @ 0x564788364c80] error while decoding MB 27 31, bytestream -7",
    "rpc error: code = OK desc = ",
    "    from pycuda.compyte.dtypes import (  # noqa: F401",
    # first-sight batch 32's neighbours: an app's status tag over a step that went well, Unreal's warnings and display
    # lines, a function that is called with a keyword it takes, a check that passed
    "[FACEFUSION.CORE] Merging video with 25.0 FPS",
    "[2020.10.21-02.11.55:618][  0]LogSerialization: Warning: Attempting to load a BulkData object that cannot be "
    "loaded from disk",
    "LogInit: Display: Engine is initialized.",
    "vkCreateInstance succeeded",
    "Installing OpenCV, the Open source Computer Vision library... (\u2705 checked) done",
    "Failed frames: 0",
    # first-sight batch 35's neighbours (written): uvicorn's padded INFO, a script that passed
    "INFO:     Started server process [1]",
    "/trl/trl/commands/scripts/sft.py PASSED",
    # first-sight batch 34's negatives (real, facebookresearch/faiss#3955 and #4194): faiss' loader trying builds it does
    # not have, under an app's dash-joined format, and faiss-cpu's note that it has no GPU indexes
    "2024-10-16 16:13:06-INFO-loader.py:79: Could not load library with AVX512 support due to:",
    "Failed to load GPU Faiss: name 'GpuIndexIVFFlat' is not defined. Will not load constructor refs for GPU indexes.",
]


@pytest.mark.parametrize(("origin", "line"), ERRORS, ids=[f"{i}-{o.split()[0]}" for i, (o, _l) in enumerate(ERRORS)])
def test_failure_shapes_are_error_lines_and_the_finders_see_them(origin: str, line: str) -> None:
    parsed = parse_line(1, line)
    assert is_error_line(parsed), (origin, parsed)
    import re

    assert any(m in line for m in ERROR_MARKERS) or any(re.search(p, line) for p in MARKER_PATTERNS), origin
    report = diagnose(line)
    assert report.exit_status == 1, origin  # a failure, or a KB warning that owns the line


@pytest.mark.parametrize("line", NOT_ERRORS)
def test_healthy_lines_in_the_same_shapes_are_not_errors(line: str) -> None:
    parsed = parse_line(1, line)
    assert parsed.level is None or parsed.level.rank < Level.ERROR.rank, parsed


# real (first-sight batch 6, u-fastmot-11; batch 1, u-jetson-inf-1732): the frame's source line says failure words
# ("raise RuntimeError('Unable to read ...')"), or the exception is a bare Exception: the exception line still leads
TRACEBACKS = [
    # real (first-sight batch 1, u-paddle-23721): Paddle's exception class, its message in the report printed below it
    ("Traceback (most recent call last):\n  File \"tools/paddle_infer.py\", line 223, in __init__\n"
     "    self.predict = fluid.core.create_paddle_predictor(config)\npaddle.fluid.core_avx.EnforceNotMet: \n",
     "paddle.fluid.core_avx.EnforceNotMet:"),
    # written, in IPython's (Jupyter's) form: the header names the exception first and has no colon (real headers:
    # first-sight batch 25, NVIDIA-AI-IOT/torch2trt#413, shamangary/FSA-Net#38)
    ("---------------------------------------------------------------------------\n"
     "KeyError                                  Traceback (most recent call last)\n"
     "<ipython-input-3-07f6839266b8> in <module>\n----> 9 x = feeds['images']\n\n"
     "KeyError: 'images'\n",
     "KeyError: 'images'"),
    # real (pytorch/TensorRT#2184, first-sight batch 24): a traceback pasted without its header; the raise statement's
    # source line says the same words as the exception line under it
    ("  File \"/usr/local/lib/python3.10/dist-packages/torch_tensorrt/_compile.py\", line 124, in compile\n"
     "    target_ir = _get_target_ir(module_type, ir)\n"
     "  File \"/usr/local/lib/python3.10/dist-packages/torch_tensorrt/_compile.py\", line 78, in _get_target_ir\n"
     "    raise ValueError(\"Unknown ir was requested\")\nValueError: Unknown ir was requested\n",
     "ValueError: Unknown ir was requested"),
    ("Traceback (most recent call last):\n  File \"app.py\", line 108, in <module>\n    main()\n"
     "  File \"/home/u/FastMOT/fastmot/videoio.py\", line 53, in __init__\n"
     "    raise RuntimeError('Unable to read video stream')\nRuntimeError: Unable to read video stream\n",
     "RuntimeError: Unable to read video stream"),
    # real (first-sight batch 1, u-trt-llm-4253): C++'s terminate, then the exception's what() line
    ("terminate called after throwing an instance of 'tensorrt_llm::common::TllmException'\n"
     "  what():  [TensorRT-LLM][ERROR] Assertion failed: MOE GEMM1 Config is not set (/builds/x/moe_kernels.cu:2684)\n"
     "1       0xfffec65d1de8 tensorrt_llm::common::throwRuntimeError(char const*, int) + 120\n",
     "what():  [TensorRT-LLM][ERROR] Assertion failed: MOE GEMM1 Config is not set (/builds/x/moe_kernels.cu:2684)"),
    ("jetson.inference -- detectNet loading build-in network 'ssd-mobilenet-v2'\nTraceback (most recent call last):\n"
     "  File \"detectnet.py\", line 53, in <module>\n    net = detectNet(args.network, sys.argv, args.threshold)\n"
     "Exception: jetson.inference -- detectNet failed to load network\n",
     "Exception: jetson.inference -- detectNet failed to load network"),
    # real (ray-project/ray-llm#124, first-sight batch 19): Ray's "(ServeController pid=910) " before every line
    ("(ServeController pid=910) WARNING 2024-01-22 10:33:24,218 controller 910 application_state.py:742 - Deploying "
     "app 'ray-llm' failed with exception:\n(ServeController pid=910) Traceback (most recent call last):\n"
     "(ServeController pid=910)   File \"pydantic/main.py\", line 522, in pydantic.main.BaseModel.parse_obj\n"
     "(ServeController pid=910) ValueError: dictionary update sequence element #0 has length 1; 2 is required\n",
     "(ServeController pid=910) ValueError: dictionary update sequence element #0 has length 1; 2 is required"),
    # real (chengzeyi/stable-fast#15, first-sight batch 31): TorchScript's header over its own traceback, the exception
    # that says why under it
    ("RuntimeError: The following operation failed in the TorchScript interpreter.\n"
     "Traceback of TorchScript (most recent call last):\n\ngraph(%1, %2):\n"
     "    %x : Tensor = sfast_triton::reshape(%1, %2)\n                  ~~~~~~~~~~~~ <--- HERE\n    return (%x)\n"
     "RuntimeError: RuntimeError: shape '[512, 512, 64, 64]' is invalid for input of size 2097152\n",
     "RuntimeError: RuntimeError: shape '[512, 512, 64, 64]' is invalid for input of size 2097152"),
]


@pytest.mark.parametrize(("log", "lead"), TRACEBACKS, ids=["paddle-enforce", "ipython-header", "no-header-raise-line", "source-line-with-failure-words", "cpp-terminate-what",
                                                           "bare-exception", "ray-worker-prefix", "torchscript-header"])
def test_the_exception_line_leads_its_traceback(log: str, lead: str) -> None:
    report = diagnose(log)
    assert report.first_error is not None and report.first_error.text.strip() == lead
    assert all("Traceback" not in u.text and "raise " not in u.text and "terminate called" not in u.text
               for u in report.unexplained)


def test_the_parsers_node_dump_is_a_failure_but_the_line_that_says_why_leads() -> None:
    """RT-DETRs/RT-DETRv4#18 (batch 7): trtexec dumps the failing node under [E] before the assertion that names
    the cause; the dump alone (a paste cut before the reason, sample_logs/real-heldout's hfnet) is still a failure."""
    dump = ('[01/03/2026-14:54:45] [E] [TRT] ModelImporter.cpp:749: --- Begin node ---\n'
            '[01/03/2026-14:54:45] [E] [TRT] ModelImporter.cpp:750: input: "/model/decoder/decoder/layers.0/cross_attn/Split_output_0"\n'
            'op_type: "GridSample"\n'
            '[01/03/2026-14:54:45] [E] [TRT] ModelImporter.cpp:751: --- End node ---\n')
    reason = ('[01/03/2026-14:54:45] [E] [TRT] ModelImporter.cpp:755: ERROR: builtin_op_importers.cpp:5428 In function '
              'importFallbackPluginImporter:\n'
              '[8] Assertion failed: creator && "Plugin not found, are the plugin name, version, and namespace correct?"\n')
    full = diagnose(dump + reason)
    assert full.failure and full.first_error is None
    assert full.diagnoses[0].id == "onnx-unsupported-op"
    alone = diagnose(dump)
    assert alone.failure and alone.first_error is not None and "Begin node" in alone.first_error.text


def test_the_parsers_in_function_header_does_not_lead_ahead_of_the_line_that_says_why() -> None:
    """deepinsight/insightface#1274 (batch 7): the TensorRT 7 parser's 'In function importNode:' header, then the
    reason."""
    log = ("While parsing node number 5 [PRelu -> \"relu0\"]:\n"
           "ERROR: /opt/onnx-tensorrt/ModelImporter.cpp:143 In function importNode:\n"
           "[8] No importer registered for op: PRelu\n")
    report = diagnose(log)
    assert report.failure and report.first_error is None
    assert report.diagnoses[0].id == "onnx-unsupported-op"


PADDLESHARP_132 = ['C++ Traceback (most recent call last):', '--------------------------------------', 'Not support stack backtrace yet.', '', '----------------------', 'Error Message Summary:', '----------------------', 'PreconditionNotMetError: To use Paddle-TensorRT, please compile with TENSORRT first. (at D:\\a\\PaddleSharp\\PaddleSharp\\paddle-src\\paddle\\fluid\\inference\\api\\analysis_config.cc:787)']
"""sdcb/PaddleSharp#132 (first-sight batch 8): Paddle's error report, its headers before the message."""


def test_paddles_report_headers_do_not_lead_ahead_of_its_message() -> None:
    report = diagnose("\n".join(PADDLESHARP_132) + "\n")
    assert report.failure and report.first_error is None
    assert report.diagnoses[0].id == "paddle-built-without-tensorrt"


def test_an_apps_step_header_does_not_lead_ahead_of_the_error_under_it() -> None:
    """Real (chaiNNer-org/chaiNNer#808, first-sight batch 26): the app names the node that failed, the error follows."""
    log = ("An error occurred in a ONNX Upscale Image node:\n"
           "\n"
           "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Got invalid dimensions for input: input for the following indices\n"
           " index: 1 Got: 1 Expected: 3\n"
           " Please fix either the inputs or the model.\n")
    report = diagnose(log)
    # the error under the header leads: ONNX Runtime's shape check, diagnosed (engine-io-mismatch, since batch 33)
    assert report.first_error is None and report.diagnoses[0].id == "engine-io-mismatch"
    assert report.diagnoses[0].evidence[0].line == 3
    # alone, the header is the failure a paste shows
    alone = diagnose("An error occurred in a ONNX Upscale Image node:\n")
    assert alone.failure and alone.first_error is not None


def test_cmakes_error_header_does_not_lead_ahead_of_the_message_under_it() -> None:
    """Real (apache/mxnet#19208, first-sight batch 27): CMake prints where it failed, then what, indented below."""
    log = ("-- Using TensorRT\n"
           "CMake Error at CMakeLists.txt:239 (find_library):\n"
           "  Could not find ONNX_LIBRARY using the following names: libonnx.so\n"
           "\n"
           "-- Configuring incomplete, errors occurred!\n")
    report = diagnose(log)
    assert report.first_error is not None and "Could not find ONNX_LIBRARY" in report.first_error.text


def test_a_cmake_message_header_leads_with_the_message_under_it() -> None:
    """Real (lightvector/KataGo#1062, first-sight batch 28): a project's message(FATAL_ERROR) says what failed on the
    indented lines under CMake's header, in words no failure grammar knows; the header leads, joined with them, ahead of
    the "Configuring incomplete" summary (and an unindented line after it is not joined)."""
    log = ("-- Found Threads: TRUE\n"
           "CMake Error at CMakeLists.txt:354 (message):\n"
           "  TensorRT 8.5 or greater is required but ..  was found.\n"
           "\n"
           "\n"
           "-- Configuring incomplete, errors occurred!\n")
    report = diagnose(log)
    assert report.failure and report.first_error is not None and report.first_error.line == 2
    assert report.first_error.text == ("CMake Error at CMakeLists.txt:354 (message): TensorRT 8.5 or greater is required "
                                       "but ..  was found.")
    flat = diagnose("CMake Error at CMakeLists.txt:354 (message):\n-- Configuring incomplete, errors occurred!\n")
    assert [u.text for u in flat.unexplained] == ["CMake Error at CMakeLists.txt:354 (message):"]


def test_the_linkers_in_function_header_does_not_lead_ahead_of_the_missing_symbol() -> None:
    """NVIDIA-AI-IOT/Lidar_AI_Solution#85 (first-sight batch 10): ld names the function, then the symbol it lacks."""
    log = ("/usr/bin/ld: CMakeFiles/centerpoint.dir/src/centerpoint.cpp.o: in function `CenterPoint::CenterPoint("
           "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, bool)':\n"
           "centerpoint.cpp:(.text+0x2306): undefined reference to `spconv::load_engine_from_onnx(std::__cxx11::"
           "basic_string<char, std::char_traits<char>, std::allocator<char> > const&, spconv::Precision)'\n"
           "collect2: error: ld returned 1 exit status\n")
    report = diagnose(log)
    assert report.failure and report.first_error is not None
    assert "undefined reference" in report.first_error.text


def test_a_crashs_native_stack_trace_is_its_context_not_another_error() -> None:
    """microsoft/onnxruntime#5384 (first-sight batch 14): gdb's frames after the signal line led the report."""
    log = ('Thread 1 "test" received signal SIGSEGV, Segmentation fault.\n'
           "0x00007fd78091def6 in (anonymous namespace)::KernelRegistryAndStatus::~KernelRegistryAndStatus() () from "
           "/workspace/build/Release/libonnxruntime_providers_tensorrt.so\n"
           "#0  0x00007fd78091def6 in (anonymous namespace)::KernelRegistryAndStatus::~KernelRegistryAndStatus() () from "
           "/workspace/build/Release/libonnxruntime_providers_tensorrt.so\n"
           "#1  0x00007fd7aa72e6c5 in __cxa_finalize (d=0x7fd780d11580) at cxa_finalize.c:83\n")
    report = diagnose(log)
    assert report.failure and report.first_error is None
    assert report.diagnoses[0].id == "process-crash"


def test_a_glib_critical_check_leads_only_a_paste_that_holds_nothing_else() -> None:
    """GLib's g_critical is a failed check the program goes on after; DeepStream prints it before the line that says
    what failed (real lines: marcoslucianops/DeepStream-Yolo#176, first-sight batch 17), and alone it is still the
    failure that is seen (dusty-nv/jetson-inference#615, batch 6)."""
    critical = ("(deepstream-app:15307): GStreamer-CRITICAL **: 11:33:32.095: passed '0' as denominator for "
                "`GstFraction'")
    report = diagnose(critical + "\n" + critical + "\nFailed to load config file: No such file or directory\n")
    assert report.first_error is not None and report.first_error.text.startswith("Failed to load config file")
    alone = diagnose(critical + "\n")
    assert alone.exit_status == 1 and alone.first_error is not None and "CRITICAL" in alone.first_error.text


def test_a_traceback_cut_before_its_exception_does_not_lead_ahead_of_the_failure_it_reports() -> None:
    # real (blakeblackshear/frigate#8196, first-sight batch 19): TensorRT's deserialization failure behind Frigate's
    # logger, then the detector process's traceback, cut before its exception line
    log = ("2023-10-17 10:59:55.747518630  [2023-10-17 10:59:55] frigate.detectors.plugins.tensorrt ERROR   : 4: "
           "[runtime.cpp::deserializeCudaEngine::66] Error Code 4: Internal Error (Engine deserialization failed.)\n"
           "2023-10-17 10:59:55.751334046  Process detector:tensorrt:\n"
           "2023-10-17 10:59:55.751783913  Traceback (most recent call last):\n"
           "2023-10-17 10:59:55.751797243    File \"/usr/lib/python3.9/multiprocessing/process.py\", line 315, in "
           "_bootstrap\n2023-10-17 10:59:55.751798063      self.run()\n")
    report = diagnose(log)
    assert report.failure and report.first_error is None
    assert report.diagnoses[0].evidence[0].line == 1


def test_the_web_uis_script_loading_header_does_not_lead_ahead_of_the_exception_it_announces() -> None:
    # real (AUTOMATIC1111/stable-diffusion-webui-tensorrt#6, first-sight batch 20): "Error loading script: trt.py", then
    # the traceback whose exception line says what failed
    from pathlib import Path

    log = Path(__file__).resolve().parents[2] / "sample_logs" / "first-sight" / "batch-20" / "u-sdwebui-trt-6.log"
    report = diagnose(log.read_text(encoding="utf-8"))
    assert report.first_error is None and report.diagnoses[0].id == "python-package-missing"


def test_a_packages_own_load_warning_leads_and_the_source_line_under_it_is_code() -> None:
    # real (microsoft/onnxruntime#4489, first-sight batch 24): onnxruntime reports its native module that did not load as
    # a warning; the source line Python prints under the warning is code; the traceback is cut before its exception
    log = (".../miniconda3/lib/python3.6/site-packages/onnxruntime/capi/_pybind_state.py:13: UserWarning: Cannot load "
           "onnxruntime.capi. Error: 'libiomp5.so: cannot open shared object file: No such file or directory'\n"
           "  warnings.warn(\"Cannot load onnxruntime.capi. Error: '{0}'\".format(str(e)))\n"
           "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n")
    report = diagnose(log)
    assert report.exit_status == 1
    # the warning's own line is the failure: a library the loader could not open (library-load-failure's class)
    assert report.diagnoses[0].id == "library-load-failure"
    assert [e.line for e in report.diagnoses[0].evidence] == [1]
    assert all("warnings.warn" not in u.text for u in report.unexplained)


def test_an_ipython_traceback_cut_before_its_exception_leads_with_its_header() -> None:
    # real (NVIDIA-AI-IOT/torch2trt#413, first-sight batch 25): Jupyter's header names the exception; the paste ends in
    # the frames
    log = ("---------------------------------------------------------------------------\n"
           "AttributeError                            Traceback (most recent call last)\n"
           "/usr/local/lib/python3.6/dist-packages/torch/nn/modules/module.py in __call__(self, *input, **kwargs)\n"
           "--> 491             result = self.forward(*input, **kwargs)\n")
    report = diagnose(log)
    assert report.exit_status == 1
    assert report.first_error is not None and report.first_error.text.startswith("AttributeError ")


def test_a_traceback_logged_line_by_line_under_an_error_tag_leads_with_its_exception() -> None:
    """vLLM logs a worker's traceback with its own tag on every line (real: gpustack#2723, first-sight batch 32; the
    paste starts mid-traceback): the frames, source lines and `^^^^` marks are tagged ERROR too, but the exception
    line that ends the traceback leads, and the marks are not error lines at all."""
    log = (
        "ERROR 08-14 13:42:42 [core.py:632]                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        'ERROR 08-14 13:42:42 [core.py:632]   File "/root/.local/share/pipx/venvs/vllm/lib/python3.11/site-packages/'
        'vllm/v1/executor/multiproc_executor.py", line 446, in wait_for_ready\n'
        "ERROR 08-14 13:42:42 [core.py:632]     raise e from None\n"
        "ERROR 08-14 13:42:42 [core.py:632] Exception: WorkerProc initialization failed due to an exception in a "
        "background process. See stack trace for root cause.\n"
    )
    report = diagnose(log)
    assert report.first_error is not None and report.first_error.line == 4
    assert not is_error_line(parse_line(1, log.splitlines()[0]))
    # the worker's rank in Ray-style brackets, and vLLM's older "file.py:line]" form, are read as prefixes too
    for line in ("(VllmWorker rank=2 pid=808339) ERROR 06-10 03:43:33 [multiproc_executor.py:487] WorkerProc failed "
                 "to start.", "ERROR 03-02 17:57:30 engine.py:242] WorkerProc failed to start."):
        parsed = parse_line(1, line)
        assert parsed.level is Level.ERROR and parsed.text == "WorkerProc failed to start."


def test_a_run_of_error_lines_without_a_frame_is_not_taken_for_a_traceback() -> None:
    """Only a run that holds a `File "...", line N` frame is a traceback's body: two tagged errors before an exception
    line keep the first one leading."""
    log = ("[E] model.onnx could not be opened\n"
           "[E] Engine could not be created\n"
           "RuntimeError: build failed\n")
    report = diagnose(log)
    assert report.first_error is not None and report.first_error.line == 1


def test_comfyui_s_timestamp_and_dash_before_a_traceback_header_is_a_prefix() -> None:
    # real (Gourieff/ComfyUI-ReActor#32, first-sight batch 37): ComfyUI's log writes "<ISO time> - " before each line; the
    # traceback header behind it led the report ahead of the exception line that names the missing module
    log = ("2025-01-28T20:59:39.460322 - Traceback (most recent call last):\n"
           '  File "F:\\ComfyUI\\custom_nodes\\ComfyUI_TensorRT\\tensorrt_convert.py", line 7, in <module>\n'
           "    import tensorrt as trt\n"
           "ModuleNotFoundError: No module named 'tensorrt'\n")
    report = diagnose(log)
    assert report.first_error is None
    assert report.diagnoses[0].id == "python-package-missing"
    assert parse_line(1, "2025-01-28T20:59:39.460322 - Traceback (most recent call last):").text.startswith("Traceback")
