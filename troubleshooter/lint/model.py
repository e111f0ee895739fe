"""Safe loading of an ONNX model for linting.

* File triage first: missing, directory, empty, not ONNX, truncated: one-line ``LintError``.
* The graph is parsed with ``load_external_data=False``: weights stored beside the model are
  never loaded whole.
* Inline weights are not loaded either: a wire-format walker (``wire.py``) parses the file
  through an ``mmap`` and leaves every tensor payload of ``LITE_TENSOR_BYTES`` or more in the
  file; the tensor keeps its name, dims and type. Rules that need values get them from
  ``read_array`` (small tensors, whole) or ``iter_values`` (weights, in bounded chunks), the same
  way for inline, stripped and external tensors.
* Every external-data ``location`` must stay inside the model's folder: absolute paths, ``..``
  and symlinks pointing outside are refused without opening the target. Files must exist and be
  at least ``offset + length`` bytes long (checked with ``stat`` before anything is read).
"""

from __future__ import annotations

import mmap
import os
import secrets
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from troubleshooter.errors import LintError
from troubleshooter.lint.triage import sniff
from troubleshooter.lint.wire import RAW_DATA, VARINT_FIELDS, Payload, WireError, lite_model_bytes

if TYPE_CHECKING:
    import numpy as np
    from onnx import GraphProto, ModelProto, TensorProto

SMALL_TENSOR_BYTES = 1 << 20
"""Kept for callers that want "small": 1 MiB."""

WHOLE_TENSOR_BYTES = 64 << 20
"""``read_array`` reads a tensor whole up to this size (Q/DQ scales and zero points, INT64 values),
wherever it is stored; bigger ones are only scanned in chunks by ``iter_values``."""

LITE_TENSOR_BYTES: int | None = 64 << 10
"""Inline payloads this big or bigger stay in the file (read on demand). None: parse the whole
file with ``onnx.load`` instead (the reference the tests compare the walker with)."""

CHUNK_BYTES = 16 << 20
"""``iter_values`` reads weights in chunks of at most this many bytes."""

MAX_MODEL_BYTES = (2 << 30) - 1
"""Protobuf cannot hold more than 2 GB: bigger .onnx files must keep weights as external data."""

_ITEM_FIELD_BYTES = {4: 4, 5: 4, 7: 8, 10: 8, 11: 8}
"""Bytes per element counted for typed payload fields (float, int32, int64, double, uint64 data)."""

_RAW_DTYPES = {1: "<f4", 2: "u1", 3: "i1", 4: "<u2", 5: "<i2", 6: "<i4", 7: "<i8", 9: "b1", 10: "<f2", 11: "<f8",
               12: "<u4", 13: "<u8"}
"""Data types ``iter_values`` reads straight from raw bytes with numpy (little-endian, as ONNX stores them)."""


class UnreadableTensor(LintError):
    """A tensor whose values cannot be scanned (the rule skips it and says why)."""


class ModelFileError(LintError):
    """The model file cannot be linted at all. ``code`` is the triage id (file-missing, truncated...)."""

    def __init__(self, path: str, code: str, reason: str) -> None:
        self.code = code
        self.path = path
        super().__init__(f"{path}: {reason} [{code}]")


@dataclass(frozen=True)
class ExternalRef:
    """Where one tensor's data lives, already checked to be inside the model's folder."""

    file: Path
    offset: int
    length: int | None


