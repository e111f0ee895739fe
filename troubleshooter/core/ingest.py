"""Bytes in: files, stdin, pasted text, gzip, UTF-16. Out: a readable stream of UTF-8-compatible bytes.

Nothing here loads a whole file: everything is a stream that the scanner reads into one reused
buffer. Binary input is refused with one line; size limits stop reading and say so.
"""

from __future__ import annotations

import codecs
import gzip
import io
import os
import stat
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from troubleshooter.errors import InputError

SNIFF_BYTES = 64 * 1024
MAX_INPUT_BYTES = int(os.environ.get("TRT_WHY_MAX_BYTES", str(16 * 1024**3)))
"""Reading stops after this many (decompressed) bytes; the report says so. TRT_WHY_MAX_BYTES raises it."""
MAX_GZIP_RATIO = int(os.environ.get("TRT_WHY_MAX_GZIP_RATIO", "200"))
"""A gzip stream expanding more than this many times its compressed size (past 64 MiB) is a bomb."""
GZIP_RATIO_FLOOR = 64 * 1024**2

_MAGIC = [
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\x7fELF", "an executable (ELF)"),
    (b"PK\x03\x04", "a zip archive (a PyTorch checkpoint?)"),
    (b"%PDF", "a PDF document"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"ftrt", "a TensorRT engine"),
    (b"ptrt", "a TensorRT engine"),
]
_MODEL_SUFFIXES = {".onnx": "an ONNX model: use `trt-why lint FILE`", ".engine": "a TensorRT engine",
                   ".plan": "a TensorRT engine", ".trt": "a TensorRT engine", ".pt": "a PyTorch file",
                   ".pth": "a PyTorch file", ".pb": "a protobuf model"}


@dataclass
class Opened:
    """A log opened for scanning."""

    name: str
    stream: BinaryIO
    encoding: str = "utf-8"
    notes: list[str] = field(default_factory=list)
    size_hint: int | None = None
    """Size on disk, for progress; None for pipes."""

    @property
    def truncated(self) -> bool:
        return bool(getattr(self.stream, "truncated", False))


class _Limited(io.RawIOBase):
    """Reads from a stream until a byte limit; remembers that it stopped early."""

    def __init__(self, inner: BinaryIO, limit: int, what: str, compressed: BinaryIO | None = None) -> None:
        self.inner = inner
        self.limit = limit
        self.what = what
        self.count = 0
        self.truncated = False
        self.compressed = compressed
        self.stop_reason = ""

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        if self.count >= self.limit:
            self.truncated = True
            self.stop_reason = f"stopped reading after {self.limit // 1024**2} MiB ({self.what})"
            return 0
        mv = memoryview(b)
        want = min(len(mv), self.limit - self.count)
        try:
            n = self.inner.readinto(mv[:want])  # type: ignore[attr-defined]
        except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
            self.truncated = True
            self.stop_reason = f"the gzip stream is damaged or truncated ({exc.__class__.__name__}); analysed what could be read"
            return 0
        n = n or 0
        self.count += n
        if self.compressed is not None and self.count > GZIP_RATIO_FLOOR:
            consumed = max(1, self.compressed.tell())
            if self.count > consumed * MAX_GZIP_RATIO:
                self.truncated = True
                self.stop_reason = (
                    f"stopped decompressing: the gzip data expands more than {MAX_GZIP_RATIO}x "
                    "(a gzip bomb?); set TRT_WHY_MAX_GZIP_RATIO to raise the limit"
                )
                return 0
        return n


class _Transcoder(io.RawIOBase):
    """Decodes UTF-16 (or another codec) incrementally and re-encodes it as UTF-8."""

    def __init__(self, inner: BinaryIO, encoding: str) -> None:
        self.inner = inner
        self.decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        self.pending = b""
        self.eof = False

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        mv = memoryview(b)
        while not self.pending and not self.eof:
            raw = self.inner.read(1024 * 1024)
            if not raw:
                self.eof = True
                self.pending = self.decoder.decode(b"", final=True).encode("utf-8")
            else:
                self.pending = self.decoder.decode(raw).encode("utf-8")
        n = min(len(mv), len(self.pending))
        mv[:n] = self.pending[:n]
        self.pending = self.pending[n:]
        return n


