"""Never silent on a failure (issue #14's three cases, and the quiet side: a successful verbose build).

The GridSample and ForeignNode logs are written for these tests in the format TensorRT prints (the
wording of each line is TensorRT's, the node and plugin names are ours); the setInputShape line is
copied from https://github.com/ultralytics/ultralytics/issues/17541 (sample_logs/real/u-ultralytics-17541.log).
"""

from __future__ import annotations

from pathlib import Path

from troubleshooter import diagnose
from troubleshooter.cli import main
from troubleshooter.render.text import render_text

REAL = Path(__file__).resolve().parent.parent / "sample_logs" / "real"

PLUGIN_CRASH = (
    "[11/20/2024-10:01:02] [I] [TRT] Loaded engine size: 48 MiB\n"
    'Thread 1 "python3" received signal SIGSEGV, Segmentation fault.\n'
    "0x00007fffd1c2a3b4 in GridSamplePlugin::enqueue(nvinfer1::PluginTensorDesc const*, nvinfer1::PluginTensorDesc "
    "const*, void const* const*, void* const*, void*, CUstream_st*) () from /opt/plugins/libgridsample_plugin.so\n"
    "Segmentation fault (core dumped)\n"
)
FOREIGN_NODE = (
    "[11/20/2024-10:01:02] [E] Error[2]: [myelinBuilderUtils.cpp::getMyelinSupportType::1270] Error Code 2: Internal "
    "Error (ForeignNode does not support data-dependent shape for now.)\n"
    "[11/20/2024-10:01:02] [E] Error[2]: [builder.cpp::buildSerializedNetwork::751] Error Code 2: Internal Error "
    "(Assertion engine != nullptr failed. )\n"
)


def test_a_plugin_crash_exits_1_and_names_the_plugin() -> None:
    report = diagnose(PLUGIN_CRASH)
    assert report.exit_status == 1
    top = report.diagnoses[0]
    assert top.id == "process-crash" and top.captures.get("component") == "GridSamplePlugin"
    assert "GridSamplePlugin" in top.causes[0]
    steps = " ".join(s for fix in top.fixes for s in fix.steps)
    assert "compute-sanitizer" in steps and "CUDA_LAUNCH_BLOCKING=1" in steps


def test_a_static_shape_mismatch_gets_its_own_cause() -> None:
    report = diagnose((REAL / "u-ultralytics-17541.log").read_bytes())
    assert report.exit_status == 1
    top = report.diagnoses[0]
    assert top.id == "dynamic-shape-no-profile"
    assert "fixed size" in top.causes[0]


def test_an_unknown_first_error_is_never_hidden_behind_the_cascade() -> None:
    report = diagnose(FOREIGN_NODE)
    assert report.exit_status == 1
    assert report.diagnoses[0].id != "build-failed-cascade"
    text = render_text(report)
    assert "ForeignNode does not support data-dependent shape for now." in text.replace("\n" + " " * 12, " ")  # never cut
    assert "look for the first" not in text.lower()


def test_an_error_no_entry_knows_leads_the_report_in_full(capsys) -> None:  # type: ignore[no-untyped-def]
    log = ("&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx\n"
           "[11/20/2024-10:01:02] [E] Error[2]: [frobnicator.cpp::run::12] Error Code 2: Internal Error "
           "(Frobnicator rejected widget 7 for reasons that take a long sentence to explain in full here.)\n"
           "[11/20/2024-10:01:02] [E] Error[2]: [builder.cpp::buildSerializedNetwork::751] Error Code 2: Internal "
           "Error (Assertion engine != nullptr failed. )\n")
    report = diagnose(log)
    assert report.first_error is not None and report.first_error.line == 2
    text = render_text(report)
    assert text.index("First error, not in the knowledge base") < text.index("follow from it")
    assert "take a long sentence to explain in full here." in text.replace("\n" + " " * 12, " ")
    assert "--fail-regex" in text


