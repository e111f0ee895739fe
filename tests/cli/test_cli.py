"""The one-shot CLI as a user runs it: formats, stdin, several files, gzip, exit codes.

Through `troubleshooter.cli.main(argv)` in this process (run_cli): the same parsing, output and exit
status; what needs a real process (pipes, signals, the status a shell sees) is in tests/reliability.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

from tests.reliability.rel_helpers import run_cli  # in this process, through main(argv)

LOG = """&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --int8
[11/02/2023-10:11:12] [I] Selected Device: NVIDIA GeForce RTX 3090
[11/02/2023-10:11:12] [I] Compute Capability: 8.6
[11/02/2023-10:12:40] [E] Error[10]: [optimizer.cpp::computeCosts::3869] Error Code 10: Internal Error (Could not find any implementation for node /model.1/conv/Conv + PWN(PWN(/model.1/act/Sigmoid), /model.1/act/Mul).)
[11/02/2023-10:12:40] [E] Error[2]: [builder.cpp::buildSerializedNetwork::751] Error Code 2: Internal Error (Assertion engine != nullptr failed. )
[11/02/2023-10:12:40] [E] Engine could not be created from network
&&&& FAILED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --int8
"""
SUCCESS = """&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --fp16
[11/02/2023-10:11:12] [V] [TRT] Registered plugin creator - ::BatchedNMS_TRT version 1
[11/02/2023-10:11:40] [V] [TRT] CaskConvolution has no valid tactics for this config, skipping
[11/02/2023-10:12:40] [I] Engine built in 41.2 sec.
&&&& PASSED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx --fp16
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_text_report_and_exit_1(tmp_path: Path) -> None:
    r = run_cli(str(write(tmp_path, "build.log", LOG)))
    out = r.stdout.decode()
    assert r.returncode == 1, r.stderr
    assert "conv-act-fusion-no-impl" in out
    assert "TensorRT 8.6.1" in out and "line 4" in out
    assert "\x1b[" not in out  # not a terminal: no colour


def test_json_contract(tmp_path: Path) -> None:
    r = run_cli("--format", "json", str(write(tmp_path, "build.log", LOG)))
    data = json.loads(r.stdout)
    assert data["schema_version"] == 1
    assert data["source"] == {**data["source"], "name": str(tmp_path / "build.log"), "lines": 7}
    env = data["environment"]
    for key in ("tensorrt_version", "cuda_version", "driver_version", "gpu", "compute_capability", "platform", "precisions"):
        assert key in env
    assert env["tensorrt_version"] == "8.6.1" and env["precisions"] == ["int8"] and env["cuda_version"] is None
    top = data["diagnoses"][0]
    for key in ("id", "title", "severity", "confidence", "occurrences", "evidence", "captures", "causes",
                "version_advice", "fixes", "references"):
        assert key in top
    assert top["id"] == "conv-act-fusion-no-impl"
    assert top["severity"] == "error" and 0 <= top["confidence"] <= 1
    assert top["evidence"][0] == {**top["evidence"][0], "line": 4}
    assert all({"title", "steps"} <= set(f) for f in top["fixes"])
    assert isinstance(data["unexplained"], list)


def test_markdown(tmp_path: Path) -> None:
    r = run_cli("--format", "markdown", str(write(tmp_path, "build.log", LOG)))
    out = r.stdout.decode()
    assert out.startswith("## trt-why:")
    assert out.count("```") % 2 == 0


def test_stdin_and_dash(tmp_path: Path) -> None:
    r = run_cli("-", stdin=LOG.encode())
    assert r.returncode == 1
    assert b"conv-act-fusion-no-impl" in r.stdout


def test_several_files_with_gzip_give_a_json_list(tmp_path: Path) -> None:
    a = write(tmp_path, "a.log", LOG)
    b = tmp_path / "b.log.gz"
    b.write_bytes(gzip.compress(SUCCESS.encode()))
    r = run_cli("--format", "json", str(a), str(b))
    data = json.loads(r.stdout)
    assert [d["source"]["name"] for d in data] == [str(a), str(b)]
    assert data[1]["diagnoses"] == [] and data[1]["environment"]["build_succeeded"] is True
    assert r.returncode == 1


def test_successful_build_exits_0(tmp_path: Path) -> None:
    r = run_cli(str(write(tmp_path, "ok.log", SUCCESS)))
    assert r.returncode == 0, r.stdout
    assert b"No known failure" in r.stdout


def test_exit_zero(tmp_path: Path) -> None:
    assert run_cli("--exit-zero", str(write(tmp_path, "build.log", LOG))).returncode == 0


def test_bad_input_is_one_line_exit_2(tmp_path: Path) -> None:
    for args in (["missing.log"], [str(tmp_path)], [str(write(tmp_path, "empty.log", ""))]):
        r = run_cli(*args)
        assert r.returncode == 2, args
        err = r.stderr.decode()
        assert err.count("\n") == 1 and err.startswith("trt-why: ") and "Traceback" not in err


def test_trt_version_override_and_bad_value(tmp_path: Path) -> None:
    log = str(write(tmp_path, "build.log", LOG))
    data = json.loads(run_cli("--format", "json", "--trt-version", "10.3", log).stdout)
    assert data["environment"]["tensorrt_version"] == "10.3"
    r = run_cli("--trt-version", "banana", log)
    assert r.returncode == 2 and b"not a version" in r.stderr


def test_kb_list_json_and_show() -> None:
    r = run_cli("kb", "list", "--format", "json")
    rows = json.loads(r.stdout)
    assert all(set(row) == {"id", "title", "severity", "tags"} for row in rows)
    assert any(row["id"] == "conv-act-fusion-no-impl" for row in rows)
    show = run_cli("kb", "show", "conv-act-fusion-no-impl", "--format", "yaml")
    assert show.returncode == 0 and b"id: conv-act-fusion-no-impl" in show.stdout
    assert run_cli("kb", "show", "no-such-entry").returncode == 2


def test_kb_new_scaffold_validates(tmp_path: Path) -> None:
    r = run_cli("kb", "new", "my-plugin-crash", "--dir", str(tmp_path))
    assert r.returncode == 0, r.stderr
    test = run_cli("kb", "--kb", str(tmp_path), "test", "my-plugin-crash")
    assert test.returncode == 0, test.stdout
    assert b"2 passed, 0 failed" in test.stdout


def test_kb_explain(tmp_path: Path) -> None:
    r = run_cli("kb", "explain", "conv-act-fusion-no-impl", str(write(tmp_path, "build.log", LOG)))
    out = r.stdout.decode()
    assert "MATCHES line 4" in out and "the entry fires" in out


def test_extra_kb_cannot_override_builtin(tmp_path: Path) -> None:
    src = Path(__file__).resolve().parents[2] / "kb" / "conv-act-fusion-no-impl.yaml"
    (tmp_path / "conv-act-fusion-no-impl.yaml").write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    r = run_cli("kb", "--kb", str(tmp_path), "validate")
    assert r.returncode == 1
    assert b"already defined" in r.stdout


def test_in_process_runs_leave_no_trace(tmp_path: Path) -> None:
    """An in-process run leaves the environment and the streams as they were (`--matcher` is an option of the
    engine, not an environment variable the CLI sets)."""
    import sys

    before = (dict(os.environ), sys.stdin, sys.stdout, sys.stderr)
    log = str(write(tmp_path, "build.log", LOG))
    assert run_cli("--matcher", "python", log).returncode == 1
    assert (dict(os.environ), sys.stdin, sys.stdout, sys.stderr) == before