@dataclass
class LoadedModel:
    """A parsed model without its big payloads, and safe ways to read tensor values."""

    path: str
    model: ModelProto
    base_dir: Path
    external_bytes: int = 0
    external_count: int = 0
    file: Path | None = None
    """The model file (for payloads left in it by the walker)."""
    lite_key: str = ""
    """The external_data key that marks a tensor whose payload was left in the model file."""
    payloads: list[Payload] = dataclass_field(default_factory=list)

    # ---- where a tensor's values are ------------------------------------------------------
    def payload(self, tensor: TensorProto) -> Payload | None:
        """Where the walker left ``tensor``'s payload in the model file, or None (inline or external)."""
        if not self.payloads or tensor.data_location == 1:
            return None
        for entry in tensor.external_data:
            if entry.key == self.lite_key:
                return self.payloads[int(entry.value)]
        return None

    def payload_bytes(self, tensor: TensorProto) -> int:
        """Size of the tensor's values as stored (raw bytes, or elements x 4 / 8 for typed fields)."""
        from onnx import TensorProto as TP

        if tensor.data_location == TP.EXTERNAL:
            ref = external_ref(self, tensor)
            return ref.length if ref.length is not None else ref.file.stat().st_size - ref.offset
        found = self.payload(tensor)
        if found is not None:
            return found.length if found.field == RAW_DATA else found.count * _ITEM_FIELD_BYTES[found.field]
        if tensor.HasField("raw_data"):
            return len(tensor.raw_data)
        return sum(len(getattr(tensor, name)) * size for name, size in
                   (("float_data", 4), ("int32_data", 4), ("int64_data", 8), ("double_data", 8), ("uint64_data", 8)))

    def header(self, tensor: TensorProto) -> TensorProto:
        """A copy of a stripped tensor without its marker (name, dims, type...: no values)."""
        from onnx import TensorProto as TP

        copy = TP()
        copy.CopyFrom(tensor)
        kept = [e for e in copy.external_data if e.key != self.lite_key]
        del copy.external_data[:]
        copy.external_data.extend(kept)
        return copy

    def materialize(self, tensor: TensorProto) -> TensorProto:
        """``tensor`` with its values, as ``onnx.load`` would have given it (reads the file once)."""
        found = self.payload(tensor)
        if found is None:
            return tensor
        from troubleshooter.lint.wire import encode_varint

        whole = self.header(tensor)
        data = self._read(found.offset, found.length)
        if found.field == RAW_DATA:
            whole.raw_data = data
        else:
            whole.MergeFromString(encode_varint(found.field << 3 | 2) + encode_varint(len(data)) + data)
        return whole

    def _read(self, offset: int, length: int) -> bytes:
        assert self.file is not None
        with open(self.file, "rb") as handle:
            handle.seek(offset)
            data = handle.read(length)
        if len(data) != length:
            raise UnreadableTensor(f"{self.path}: the file changed while it was linted")
        return data

    # ---- values ---------------------------------------------------------------------------
    def read_array(self, tensor: TensorProto, limit: int = WHOLE_TENSOR_BYTES) -> np.ndarray[Any, Any] | None:
        """The tensor's values, or None when they are stored outside the parsed model (external data,
        or left in the file by the walker) and larger than ``limit`` bytes. Tensors already in memory
        are always returned."""
        from onnx import TensorProto as TP
        from onnx import numpy_helper

        if tensor.data_location != TP.EXTERNAL:
            if self.payload(tensor) is not None:
                if self.payload_bytes(tensor) > limit:
                    return None
                tensor = self.materialize(tensor)
            return numpy_helper.to_array(tensor)
        ref = external_ref(self, tensor)
        size = ref.length if ref.length is not None else ref.file.stat().st_size - ref.offset
        if size > limit:
            return None
        with open(ref.file, "rb") as handle:
            handle.seek(ref.offset)
            raw = handle.read(size)
        inline = TP()
        inline.CopyFrom(tensor)
        del inline.external_data[:]
        inline.data_location = TP.DEFAULT
        inline.raw_data = raw
        return numpy_helper.to_array(inline)

    def iter_values(self, tensor: TensorProto, chunk_bytes: int | None = None) -> Iterator[np.ndarray[Any, Any]]:
        """The tensor's values, flattened, in chunks of at most ``chunk_bytes`` (default ``CHUNK_BYTES``;
        one chunk when the tensor is in memory already). Use each chunk and let it go: a chunk is a view
        of an mmap whose pages are given back when the next one is asked for (so the resident size stays
        about one chunk). Raises ``UnreadableTensor`` when the values cannot be scanned (the reason says
        why: a size that does not match the dims, a type that is not scanned in chunks...)."""
        from onnx import TensorProto as TP
        from onnx import numpy_helper

        chunk_bytes = chunk_bytes or CHUNK_BYTES
        found = self.payload(tensor)
        if tensor.data_location != TP.EXTERNAL and found is None:
            yield numpy_helper.to_array(tensor).ravel()
            return
        if found is not None and found.field != RAW_DATA:
            if found.field in VARINT_FIELDS:
                yield from self._varint_chunks(tensor, found, chunk_bytes)
                return
            source, offset, length, dtype = self.file, found.offset, found.length, "<f4" if found.field == 4 else "<f8"
        else:
            if found is not None:
                source, offset, length = self.file, found.offset, found.length
            else:
                ref = external_ref(self, tensor)
                length = ref.length if ref.length is not None else ref.file.stat().st_size - ref.offset
                source, offset = ref.file, ref.offset
            dtype = _RAW_DTYPES.get(tensor.data_type, "")
            if not dtype:
                if length <= WHOLE_TENSOR_BYTES:
                    whole = self.read_array(tensor)
                    if whole is not None:
                        yield whole.ravel()
                        return
                name = TP.DataType.Name(tensor.data_type) if tensor.data_type in TP.DataType.values() else "unknown"
                raise UnreadableTensor(f"{name} values over {WHOLE_TENSOR_BYTES >> 20} MiB are not scanned")
            count = 1
            for dim in tensor.dims:
                count *= dim
            if count * int(dtype[-1]) != length:
                raise UnreadableTensor(f"{length} bytes of data where its dims need {count * int(dtype[-1])}")
        yield from _raw_chunks(source, offset, length, dtype, chunk_bytes)

    def _varint_chunks(self, tensor: TensorProto, found: Payload,
                       chunk_bytes: int) -> Iterator[np.ndarray[Any, Any]]:
        """Packed varints (int32/int64/uint64 data) cut at value boundaries and decoded by protobuf."""
        from onnx import TensorProto as TP
        from onnx import numpy_helper

        from troubleshooter.lint.wire import encode_varint

        assert self.file is not None
        tag = encode_varint(found.field << 3 | 2)
        carry = b""
        with open(self.file, "rb") as handle:
            handle.seek(found.offset)
            left = found.length
            while left > 0 or carry:
                block = carry + handle.read(min(chunk_bytes, left))
                left -= len(block) - len(carry)
                if left > 0:
                    cut = len(block)
                    while cut > 0 and block[cut - 1] >= 0x80:
                        cut -= 1
                    block, carry = block[:cut], block[cut:]
                else:
                    carry = b""
                part = TP()
                part.data_type = tensor.data_type
                part.MergeFromString(tag + encode_varint(len(block)) + block)
                count = len(getattr(part, {5: "int32_data", 7: "int64_data", 11: "uint64_data"}[found.field]))
                part.dims.append(count)
                yield numpy_helper.to_array(part).ravel()
                if left <= 0:
                    break


