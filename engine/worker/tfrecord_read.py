"""TFRecord files read without TensorFlow (issue 38), for torch's DataLoader over the same flowers files.

A TFRecord file is a sequence of (uint64 length, uint32 masked CRC, bytes, uint32 masked CRC); each record of
the flowers set is a serialized tf.train.Example. The CRCs are not checked (tf.data checks them on the same
files); the Example's protobuf is decoded by hand for the two features the pipeline reads.
"""

from __future__ import annotations

import struct
from pathlib import Path

from engine.worker.errors import DataFileError


def _truncated(path: str, what: str) -> DataFileError:
    return DataFileError.of(path, f"truncated TFRecord ({what})", "copy the file again or delete it")


def record_offsets(path: str) -> list[tuple[int, int]]:
    """(offset, length) of each record's bytes, reading only the headers; a record cut short (a copy that
    stopped early) is named here, before any batch is read."""
    found: list[tuple[int, int]] = []
    size = Path(path).stat().st_size
    with Path(path).open("rb") as f:
        while True:
            head = f.read(12)
            if not head:
                return found
            if len(head) < 12:
                raise _truncated(path, f"record {len(found) + 1}'s header ends at byte {size}")
            (length,) = struct.unpack("<Q", head[:8])
            if f.tell() + length + 4 > size:
                raise _truncated(path, f"record {len(found) + 1} needs {length:,} bytes, the file ends first")
            found.append((f.tell(), length))
            f.seek(length + 4, 1)


def read_record(path: str, offset: int, length: int) -> bytes:
    with Path(path).open("rb") as f:
        f.seek(offset)
        data = f.read(length)
    if len(data) != length:
        raise _truncated(path, f"{length:,} bytes at byte {offset:,}, {len(data):,} there")
    return data


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, pos
        shift += 7


def _fields(buf: bytes):
    """(field number, wire type, value) of a protobuf message: varints as ints, length-delimited as bytes."""
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
            yield number, wire, value
        elif wire == 2:
            size, pos = _varint(buf, pos)
            yield number, wire, buf[pos : pos + size]
            pos += size
        elif wire in (1, 5):
            step = 8 if wire == 1 else 4
            yield number, wire, buf[pos : pos + step]
            pos += step
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")


def _first_of_list(feature: bytes, want: str) -> bytes | int | None:
    """The first value of a Feature's bytes_list (1) or int64_list (3)."""
    for number, _, body in _fields(feature):
        if number == 1 and want == "bytes":
            for n, _, value in _fields(body):
                if n == 1:
                    return value
        if number == 3 and want == "int":
            for n, wire, value in _fields(body):
                if n == 1:
                    return _varint(value, 0)[0] if wire == 2 else value
    return None


def image_and_class(record: bytes) -> tuple[bytes, int]:
    """The flowers Example's 'image' (JPEG bytes) and 'class' (int)."""
    image: bytes | int | None = None
    label: bytes | int | None = None
    for number, _, features in _fields(record):
        if number != 1:
            continue
        for n, _, entry in _fields(features):  # map<string, Feature> entries
            if n != 1:
                continue
            parts = {k: v for k, _, v in _fields(entry)}
            key = bytes(parts.get(1, b"")).decode()
            if key == "image":
                image = _first_of_list(parts[2], "bytes")
            elif key == "class":
                label = _first_of_list(parts[2], "int")
    if not isinstance(image, bytes) or not isinstance(label, int):
        raise ValueError("a record without the flowers features 'image' (bytes) and 'class' (int64)")
    return image, label
