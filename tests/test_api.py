"""The embedding API: what a bot or an IDE calls. Never prints, never exits, one exception type, thread-safe."""

from __future__ import annotations

import gzip
import io
import json
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import troubleshooter
from troubleshooter import (
    InputError,
    Report,
    TroubleshooterError,
    api,
    diagnose,
    diagnose_path,
    diagnose_stream,
    get_engine,
    load_kb,
)
from troubleshooter.errors import LintError

ROOT = Path(__file__).resolve().parent.parent
FUSION_LOG = (
    "[11/02/2023-10:11:10] [I] TensorRT version: 8.6.1\n"
    "[11/02/2023-10:11:12] [I] Precision: FP32+INT8\n"
    "[11/02/2023-10:12:40] [E] Error[10]: [optimizer.cpp::computeCosts::3869] Error Code 10: Internal Error "
    "(Could not find any implementation for node /model.1/conv/Conv + PWN(PWN(/model.1/act/Sigmoid), "
    "/model.1/act/Mul).)\n"
    "[11/02/2023-10:12:40] [E] Error[2]: [builder.cpp::buildSerializedNetwork::751] Error Code 2: Internal Error "
    "(Assertion engine != nullptr failed. )\n"
)
OOM_LOG = (
    "[TRT] [E] 2: [virtualMemoryBuffer.cpp::resizePhysical::127] Error Code 2: OutOfMemory (no further "
    "information)\n[TRT] [E] 2: [builder.cpp::buildSerializedNetwork::751] Error Code 2: Internal Error "
    "(Assertion engine != nullptr failed. )\n"
)


def sample_logs() -> list[Path]:
    return sorted(p for p in (ROOT / "sample_logs").glob("*.log*") if p.is_file())


# --- the public surface -------------------------------------------------------------------------


def test_public_names() -> None:
    for name in ("diagnose", "diagnose_path", "lint", "load_kb", "Report", "InputError", "TroubleshooterError",
                 "Engine", "LintReport", "Options"):
        assert name in troubleshooter.__all__ and hasattr(troubleshooter, name)
    assert issubclass(InputError, TroubleshooterError) and issubclass(LintError, InputError)
    assert "InputError" in (api.__doc__ or ""), "the API documents its exception type"


def test_one_all_and_every_name_in_it_resolves() -> None:
    """The public API is listed once, in the package; each name is importable from it."""
    from troubleshooter.lint.report import LintReport

    assert not hasattr(api, "__all__")
    assert len(troubleshooter.__all__) == len(set(troubleshooter.__all__))
    for name in troubleshooter.__all__:
        assert getattr(troubleshooter, name) is not None, name
    assert troubleshooter.Engine is api.Engine and troubleshooter.LintReport is LintReport


def test_version_is_the_package_metadata() -> None:
    from importlib.metadata import version

    assert troubleshooter.__version__ == version("trt-why")


def test_options_are_named_keywords() -> None:
    """Each diagnose function takes every option as a keyword of its own (no **fields): a type checker sees a
    misspelt one, and Python refuses it before anything runs."""
    import dataclasses
    import inspect

    options = [f.name for f in dataclasses.fields(api.Options)]
    for fn in (diagnose, diagnose_path, diagnose_stream):
        params = inspect.signature(fn).parameters
        assert not [p for p in params.values() if p.kind is inspect.Parameter.VAR_KEYWORD], fn.__name__
        keywords = [n for n, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY]
        assert keywords[-len(options):] == options, fn.__name__
        assert all(params[n].default is None for n in options), fn.__name__
    with pytest.raises(TypeError, match="unexpected keyword argument 'trt_versoin'"):
        diagnose(FUSION_LOG, trt_versoin="8.6.1")  # type: ignore[call-arg]


def test_option_keywords_are_laid_over_options() -> None:
    report = diagnose(OOM_LOG, api.Options(trt_version="10.3", redact=True), platform="jetson")
    assert (report.environment.tensorrt_version, report.environment.platform) == ("10.3", "jetson")
    assert diagnose(OOM_LOG, api.Options(trt_version="10.3"), trt_version="8.6.1").environment.tensorrt_version == "8.6.1"
    assert diagnose(OOM_LOG, api.Options(platform="wsl"), platform=None).environment.platform == "wsl"


