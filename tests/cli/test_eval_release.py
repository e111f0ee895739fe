"""`trt-why eval`'s "release read" counts only logs that print the labelled release."""

from __future__ import annotations

from pathlib import Path

from troubleshooter.cli.eval import _release_read


def test_another_libraries_version_is_not_the_release_printed(tmp_path: Path) -> None:
    # real (NVIDIA/TensorRT#1420, first-sight batch 9): cuDNN's 8.0.5 is no TensorRT 8.0.1.6
    log = tmp_path / "x.log"
    log.write_text("[TensorRT] WARNING: TensorRT was linked against cuDNN 8.2.1 but loaded cuDNN 8.0.5\n")
    assert _release_read(log, "8.0.1.6", None) == (False, False)
    # the release's own major.minor, or with the labelled patch, is printed (written)
    log.write_text("TensorRT 8.0 is installed\n")
    assert _release_read(log, "8.0.1.6", "8.0.1") == (True, True)
    log.write_text("TensorRT-8.0.1.6 tar package\n")
    assert _release_read(log, "8.0.1.6", None) == (True, False)


def test_trtexecs_packed_banner_prints_the_release(tmp_path: Path) -> None:
    # written, in trtexec's form: "[TensorRT v8203]" is 8.2.3
    log = tmp_path / "x.log"
    log.write_text("&&&& RUNNING TensorRT.trtexec [TensorRT v8203] # trtexec --onnx=m.onnx\n")
    assert _release_read(log, "8.2.3.0", "8.2.3") == (True, True)
