"""Facts read from the log; unknown stays None."""

from __future__ import annotations

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
