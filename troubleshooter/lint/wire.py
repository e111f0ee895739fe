"""A protobuf wire-format walker that parses an ONNX file without its big tensor payloads.

``lite_model_bytes(buf, threshold, key)`` walks the serialized ``ModelProto`` in ``buf`` (an
``mmap`` of the file) and returns the same message re-serialized with the payload of every
large tensor removed, plus where each removed payload lives in the file. Protobuf still parses
everything that is kept, so names, nodes, attributes and small tensors are exactly what
``onnx.load`` gives; only the payload fields (``raw_data`` and the typed ``*_data`` fields) of
tensors of ``threshold`` bytes or more are left in the file. Each such tensor keeps its name,
dims and data type and gains one ``external_data`` entry ``{key: <index>}`` that points at its
``Payload``; ``data_location`` stays DEFAULT, so the rules still see an inline tensor.

Only messages that can hold a tensor are descended into (model -> graph / function -> node ->
attribute -> tensor / subgraph), and only when they are at least ``threshold`` bytes long: the
walk costs a few Python steps per top-level field, never a step per weight.

Field numbers are those of onnx.proto (checked against onnx 1.23's ``onnx.proto``):
ModelProto.graph = 7, .functions = 25; GraphProto.node = 1, .initializer = 5; FunctionProto.node
= 7; NodeProto.attribute = 5; AttributeProto.t = 5, .g = 6, .tensors = 10, .graphs = 11;
TensorProto.dims = 1, .data_type = 2, .float_data = 4, .int32_data = 5, .int64_data = 7,
.raw_data = 9, .double_data = 10, .uint64_data = 11, .external_data = 13, .data_location = 14.
Sparse tensors, string tensors, sub-byte types, segments and anything irregular (two payload fields, a
payload whose size does not match the dims, unpacked repeated values) are kept whole: the
reference behaviour (the checker's complaint, numpy_helper's error) then applies unchanged.
"""

from __future__ import annotations

import mmap
from collections.abc import Callable
from dataclasses import dataclass

# TensorProto payload fields.
FLOAT_DATA, INT32_DATA, INT64_DATA, RAW_DATA, DOUBLE_DATA, UINT64_DATA = 4, 5, 7, 9, 10, 11
PAYLOAD_FIELDS = (FLOAT_DATA, INT32_DATA, INT64_DATA, RAW_DATA, DOUBLE_DATA, UINT64_DATA)
VARINT_FIELDS = (INT32_DATA, INT64_DATA, UINT64_DATA)

# TensorProto.DataType values with a whole number of bytes per element: raw_data itemsize.
RAW_ITEMSIZE = {1: 4, 2: 1, 3: 1, 4: 2, 5: 2, 6: 4, 7: 8, 9: 1, 10: 2, 11: 8, 12: 4, 13: 8, 16: 2,
                17: 1, 18: 1, 19: 1, 20: 1, 24: 1}
"""FLOAT, UINT8, INT8, UINT16, INT16, INT32, INT64, BOOL, FLOAT16, DOUBLE, UINT32, UINT64,
BFLOAT16 and the float8 types (complex, string and 2/4/6-bit types are never stripped)."""

# Which typed field holds which data types (onnx.proto comments; what numpy_helper reads).
TYPED_FIELD_TYPES = {
    FLOAT_DATA: {1},
    DOUBLE_DATA: {11},
    INT32_DATA: {2, 3, 4, 5, 6, 9, 10, 16, 17, 18, 19, 20},
    INT64_DATA: {7},
    UINT64_DATA: {12, 13},
}

_CHILDREN: dict[str, dict[int, str]] = {
    "model": {7: "graph", 25: "function"},
    "graph": {1: "node", 5: "tensor"},
    "function": {7: "node"},
    "node": {5: "attribute"},
    "attribute": {5: "tensor", 6: "graph", 10: "tensor", 11: "graph"},
}

Buffer = bytes | memoryview | mmap.mmap
"""What the walker reads: indexing gives an int, slicing gives bytes."""

MAX_DEPTH = 64
"""Nesting deeper than this (subgraphs in subgraphs...) is refused like protobuf's own limit."""


class WireError(ValueError):
    """The bytes are not a well-formed protobuf message (the caller falls back to onnx.load)."""


@dataclass(frozen=True)
class Payload:
    """Where one stripped tensor payload lives in the model file."""

    field: int
    """The TensorProto field: RAW_DATA, FLOAT_DATA, INT64_DATA..."""
    offset: int
    length: int
    count: int
    """Number of elements the payload holds."""


