"""Lines a next-step kind once answered, now a KB entry's: the entry diagnoses them first, with its fix.

First-sight batch 21 showed two classes the kinds had been answering without a diagnosis (the report led with
"First error, not in the knowledge base"): pip, uv or poetry unable to build TensorRT's source package, and a
framework (PyTorch) built without the GPU's architecture. Real lines, from the threads named.
"""

from __future__ import annotations

import pytest

from troubleshooter import diagnose


@pytest.mark.parametrize(("line", "entry", "fix_says"), [
    ("  Building wheel for tensorrt (setup.py) ... error", "tensorrt-pip-install-failed",
     "pip index versions tensorrt"),  # NVIDIA/TensorRT#3685 (batch 5)
    ("  • Installing tensorrt (8.6.1): Failed", "tensorrt-pip-install-failed",
     "pip index versions tensorrt"),  # NVIDIA/TensorRT#3050 (batch 13)
    ("  ERROR: Failed building wheel for tensorrt-cu12", "tensorrt-pip-install-failed",
     "pip index versions tensorrt"),  # yuvraj108c/ComfyUI-Rife-Tensorrt#21 (batch 13)
    ("  Caused by: Failed to build: `tensorrt-cu12==10.0.1`", "tensorrt-pip-install-failed",
     "pip index versions tensorrt"),  # astral-sh/uv#6250 (batch 20)
    ("RuntimeError: TensorRT does not currently build wheels for Tegra systems", "tensorrt-pip-install-failed",
     "--system-site-packages"),  # NVIDIA/Isaac-GR00T#516 (batch 21)
    ("NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.",
     "gpu-arch-unsupported", "whl/cu128"),  # NVIDIA/TensorRT-LLM#3347
])
def test_the_entry_leads_with_its_fix(line: str, entry: str, fix_says: str) -> None:
    report = diagnose(line)
    assert report.failure and report.diagnoses[0].id == entry
    first_fix = report.diagnoses[0].fixes[0]
    assert any(fix_says in step for step in first_fix.steps)


def test_an_apps_engine_build_is_not_a_pip_install() -> None:
    # PaddlePaddle/FastDeploy#621: the app's own "Failed to build tensorrt engine." is no package install
    report = diagnose("[ERROR] fastdeploy/backends/tensorrt/trt_backend.cc(636)::CreateTrtEngineFromOnnx       "
                      "Failed to build tensorrt engine.")
    assert all(d.id != "tensorrt-pip-install-failed" for d in report.diagnoses)