def _raw_chunks(source: Path | None, offset: int, length: int, dtype: str,
                chunk_bytes: int) -> Iterator[np.ndarray[Any, Any]]:
    """``length`` bytes of ``source`` from ``offset`` as numpy arrays over an mmap of the file, chunk
    by chunk; the pages of each chunk are given back once the next is asked for, so the resident
    size stays about one chunk whatever the tensor's size."""
    import numpy as np

    assert source is not None
    size = np.dtype(dtype).itemsize
    step = max(size, chunk_bytes - chunk_bytes % size)
    if length <= 0:
        return
    base = offset - offset % mmap.ALLOCATIONGRANULARITY
    with open(source, "rb") as handle:
        if os.fstat(handle.fileno()).st_size < offset + length:
            raise UnreadableTensor(f"{source.name}: the file is shorter than the model says")
        # Not closed explicitly: the arrays handed out keep it alive; it is unmapped when they go.
        view = mmap.mmap(handle.fileno(), offset + length - base, access=mmap.ACCESS_READ, offset=base)
    drop = getattr(view, "madvise", None)
    if drop is not None and hasattr(mmap, "MADV_SEQUENTIAL"):
        view.madvise(mmap.MADV_SEQUENTIAL)
    start = offset - base
    for at in range(start, start + length, step):
        want = min(step, start + length - at)
        yield np.frombuffer(view, dtype=dtype, count=want // size, offset=at)
        if drop is not None and hasattr(mmap, "MADV_DONTNEED"):
            page = at - at % mmap.PAGESIZE
            drop(mmap.MADV_DONTNEED, page, at + want - page)


def iter_graphs(graph: GraphProto) -> Iterator[GraphProto]:
    """The graph and every subgraph (If / Loop / Scan bodies), depth first."""
    yield graph
    for node in graph.node:
        for attr in node.attribute:
            if attr.HasField("g"):
                yield from iter_graphs(attr.g)
            for sub in attr.graphs:
                yield from iter_graphs(sub)


def iter_tensors(model: ModelProto) -> Iterator[TensorProto]:
    """Every TensorProto that can carry data: initializers and Constant / attribute tensors."""
    for graph in iter_graphs(model.graph):
        yield from graph.initializer
        for sparse in graph.sparse_initializer:
            yield sparse.values
            yield sparse.indices
        for node in graph.node:
            for attr in node.attribute:
                if attr.HasField("t"):
                    yield attr.t
                yield from attr.tensors


def load_model(path: str | os.PathLike[str]) -> LoadedModel:
    """Triage and parse ``path``; raise ``ModelFileError`` (a ``LintError``) when it cannot be linted."""
    shown = os.fspath(path)
    model_path = Path(shown)
    try:
        info = model_path.stat()
    except FileNotFoundError:
        raise ModelFileError(shown, "file-missing", "no such file") from None
    except OSError as err:
        raise ModelFileError(shown, "file-missing", f"cannot access the file ({err.strerror})") from None
    if stat.S_ISDIR(info.st_mode):
        raise ModelFileError(shown, "not-a-file", "this is a directory; give the .onnx file inside it")
    if not stat.S_ISREG(info.st_mode):
        raise ModelFileError(shown, "not-a-file", "not a regular file")
    if info.st_size == 0:
        raise ModelFileError(shown, "empty-model", "the file is empty (0 bytes)")
    if info.st_size > MAX_MODEL_BYTES:
        raise ModelFileError(
            shown, "too-large", "over 2 GB: ONNX files this big must keep their weights as external data"
        )

    model, lite = _parse(shown, model_path, info.st_size)
    if model.ByteSize() == 0 or (not model.HasField("graph") and not model.opset_import):
        raise ModelFileError(shown, "empty-model", "the file parses as an empty ONNX model (no graph, no opset)")
    if not model.graph.node and not model.graph.output:
        raise ModelFileError(shown, "empty-model", "the model has no graph: no nodes and no outputs")

    _clean_names(model)
    loaded = LoadedModel(path=shown, model=model, base_dir=model_path.resolve().parent, file=model_path.resolve())
    if lite is not None:
        loaded.lite_key, loaded.payloads = lite
    _check_external(loaded)
    return loaded


def _parse(shown: str, model_path: Path, size: int) -> tuple[ModelProto, tuple[str, list[Payload]] | None]:
    """The model, parsed by the walker (big payloads left in the file) or by ``onnx.load``."""
    import onnx
    from google.protobuf.message import DecodeError

    threshold = LITE_TENSOR_BYTES
    if threshold is not None and _binary_protobuf(model_path.suffix.lower()):
        try:
            return _parse_lite(model_path, threshold)
        except (WireError, DecodeError, ValueError, OSError, RecursionError):
            pass  # the reference parser below gives the usual triage
    try:
        return onnx.load(shown, load_external_data=False), None
    except DecodeError:
        with open(model_path, "rb") as handle:
            head = handle.read(1 << 16)
        code, reason = sniff(head, size)
        raise ModelFileError(shown, code, reason) from None
    except OSError as err:
        raise ModelFileError(shown, "file-missing", f"cannot read the file ({err.strerror})") from None


def _binary_protobuf(ext: str) -> bool:
    """True when ``onnx.load`` reads a file with this extension as binary protobuf (not text or JSON)."""
    try:
        from onnx.serialization import registry
    except ImportError:  # onnx < 1.15 reads every file as binary protobuf
        return True
    return registry.get_format_from_file_extension(ext) in (None, "protobuf")


def _parse_lite(model_path: Path, threshold: int) -> tuple[ModelProto, tuple[str, list[Payload]] | None]:
    """Walk the file through an mmap; protobuf parses what is kept (everything but big payloads)."""
    from onnx import ModelProto as MP

    key = f"trt-why-payload-{secrets.token_hex(8)}"
    with open(model_path, "rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as buf:

        def count(offset: int, length: int) -> int:
            return _count_varints(buf, offset, length)

        data, payloads = lite_model_bytes(buf, threshold, key, count)
        model = MP()
        if data is None:  # nothing big: parse the bytes as they are
            model.ParseFromString(buf[:])
            return model, None
    model.ParseFromString(data)
    return model, (key, payloads)


def _count_varints(buf: mmap.mmap, offset: int, length: int) -> int:
    """How many varints ``length`` bytes hold (bytes below 0x80 end one), counted in chunks."""
    import numpy as np

    total = 0
    for start in range(offset, offset + length, CHUNK_BYTES):
        part = np.frombuffer(buf[start : min(start + CHUNK_BYTES, offset + length)], dtype=np.uint8)
        total += int(np.count_nonzero(part < 0x80))
    if hasattr(buf, "madvise") and hasattr(mmap, "MADV_DONTNEED"):  # give the pages back (RSS stays flat)
        buf.madvise(mmap.MADV_DONTNEED, offset - offset % mmap.PAGESIZE, length + offset % mmap.PAGESIZE)
    return total


def _clean(value: str | bytes) -> str:
    from troubleshooter.core.logs import strip_ansi

    text = value.decode("utf-8", errors="replace") if isinstance(value, bytes) else value
    return strip_ansi(text)


def _clean_names(model: ModelProto) -> None:
    """Names become plain text: invalid UTF-8 (protobuf hands it over as bytes) is replaced, and
    terminal escapes or control characters in a downloaded model never reach a terminal or a report.
    Only names are touched, never tensor data; renames are applied consistently to node inputs."""
    for graph in iter_graphs(model.graph):
        renames: dict[str, str] = {}

        def fix(value: str | bytes, renames: dict[str, str] = renames) -> str:
            clean = _clean(value)
            if clean != value:
                renames[value if isinstance(value, str) else clean] = clean
            return clean

        for node in graph.node:
            for field in ("name", "op_type", "domain"):
                value = getattr(node, field)
                clean = _clean(value)
                if clean != value:
                    setattr(node, field, clean)
            node.input[:] = [fix(v) for v in node.input]
            node.output[:] = [fix(v) for v in node.output]
        for info in [*graph.input, *graph.output, *graph.value_info]:
            if _clean(info.name) != info.name:
                info.name = fix(info.name)
        for tensor in graph.initializer:
            if _clean(tensor.name) != tensor.name:
                tensor.name = fix(tensor.name)


def _check_external(loaded: LoadedModel) -> None:
    """Validate every external-data reference without reading any data."""
    from onnx import TensorProto as TP

    for tensor in iter_tensors(loaded.model):
        if tensor.data_location == TP.EXTERNAL:
            ref = external_ref(loaded, tensor)
            loaded.external_bytes += ref.length if ref.length is not None else ref.file.stat().st_size - ref.offset
            loaded.external_count += 1


def external_ref(loaded: LoadedModel, tensor: TensorProto) -> ExternalRef:
    """Where ``tensor``'s data lives; ``ModelFileError`` if outside the folder, missing or too short."""
    entries = {entry.key: entry.value for entry in tensor.external_data}
    location = entries.get("location", "")
    name = tensor.name or "<unnamed>"
    shown = loaded.path
    if not location:
        raise ModelFileError(shown, "external-data-missing", f"tensor {name} has external data with no location")
    if _escapes(location):
        raise ModelFileError(
            shown,
            "external-data-outside-folder",
            f"tensor {name} points at {location!r}, outside the model's folder; refused",
        )
    base_real = Path(os.path.realpath(loaded.base_dir))
    # realpath reads symlinks but never opens their targets.
    real = Path(os.path.realpath(loaded.base_dir / location))
    if base_real not in real.parents:
        raise ModelFileError(
            shown,
            "external-data-outside-folder",
            f"tensor {name}: {location!r} is a link to a file outside the model's folder; refused",
        )
    try:
        offset = int(entries.get("offset") or 0)
        length = int(entries["length"]) if entries.get("length") else None
    except ValueError:
        raise ModelFileError(shown, "external-data-invalid", f"tensor {name} has a non-numeric offset or length") from None
    if offset < 0 or (length is not None and length < 0):
        raise ModelFileError(shown, "external-data-invalid", f"tensor {name} has a negative offset or length")
    try:
        info = real.stat()
    except OSError:
        raise ModelFileError(
            shown, "external-data-missing", f"tensor {name} needs {location!r} beside the model; it is missing"
        ) from None
    if not stat.S_ISREG(info.st_mode):
        raise ModelFileError(shown, "external-data-missing", f"tensor {name}: {location!r} is not a regular file")
    needed = offset + (length or 0)
    if info.st_size < needed:
        raise ModelFileError(
            shown,
            "external-data-truncated",
            f"tensor {name} needs {needed} bytes of {location!r}, which has {info.st_size} (truncated copy?)",
        )
    return ExternalRef(real, offset, length)


def _escapes(location: str) -> bool:
    """True for absolute paths, drive letters, UNC paths and any ``..`` component."""
    if location.startswith(("/", "\\")) or os.path.isabs(location):
        return True
    if len(location) > 1 and location[1] == ":":
        return True
    parts = location.replace("\\", "/").split("/")
    return ".." in parts