def test_str_and_bytes_give_the_same_report() -> None:
    from_text = diagnose(FUSION_LOG)
    assert from_text.top is not None and from_text.top.id == "conv-act-fusion-no-impl"
    assert diagnose(FUSION_LOG.encode()) == from_text
    assert diagnose(gzip.compress(FUSION_LOG.encode())).diagnoses == from_text.diagnoses
    assert diagnose(FUSION_LOG.encode("utf-16")).diagnoses == from_text.diagnoses


def test_keyword_arguments() -> None:
    report = diagnose(OOM_LOG, trt_version="10.3", name="oom.log")
    assert report.environment.tensorrt_version == "10.3" and report.source.name == "oom.log"
    with pytest.raises(TypeError):
        diagnose(OOM_LOG, "10.3")  # type: ignore[misc]  # everything but the log is keyword-only


def test_diagnose_path(tmp_path: Path) -> None:
    plain = tmp_path / "build.log"
    plain.write_text(FUSION_LOG)
    packed = tmp_path / "build.log.gz"
    packed.write_bytes(gzip.compress(FUSION_LOG.encode()))
    report = diagnose_path(plain)
    assert report.source.name == str(plain)
    assert report.diagnoses == diagnose(FUSION_LOG).diagnoses
    assert diagnose_path(str(packed)).diagnoses == report.diagnoses


def test_diagnose_stream() -> None:
    assert diagnose_stream(io.BytesIO(FUSION_LOG.encode())).diagnoses == diagnose(FUSION_LOG).diagnoses


def test_a_clean_log_has_no_diagnosis() -> None:
    report = diagnose("[I] [TRT] Loaded engine size: 12 MiB\n&&&& PASSED TensorRT.trtexec [TensorRT v8601]\n")
    assert report.top is None and report.exit_status == 0


def test_lint_function_survives_importing_the_lint_package() -> None:
    import troubleshooter.lint.report

    assert callable(troubleshooter.lint), "from troubleshooter import lint gives the subpackage, not the function"


# --- bad input: one documented exception type ---------------------------------------------------


@pytest.mark.parametrize("bad", ["", "   \n \n", b"", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 64,
                                 b"\x7fELF\x02\x01\x01" + b"\x00" * 4096, bytes(range(256)) * 256],
                         ids=["empty-str", "blank-str", "empty-bytes", "png", "elf", "random-binary"])
def test_bad_logs_raise_input_error(bad: str | bytes) -> None:
    with pytest.raises(InputError) as info:
        diagnose(bad)
    assert "\n" not in str(info.value), "the message is one line"


def test_bad_arguments_raise_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not a version"):
        diagnose(FUSION_LOG, trt_version="banana")
    with pytest.raises(InputError, match="no such file"):
        diagnose_path(tmp_path / "missing.log")
    with pytest.raises(InputError, match="directory"):
        diagnose_path(tmp_path)
    (tmp_path / "empty.log").write_bytes(b"")
    with pytest.raises(InputError, match="empty"):
        diagnose_path(tmp_path / "empty.log")
    with pytest.raises(LintError):
        api.lint(tmp_path / "missing.onnx")


@pytest.mark.parametrize("bad", [None, 42, ["a log"]], ids=["none", "int", "list"])
def test_wrong_types_raise_input_error(bad: Any) -> None:
    with pytest.raises(InputError):
        diagnose(bad)


# --- the models ---------------------------------------------------------------------------------


def test_reports_are_frozen() -> None:
    from pydantic import ValidationError

    report = diagnose(FUSION_LOG)
    with pytest.raises(ValidationError, match="frozen"):
        report.notes = ["x"]  # type: ignore[misc]
    assert report.top is not None
    with pytest.raises(ValidationError, match="frozen"):
        report.top.confidence = 1.0  # type: ignore[misc]
    assert report.model_copy(update={"notes": ["x"]}).notes == ["x"] and report.notes != ["x"]


def _result_models() -> list[type]:
    from pydantic import BaseModel

    from troubleshooter import models

    return [c for name, c in vars(models).items() if isinstance(c, type) and issubclass(c, BaseModel)
            and c.__module__ == models.__name__ and not name.startswith("_")]


