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
