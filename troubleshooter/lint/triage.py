"""Tell a user in one line why a file is not an ONNX model, without a protobuf traceback.

Protobuf says only "Wire format was corrupt". Walking the top-level fields of the file
(never more than a few bytes of each) tells a truncated model apart from another format.
"""

from __future__ import annotations

# ModelProto field numbers (onnx.proto): ir_version, producer_name, producer_version, domain,
# model_version, doc_string, graph, opset_import, metadata_props, training_info, functions,
# configuration.
_MODEL_FIELDS = {1, 2, 3, 4, 5, 6, 7, 8, 14, 20, 25, 26}

_MAGIC: list[tuple[bytes, str]] = [
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"PK\x03\x04", "a zip archive (a PyTorch checkpoint or .pt file?)"),
    (b"\x1f\x8b", "a gzip file (decompress it first)"),
    (b"\x80\x02", "a Python pickle (a PyTorch checkpoint?)"),
    (b"\x80\x04", "a Python pickle (a PyTorch checkpoint?)"),
    (b"\x93NUMPY", "a NumPy array file"),
    (b"\x89HDF", "an HDF5 file (a Keras model?)"),
    (b"ptrt", "a TensorRT engine"),
    (b"ftrt", "a TensorRT engine"),
]


def _varint(data: bytes, pos: int) -> tuple[int, int] | None:
    value = 0
    shift = 0
    while pos < len(data):
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7
        if shift > 63:
            raise ValueError("varint too long")
    return None


def sniff(head: bytes, size: int) -> tuple[str, str]:
    """Classify a file that protobuf refused. ``head`` is its beginning, ``size`` its full length.

    Returns (code, reason): code is ``not-onnx`` or ``truncated``.
    """
    for magic, what in _MAGIC:
        if head.startswith(magic):
            return "not-onnx", f"this is {what}, not an ONNX model"
    stripped = head.lstrip()
    if stripped[:1] in (b"{", b"["):
        return "not-onnx", "this is JSON text, not an ONNX model"
    sample = head[:512]
    if sample and all(32 <= b < 127 or b in (9, 10, 13) for b in sample):
        return "not-onnx", "this is a text file, not an ONNX model (an ONNX model is binary protobuf)"
    return _walk(head, size)


def _walk(head: bytes, size: int) -> tuple[str, str]:
    """Walk top-level protobuf fields; a length running past the end of the file means truncation."""
    try:
        return _fields(head, size)
    except ValueError:
        return "not-onnx", "the file is not a valid ONNX protobuf (another format, or overwritten bytes)"


def _fields(head: bytes, size: int) -> tuple[str, str]:
    pos = 0
    fields = 0
    while pos < len(head):
        tag = _varint(head, pos)
        if tag is None:
            break
        key, pos = tag
        number, wire = key >> 3, key & 7
        if number not in _MODEL_FIELDS or wire not in (0, 2):
            if fields == 0:
                return "not-onnx", "the file does not start like an ONNX model (another format, or its header was overwritten)"
            return "not-onnx", f"the file is corrupt after its first {fields} field(s) (overwritten bytes?)"
        if wire == 0:
            val = _varint(head, pos)
            if val is None:
                break
            pos = val[1]
        else:
            length = _varint(head, pos)
            if length is None:
                break
            end = length[1] + length[0]
            if end > size:
                return ("truncated",
                        f"the file ends {end - size} bytes early inside field {number} (a truncated download or copy?)")
            if end > len(head):
                # The rest of this field is beyond what was read; protobuf failed inside it.
                return "truncated", "the file is corrupt or truncated inside the graph (re-export or re-download it)"
            pos = end
        fields += 1
    return "truncated", "the file ends in the middle of a field (truncated?)"