class _Prefixed(io.RawIOBase):
    """A stream whose first bytes were already read (for sniffing) and are given back first."""

    def __init__(self, head: bytes, inner: BinaryIO) -> None:
        self.head = head
        self.inner = inner

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        mv = memoryview(b)
        if self.head:
            n = min(len(mv), len(self.head))
            mv[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        reader = getattr(self.inner, "readinto", None)
        if reader is not None:
            return int(reader(mv) or 0)
        data = self.inner.read(len(mv))
        mv[: len(data)] = data
        return len(data)


def _read_head(stream: BinaryIO, n: int) -> bytes:
    parts: list[bytes] = []
    got = 0
    while got < n:
        try:
            data = stream.read(n - got)
        except (EOFError, zlib.error, gzip.BadGzipFile):
            break
        if not data:
            break
        parts.append(data)
        got += len(data)
    return b"".join(parts)


def _utf16_without_bom(head: bytes) -> str | None:
    sample = head[:4096]
    if len(sample) < 16:
        return None
    even_nul = sample[0::2].count(0) / max(1, len(sample[0::2]))
    odd_nul = sample[1::2].count(0) / max(1, len(sample[1::2]))
    if odd_nul > 0.3 and even_nul < 0.05:
        return "utf-16-le"
    if even_nul > 0.3 and odd_nul < 0.05:
        return "utf-16-be"
    return None


def _refuse_binary(head: bytes, name: str) -> None:
    for magic, what in _MAGIC:
        if head.startswith(magic):
            raise InputError(f"{name}: this is {what}, not a log")
    suffix = Path(name).suffix.lower()
    sample = head[:SNIFF_BYTES]
    if not sample:
        return
    bad = sum(1 for byte in sample if byte < 32 and byte not in (9, 10, 12, 13, 27, 8)) + sample.count(127)
    if bad / len(sample) > 0.05:
        hint = _MODEL_SUFFIXES.get(suffix)
        if hint:
            raise InputError(f"{name}: this looks like {hint}, not a log")
        raise InputError(f"{name}: this looks like binary data, not a text log")


def _wrap(stream: BinaryIO, name: str, size_hint: int | None) -> Opened:
    head = _read_head(stream, 2)
    notes: list[str] = []
    compressed: BinaryIO | None = None
    if head == b"\x1f\x8b":
        compressed = _Prefixed(head, stream)  # type: ignore[assignment]
        stream = gzip.GzipFile(fileobj=compressed, mode="rb")  # type: ignore[assignment]
        notes.append("gzip-compressed input")
        head = b""
    sniff = head + _read_head(stream, SNIFF_BYTES)
    if not sniff:
        raise InputError(f"{name}: the log is empty")
    encoding = "utf-8"
    body: BinaryIO = _Prefixed(sniff, stream)  # type: ignore[assignment]
    if sniff.startswith(codecs.BOM_UTF8):
        body = _Prefixed(sniff[3:], stream)  # type: ignore[assignment]
        encoding = "utf-8-sig"
    elif sniff.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
        body = _Transcoder(body, "utf-16")  # type: ignore[assignment]
    else:
        guess = _utf16_without_bom(sniff)
        if guess:
            encoding = guess
            body = _Transcoder(body, guess)  # type: ignore[assignment]
        else:
            _refuse_binary(sniff, name)
    if encoding.startswith("utf-16"):
        probe = sniff.decode(encoding if encoding != "utf-16" else "utf-16", errors="replace").encode("utf-8")
        _refuse_binary(probe, name)
    limited = _Limited(body, MAX_INPUT_BYTES, "TRT_WHY_MAX_BYTES limit; set it to read more", compressed)
    return Opened(name=name, stream=limited, encoding=encoding, notes=notes, size_hint=size_hint)  # type: ignore[arg-type]


def open_path(path: str | os.PathLike[str]) -> Opened:
    """Open a log file (plain, gzip, UTF-16). Raises InputError with one line when it cannot be read."""
    p = Path(path)
    name = str(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except PermissionError:
        raise InputError(f"{name}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{name}: is a directory; give a log file (or use `trt-why scan DIR`)")
    try:
        fh = open(p, "rb", buffering=0)  # noqa: SIM115 - closed by the caller via Opened.stream
    except PermissionError:
        raise InputError(f"{name}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read ({exc.strerror or exc})") from None
    size = st.st_size if stat.S_ISREG(st.st_mode) else None
    if size == 0:
        fh.close()
        raise InputError(f"{name}: the log is empty")
    try:
        return _wrap(fh, name, size)
    except BaseException:
        fh.close()
        raise


def open_stream(stream: BinaryIO, name: str = "<stdin>") -> Opened:
    """Open an already-open binary stream (stdin)."""
    return _wrap(stream, name, None)


def open_data(data: str | bytes, name: str = "<text>") -> Opened:
    """Open text or bytes given in memory (a paste, an API call)."""
    if isinstance(data, str):
        raw = data.encode("utf-8", errors="surrogatepass")
        if not data.strip():
            raise InputError(f"{name}: the log is empty")
        return _wrap(io.BytesIO(raw), name, len(raw))
    if not data:
        raise InputError(f"{name}: the log is empty")
    return _wrap(io.BytesIO(data), name, len(data))