def test_the_main_models_are_documented() -> None:
    from troubleshooter.models import Diagnosis, Environment, Evidence, Unexplained

    for model in (Report, Diagnosis, Environment, Evidence, Unexplained):
        assert model.__doc__, model.__name__
    assert [name for name, f in Environment.model_fields.items() if not f.description] == []


def test_every_result_model_and_field_is_documented() -> None:
    gaps = [c.__name__ for c in _result_models() if not c.__doc__]
    gaps += [f"{c.__name__}.{name}" for c in _result_models() for name, f in c.model_fields.items()
             if not f.description]
    assert gaps == []


def test_json_round_trip() -> None:
    report = diagnose(FUSION_LOG)
    assert Report.model_validate_json(report.model_dump_json()) == report


# --- the CLI's JSON is Report.model_dump_json() ---------------------------------------------------


def test_model_dump_json_is_the_cli_json(cli: Any, tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    path.write_text(FUSION_LOG)
    result = cli(str(path), "--format", "json")
    assert result.returncode == 1, result.stderr
    report = diagnose_path(path)
    assert json.loads(result.stdout) == json.loads(report.model_dump_json())
    assert result.stdout.decode() == report.model_dump_json(indent=2) + "\n"


def test_model_dump_json_is_the_cli_json_on_stdin(cli: Any) -> None:
    result = cli("-", "--format", "json", stdin=OOM_LOG.encode())
    assert json.loads(result.stdout) == json.loads(diagnose(OOM_LOG, name="<stdin>").model_dump_json())


def test_model_dump_json_is_the_cli_json_on_samples(cli: Any) -> None:
    for path in sample_logs()[:8]:
        result = cli(str(path), "--format", "json", "--exit-zero")
        assert json.loads(result.stdout) == json.loads(diagnose_path(path).model_dump_json()), path.name


# --- thread safety ------------------------------------------------------------------------------


def test_eight_threads_give_identical_reports(monkeypatch: pytest.MonkeyPatch) -> None:
    logs = [FUSION_LOG, OOM_LOG] + [p.read_bytes() for p in sample_logs()[:6]]
    expected = [diagnose(log).model_dump_json() for log in logs]
    monkeypatch.setattr(api, "_engines", {})  # start cold: all threads race to build the shared engine
    barrier = threading.Barrier(8)
    results: dict[int, list[str]] = {}
    engines: dict[int, object] = {}
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            barrier.wait()
            engines[i] = get_engine()
            order = logs[i:] + logs[:i]  # every thread in a different order
            out = [diagnose(log).model_dump_json() for _ in range(3) for log in order]
            results[i] = out[:len(logs)]
            for k in range(len(logs), len(out)):
                if out[k] != out[k % len(logs)]:  # say what differed: a flaky failure must be a usable bug report
                    a, b = json.loads(out[k]), json.loads(out[k % len(logs)])
                    raise AssertionError(f"thread {i}, log {(i + k) % len(logs)}, pass {k // len(logs) + 1}: "
                                         + str({f: [a[f], b[f]] for f in a if a[f] != b[f]})[:3000])
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors
    assert len({id(e) for e in engines.values()}) == 1, "the KB is loaded once and shared"
    for i, out in results.items():
        assert out == expected[i:] + expected[:i], f"thread {i} got a different report"


def test_threads_on_many_real_logs_with_a_churning_memo_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """Everything a matcher shares between threads at once: the line memo (a tiny one, so generations
    swap all the time), the literal index (upgraded to Hyperscan after 512 new lines), the finder choice
    (by input count), the signature-list cache. Eight threads, each in its own order, over a few hundred
    real logs: every report equals the single-thread one."""
    from troubleshooter.core import matcher

    real = sorted((ROOT / "sample_logs" / "real").glob("*.log"))[::3]
    logs = [p.read_bytes() for p in real]
    monkeypatch.setattr(matcher, "MEMO_LINES", 64)
    monkeypatch.setattr(api, "_engines", {})
    expected = [diagnose(log).model_dump_json() for log in logs]
    monkeypatch.setattr(api, "_engines", {})
    differ: list[str] = []
    barrier = threading.Barrier(8)

    def work(i: int) -> None:
        barrier.wait()
        for j in range(len(logs)):
            k = (i * 37 + j) % len(logs)
            if diagnose(logs[k]).model_dump_json() != expected[k]:
                differ.append(f"thread {i}: {real[k].name}")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)  # a hang guard
    assert len(logs) >= 200
    assert differ == []


