"""Just enough of the protobuf wire format to assemble messages from cached parts.

The snapshot of every reply is mostly parts that repeat from call to call (each legal
move's entry, the options map, the game type); assembling the bytes directly, with
those parts remembered, costs a fraction of building message objects. Only the
encodings used there are here: varints, tags, length-delimited fields.
https://protobuf.dev/programming-guides/encoding/
"""

from __future__ import annotations

from collections.abc import Iterable

_VARINT = 0
_LEN = 2


def _encode_varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


_SMALL = tuple(_encode_varint(v) for v in range(1 << 14))  # every one- and two-byte varint


def varint(value: int) -> bytes:
    """Base-128 varint; negative numbers as 64-bit two's complement (int32/int64)."""
    if 0 <= value < 16384:
        return _SMALL[value]
    if value < 0:
        value += 1 << 64
    return _encode_varint(value)


# The hot helpers below look their tags and short lengths up in ``_SMALL`` themselves (a
# snapshot is a few hundred of these calls; a call saved each is a tenth of its cost).
_SMALL_TAGS = 1 << 11  # fields below this have one- or two-byte tags, all in _SMALL


def tag(field: int, wire_type: int) -> bytes:
    return varint((field << 3) | wire_type)


def uint_field(field: int, value: int) -> bytes:
    """A varint field (int32, int64, uint64, bool, enum); empty for the default 0."""
    if not value:
        return b""
    if field < _SMALL_TAGS and 0 <= value < 16384:
        return _SMALL[field << 3] + _SMALL[value]
    return tag(field, _VARINT) + varint(value)


def bytes_field(field: int, value: bytes) -> bytes:
    """A length-delimited field (bytes, string, embedded message); empty when empty."""
    return message_field(field, value) if value else b""


def message_field(field: int, value: bytes) -> bytes:
    """An embedded message, present even when it serializes to nothing."""
    size = len(value)
    if field < _SMALL_TAGS and size < 16384:
        return _SMALL[field << 3 | _LEN] + _SMALL[size] + value
    return tag(field, _LEN) + varint(size) + value


def string_field(field: int, value: str) -> bytes:
    return message_field(field, value.encode()) if value else b""


def packed_field(field: int, values: Iterable[int]) -> bytes:
    """A packed repeated varint field (proto3's default for repeated scalars)."""
    if type(values) is not tuple and type(values) is not list:
        values = tuple(values)
    if not values:
        return b""
    # every element a one-byte varint (0-127): the bytes themselves. bytes() refuses
    # what is outside 0-255 and isascii() what is above 127, both in C (min() and max()
    # parse their arguments per call, which costs more than the rest of the field)
    try:
        payload = bytes(values)
    except ValueError:
        payload = b""
    if not payload or not payload.isascii():
        payload = b"".join(map(varint, values))
    return message_field(field, payload)
