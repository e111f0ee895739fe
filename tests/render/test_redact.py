"""--redact: user names, home and project paths, hosts and IPs hidden; node names only with --redact-names."""

from __future__ import annotations

import json
import re

import pytest

from troubleshooter import diagnose
from troubleshooter.models import Report
from troubleshooter.render.redact import Redactor, redact_report

# (line as a user's log has it, what must disappear, what must stay)
LINES = [
    ("[11/02/2023-14:03:11] [I] Loading ONNX file from path /home/alice/projects/yolov8/weights/best.onnx",
     ["alice", "projects", "yolov8", "weights"], ["<home>/<path>/best.onnx", "[11/02/2023-14:03:11]"]),
    ("alice@gpu-box-07:~/projects/yolov8$ trtexec --onnx=best.onnx --int8",
     ["alice", "gpu-box-07", "projects"], ["<user>@<host-1>:<home>", "trtexec --onnx=best.onnx --int8"]),
    ("[alice@gpu-box-07 yolov8]$ python build.py", ["alice", "gpu-box-07"], ["[<user>@<host-1> ", "python build.py"]),
    ("root@3f2a1b7c9d0e:/workspace/yolo# trtexec --onnx=/workspace/yolo/model.onnx",
     ["3f2a1b7c9d0e", "/workspace/yolo"], ["<user>@<host-", "--onnx=<path>/model.onnx"]),
    ('  File "/Users/bob/miniconda3/envs/trt/lib/python3.10/site-packages/tensorrt/__init__.py", line 12, in <module>',
     ["bob", "miniconda3", "envs"], ['"<home>/<path>/site-packages/tensorrt/__init__.py", line 12']),
    (r"[E] [TRT] Could not open file C:\Users\Carol Smith\Desktop\export\model.onnx",
     ["Carol", "Smith", "Desktop", "export"], [r"<home>\<path>\model.onnx"]),
    ("/mnt/c/Users/dave/src/net.onnx and /data/home/erin/run/a.engine",
     ["dave", "erin", "/mnt/c", "src/net"], ["<home>/<path>/net.onnx", "<home>/<path>/a.engine"]),
    ("Triton server listening on 10.12.0.7:8001, peer 192.168.1.20",
     ["10.12.0.7", "192.168.1.20"], ["<ip-1>:8001", "peer <ip-2>"]),
    ("[TensorRT] loaded 8.6.1.6; inet 172.17.0.2/16 scope global eth0", ["172.17.0.2"], ["8.6.1.6", "<ip-1>/16"]),
    ("connecting to fe80::1ff:fe23:4567:890a%eth0 and ::1 via nvinfer1::IBuilder::buildSerializedNetwork",
     ["fe80", "890a"], ["nvinfer1::IBuilder::buildSerializedNetwork", "<ip-1>", "<ip-2>"]),
    ("downloading https://artifactory.corp.acme.com/trt/model.onnx (see https://docs.nvidia.com/deeplearning/tensorrt/)",
     ["acme", "artifactory"], ["https://<host-1>/trt/model.onnx", "https://docs.nvidia.com/deeplearning/tensorrt/"]),
    ("mail alice.smith@acme-corp.com or ssh alice.smith@10.0.0.5",
     ["alice", "acme-corp", "10.0.0.5"], ["<user>@<host-1>", "<user>@<ip-1>"]),
    ("git clone https://bob:s3cret@gitlab.internal.example.com/ml/yolo.git",
     ["bob", "s3cret", "gitlab.internal"], ["https://<user>@<host-1>/ml/yolo.git"]),
    ("TensorRT version: 10.3.0.26, loaded libnvinfer.so.8.6.1 from /usr/lib/x86_64-linux-gnu/libnvinfer.so.8:",
     [], ["10.3.0.26", "/usr/lib/x86_64-linux-gnu/libnvinfer.so.8:"]),
    ("[03/01/2022-10:00:05] [TRT] [E] 4: [standardEngineBuilder.cpp::initCalibrationParams::1402] Error Code 4",
     [], ["[03/01/2022-10:00:05]", "[standardEngineBuilder.cpp::initCalibrationParams::1402]"]),
    ("out = self.net(x); p = Path.home(); threading.local(); torch.nn.Module", [],
     ["self.net(x)", "Path.home()", "threading.local()", "torch.nn.Module"]),
    # real (sample_logs/real/u-torch2trt-315.log): a home folder glued to a compiler's include flag
    ("FAILED: g++ -c -fPIC x.pb.cc -I/usr/local/cuda/include -I/home/lgy/anaconda3/lib/python3.7/site-packages/torch/include",
     ["lgy", "anaconda3"], ["-I/usr/local/cuda/include", "-I<home>/"]),
]


