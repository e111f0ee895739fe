"""Awkward files give a one-line LintError; external data is checked before anything is read."""

from __future__ import annotations

import builtins
import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import lint_factory as fx
import numpy as np
import onnx
import pytest
from onnx import helper

from troubleshooter.errors import LintError
from troubleshooter.lint import lint_path
from troubleshooter.lint.model import ModelFileError


def _model_bytes() -> bytes:
    model = fx.conv()
    model.graph.initializer[0].CopyFrom(onnx.numpy_helper.from_array(np.ones((4, 3, 3, 3), np.float32), "w"))
    return model.SerializeToString()


def _zip_bytes() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("archive/data.pkl", b"\x80\x02}q\x00.")
    return buffer.getvalue()


def _overwritten() -> bytes:
    data = bytearray(_model_bytes())
    data[:16] = b"\xff" * 16
    return bytes(data)


AWKWARD = {
    "truncated": (lambda: _model_bytes()[: len(_model_bytes()) // 2], "truncated"),
    "truncated-1-byte": (lambda: _model_bytes()[:-1], "truncated"),
    "empty": (lambda: b"", "empty-model"),
    "header-overwritten": (_overwritten, "not-onnx"),
    "text": (lambda: b"this is a build log, not a model\n" * 4, "not-onnx"),
    "json": (lambda: b'{"model": "resnet", "layers": [1, 2, 3]}', "not-onnx"),
    "zip": (_zip_bytes, "not-onnx"),
    "png": (lambda: b"\x89PNG\r\n\x1a\n" + b"\x00" * 25, "not-onnx"),
}


@pytest.mark.parametrize("name", list(AWKWARD))
def test_awkward_file_gives_one_line_error(name: str, tmp_path: Path) -> None:
    make, code = AWKWARD[name]
    path = tmp_path / "model.onnx"
    path.write_bytes(make())
    with pytest.raises(LintError) as info:
        lint_path(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    assert isinstance(info.value, ModelFileError) and info.value.code == code, message


def test_missing_path(tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match="no such file") as info:
        lint_path(tmp_path / "nope.onnx")
    assert info.value.code == "file-missing"


def test_directory(tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match="directory") as info:
        lint_path(tmp_path)
    assert info.value.code == "not-a-file"


def _external(tmp_path: Path, location: str, length: int | None = None, offset: int = 0) -> Path:
    """A conv model whose weight points at ``location`` (nothing is written there)."""
    model = fx.conv()
    tensor = model.graph.initializer[0]
    tensor.ClearField("raw_data")
    tensor.ClearField("float_data")
    tensor.data_location = onnx.TensorProto.EXTERNAL
    entries = {"location": location, "offset": str(offset), "length": str(length if length is not None else 432)}
    for key, value in entries.items():
        entry = tensor.external_data.add()
        entry.key, entry.value = key, value
    folder = tmp_path / "model_dir"
    folder.mkdir(exist_ok=True)
    path = folder / "model.onnx"
    path.write_bytes(model.SerializeToString())
    return path


def test_external_data_missing(tmp_path: Path) -> None:
    path = _external(tmp_path, "weights.bin")
    with pytest.raises(ModelFileError, match="missing") as info:
        lint_path(path)
    assert info.value.code == "external-data-missing" and "\n" not in str(info.value)


def test_external_data_too_short(tmp_path: Path) -> None:
    path = _external(tmp_path, "weights.bin", length=432, offset=100)
    (path.parent / "weights.bin").write_bytes(b"\0" * 300)
    with pytest.raises(ModelFileError) as info:
        lint_path(path)
    assert info.value.code == "external-data-truncated"


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every path opened through open() / io.open() / os.open() during the test."""
    seen: list[str] = []
    real_open, real_os_open = builtins.open, os.open

    def spy_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(os.fspath(file) if isinstance(file, (str, os.PathLike)) else str(file))
        return real_open(file, *args, **kwargs)

    def spy_os_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(os.fspath(file))
        return real_os_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(io, "open", spy_open)
    monkeypatch.setattr(os, "open", spy_os_open)
    return seen


def _secret(tmp_path: Path) -> Path:
    secret = tmp_path / "secret.bin"
    secret.write_bytes(b"\0" * 4096)
    return secret


@pytest.mark.parametrize("location", ["../../etc/passwd", "../secret.bin", "sub/../../secret.bin"])
def test_relative_escape_is_refused_without_reading(location: str, tmp_path: Path, opened: list[str]) -> None:
    _secret(tmp_path)
    path = _external(tmp_path, location)
    opened.clear()
    with pytest.raises(ModelFileError) as info:
        lint_path(path)
    assert info.value.code == "external-data-outside-folder"
    assert not any("passwd" in p or "secret" in p for p in opened), opened


def test_absolute_path_is_refused_without_reading(tmp_path: Path, opened: list[str]) -> None:
    secret = _secret(tmp_path)
    path = _external(tmp_path, str(secret))
    opened.clear()
    with pytest.raises(ModelFileError) as info:
        lint_path(path)
    assert info.value.code == "external-data-outside-folder"
    assert not any("secret" in p for p in opened), opened


def test_symlink_to_outside_is_refused_without_reading(tmp_path: Path, opened: list[str]) -> None:
    secret = _secret(tmp_path)
    path = _external(tmp_path, "weights.bin")
    (path.parent / "weights.bin").symlink_to(secret)
    opened.clear()
    with pytest.raises(ModelFileError) as info:
        lint_path(path)
    assert info.value.code == "external-data-outside-folder"
    assert not any("secret" in p or "weights.bin" in p for p in opened), opened


def test_symlink_inside_the_folder_is_not_refused(tmp_path: Path) -> None:
    """Triage accepts it; onnx's own checker dislikes any symlink, which check-model reports."""
    path = _external(tmp_path, "link.bin")
    (path.parent / "real.bin").write_bytes(np.full(108, 0.1, np.float32).tobytes())
    (path.parent / "link.bin").symlink_to(path.parent / "real.bin")
    report = lint_path(path)
    assert {f.rule for f in report.findings} <= {"check-model"}


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak RSS is read from /proc (Linux)")
def test_large_external_data_is_scanned_in_bounded_chunks(tmp_path: Path) -> None:
    """A model declaring 2 GB of external weights (a sparse file) lints with flat memory: the
    weights are scanned (fp16-range) in chunks, never loaded whole. Peak RSS of a fresh process."""
    shape = (2048, 1024, 16, 16)  # 2 GiB of float32
    size = int(np.prod(shape)) * 4
    tensor = onnx.TensorProto(name="w", data_type=onnx.TensorProto.FLOAT, dims=list(shape))
    tensor.data_location = onnx.TensorProto.EXTERNAL
    for key, value in {"location": "big.data", "offset": "0", "length": str(size)}.items():
        entry = tensor.external_data.add()
        entry.key, entry.value = key, value
    node = helper.make_node("Conv", ["x", "w"], ["y"], name="big_conv")
    model = fx.build([node], [fx.vi("x", [1, 1024, 16, 16])], [fx.vi("y", [1, 2048, 1, 1])], [tensor])
    path = tmp_path / "big.onnx"
    path.write_bytes(model.SerializeToString())
    with open(tmp_path / "big.data", "wb") as handle:
        handle.truncate(size)
    code = (
        "import json, sys\n"
        "from troubleshooter.lint import lint_path\n"
        "r = lint_path(sys.argv[1])\n"
        "hwm = next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM'))\n"
        "print(json.dumps({'exit': r.exit_status, 'notes': r.notes, 'rss_mb': hwm / 1024,\n"
        "                  'findings': [f.message for f in r.findings]}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["rss_mb"] < 300, result
    assert result["exit"] == 0, result["findings"]
    assert any("external data" in n and "2147.5 MB" in n for n in result["notes"]), result["notes"]


def test_proto_with_only_an_ir_version_is_empty(tmp_path: Path) -> None:
    path = tmp_path / "model.onnx"
    path.write_bytes(b"\x08\x07")  # ir_version = 7, nothing else: protobuf parses it happily
    with pytest.raises(ModelFileError) as info:
        lint_path(path)
    assert info.value.code == "empty-model"


def test_random_bytes(tmp_path: Path) -> None:
    path = tmp_path / "model.onnx"
    path.write_bytes(np.random.default_rng(7).integers(0, 256, 4096, dtype=np.uint8).tobytes())
    with pytest.raises(ModelFileError) as info:
        lint_path(path)
    assert info.value.code in ("not-onnx", "truncated", "empty-model") and "\n" not in str(info.value)


def test_arbitrary_bytes_never_escape_as_tracebacks(tmp_path_factory: pytest.TempPathFactory) -> None:
    hypothesis = pytest.importorskip("hypothesis")
    from hypothesis import strategies as st

    folder = tmp_path_factory.mktemp("fuzz")
    prefix = _model_bytes()

    @hypothesis.settings(max_examples=150, deadline=None, database=None)
    @hypothesis.given(st.binary(max_size=300), st.integers(0, 400))
    def run(noise: bytes, cut: int) -> None:
        path = folder / "model.onnx"
        path.write_bytes(prefix[:cut] + noise)
        try:
            lint_path(path)
        except LintError as err:
            assert "\n" not in str(err)

    run()
