"""Built-in entries whose triggers carry their own `severity:` (kb/README.md, "match"): the real lines
their examples come from give the severity the trigger says, and the entry's own severity otherwise."""

from __future__ import annotations

from pathlib import Path

from troubleshooter import diagnose
from troubleshooter.kb.loader import load_kb
from troubleshooter.models import Report

REAL = Path(__file__).resolve().parent.parent.parent / "sample_logs" / "real"


def _sev(report: Report, entry_id: str) -> str | None:
    return next((d.severity for d in report.diagnoses if d.id == entry_id), None)


def test_severity_is_set_only_on_triggers_and_differs_from_the_entry() -> None:
    for entry in load_kb().entries:
        for sig in entry.match.signatures:
            if sig.severity is not None:
                assert sig.role == "trigger", (entry.id, sig.id)
                assert sig.severity != entry.severity, f"{entry.id}/{sig.id}: same as the entry's, leave it out"


def test_tensorflow_tf_trt_notice_is_info_and_exits_0() -> None:
    # https://github.com/tensorflow/tensorflow/issues/64809: printed the same by programs that never use TF-TRT.
    report = diagnose((REAL / "u-other-tensorflow-64809.log").read_bytes())
    assert _sev(report, "library-load-failure") == "info"
    assert report.exit_status == 0
    negative = diagnose((REAL / "u-other-deeplabcut-2115.log").read_bytes())
    assert _sev(negative, "library-load-failure") == "info" and negative.exit_status == 0


def test_tensorflow_stub_fatal_stays_an_error() -> None:
    report = diagnose((REAL / "u-other-tf2-yolov3-105.log").read_bytes())
    assert report.diagnoses[0].id == "library-load-failure" and report.diagnoses[0].severity == "error"


def test_torch_tensorrt_unsupported_list_below_error_level_is_a_warning() -> None:
    # https://github.com/pytorch/TensorRT/issues/1912: partial compilation lists the operators at INFO level.
    report = diagnose((REAL / "u-torch-trt-1912.log").read_bytes())
    top = report.diagnoses[0]
    assert (top.id, top.severity) == ("torch-tensorrt-unsupported-op", "warning")
    assert "not a failure by itself" in top.causes[0]
    assert report.exit_status == 1
    error_level = diagnose((REAL / "u-torch-trt-662.log").read_bytes())
    assert _sev(error_level, "torch-tensorrt-unsupported-op") == "error"


def test_no_kernel_image_alone_is_no_confident_claim() -> None:
    # https://github.com/dlunion/tensorRTIntegrate/issues/23: the fix was the GPU id, not a rebuild.
    report = diagnose((REAL / "t-gpu-arch-unsupported-trt-integrate-23.log").read_bytes())
    top = report.diagnoses[0]
    assert top.id == "gpu-arch-unsupported" and top.confidence < 0.6
    assert any("CUDA_VISIBLE_DEVICES" in c for c in top.causes)
