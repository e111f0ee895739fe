"""The fuzz harnesses stay runnable, and the findings they made stay pinned; awkward model files via `trt-why lint`
(in this process, through `main(argv)`; the atheris runs are real processes: libFuzzer owns the process)."""

from __future__ import annotations

import builtins
import importlib.util
import os
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from rel_helpers import OOM_LOG, ROOT, assert_one_line_error, child_env, run_cli

FUZZ = ROOT / "fuzz"


def _harness(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"trt_why_{name}", FUZZ / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cases(seed: int, n: int) -> list[bytes]:
    rng = random.Random(seed)
    base = [OOM_LOG.encode(), b"\x1f\x8b\x08\x00", b"\xff\xfe" + OOM_LOG.encode("utf-16-le"), b"", b"\x00" * 100]
    return base + [rng.randbytes(rng.randint(0, 600)) for _ in range(n)]


def test_log_harness_runs_without_atheris() -> None:
    harness = _harness("fuzz_logs")
    for data in _cases(1, 150):
        harness.test_one_input(data)
    for path in sorted((ROOT / "sample_logs").glob("*.log"))[:20]:
        harness.test_one_input(path.read_bytes())


def test_lint_harness_runs_without_atheris(tmp_path: Path) -> None:
    pytest.importorskip("onnx")
    harness = _harness("fuzz_lint")
    harness.make_seeds(str(tmp_path))
    seeds = [p.read_bytes() for p in sorted(tmp_path.glob("*.onnx"))]
    rng = random.Random(2)
    for data in seeds + _cases(3, 60):
        harness.test_one_input(data)
    for seed in seeds:  # a few single-byte mutations of valid models
        for _ in range(10):
            mutated = bytearray(seed)
            mutated[rng.randrange(len(mutated))] = rng.choice(b"\x00\x01\x08\x12\x1a\x22\x7f\xff")
            # A LintReport or a LintError, nothing else (the harness's rule). This used to let through an
            # exception whose text mentioned "unicode"/"utf-8" (a reported bug): no exception escapes any
            # more, and the check no longer depends on a library's wording.
            harness.test_one_input(bytes(mutated))


@pytest.mark.skipif(importlib.util.find_spec("atheris") is None, reason="atheris is not installed")
@pytest.mark.parametrize("name", ["fuzz_logs", "fuzz_lint"])
def test_atheris_harness_runs_briefly(name: str, tmp_path: Path) -> None:
    if name == "fuzz_lint":
        pytest.importorskip("onnx")
    env = child_env({"FUZZ_IGNORE": "string_unicode|invalid utf-8"})
    result = subprocess.run([sys.executable, str(FUZZ / f"{name}.py"), "-runs=300", "-timeout=20"],
                            capture_output=True, timeout=300, env=env, cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr.decode()[-2000:]


# -- awkward model files through the CLI ---------------------------------------------------------------

def _model(tmp_path: Path, location: str | None = None) -> Path:
    onnx = pytest.importorskip("onnx")
    np = pytest.importorskip("numpy")
    from onnx import TensorProto, helper, numpy_helper

    w = numpy_helper.from_array(np.ones((4, 3, 3, 3), np.float32), "w")
    if location is not None:
        w.ClearField("raw_data")
        w.data_location = TensorProto.EXTERNAL
        for key, value in (("location", location), ("offset", "0"), ("length", "432")):
            entry = w.external_data.add()
            entry.key, entry.value = key, value
    graph = helper.make_graph([helper.make_node("Conv", ["x", "w"], ["y"], name="/model/conv/Conv")], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [w])
    path = tmp_path / "model.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return path


AWKWARD_MODELS = {
    "empty": lambda p: p.write_bytes(b""),
    "random": lambda p: p.write_bytes(random.Random(4).randbytes(5000)),
    "png": lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 25),
    "text": lambda p: p.write_text(OOM_LOG),
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]),
}


@pytest.mark.parametrize("name", list(AWKWARD_MODELS))
def test_lint_awkward_model_file(name: str, tmp_path: Path) -> None:
    path = _model(tmp_path)
    AWKWARD_MODELS[name](path)
    assert_one_line_error(run_cli("lint", str(path)))


def test_lint_directory_and_missing(tmp_path: Path) -> None:
    pytest.importorskip("onnx")
    assert_one_line_error(run_cli("lint", str(tmp_path)), "directory")
    assert_one_line_error(run_cli("lint", str(tmp_path / "nope.onnx")), "no such file")


@pytest.mark.parametrize("location", ["../../etc/passwd", "/etc/passwd", "link.bin", "sub/../../outside.bin"],
                         ids=["dotdot", "absolute", "symlink-out", "sub-dotdot"])
def test_lint_external_data_outside_the_folder_is_refused_and_not_read(location: str, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "model"
    folder.mkdir()
    (tmp_path / "outside.bin").write_bytes(b"\x00" * 432)
    (folder / "link.bin").symlink_to("/etc/passwd")
    path = _model(folder, location)
    assert_one_line_error(run_cli("lint", str(path)), "outside")
    opened: list[str] = []
    real_open = builtins.open

    def spy(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        opened.append(os.path.realpath(str(file)) if isinstance(file, (str, os.PathLike)) else str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy)
    from troubleshooter.errors import LintError
    from troubleshooter.lint import lint_path

    with pytest.raises(LintError):
        lint_path(path)
    assert not [p for p in opened if p in ("/etc/passwd", str(tmp_path / "outside.bin"))], opened


def _bad_utf8_model(tmp_path: Path, what: str) -> Path:
    path = _model(tmp_path)
    data = path.read_bytes()
    if what == "node-name":
        patched = data.replace(b"/model/conv/Conv", b"/model/c\x86\x9av/Conv")  # same length
    else:
        patched = data.replace(b"\x22\x04Conv", b"\x22\x04C\x86\x9av")
    assert patched != data
    path.write_bytes(patched)
    return path


@pytest.mark.parametrize("what", ["node-name", "op-type"])
def test_lint_model_with_invalid_utf8_strings(what: str, tmp_path: Path) -> None:
    pytest.importorskip("onnx")
    result = run_cli("lint", "--format", "json", str(_bad_utf8_model(tmp_path, what)))
    assert "Traceback" not in result.stderr.decode()
    assert result.returncode in (0, 1, 2)


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_lint_output_carries_no_control_characters_from_the_model(fmt: str, tmp_path: Path) -> None:
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("NoSuchOpXyz", ["x"], ["y"], name="\x1b]0;pwned\x07\x1bc\u009bnode")], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
    path = tmp_path / "model.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    result = run_cli("lint", "--format", fmt, str(path))
    assert "Traceback" not in result.stderr.decode()
    out = result.stdout.decode()
    assert not [c for c in ("\x1b", "\x07", "\u009b") if c in out]
