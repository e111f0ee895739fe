"""Bytes in: files, stdin, pasted text, gzip, UTF-16. Out: a readable stream of UTF-8-compatible bytes.

Nothing here loads a whole file: everything is a stream that the scanner reads into one reused
buffer. Binary input is refused with one line; size limits stop reading and say so.

The layers, bottom up::

    source (file, stdin, bytes)  -> _Source    read errors end the stream with a note, not a traceback
    [gzip]                       -> _Gunzip    own zlib loop: a truncated or damaged stream keeps what
                                               was decoded; expanding past MAX_GZIP_RATIO stops it
                                 -> _Limited   stops after MAX_INPUT_BYTES
    sniff: leading NUL bytes skipped, encoding and binary checks on the first SNIFF_BYTES
    [UTF-16]                     -> _Transcoder
                                 -> _DropNul   NUL bytes inside the text are dropped (line numbers keep)

Every layer shares one ``_Status``: the outer stream says whether reading stopped early and why.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import stat
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from troubleshooter.envvars import env_int
from troubleshooter.errors import InputError

SNIFF_BYTES = 64 * 1024
"""The encoding and binary checks look at this much of the start of the text."""
MAX_INPUT_BYTES = env_int("TRT_WHY_MAX_BYTES", 16 * 1024**3)
"""Reading stops after this many (decompressed) bytes; the report says so. TRT_WHY_MAX_BYTES raises it."""
MAX_GZIP_RATIO = env_int("TRT_WHY_MAX_GZIP_RATIO", 200)
"""A gzip stream expanding more than this many times its compressed size (past 64 MiB) is a bomb."""
GZIP_RATIO_FLOOR = 64 * 1024**2
"""Below this many decompressed bytes the ratio is not checked (small, very regular logs compress well)."""
MAX_LEADING_NUL_BYTES = 1024**3
"""NUL bytes at the start (a log truncated while a writer held it open) are skipped up to this many."""
READ_CHUNK = 1024 * 1024

_MAGIC = [
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\x7fELF", "an executable (ELF)"),
    (b"MZ", "a Windows executable"),
    (b"PK\x03\x04", "a zip archive (a PyTorch checkpoint?)"),
    (b"%PDF", "a PDF document"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"\x93NUMPY", "a NumPy array"),
    (b"ftrt", "a TensorRT engine"),
    (b"ptrt", "a TensorRT engine"),
    (b"BZh", "a bzip2 archive: decompress it first"),
    (b"\xfd7zXZ\x00", "an xz archive: decompress it first"),
    (b"(\xb5/\xfd", "a zstd archive: decompress it first"),
]
_MODEL_SUFFIXES = {".onnx": "an ONNX model: use `trt-why lint FILE`", ".engine": "a TensorRT engine",
                   ".plan": "a TensorRT engine", ".trt": "a TensorRT engine", ".pt": "a PyTorch file",
                   ".pth": "a PyTorch file", ".pb": "a protobuf model", ".bin": "binary data",
                   ".npy": "a NumPy array", ".safetensors": "a weights file"}
_TEXT_CONTROL = frozenset((0, 8, 9, 10, 12, 13, 27))
"""Control bytes a text log may contain (NUL is dropped, backspace and ESC come with terminals)."""


@dataclass
class _Status:
    """Shared by the layers of one opened log: did reading stop early, and why."""

    truncated: bool = False
    stop_reason: str = ""

    def stop(self, reason: str) -> None:
        if not self.truncated:
            self.truncated = True
            self.stop_reason = reason


class _Layer(io.RawIOBase):
    """A read-only stream over ``inner`` that closes it and exposes the shared status."""

    def __init__(self, inner: Any, status: _Status) -> None:
        self.inner = inner
        self.status = status

    def readable(self) -> bool:
        return True

    @property
    def truncated(self) -> bool:
        return self.status.truncated

    @property
    def stop_reason(self) -> str:
        return self.status.stop_reason

    def __del__(self) -> None:
        # io's finalizer would call close(): a layer dropped half-built must not close the stream under it.
        pass

    def close(self) -> None:
        if not self.closed:
            try:
                close = getattr(self.inner, "close", None)
                if close is not None:
                    close()
            finally:
                super().close()

    def _read_inner(self, n: int) -> bytes:
        data = self.inner.read(n)
        return bytes(data or b"")


class _Source(_Layer):
    """The bottom layer: a read error ends the stream (the report says so) instead of escaping."""

    def __init__(self, inner: Any, status: _Status, name: str, own: bool = True) -> None:
        super().__init__(inner, status)
        self.name = name
        self.own = own
        self.count = 0
        self.error: OSError | None = None

    def readinto(self, b: Any) -> int:
        if self.error is not None:
            return 0
        mv = memoryview(b).cast("B")
        try:
            reader = getattr(self.inner, "readinto", None)
            if reader is not None:
                n = int(reader(mv) or 0)
            else:
                data = self.inner.read(len(mv)) or b""
                n = len(data)
                mv[:n] = data
        except OSError as exc:  # EIO, a reset socket, a pipe whose writer vanished mid-read
            self.error = exc
            why = exc.strerror or exc.__class__.__name__
            self.status.stop(f"reading failed after {self.count} bytes ({why}); analysed what could be read")
            return 0
        self.count += n
        return n

    def close(self) -> None:
        if not self.own:  # stdin is not ours to close
            io.RawIOBase.close(self)
            return
        super().close()


class _Gunzip(_Layer):
    """gzip decoding with zlib directly: partial data survives truncation; a bomb is stopped.

    ``gzip.GzipFile`` loses the bytes it decoded in a ``read`` that then hits the end of a truncated
    stream, and cannot tell how much compressed input it consumed without seeking.
    """

    def __init__(self, inner: Any, status: _Status) -> None:
        super().__init__(inner, status)
        self.decomp = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self.fed = False
        """Whether the current member's decompressor has been given any input."""
        self.backlog = b""
        """Input read past the end of one member: the start of the next."""
        self.pending = b""
        self.compressed = 0
        self.produced = 0
        self.done = False

    def readinto(self, b: Any) -> int:
        mv = memoryview(b).cast("B")
        while not self.pending and not self.done:
            self._fill(len(mv))
        n = min(len(mv), len(self.pending))
        mv[:n] = self.pending[:n]
        self.pending = self.pending[n:]
        return n

    def _fill(self, want: int) -> None:
        if self.decomp.unconsumed_tail:
            raw = self.decomp.unconsumed_tail
        elif self.backlog:
            raw, self.backlog = self.backlog, b""
        else:
            raw = self._read_inner(READ_CHUNK)
            self.compressed += len(raw)
            if not raw:
                if self.fed and not self.decomp.eof:
                    self.status.stop("the gzip stream is truncated (it ends early); analysed what could be read")
                self.done = True
                return
        self.fed = True
        try:
            out = self.decomp.decompress(raw, max(want, READ_CHUNK))
        except zlib.error as exc:
            self.status.stop(f"the gzip stream is damaged ({exc}); analysed what could be read")
            self.done = True
            return
        self.produced += len(out)
        self.pending = out
        if self.decomp.eof:
            rest = self.decomp.unused_data
            self.decomp = zlib.decompressobj(16 + zlib.MAX_WBITS)
            self.fed = False
            if rest.startswith(b"\x1f\x8b"):
                self.backlog = rest  # concatenated members (`cat a.gz b.gz`)
            elif rest.strip(b"\x00"):
                self.done = True  # trailing garbage after a complete stream: ignore it, like gzip -d does
        if self.produced > GZIP_RATIO_FLOOR and self.produced > max(1, self.compressed) * MAX_GZIP_RATIO:
            self.status.stop(
                f"stopped decompressing after {self.produced // 1024**2} MiB: the gzip data expands more than "
                f"{MAX_GZIP_RATIO}x (a gzip bomb?); set TRT_WHY_MAX_GZIP_RATIO to raise the limit"
            )
            self.done = True