def test_threads_waiting_for_the_gil_do_not_exhaust_signature_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """The per-log signature budget counts the thread's CPU time. Measured in wall time, eight threads
    waiting for one another made signatures look slow, skipped them, and reports differed (a flaky CI
    failure of the test above); with a budget 40x smaller than the default this is near certain."""
    logs = [FUSION_LOG, OOM_LOG] + [p.read_bytes() for p in sample_logs()[:6]]
    expected = [diagnose(log).model_dump_json() for log in logs]
    monkeypatch.setattr(api, "_SIGNATURE_BUDGET", 0.05)
    monkeypatch.setattr(api, "_engines", {})
    barrier = threading.Barrier(8)
    got: list[tuple[int, str]] = []

    def work(i: int) -> None:
        barrier.wait()
        got.extend((k, diagnose(logs[k]).model_dump_json()) for k in [*range(i, len(logs)), *range(i)])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert len(got) == 8 * len(logs)
    assert all("was skipped" not in report for _, report in got)
    assert all(report == expected[k] for k, report in got)


# --- never prints, never exits, reads only what it is given -------------------------------------


def _model(path: Path) -> Path:
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    node = helper.make_node("Relu", ["x"], ["y"], name="/model.0/act/Relu")
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return path


def test_the_api_never_prints(capfd: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    path.write_text(FUSION_LOG)
    load_kb()
    get_engine()
    report = diagnose(FUSION_LOG, redact=True, redact_names=True)
    diagnose_path(path)
    diagnose_stream(io.BytesIO(OOM_LOG.encode()))
    from troubleshooter.render.chat import render_chat

    render_chat(report, "slack")
    api.lint(_model(tmp_path / "m.onnx"))
    for bad in ("", b"\x7fELF" + bytes(1000)):
        with pytest.raises(InputError):
            diagnose(bad)
    out, err = capfd.readouterr()
    assert out == "" and err == ""


_opened: list[str] = []
_recording = threading.Event()


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "open" and _recording.is_set() and isinstance(args[0], (str, bytes, Path)):
        _opened.append(str(args[0]))


sys.addaudithook(_audit)


def test_reads_only_the_files_it_was_given(tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    path.write_text(FUSION_LOG)
    get_engine()  # the KB is the package's own data, read once
    diagnose(FUSION_LOG)
    _opened.clear()
    _recording.set()
    try:
        diagnose(FUSION_LOG)
        diagnose(OOM_LOG.encode())
        from_text = list(_opened)
        diagnose_path(path)
    finally:
        _recording.clear()
    assert from_text == [], f"diagnose(text) opened {from_text}"
    assert _opened == [str(path)], _opened


def test_bad_options_are_refused_before_the_log_is_read(tmp_path: Path) -> None:
    """A bad option on a large log fails at once: the log is not even opened."""
    from troubleshooter.reading import ingest

    log = tmp_path / "big.log"
    log.write_text("[E] Error Code 2: x\n" * 1000)
    calls: list[object] = []
    original = ingest.open_path
    try:
        ingest.open_path = lambda *a, **k: calls.append(a) or original(*a, **k)  # type: ignore[assignment]
        for kwargs in ({"trt_version": "banana"}, {"platform": "amiga"}, {"matcher": "grep"},
                       {"model": tmp_path / "missing.onnx"}):
            with pytest.raises(InputError):
                diagnose_path(log, **kwargs)
        with pytest.raises(TypeError, match="unexpected keyword argument"):
            diagnose_path(log, trt_versoin="8.6.1")  # type: ignore[call-arg]
        diagnose_path(log, trt_version="8.6.1")
        diagnose_path(log, api.Options(trt_version="8.6.1", platform="jetson"))
    finally:
        ingest.open_path = original  # type: ignore[assignment]
    assert len(calls) == 2  # only the good calls opened the log
