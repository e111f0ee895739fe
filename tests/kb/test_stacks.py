"""kb/stacks/*.yaml: every stack file is valid, sourced, and never read as a KB entry."""

from __future__ import annotations

import pytest

from troubleshooter.errors import KBError
from troubleshooter.kb.loader import builtin_kb_dir, load_folders
from troubleshooter.kb.stacks import load_stacks, parse_stack, stacks_dir

STACK_FILES = sorted(stacks_dir().glob("*.yaml"))
TRACKERS = {"tensorrt": "NVIDIA/TensorRT", "triton": "triton-inference-server/server",
            "onnxruntime": "microsoft/onnxruntime", "torch-tensorrt": "pytorch/TensorRT",
            "torch2trt": "NVIDIA-AI-IOT/torch2trt", "tensorrt-llm": "NVIDIA/TensorRT-LLM",
            "ultralytics": "ultralytics/ultralytics", "mmdeploy": "open-mmlab/mmdeploy",
            "jetson-inference": "dusty-nv/jetson-inference", "tf-trt": "tensorflow/tensorflow",
            "paddle-inference": "PaddlePaddle/Paddle", "comfyui": "comfyanonymous/ComfyUI",
            "deepstream": "NVIDIA developer forums (DeepStream SDK)"}


@pytest.mark.parametrize("path", STACK_FILES, ids=[p.stem for p in STACK_FILES])
def test_each_stack_file_validates_and_names_its_tracker(path) -> None:  # type: ignore[no-untyped-def]
    stack = parse_stack(path.read_text(encoding="utf-8"), str(path), path.stem)
    assert stack.tracker.name == TRACKERS[stack.id]
    assert all(s.source.startswith("https://") for s in [*stack.steps, stack.reproduce])
    # the unvalidated build a report uses (model_construct) gives the same stack
    assert parse_stack(path.read_text(encoding="utf-8"), str(path), path.stem, validate=False) == stack


def test_every_tracker_of_the_issue_is_covered_and_each_front_end_served_once() -> None:
    book = load_stacks()
    assert set(book.stacks) == set(TRACKERS)
    served = [fe for s in book.stacks.values() for fe in s.front_ends]
    assert len(served) == len(set(served))


def test_stack_files_are_not_read_as_kb_entries() -> None:
    kb = load_folders([builtin_kb_dir()])
    assert not kb.problems
    assert not {p.stem for p in STACK_FILES} & set(kb.ids())


def test_a_broken_stack_file_is_a_kb_error_naming_the_field(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "x.yaml"
    bad.write_text("id: x\nname: X\nfront_ends: [x]\nsteps: []\n", encoding="utf-8")
    with pytest.raises(KBError, match="steps"):
        parse_stack(bad.read_text(), str(bad), "x")