def _varint(buf: Buffer, pos: int, end: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= end or shift > 63:
            raise WireError("truncated or overlong varint")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7


def encode_varint(value: int) -> bytes:
    """The varint encoding of a non-negative int."""
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _key(field: int, wire: int) -> bytes:
    return encode_varint(field << 3 | wire)


def _entry(field: int, data: bytes) -> bytes:
    """A length-delimited field."""
    return _key(field, 2) + encode_varint(len(data)) + data


@dataclass
class _Field:
    number: int
    wire: int
    start: int
    """First byte of the tag."""
    data: int
    """First byte of the value (after the length for wire type 2)."""
    end: int
    value: int = 0
    """The value of a varint field."""


def _fields(buf: Buffer, start: int, end: int) -> list[_Field]:
    fields = []
    pos = start
    while pos < end:
        tag_start = pos
        tag, pos = _varint(buf, pos, end)
        number, wire = tag >> 3, tag & 7
        if number == 0:
            raise WireError("field number 0")
        value = 0
        if wire == 0:
            value, after = _varint(buf, pos, end)
            data = pos
        elif wire == 1:
            data, after = pos, pos + 8
        elif wire == 2:
            length, data = _varint(buf, pos, end)
            after = data + length
        elif wire == 5:
            data, after = pos, pos + 4
        else:
            raise WireError(f"unsupported wire type {wire}")
        if after > end:
            raise WireError("field runs past the end of its message")
        fields.append(_Field(number, wire, tag_start, data, after, value))
        pos = after
    return fields


CountVarints = Callable[[int, int], int]
"""count(offset, length): how many varints the bytes hold (reads the file in chunks)."""


class _Walker:
    def __init__(self, buf: Buffer, threshold: int, key: str, count_varints: CountVarints) -> None:
        self.buf = buf
        self.threshold = max(threshold, 1)
        self.key = key
        self.count_varints = count_varints
        self.payloads: list[Payload] = []

    def message(self, kind: str, start: int, end: int, depth: int = 0) -> bytes | None:
        """The message re-serialized without big payloads, or None when nothing changed."""
        if depth > MAX_DEPTH:
            raise WireError("messages nested too deeply")
        children = _CHILDREN[kind]
        parts: list[bytes] = []
        copied = start
        changed = False
        for field in _fields(self.buf, start, end):
            child = children.get(field.number)
            if child is None or field.wire != 2 or field.end - field.data < self.threshold:
                continue
            if child == "tensor":
                new = self.tensor(field.data, field.end)
            else:
                new = self.message(child, field.data, field.end, depth + 1)
            if new is None:
                continue
            parts.append(bytes(self.buf[copied : field.start]))
            parts.append(_entry(field.number, new))
            copied = field.end
            changed = True
        if not changed:
            return None
        parts.append(bytes(self.buf[copied:end]))
        return b"".join(parts)

    def tensor(self, start: int, end: int) -> bytes | None:
        """A header-only TensorProto (payload recorded), or None to keep the tensor whole."""
        fields = _fields(self.buf, start, end)
        payload = [f for f in fields if f.number in PAYLOAD_FIELDS]
        if len(payload) != 1 or payload[0].wire != 2 or payload[0].end - payload[0].data < self.threshold:
            return None
        data_type = next((f.value for f in reversed(fields) if f.number == 2 and f.wire == 0), 0)
        location = next((f.value for f in reversed(fields) if f.number == 14 and f.wire == 0), 0)
        if location != 0 or any(f.number in (3, 6) for f in fields):  # segments, strings: kept whole
            return None
        count = self._elements(fields)
        if count is None:
            return None
        field = payload[0]
        length = field.end - field.data
        if field.number == RAW_DATA:
            if RAW_ITEMSIZE.get(data_type, 0) * count != length:
                return None
        elif data_type not in TYPED_FIELD_TYPES[field.number]:
            return None
        elif field.number in VARINT_FIELDS:
            if self.buf[field.end - 1] >= 0x80 or self.count_varints(field.data, length) != count:
                return None
        elif length != count * (4 if field.number == FLOAT_DATA else 8):
            return None
        index = len(self.payloads)
        self.payloads.append(Payload(field.number, field.data, length, count))
        marker = _entry(1, self.key.encode()) + _entry(2, str(index).encode())
        kept = b"".join(bytes(self.buf[f.start : f.end]) for f in fields if f is not field)
        return kept + _entry(13, marker)

    def _elements(self, fields: list[_Field]) -> int | None:
        count = 1
        for f in fields:
            if f.number != 1:
                continue
            if f.wire == 0:
                dims = [f.value]
            elif f.wire == 2:
                dims, pos = [], f.data
                while pos < f.end:
                    value, pos = _varint(self.buf, pos, f.end)
                    dims.append(value)
            else:
                return None
            for dim in dims:
                if dim >= 1 << 62:  # a negative int64: malformed, leave it to the reference
                    return None
                count *= dim
        return count


def lite_model_bytes(buf: Buffer, threshold: int, key: str,
                     count_varints: CountVarints) -> tuple[bytes | None, list[Payload]]:
    """The ModelProto in ``buf`` without payloads of ``threshold`` bytes or more (None: nothing stripped)."""
    walker = _Walker(buf, threshold, key, count_varints)
    data = walker.message("model", 0, len(buf))
    return data, walker.payloads