@pytest.mark.parametrize("line, hidden, kept", LINES, ids=[f"line-{i}" for i in range(len(LINES))])
def test_realistic_lines(line: str, hidden: list[str], kept: list[str]) -> None:
    red = Redactor()
    red.learn(line)
    out = red.scrub(line)
    for secret in hidden:
        assert secret not in out, f"{secret!r} survived: {out}"
    for visible in kept:
        assert visible in out, f"{visible!r} missing: {out}"


NODE_LINE = ("[E] Error[10]: [optimizer.cpp::computeCosts::3869] Error Code 10: Internal Error (Could not find any "
             "implementation for node /model.2/cv1/conv/Conv + PWN(PWN(/model.2/cv1/act/Sigmoid), /model.2/cv1/act/Mul).)")


def test_node_names_are_kept_by_default() -> None:
    assert Redactor().scrub(NODE_LINE) == NODE_LINE
    line = "[W] [TRT] Missing scale and zero-point for tensor /model.22/Constant_9_output_0, expect fall back"
    assert Redactor().scrub(line) == line


def test_node_names_are_numbered_consistently_with_names() -> None:
    red = Redactor(names=True)
    first = red.scrub(NODE_LINE)
    assert "/model" not in first
    assert "node <node-1> + PWN(PWN(<node-2>), <node-3>)" in first
    again = red.scrub("layer /model.2/cv1/act/Sigmoid and /model.2/cv1/conv/Conv")
    assert again == "layer <node-2> and <node-1>"
    tensors = red.scrub("tensor /model.22/Constant_9_output_0 and StatefulPartitionedCall/model/conv2d/BiasAdd:0, "
                        "input 'images', onnx::Conv_123, {ForeignNode[/model.0/conv/Conv.../model.22/Concat_5]}")
    assert set(re.findall(r"<tensor-\d>", tensors)) == {"<tensor-1>", "<tensor-2>", "<tensor-3>"}
    assert re.search(r"input '<tensor-\d>'", tensors)
    assert "onnx::" not in tensors and "/model.0" not in tensors and "ForeignNode[<node-" in tensors


def test_names_mode_leaves_non_names_alone() -> None:
    line = "[I] N/A I/O, 03/01/2022, see runs/exp/best.onnx and /usr/lib/libnvinfer.so.10"
    assert Redactor(names=True).scrub(line) == line


def test_bare_user_and_host_names_learned_elsewhere_are_hidden() -> None:
    red = Redactor()
    for line in ("alice@gpu-box-07:~/proj$ ./build.sh", "Running as alice on gpu-box-07"):
        red.learn(line)
    assert red.scrub("Running as alice on gpu-box-07") == "Running as <user> on <host-1>"


def test_generic_user_names_are_not_hunted_as_words() -> None:
    red = Redactor()
    red.learn("root@box:/workspace# trtexec")
    assert red.scrub("the user asked root for the model") == "the user asked root for the model"


FUSION_LOG = (
    "alice@gpu-box:~/proj$ trtexec --onnx=/home/alice/proj/yolo.onnx --int8 --saveEngine=/home/alice/proj/y.engine\n"
    "[11/02/2023-10:11:12] [I] Precision: FP32+INT8\n"
    "[11/02/2023-10:11:13] [I] Connected to license server 192.168.7.21:27000\n"
    "[11/02/2023-10:12:40] [E] Error[10]: [optimizer.cpp::computeCosts::3869] Error Code 10: Internal Error (Could "
    "not find any implementation for node /model.1/conv/Conv + PWN(PWN(/model.1/act/Sigmoid), /model.1/act/Mul).)\n"
    "[11/02/2023-10:12:41] [E] Failed to write /home/alice/proj/y.engine on host gpu-box (10.1.2.3:22)\n"
    "[11/02/2023-10:12:40] [E] Error[2]: [builder.cpp::buildSerializedNetwork::751] Error Code 2: Internal Error "
    "(Assertion engine != nullptr failed. )\n"
)


