"""Any protobuf message as readable ``name: value`` lines.

The fallback for views no game renderer knows (plugin games) and for the parts of a
view a game renderer leaves to it: enum values lose their type prefix
(``FATE_OF_AKALON_FACTION_ELF`` -> ``elf``), coordinates print as ``(r,c)``, repeated
scalars are joined on one line, and empty messages are left out.
"""

from __future__ import annotations

from google.protobuf import any_pb2, descriptor_pool, message_factory
from google.protobuf.descriptor import EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message

# Field-name sets that make a message a coordinate, printed "(a,b)" in this order.
_COORDINATES = (("row", "column"), ("q", "r"), ("epoch", "column"), ("x", "y"))
# Nested messages with at most this many scalar fields print on one line.
_INLINE_FIELDS = 4


def enum_name(descriptor: EnumDescriptor, number: int) -> str:
    """The value's name without its enum's prefix, lower case: ``sacred place``."""
    value = descriptor.values_by_number.get(number)
    if value is None:
        return str(number)
    return strip_enum_prefix(descriptor, value.name).lower().replace("_", " ")


def strip_enum_prefix(descriptor: EnumDescriptor, name: str) -> str:
    """``FIVE_TRIBES_TILE_KIND_OASIS`` -> ``OASIS`` (the prefix of its UNSPECIFIED value)."""
    prefix = _enum_prefix(descriptor)
    return name[len(prefix) :] if prefix and name.startswith(prefix) else name


def _enum_prefix(descriptor: EnumDescriptor) -> str:
    names = [value.name for value in descriptor.values]
    for name in names:
        if name.endswith("_UNSPECIFIED"):
            return name[: -len("UNSPECIFIED")]
    first, last = min(names), max(names)
    common = 0
    while common < min(len(first), len(last)) and first[common] == last[common]:
        common += 1
    return first[: first.rfind("_", 0, common) + 1] if common else ""


def coordinate(message: Message) -> str | None:
    """``(r,c)`` when ``message`` is a coordinate message, else None."""
    names = tuple(field.name for field in message.DESCRIPTOR.fields)
    for pair in _COORDINATES:
        if names == pair:
            return "(" + ",".join(str(getattr(message, name)) for name in pair) + ")"
    return None


def scalar(field: FieldDescriptor, value: object) -> str:
    """One scalar value as text (enums by their short name)."""
    if field.type == FieldDescriptor.TYPE_ENUM:
        assert field.enum_type is not None and isinstance(value, int)
        return enum_name(field.enum_type, value)
    if field.type == FieldDescriptor.TYPE_BOOL:
        return "yes" if value else "no"
    if field.type == FieldDescriptor.TYPE_BYTES:
        assert isinstance(value, bytes)
        return f"<{len(value)} bytes>"
    if field.type == FieldDescriptor.TYPE_STRING:
        return str(value)
    return str(value)


def inline(message: Message) -> str | None:
    """A small message on one line (``food=2 wood=1``), or None when it is not small."""
    place = coordinate(message)
    if place is not None:
        return place
    fields = message.ListFields()
    if len(fields) > _INLINE_FIELDS:
        return None
    parts = []
    for field, value in fields:
        if field.type == FieldDescriptor.TYPE_MESSAGE or _is_repeated(field):
            return None
        parts.append(f"{field.name}={scalar(field, value)}")
    return " ".join(parts)


def _is_repeated(field: FieldDescriptor) -> bool:
    return field.is_repeated


def message_lines(message: Message, indent: int = 0) -> list[str]:
    """Every set field of ``message``, one ``name: value`` line each (nested indented)."""
    if isinstance(message, any_pb2.Any):
        return _any_lines(message, indent)
    pad = "  " * indent
    lines: list[str] = []
    for field, value in message.ListFields():
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            lines.extend(_map_lines(field, value, indent))
        elif field.type == FieldDescriptor.TYPE_MESSAGE and _is_repeated(field):
            items = [item for item in value if item.ListFields() or coordinate(item)]
            if not items:
                continue
            shown = [inline(item) for item in items]
            if all(text is not None for text in shown) and all(coordinate(i) for i in items):
                lines.append(f"{pad}{field.name}: {' '.join(t or '' for t in shown)}")
                continue
            lines.append(f"{pad}{field.name}:")
            for item, text in zip(items, shown, strict=True):
                if text is not None:
                    lines.append(f"{pad}  - {text}")
                else:
                    body = message_lines(item, indent + 2)
                    lines.append(f"{pad}  - {body[0].strip()}")
                    lines.extend(body[1:])
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            text = inline(value)
            if text == "":
                continue  # an empty message says nothing
            if text is not None:
                lines.append(f"{pad}{field.name}: {text}")
            else:
                lines.append(f"{pad}{field.name}:")
                lines.extend(message_lines(value, indent + 1))
        elif _is_repeated(field):
            lines.append(f"{pad}{field.name}: {', '.join(scalar(field, v) for v in value)}")
        else:
            lines.append(f"{pad}{field.name}: {scalar(field, value)}")
    return lines


def _map_lines(field: FieldDescriptor, value: object, indent: int) -> list[str]:
    pad = "  " * indent
    entries = dict(value)  # type: ignore[call-overload]
    if not entries:
        return []
    entry = field.message_type
    assert entry is not None
    value_field = entry.fields_by_name["value"]
    lines = [f"{pad}{field.name}:"]
    for key in sorted(entries):
        item = entries[key]
        if isinstance(item, Message):
            text = inline(item)
            if text is not None:
                lines.append(f"{pad}  {key}: {text}")
            else:
                lines.append(f"{pad}  {key}:")
                lines.extend(message_lines(item, indent + 2))
        else:
            lines.append(f"{pad}  {key}: {scalar(value_field, item)}")
    return lines


def _any_lines(message: any_pb2.Any, indent: int) -> list[str]:
    """A packed message: its fields when this process knows its type, else its type."""
    pad = "  " * indent
    kind = message.type_url.rsplit("/", 1)[-1]
    try:
        descriptor = descriptor_pool.Default().FindMessageTypeByName(kind)
    except KeyError:
        return [f"{pad}{kind}: {len(message.value)} bytes (no renderer for this game here)"]
    unpacked = message_factory.GetMessageClass(descriptor)()
    message.Unpack(unpacked)
    return message_lines(unpacked, indent)