class _Prefixed(_Layer):
    """A stream whose first bytes were already read (for sniffing) and are given back first."""

    def __init__(self, head: bytes, inner: Any, status: _Status) -> None:
        super().__init__(inner, status)
        self.head = head

    def readinto(self, b: Any) -> int:
        mv = memoryview(b).cast("B")
        if self.head:
            n = min(len(mv), len(self.head))
            mv[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        reader = getattr(self.inner, "readinto", None)
        if reader is not None:
            return int(reader(mv) or 0)
        data = self.inner.read(len(mv)) or b""
        mv[: len(data)] = data
        return len(data)


class _Limited(_Layer):
    """Reads until a byte limit, then stops and says so."""

    def __init__(self, inner: Any, status: _Status, limit: int) -> None:
        super().__init__(inner, status)
        self.limit = limit
        self.count = 0

    def readinto(self, b: Any) -> int:
        if self.count >= self.limit:
            if self.inner.read(1):  # exactly at the limit is not a cut
                self.status.stop(
                    f"stopped reading after {self.limit / 1024**2:.0f} MiB (TRT_WHY_MAX_BYTES limit; set it to read more)"
                )
            return 0
        mv = memoryview(b).cast("B")
        want = min(len(mv), self.limit - self.count)
        n = int(self.inner.readinto(mv[:want]) or 0)
        self.count += n
        return n


class _Transcoder(_Layer):
    """Decodes UTF-16 (or another codec) incrementally and re-encodes it as UTF-8."""

    def __init__(self, inner: Any, status: _Status, encoding: str) -> None:
        super().__init__(inner, status)
        self.decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        self.pending = b""
        self.eof = False

    def readinto(self, b: Any) -> int:
        mv = memoryview(b).cast("B")
        while not self.pending and not self.eof:
            raw = self._read_inner(READ_CHUNK)
            if not raw:
                self.eof = True
                self.pending = self.decoder.decode(b"", final=True).encode("utf-8", errors="replace")
            else:
                self.pending = self.decoder.decode(raw).encode("utf-8", errors="replace")
        n = min(len(mv), len(self.pending))
        mv[:n] = self.pending[:n]
        self.pending = self.pending[n:]
        return n


class _DropNul(_Layer):
    """Drops NUL bytes: they carry no text, and regexes and terminals choke on them."""

    def __init__(self, inner: Any, status: _Status) -> None:
        super().__init__(inner, status)

    def readinto(self, b: Any) -> int:
        buf = bytearray(len(memoryview(b).cast("B")))
        n = self.readinto_at(buf, 0)
        memoryview(b).cast("B")[:n] = memoryview(buf)[:n]
        return n

    def readinto_at(self, buf: bytearray, start: int) -> int:
        """Read into buf[start:] (the scanner's buffer): NULs are looked for in place with
        `bytearray.find` (memchr); only the rare chunk that holds one is copied."""
        with memoryview(buf) as whole:
            while True:
                n = int(self.inner.readinto(whole[start:]) or 0)
                if not n:
                    return 0
                end = start + n
                if buf.find(b"\x00", start, end) < 0:
                    return n
                chunk = bytes(whole[start:end]).replace(b"\x00", b"")
                if not chunk:
                    continue  # a block of NULs: read on rather than signal the end
                whole[start:start + len(chunk)] = chunk
                return len(chunk)


@dataclass
class Opened:
    """A log opened for scanning."""

    name: str
    stream: BinaryIO
    encoding: str = "utf-8"
    notes: list[str] = field(default_factory=list)
    size_hint: int | None = None
    """Size on disk, for progress; None for pipes."""
    compressed: bool = False
    """gzip: the bytes on disk are not the text (a file cannot be cut into parts by offset)."""

    @property
    def truncated(self) -> bool:
        return bool(getattr(self.stream, "truncated", False))

    @property
    def stop_reason(self) -> str:
        return str(getattr(self.stream, "stop_reason", ""))


def _read_head(stream: Any, n: int) -> bytes:
    parts: list[bytes] = []
    got = 0
    while got < n:
        data = stream.read(n - got)
        if not data:
            break
        parts.append(bytes(data))
        got += len(data)
    return b"".join(parts)


def _skip_leading_nul(stream: Any, head: bytes) -> tuple[bytes, int]:
    """Drop NUL bytes at the start; returns the first non-NUL bytes read and how many NULs went."""
    skipped = 0
    while True:
        stripped = head.lstrip(b"\x00")
        skipped += len(head) - len(stripped)
        if stripped or skipped > MAX_LEADING_NUL_BYTES:
            return stripped, skipped
        head = _read_head(stream, READ_CHUNK)
        if not head:
            return b"", skipped


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


def _looks_like_onnx(head: bytes) -> bool:
    """A serialized ModelProto starts with ir_version (field 1, varint 3..12) then another field."""
    return len(head) >= 3 and head[0] == 0x08 and 3 <= head[1] <= 12 and head[2] in (0x12, 0x1A, 0x22, 0x2A, 0x3A, 0x42)


def _refuse_binary(head: bytes, name: str) -> None:
    for magic, what in _MAGIC:
        if head.startswith(magic):
            raise InputError(f"{name}: this is {what}, not a log")
    if _looks_like_onnx(head):
        raise InputError(f"{name}: this looks like an ONNX model: use `trt-why lint FILE`, not a log")
    sample = head[:SNIFF_BYTES]
    if not sample:
        return
    bad = sum(1 for byte in sample if byte < 32 and byte not in _TEXT_CONTROL) + sample.count(127)
    hint = _MODEL_SUFFIXES.get(Path(name).suffix.lower())
    text_len = max(1, len(sample) - sample.count(0))
    # A file named like a model is refused on any stray control byte; anything else needs 5 % of them.
    if bad / text_len > 0.05 or (hint and bad):
        if hint:
            raise InputError(f"{name}: this looks like {hint}, not a log")
        raise InputError(f"{name}: this looks like binary data, not a text log")


def _wrap(raw: Any, name: str, size_hint: int | None, own: bool = True) -> Opened:
    status = _Status()
    stream: Any = _Source(raw, status, name, own)
    notes: list[str] = []
    head = _read_head(stream, 2)
    compressed = head == b"\x1f\x8b"
    if compressed:
        stream = _Gunzip(_Prefixed(head, stream, status), status)
        notes.append("gzip-compressed input")
        head = b""
    stream = _Limited(stream, status, MAX_INPUT_BYTES)
    stream.count = len(head)  # the two bytes read to look for gzip's magic are part of the text
    sniff = head + _read_head(stream, SNIFF_BYTES - len(head))
    bom = sniff.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    encoding = "utf-16" if bom else _utf16_without_bom(sniff) or "utf-8"
    nul_skipped = 0
    if encoding == "utf-8":  # UTF-16 text is full of NULs; anything else may start with a block of them
        sniff, nul_skipped = _skip_leading_nul(stream, sniff)
    if not sniff:
        stream.close()
        if status.truncated:
            raise InputError(f"{name}: {status.stop_reason}; no text was read before that")
        if nul_skipped:
            raise InputError(f"{name}: the file holds only NUL bytes (a zeroed or sparse file), not a log")
        raise InputError(f"{name}: the log is empty")
    if nul_skipped:
        notes.append(f"skipped {nul_skipped} NUL bytes at the start (a log truncated while it was being written?)")
        if len(sniff) < SNIFF_BYTES // 2:
            sniff += _read_head(stream, SNIFF_BYTES - len(sniff))
    if encoding == "utf-8" and sniff.startswith(codecs.BOM_UTF8):
        sniff = sniff[3:]
        encoding = "utf-8-sig"
    if not encoding.startswith("utf-16"):
        _refuse_binary(sniff, name)
    body: Any = _Prefixed(sniff, stream, status)
    if encoding.startswith("utf-16"):
        probe = sniff[: len(sniff) & ~1].decode(encoding, errors="replace").encode("utf-8")
        _refuse_binary(probe, name)
        body = _Transcoder(body, status, encoding)
    stream_out: Any = _DropNul(body, status)  # a RawIOBase: readinto/read/close, which is all scanning needs
    return Opened(name=name, stream=stream_out, encoding=encoding, notes=notes, size_hint=size_hint,
                  compressed=compressed)


def _guarded_wrap(raw: Any, name: str, size_hint: int | None, own: bool) -> Opened:
    try:
        return _wrap(raw, name, size_hint, own)
    except BaseException:
        if own:
            with contextlib.suppress(OSError):
                raw.close()
        raise


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
    except (OSError, ValueError) as exc:  # ENAMETOOLONG, ELOOP, an embedded NUL in the path...
        raise InputError(f"{name}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{name}: is a directory; give a log file (or use `trt-why scan DIR`)")
    try:
        fh = open(p, "rb", buffering=0)  # noqa: SIM115 - closed with Opened.stream
    except PermissionError:
        raise InputError(f"{name}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read ({exc.strerror or exc})") from None
    size = st.st_size if stat.S_ISREG(st.st_mode) else None
    if size == 0:
        fh.close()
        raise InputError(f"{name}: the log is empty")
    return _guarded_wrap(fh, name, size, True)


def open_stream(stream: BinaryIO, name: str = "<stdin>") -> Opened:
    """Open an already-open binary stream (stdin). The caller keeps ownership of ``stream``."""
    return _guarded_wrap(stream, name, None, False)


def open_data(data: str | bytes, name: str = "<text>") -> Opened:
    """Open text or bytes given in memory (a paste, an API call)."""
    if isinstance(data, str):
        if not data.strip():
            raise InputError(f"{name}: the log is empty")
        raw = data.encode("utf-8", errors="surrogatepass")
        return _guarded_wrap(io.BytesIO(raw), name, len(raw), True)
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise InputError(f"{name}: expected the log as str or bytes, got {type(data).__name__}")
    if not data:
        raise InputError(f"{name}: the log is empty")
    return _guarded_wrap(io.BytesIO(bytes(data)), name, len(data), True)