def _report() -> Report:
    return diagnose(FUSION_LOG, name="/home/alice/proj/logs/build.log")


def test_redact_report_hides_personal_data_everywhere() -> None:
    report = _report()
    assert report.top is not None and report.top.id == "conv-act-fusion-no-impl"
    redacted = redact_report(report)
    dumped = redacted.model_dump_json()
    for secret in ("alice", "gpu-box", "192.168.7.21", "10.1.2.3", "/proj/"):
        assert secret not in dumped, secret
    assert redacted.source.name == "<home>/<path>/build.log"
    assert all("alice" not in u.text for u in redacted.unexplained)


def test_redact_report_keeps_the_knowledge_base_words() -> None:
    report, redacted = _report(), redact_report(_report())
    before, after = report.top, redacted.top
    assert before is not None and after is not None
    # Nothing personal in the captures here, so the KB text is unchanged, node names included.
    assert after.causes == before.causes and after.fixes == before.fixes and after.references == before.references
    assert after.captures == before.captures
    assert "/model.1/conv/Conv" in json.dumps(after.model_dump())
    assert [d.id for d in redacted.diagnoses] == [d.id for d in report.diagnoses]
    assert redacted.environment.model_copy(update={"command": None}) == \
        report.environment.model_copy(update={"command": None})
    assert "alice" in (report.environment.command or "") and "alice" not in (redacted.environment.command or "")


def test_redact_names_reaches_captures_causes_and_fixes() -> None:
    redacted = redact_report(_report(), names=True)
    top = redacted.top
    assert top is not None
    dumped = json.dumps(top.model_dump())
    assert "/model.1" not in dumped
    assert top.captures["conv"] == "<node-1>"
    assert any("<node-1>" in c for c in top.causes)
    assert any("<node-" in step for fix in top.fixes for step in fix.steps)
    trigger = next(e for e in top.evidence if e.role == "trigger")
    assert "node <node-1> + PWN(PWN(<node-2>), <node-3>)" in trigger.text


def test_captured_paths_are_hidden_in_the_text_filled_from_them() -> None:
    report = _report()
    top = report.top
    assert top is not None
    fake = top.model_copy(update={"captures": {"engine_file": "/home/alice/proj/y.engine"},
                                  "causes": ["could not write /home/alice/proj/y.engine [reported]"]})
    redacted = redact_report(report.model_copy(update={"diagnoses": [fake]}))
    assert redacted.diagnoses[0].causes == ["could not write <home>/<path>/y.engine [reported]"]
    assert redacted.diagnoses[0].captures == {"engine_file": "<home>/<path>/y.engine"}


def test_redaction_is_idempotent_and_returns_a_valid_report() -> None:
    once = redact_report(_report(), names=True)
    twice = redact_report(once, names=True)
    assert Report.model_validate_json(once.model_dump_json()) == once
    assert twice.model_dump_json() == once.model_dump_json()


