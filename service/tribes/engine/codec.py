"""The stored form of game states: frozen dataclasses <-> compact JSON bytes.

A game's ``encode``/``decode`` are usually just ``StateCodec(State, version=1)``.
The codec walks the dataclass type hints once, compiles one converter per type, and
then turns a state into nested JSON arrays (fields in declaration order) and back.

Why JSON and not pickle or protobuf: it is safe to decode (no code runs), readable
with ``redis-cli``, independent of class and module names, deterministic for equal
states (sets are sorted), and it keeps ``engine``/``games`` free of protobuf. The
version number at the front lets a game refuse (or later migrate) states written by
an older layout.

Supported field types: ``int``, ``str``, ``bool``, ``float``, ``None``, ``Enum``
subclasses, nested frozen dataclasses, ``tuple[X, ...]``, ``tuple[X, Y, ...]``,
``frozenset[X]``, ``X | None`` and ``dict[str|int, X]`` (kept sorted by key).
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections.abc import Callable
from operator import attrgetter
from typing import Any, Generic, TypeVar

T = TypeVar("T")

Convert = Callable[[Any], Any]
_quote = json.encoder.encode_basestring  # a str as JSON (ensure_ascii=False), in C

_FRAGMENTS = 8192  # remembered field encodings per codec before the memo is reset


def _identity(value: Any) -> Any:
    return value


_INT_TEXT = tuple(b"%d" % i for i in range(1024))  # small non-negative ints as JSON


def _ints_json(values: tuple[Any, ...]) -> bytes | None:
    """A tuple of ints as JSON (``json.dumps``'s bytes) from a table of their texts, or
    None when an element is not an int (a bool is not: JSON writes it ``true``)."""
    parts = []
    for x in values:
        if type(x) is not int:
            return None
        parts.append(_INT_TEXT[x] if 0 <= x < 1024 else b"%d" % x)
    return b"[" + b",".join(parts) + b"]"


class CodecError(ValueError):
    """Stored bytes that do not decode into the expected state type."""


class StateCodec(Generic[T]):
    """Encoder/decoder for one root dataclass type, compiled on construction."""

    def __init__(self, root: type[T], version: int = 1) -> None:
        self.root = root
        self.version = version
        self._encoders: dict[Any, Convert] = {}
        self._decoders: dict[Any, Convert] = {}
        self._encode = self._encoder(root)
        self._decode = self._decoder(root)
        self._json = json.JSONEncoder(
            separators=(",", ":"), ensure_ascii=False, check_circular=False
        ).encode
        self._head = f"[{version},[".encode()
        names, hints = _fields(root)
        self._get = attrgetter(*names)
        self._field_encoders = [self._encoder(hints[n]) for n in names]
        # root fields of type tuple[X, ...] (X not a primitive): the item encoder, so
        # that a tuple one element longer re-encodes one element (``_items``)
        self._item_encoders = [self._item_encoder(hints[n]) for n in names]
        # id(value) -> (value, its JSON): consecutive states share most sub-values
        self._fragments: dict[int, tuple[Any, bytes]] = {}
        self._last: tuple[Any, bytes] = (None, b"")  # the last value encoded whole

    def encode(self, value: T) -> bytes:
        """Compact JSON, ``[version, [field, ...]]``, the same bytes as one ``json.dumps``.

        States are immutable and ``apply`` keeps every unchanged part by identity, so
        each root field's JSON is remembered per object and only changed fields are
        encoded again (bounded memo; an identical object always has identical JSON).
        """
        last = self._last
        if last[0] is value:  # e.g. a seat record no move changed
            return last[1]
        fragments = self._fragments
        if len(fragments) > _FRAGMENTS:
            fragments.clear()
        parts = []
        fields = zip(self._get(value), self._field_encoders, self._item_encoders, strict=True)
        for field, convert, item in fields:
            kind = type(field)
            if kind is int:
                parts.append(b"%d" % field)
                continue
            if field is None:
                parts.append(b"null")
                continue
            if kind is bool:
                parts.append(b"true" if field else b"false")
                continue
            if kind is str:
                parts.append(_quote(field).encode())
                continue
            if kind is float:
                parts.append(self._json(field).encode())
                continue
            known = fragments.get(id(field))
            if known is not None and known[0] is field:
                parts.append(known[1])
                continue
            text = self._items(field, item) if item else self._text(field, convert)
            fragments[id(field)] = (field, text)
            parts.append(text)
        encoded = self._head + b",".join(parts) + b"]]"
        self._last = (value, encoded)
        return encoded

    def _item_encoder(self, tp: Any) -> Convert | None:
        """The element encoder of ``tuple[X, ...]`` where X is not a primitive, else None."""
        if typing.get_origin(tp) is not tuple:
            return None
        args = typing.get_args(tp)
        if len(args) != 2 or args[1] is not Ellipsis or args[0] in (int, str, bool, float):
            return None
        return self._encoder(args[0])

    def _items(self, values: tuple[Any, ...], item: Convert) -> bytes:
        """A tuple's JSON from its elements' remembered JSON: what ``json.dumps`` gives
        for the list (compact separators), one element at a time."""
        fragments, pieces = self._fragments, []
        for x in values:
            known = fragments.get(id(x))
            if known is not None and known[0] is x:
                pieces.append(known[1])
                continue
            text = self._text(x, item)
            fragments[id(x)] = (x, text)
            pieces.append(text)
        return b"[" + b",".join(pieces) + b"]"

    def _text(self, value: Any, convert: Convert) -> bytes:
        """One value's JSON; a tuple of ints (``convert`` is ``list``) without the
        encoder, whose per-call setup and int formatting cost more than the table."""
        if convert is list and type(value) is tuple:
            text = _ints_json(value)
            if text is not None:
                return text
        return self._json(convert(value)).encode()

    def decode(self, data: bytes) -> T:
        try:
            version, payload = json.loads(data)
        except (ValueError, TypeError) as exc:
            raise CodecError(f"not a stored {self.root.__name__}") from exc
        if version != self.version:
            raise CodecError(
                f"stored {self.root.__name__} has layout version {version}, expected {self.version}"
            )
        try:
            return typing.cast(T, self._decode(payload))
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            raise CodecError(f"corrupt stored {self.root.__name__}: {exc}") from exc

    # -- compilation ------------------------------------------------------------------

    def _encoder(self, tp: Any) -> Convert:
        if tp in self._encoders:
            return self._encoders[tp]
        # placeholder for recursive types; replaced below
        self._encoders[tp] = lambda v: self._encoders[tp](v)
        enc = self._build_encoder(tp)
        self._encoders[tp] = enc
        return enc

    def _decoder(self, tp: Any) -> Convert:
        if tp in self._decoders:
            return self._decoders[tp]
        self._decoders[tp] = lambda v: self._decoders[tp](v)
        dec = self._build_decoder(tp)
        self._decoders[tp] = dec
        return dec

    def _build_encoder(self, tp: Any) -> Convert:
        if tp in (int, str, bool, float, type(None)):
            return _identity
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return attrgetter("value")
        if dataclasses.is_dataclass(tp) and isinstance(tp, type):
            names, hints = _fields(tp)
            convs = [self._encoder(hints[n]) for n in names]
            get = attrgetter(*names) if len(names) > 1 else (lambda v, n=names[0]: (getattr(v, n),))
            if all(c is _identity for c in convs):
                return lambda v: list(get(v))
            pairs = list(enumerate(convs))
            plain = [c is _identity for c in convs]

            def enc_dc(v: Any) -> list[Any]:
                vals = get(v)
                return [vals[i] if plain[i] else c(vals[i]) for i, c in pairs]

            return enc_dc
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                item = self._encoder(args[0])
                if item is _identity:
                    return list
                return lambda v: [item(x) for x in v]
            items = [self._encoder(a) for a in args]
            return lambda v: [c(x) for c, x in zip(items, v, strict=True)]
        if origin is frozenset:
            item = self._encoder(args[0])
            return lambda v: sorted(item(x) for x in v)
        if origin is dict:
            kenc, venc = self._encoder(args[0]), self._encoder(args[1])
            return lambda v: [[kenc(k), venc(x)] for k, x in sorted(v.items())]
        if origin in (typing.Union, types.UnionType):
            real = [a for a in args if a is not type(None)]
            if len(real) != 1:
                raise TypeError(f"codec supports only X | None unions, not {tp}")
            inner = self._encoder(real[0])
            if inner is _identity:
                return _identity
            return lambda v: None if v is None else inner(v)
        raise TypeError(f"codec cannot store values of type {tp!r}")

    def _build_decoder(self, tp: Any) -> Convert:
        if tp in (int, str, bool, float, type(None)):
            return _identity
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return tp
        if dataclasses.is_dataclass(tp) and isinstance(tp, type):
            cls = tp
            names, hints = _fields(cls)
            convs = [self._decoder(hints[n]) for n in names]
            if all(c is _identity for c in convs):
                return lambda v: cls(*v)
            count = len(convs)

            def dec_dc(v: list[Any]) -> Any:
                if len(v) != count:
                    raise ValueError(f"{cls.__name__} needs {count} fields, got {len(v)}")
                return cls(*[c(x) for c, x in zip(convs, v, strict=True)])

            return dec_dc
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                item = self._decoder(args[0])
                if item is _identity:
                    return tuple
                return lambda v: tuple(item(x) for x in v)
            items = [self._decoder(a) for a in args]
            return lambda v: tuple(c(x) for c, x in zip(items, v, strict=True))
        if origin is frozenset:
            item = self._decoder(args[0])
            return lambda v: frozenset(item(x) for x in v)
        if origin is dict:
            kdec, vdec = self._decoder(args[0]), self._decoder(args[1])
            return lambda v: {kdec(k): vdec(x) for k, x in v}
        if origin in (typing.Union, types.UnionType):
            real = [a for a in args if a is not type(None)]
            if len(real) != 1:
                raise TypeError(f"codec supports only X | None unions, not {tp}")
            inner = self._decoder(real[0])
            if inner is _identity:
                return _identity
            return lambda v: None if v is None else inner(v)
        raise TypeError(f"codec cannot load values of type {tp!r}")


def _fields(cls: type) -> tuple[list[str], dict[str, Any]]:
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls) if f.init]
    return names, hints