def test_a_successful_verbose_build_is_quiet(tmp_path: Path) -> None:
    log = tmp_path / "ok.log"
    log.write_text(
        "[11/20/2024-10:01:02] [V] [TRT] Registered plugin creator - ::GridAnchor_TRT version 1\n"
        "[11/20/2024-10:01:02] [V] [TRT] Tactic: 0x0000000000000001 Time: 0.0123\n"
        "[11/20/2024-10:01:02] [V] [TRT] Skipping tactic 0x0000000000000002 due to insufficient memory on requested size of 4096 detected for tactic 0x0000000000000002.\n"
        "[11/20/2024-10:01:02] [V] [TRT] /m/Conv + PWN(/m/Sigmoid, /m/Mul) (CaskConvolution) Set Tactic Name: sm80_xmma Tactic: 0x0000000000000003\n"
        "[11/20/2024-10:01:02] [V] [TRT] --------------- Timing Runner: /m/Conv (CudnnConvolution) failed, no valid tactics, skipping\n"
        "[11/20/2024-10:01:03] [I] Engine built in 12.3 sec.\n"
        "&&&& PASSED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=m.onnx\n"
    )
    report = diagnose(log.read_bytes())
    assert not report.failure and not [d for d in report.diagnoses if d.severity == "error"]
    assert main([str(log)]) == 0


def test_a_traceback_leads_with_the_exception_line_not_its_header() -> None:
    log = ('Traceback (most recent call last):\n  File "/home/u/run.py", line 40, in <module>\n    main()\n'
           '  File "/home/u/run.py", line 33, in main\n    out = model(x)\nKeyError: \'checkpoint\'\n')
    report = diagnose(log)
    assert report.failure and report.first_error is not None
    assert report.first_error.text == "KeyError: 'checkpoint'"
    assert all("Traceback" not in u.text for u in report.unexplained)


def test_a_traceback_cut_before_its_exception_line_still_counts() -> None:
    report = diagnose('Traceback (most recent call last):\n  File "/home/u/run.py", line 40, in <module>\n')
    assert report.failure and report.first_error is not None


def test_a_crash_is_led_by_the_heap_message_that_says_why() -> None:
    report = diagnose("Loading engine from yolov8.engine\nfree(): invalid pointer\nAborted (core dumped)\n")
    assert report.failure and report.first_error is None  # the heap message is the crash's own reason, explained
    lead = report.diagnoses[0]
    assert lead.id == "process-crash" and lead.evidence[0].line == 2
    assert "free(): invalid pointer" in lead.evidence[0].text


def test_a_wrappers_line_after_the_crash_does_not_lead_it() -> None:
    """The wrapper reporting the crashed step afterwards (mmdeploy's "visualize onnxruntime model failed" after
    glibc's heap message: open-mmlab/mmpose#2261, first-sight batch 30) is the crash's consequence: the crash leads,
    and an unexplained line before the crash still would."""
    crash = ("munmap_chunk(): invalid pointer\n"
             "04/19 17:57:14 - mmengine - ERROR - tools/deploy.py - create_process - 82 - visualize onnxruntime model "
             "failed.\n")
    report = diagnose(crash)
    assert report.exit_status == 1 and report.first_error is None
    assert report.diagnoses[0].id == "process-crash"
    before = diagnose("04/19 17:57:13 - mmengine - ERROR - tools/deploy.py - create_process - 82 - onnx2tensorrt "
                      "of the model failed.\n" + crash)
    assert before.first_error is not None and before.first_error.line == 1


def test_a_warning_healthy_builds_print_is_not_an_error_when_the_run_succeeds() -> None:
    # written, in the shape of a Jetson trtexec build: TensorRT 8.5+ prints "Unable to determine GPU memory
    # usage" on healthy Orin builds; the same words before a failed CUDA init are the real error
    ok = ("&&&& RUNNING TensorRT.trtexec [TensorRT v8502] # trtexec --onnx=m.onnx --fp16\n"
          "[11/22/2024-01:26:02] [I] Selected Device: Orin\n"
          "[11/22/2024-01:26:02] [W] [TRT] Unable to determine GPU memory usage\n"
          "[11/22/2024-01:30:03] [I] Engine built in 240.1 sec.\n"
          "&&&& PASSED TensorRT.trtexec [TensorRT v8502] # trtexec --onnx=m.onnx --fp16\n")
    report = diagnose(ok)
    assert not report.failure
    assert not [d for d in report.diagnoses if d.severity in ("error", "warning")]
    failed = ok.replace("[I] Engine built in 240.1 sec.", "[W] [TRT] CUDA initialization failure with error: 35"
                        ).replace("&&&& PASSED", "&&&& FAILED")
    assert diagnose(failed).failure
