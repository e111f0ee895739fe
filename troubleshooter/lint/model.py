"""Safe loading of an ONNX model for linting.

* File triage first: missing, directory, empty, not ONNX, truncated: one-line ``LintError``.
* The graph is parsed with ``load_external_data=False``: weights stored beside the model are
  never read unless a rule needs a small tensor (a scale, a zero point, INT64 values).
* Every external-data ``location`` must stay inside the model's folder: absolute paths, ``..``
  and symlinks pointing outside are refused without opening the target. Files must exist and be
  at least ``offset + length`` bytes long (checked with ``stat``, nothing is read).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from troubleshooter.errors import LintError
from troubleshooter.lint.triage import sniff

if TYPE_CHECKING:
    import numpy as np
    from onnx import GraphProto, ModelProto, TensorProto

SMALL_TENSOR_BYTES = 1 << 20
"""External tensors larger than this are never read (scales, zero points and shape values are tiny)."""

MAX_MODEL_BYTES = (2 << 30) - 1
"""Protobuf cannot hold more than 2 GB: bigger .onnx files must keep weights as external data."""


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
    """A parsed model without its external weights, and a safe way to read small tensors."""

    path: str
    model: ModelProto
    base_dir: Path
    external_bytes: int = 0
    external_count: int = 0

    def read_array(self, tensor: TensorProto, limit: int = SMALL_TENSOR_BYTES) -> np.ndarray[Any, Any] | None:
        """The tensor's values, or None when its data is external and larger than ``limit`` bytes."""
        from onnx import TensorProto as TP
        from onnx import numpy_helper

        if tensor.data_location != TP.EXTERNAL:
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

    import onnx
    from google.protobuf.message import DecodeError

    try:
        model = onnx.load(shown, load_external_data=False)
    except DecodeError:
        with open(model_path, "rb") as handle:
            head = handle.read(1 << 16)
        code, reason = sniff(head, info.st_size)
        raise ModelFileError(shown, code, reason) from None
    except OSError as err:
        raise ModelFileError(shown, "file-missing", f"cannot read the file ({err.strerror})") from None
    if model.ByteSize() == 0 or (not model.HasField("graph") and not model.opset_import):
        raise ModelFileError(shown, "empty-model", "the file parses as an empty ONNX model (no graph, no opset)")
    if not model.graph.node and not model.graph.output:
        raise ModelFileError(shown, "empty-model", "the model has no graph: no nodes and no outputs")

    _clean_names(model)
    loaded = LoadedModel(path=shown, model=model, base_dir=model_path.resolve().parent)
    _check_external(loaded)
    return loaded


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
