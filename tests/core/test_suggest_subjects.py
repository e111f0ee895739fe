"""core/suggest.py: a resemblance in boilerplate only (the exception class, "object has no attribute") is
not a suggestion, and so never a `matched_by: similarity` diagnosis; what the line names decides."""

from __future__ import annotations

import pytest

from troubleshooter import diagnose
from troubleshooter.api import get_engine
from troubleshooter.core.suggest import boilerplate_only, subjects


@pytest.mark.parametrize(("line", "named"), [
    ("AttributeError: 'tensorrt.tensorrt.Builder' object has no attribute 'build_cuda_engine'", {"build_cuda_engine"}),
    ("AttributeError: module 'numpy' has no attribute 'bool'", {"bool"}),
    ("ModuleNotFoundError: No module named 'tensorrt_llm.bindings'", {"tensorrt_llm"}),
    ("ImportError: cannot import name 'QuantConfig' from 'tensorrt_llm.models'", {"quantconfig"}),
    ("error: ‘class nvinfer1::ICudaEngine’ has no member named ‘getNbBindings’", {"getnbbindings"}),
    ("ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory", {"nvinfer"}),
    ("No importer registered for op: GridSample", {"gridsample"}),
    ("undefined symbol: _ZN2at19UndefinedTensorImpl10_singletonE", {"_zn2at19undefinedtensorimpl10_singletone"}),
    ("AttributeError: 'NoneType' object has no attribute 'create_execution_context'", {"<none>.tensorrt"}),
    # real (NVIDIA-AI-IOT/Lidar_AI_Solution#243, first-sight batch 17): a quantizer's amax that is None, not an engine
    ("AttributeError: 'NoneType' object has no attribute 'cpu'", {"<none>.cpu"}),
    ("Error Code 2: Internal Error (Assertion engine != nullptr failed.)", set()),
])
def test_what_a_line_names(line: str, named: set[str]) -> None:
    assert subjects(line) == named


def test_only_lines_that_both_name_something_different_share_only_boilerplate() -> None:
    assert boilerplate_only(frozenset({"bar"}), frozenset({"build_cuda_engine"}))
    assert not boilerplate_only(frozenset({"nvinfer"}), frozenset({"nvinfer", "cudart"}))
    assert not boilerplate_only(frozenset(), frozenset({"x"}))  # a line naming nothing: the masked score decides


@pytest.mark.parametrize("line", [
    "AttributeError: 'Foo' object has no attribute 'bar_baz'",
    "AttributeError: module 'numpy' has no attribute 'bool'",
    "AttributeError: 'Tensor' object has no attribute 'frobnicate'",
])
def test_an_attribute_error_on_another_name_gets_no_suggestion_and_no_diagnosis(line: str) -> None:
    assert get_engine().suggester.similar(line) == []
    report = diagnose(f"Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n{line}\n")
    assert not [d for d in report.diagnoses if d.matched_by == "similarity"]
    assert report.first_error is not None and report.first_error.similar == []


def test_the_same_thing_named_still_resembles() -> None:
    found = get_engine().suggester.similar("AttributeError: 'NoneType' object has no attribute 'serialize'")
    assert found and found[0].id == "build-failed-cascade"
    lib = get_engine().suggester.similar("ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory")
    assert lib and lib[0].id == "library-load-failure"