def test_api_and_cli_flags(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert diagnose(FUSION_LOG, redact=True) == redact_report(diagnose(FUSION_LOG))
    assert diagnose(FUSION_LOG, redact_names=True) == redact_report(diagnose(FUSION_LOG), names=True)
    log = tmp_path / "build.log"
    log.write_text(FUSION_LOG)
    out = cli(str(log), "--redact", "--format", "json").stdout.decode()
    assert "alice" not in out and "192.168.7.21" not in out and "/model.1/conv/Conv" in out
    out = cli(str(log), "--redact-names", "--format", "markdown").stdout.decode()
    assert "alice" not in out and "/model.1/conv/Conv" not in out and "<node-1>" in out


def test_redact_report_reaches_the_first_error_and_its_next_steps() -> None:
    """The line that leads the report (an error no entry explains) is redacted like every other log line."""
    from troubleshooter import diagnose

    log = ('Traceback (most recent call last):\n  File "/home/alice/x.py", line 1\n'
           "KeyError: '/home/alice/models/yolo_weird_name'\n")
    report = diagnose(log)
    assert report.first_error is not None and "alice" in report.first_error.text
    red = redact_report(report)
    assert red.first_error is not None and "alice" not in red.model_dump_json()


# -- the report's text fields, found by walking the model -------------------------------------------

def test_a_new_text_field_is_redacted_without_being_declared() -> None:
    """A text field added to a result model is redacted as the log's text unless `TEXT_KINDS` says otherwise:
    nobody has to remember to add it to the redaction."""
    from pydantic import Field as field

    from troubleshooter.models import Diagnosis, Environment

    class HostedEnvironment(Environment):
        build_host: str | None = field(default=None, description="A field the models do not have (yet).")

    class NotedDiagnosis(Diagnosis):
        hints: list[str] = field(default_factory=list, description="Another one, a list, on a diagnosis.")

    report = _report()
    assert report.top is not None
    env = HostedEnvironment(**{**report.environment.__dict__, "build_host": "ssh alice@gpu-box.corp.example.com"})
    top = NotedDiagnosis(**{**report.top.__dict__, "hints": ["see /home/alice/proj/notes.txt on 192.168.40.12"],
                            "captures": {"engine_file": "/home/alice/proj/y.engine"},
                            "causes": ["could not write /home/alice/proj/y.engine [reported]"]})
    redacted = redact_report(report.model_copy(update={"environment": env, "diagnoses": [top, *report.diagnoses[1:]]}))
    assert isinstance(redacted.environment, HostedEnvironment) and isinstance(redacted.top, NotedDiagnosis)
    assert redacted.environment.build_host == "ssh <user>@<host-1>"
    assert redacted.top.hints == ["see <home>/<path>/notes.txt on <ip-1>"]
    assert redacted.top.causes == ["could not write <home>/<path>/y.engine [reported]"]  # still filled from captures
    assert redacted.environment.gpu == report.environment.gpu  # a declared fact of the setup: kept


def test_the_fields_once_left_out_are_redacted() -> None:
    """The verdict on the model and the advice for every version range were missing from the hand-kept list:
    node names the log gave reached a --redact-names report through them."""
    report = _report()
    top = report.top
    assert top is not None
    from troubleshooter.models import RangeAdvice

    fake = top.model_copy(update={
        "model_verdict": "refutes",
        "model_verdict_reason": "the model contradicts it: /model.1/conv/Conv is in the model but no rule fires",
        "version_advice_all": [RangeAdvice(versions=">=8.6", status="affected", text="/model.1/conv/Conv fails")],
    })
    redacted = redact_report(report.model_copy(update={"diagnoses": [fake]}), names=True)
    out = redacted.diagnoses[0]
    assert out.model_verdict_reason == "the model contradicts it: <node-1> is in the model but no rule fires"
    assert out.version_advice_all == [RangeAdvice(versions=">=8.6", status="affected", text="<node-1> fails")]
    assert out.model_verdict == "refutes"  # a closed vocabulary (a Literal field) is not text


def test_the_same_line_is_redacted_the_same_everywhere() -> None:
    """A line that is both the first unexplained error and the report's lead reads the same in both (a line written
    in Paddle's shape: its real 'tensorrt_subgraph_pass' form is explained by paddle-built-without-tensorrt now)."""
    report = diagnose("Error: Pass my_private_pass has not been registered at "
                      "(D:\\1.8.1\\paddle\\paddle/fluid/framework/ir/pass.h:201)\n")
    assert report.first_error is not None and report.unexplained
    redacted = redact_report(report, names=True)
    assert redacted.first_error is not None
    assert redacted.first_error.text == redacted.unexplained[0].text != report.first_error.text


def test_the_declared_text_kinds_name_real_fields() -> None:
    from troubleshooter.render.redact import FILLED_FROM, TEXT_KINDS, WALKED_FIRST

    declared = [*TEXT_KINDS, *((cls, name) for cls, names in [*FILLED_FROM.items(), *WALKED_FIRST.items()]
                                for name in names)]
    assert [(cls.__name__, name) for cls, name in declared if name not in cls.model_fields] == []


def test_a_home_folder_glued_to_a_word_or_to_the_assert_macro_is_hidden() -> None:
    from troubleshooter.render.redact import Redactor

    red = Redactor()
    # real (first-sight batch 1, u-deepstream-tao-9): TensorRT's plugin ASSERT prints "#assertion<file>,<line>"
    assert "nvidia" not in red.scrub("#assertion/home/nvidia/TensorRT/plugin/nmsPlugin/nmsPlugin.cpp,118")
    # real (first-sight batch 10, u-yolov3-trt-dfd-17): a message that lost the space before its path
    assert "/home/ai" not in red.scrub("Failed to parse ONNX model from file/home/ai/darknet/data/TensorRT/yolov3.onnx")
