"""The progress bar (only on a terminal, never with JSON) and fleet mode's output."""

from __future__ import annotations

import io
import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from perf_helpers import ROOT, SAMPLES

from troubleshooter import cli
from troubleshooter.render.progress import ProgressBar

LOG = SAMPLES / "yolov8-int8-orin-silu.log"


def _run_with_pty_stderr(args: list[str], env: dict[str, str]) -> tuple[int, bytes, bytes]:
    """Run the CLI with stderr on a pseudo-terminal; returns (code, stdout, what the terminal got)."""
    import pty

    master, slave = pty.openpty()
    full = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm")
    full.update(env)
    proc = subprocess.Popen([sys.executable, "-m", "troubleshooter.cli", *args], stdout=subprocess.PIPE,
                            stderr=slave, env=full, cwd=str(ROOT))
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    out = proc.stdout.read() if proc.stdout else b""
    proc.wait(timeout=30)
    os.close(master)
    return proc.returncode, out, seen


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_progress_bar_on_a_terminal() -> None:
    _code, out, terminal = _run_with_pty_stderr([str(LOG)], {"TRT_WHY_PROGRESS": "always"})
    assert b"/s" in terminal and b"%" in terminal, terminal
    assert out.startswith(str(LOG).encode())  # the report itself is untouched
    assert b"\r" not in out


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_no_progress_bar_with_json() -> None:
    _code, out, terminal = _run_with_pty_stderr(["--format", "json", str(LOG)], {"TRT_WHY_PROGRESS": "always"})
    assert b"/s" not in terminal
    json.loads(out)


def test_no_progress_bar_when_stderr_is_not_a_terminal() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), TRT_WHY_PROGRESS="always")
    proc = subprocess.run([sys.executable, "-m", "troubleshooter.cli", str(LOG)], capture_output=True, env=env,
                          cwd=str(ROOT), timeout=120, check=False)
    assert proc.stderr == b""


def test_progress_bar_text() -> None:
    stream = io.StringIO()
    bar = ProgressBar(100 * 2**20, stream, delay=0.0, min_interval=0.0)
    bar.start -= 2.0  # two seconds in
    bar(50 * 2**20)
    text = stream.getvalue()
    assert "50%" in text and "50.0 MiB / 100.0 MiB" in text and "MiB/s" in text and "ETA 2s" in text
    bar.close()
    assert stream.getvalue().endswith("\r")
    unknown = ProgressBar(None, io.StringIO(), delay=0.0, min_interval=0.0)
    assert "read" in unknown.line(3 * 2**20)


# -- fleet mode -----------------------------------------------------------------------------------

@pytest.fixture
def fleet_dir(tmp_path: Path) -> Path:
    root = tmp_path / "farm"
    (root / "job1").mkdir(parents=True)
    (root / "job2").mkdir()
    logs = sorted(SAMPLES.glob("*.log"))[:12]
    for i, log in enumerate(logs):
        shutil.copy(log, root / f"job{1 + i % 2}" / log.name)
    (root / "job1" / "engine.plan").write_bytes(b"ftrt" + bytes(range(256)) * 4)  # not matched by the patterns
    (root / "job2" / "empty.log").write_bytes(b"")
    (root / "job2" / "binary.log").write_bytes(b"\x7fELF" + bytes(range(256)) * 4)
    return root


def _jsonl(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, list[dict], dict]:  # type: ignore[type-arg]
    code = cli.main(["scan", *argv])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    return code, lines[:-1], lines[-1]["summary"]


def test_fleet_jsonl_shape(fleet_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, logs, summary = _jsonl(capsys, [str(fleet_dir), "--jobs", "1", "--no-progress"])
    assert len(logs) == 14 and summary["logs"] == 14
    assert [r["file"] for r in logs] == sorted(r["file"] for r in logs)
    good = [r for r in logs if "error" not in r]
    bad = [r for r in logs if "error" in r]
    assert len(bad) == 2 and summary["unreadable"] == 2
    for r in good:
        assert set(r) >= {"file", "top", "confidence", "severity", "tensorrt_version", "failed", "known", "diagnoses",
                          "unexplained_lines", "lines"}
        assert not any(k.startswith("_") for k in r)
    failed = [r for r in good if r["failed"]]
    assert summary["failed"] == len(failed)
    assert summary["failed_with_known_diagnosis"] == sum(r["known"] for r in failed)
    assert summary["classification_rate"] == round(summary["failed_with_known_diagnosis"] / summary["failed"], 4)
    assert sum(summary["families"].values()) == sum(1 for r in good if r["top"])
    for item in summary["top_unexplained"]:
        assert set(item) == {"text", "logs", "lines", "example"}
    assert code in (0, 1)


def test_fleet_parallel_equals_serial(fleet_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, serial, s1 = _jsonl(capsys, [str(fleet_dir), "--jobs", "1", "--no-progress"])
    _, parallel, s2 = _jsonl(capsys, [str(fleet_dir), "--jobs", "3", "--no-progress"])
    assert serial == parallel
    s1.pop("seconds"), s2.pop("seconds")
    assert s1 == s2


def test_fleet_globs_text_and_errors(fleet_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["scan", str(fleet_dir / "job1" / "*.log"), "--format", "text", "--no-progress", "--exit-zero"])
    text = capsys.readouterr().out
    assert code == 0 and text.startswith("trt-why scan · 6 logs")
    assert "classification rate" in text or "failed builds: 0" in text
    assert cli.main(["scan", str(fleet_dir / "nothing-here")]) == 2


def test_fleet_unexplained_lines_are_masked_and_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for i in range(3):
        (tmp_path / f"b{i}.log").write_text(
            f"[08/07/2024-12:27:0{i}] [E] [TRT] 7: [mystery.cpp::run::{100 + i}] Error Code 7: Mystery failure in node /m.{i}/Conv\n"
            "&&&& FAILED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=m.onnx\n")
    _, _logs, summary = _jsonl(capsys, [str(tmp_path), "--jobs", "1", "--no-progress"])
    top = summary["top_unexplained"]
    assert top and top[0]["logs"] == 3 and "Mystery failure" in top[0]["text"] and "/m.0" not in top[0]["text"]
    assert summary["failed"] == 3


def test_scan_through_the_cli(fleet_dir: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "troubleshooter.cli", "scan", str(fleet_dir), "--jobs", "2",
                           "--format", "jsonl"], capture_output=True, env=env, cwd=str(ROOT), timeout=300, check=False)
    lines = proc.stdout.decode().splitlines()
    assert len(lines) == 15 and "summary" in json.loads(lines[-1])


@pytest.mark.parametrize("corpus", ["real", "first-sight/batch-1", "real-heldout", "."])
def test_scan_and_the_one_shot_report_agree_on_failure_for_every_log(corpus: str,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """`trt-why scan` says `failed` exactly when `trt-why LOG` says `failure` (exit 1 for a failure),
    for every log of the corpora: one verdict, not two rules."""
    from troubleshooter import api

    folder = SAMPLES / corpus
    code, logs, _summary = _jsonl(capsys, [str(folder / "*.log"), "--jobs", "1", "--no-progress", "--exit-zero"])
    assert code == 0 and len(logs) >= 30
    disagree = [r["file"] for r in logs if "error" not in r and r["failed"] != api.diagnose_path(r["file"]).failure]
    assert disagree == []
