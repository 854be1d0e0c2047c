"""HTTP/JSON <-> protobuf by the standard transcoding rules, with protobuf's own JSON mapping.

A request message is built from three places, as google.api.http specifies: the JSON
body (``body: "*"`` maps it onto the whole request; ``body: "field"`` onto one field),
the path variables (``{name=games/*}`` sets ``name``), and — for fields neither of those
set — the query parameters (``?page_size=10&page_token=...``, nested fields dotted,
repeated fields repeated). JSON is parsed and printed only by ``google.protobuf.json_format``
(lowerCamelCase names out, both spellings in; 64-bit integers as strings; every field
present, defaults included, so a browser client never meets ``undefined``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass

from tribes.core.errors import BadRequestError
from tribes.core.limits import quote
from tribes.http.routes import Route

#: Query parameters the gateway itself reads on streaming routes (tokens and resume points
#: for browsers, whose EventSource and WebSocket cannot send headers); never set on a
#: message, and refused elsewhere (a token there would be ignored, not checked).
GATEWAY_PARAMS = frozenset({"access_token", "last_event_id"})


def _malformed(what: str, detail: str) -> BadRequestError:
    return BadRequestError(f"{what}: {detail[:160]}", "MALFORMED_REQUEST")


def _field(descriptor: Descriptor, path: str) -> tuple[list[str], FieldDescriptor]:
    """The proto names along a dotted field path (JSON or proto spelling) and its field."""
    names: list[str] = []
    field: FieldDescriptor | None = None
    current: Descriptor | None = descriptor
    for part in path.split("."):
        if current is None:
            raise BadRequestError(f"unknown query parameter {quote(path)}", "BAD_QUERY")
        field = current.fields_by_name.get(part) or current.fields_by_camelcase_name.get(part)
        if field is None:
            raise BadRequestError(f"unknown query parameter {quote(path)}", "BAD_QUERY")
        names.append(field.name)
        current = field.message_type if field.type == FieldDescriptor.TYPE_MESSAGE else None
    assert field is not None
    return names, field


def _scalar(field: FieldDescriptor, value: str) -> Any:
    """A query string value in the form ParseDict expects for ``field``."""
    if field.type == FieldDescriptor.TYPE_BOOL:
        if value in ("true", "1"):
            return True
        if value in ("false", "0"):
            return False
        raise BadRequestError(f"{field.name} must be true or false", "BAD_QUERY")
    if field.type == FieldDescriptor.TYPE_MESSAGE:
        raise BadRequestError(f"{field.name} cannot be given as a query parameter", "BAD_QUERY")
    return value


def _set(tree: dict[str, Any], names: list[str], value: Any) -> None:
    for name in names[:-1]:
        tree = tree.setdefault(name, {})
    tree[names[-1]] = value


def build_request(
    route: Route,
    variables: Mapping[str, str],
    query: Iterable[tuple[str, str]],
    body: bytes,
) -> Message:
    """The request message of ``route`` from the path variables, query and body."""
    cls = GetMessageClass(route.method.input_type)
    descriptor = route.method.input_type
    query = list(query)  # read twice when a value does not fit
    tree: dict[str, Any] = {}
    if route.body:
        try:
            parsed = json.loads(body or b"{}")
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:  # too deep: hostile
            raise _malformed("the body is not JSON", str(exc)) from None
        if route.body == "*":
            if not isinstance(parsed, dict):
                raise _malformed("the body must be a JSON object", type(parsed).__name__)
            tree = parsed
        else:
            tree[route.body] = parsed
    bound: set[str] = set()
    for name, path in route.variables:
        names, _ = _field(descriptor, path)
        _set(tree, names, variables[name])
        bound.add(".".join(names))
    queried: dict[str, Any] = {}
    if route.body != "*":
        repeated: dict[str, list[Any]] = {}
        for key, value in query:
            if key in GATEWAY_PARAMS:
                if route.streaming:
                    continue
                raise BadRequestError(
                    f"{key} is read on streaming routes only (send an Authorization header)",
                    "BAD_QUERY",
                )
            names, field = _field(descriptor, key)
            dotted = ".".join(names)
            if dotted in bound or (route.body and names[0] == route.body):
                raise BadRequestError(f"{quote(key)} is set by the path or body", "BAD_QUERY")
            if field.is_repeated:
                repeated.setdefault(dotted, []).append(_scalar(field, value))
            else:
                _set(queried, names, _scalar(field, value))
        for dotted, values in repeated.items():
            _set(queried, dotted.split("."), values)
    message = cls()
    try:
        json_format.ParseDict(tree, message)
    except (json_format.ParseError, ValueError, TypeError, RecursionError) as exc:
        raise _malformed("the request does not fit its message", str(exc)) from None
    if queried:  # apart, so an ill-typed parameter is named as one (BAD_QUERY); the path
        # and body set none of these fields
        message.MergeFrom(_from_query(cls, descriptor, queried, query))
    return message


def _from_query(
    cls: type[Message],
    descriptor: Descriptor,
    queried: dict[str, Any],
    query: list[tuple[str, str]],
) -> Message:
    """The fields the query sets, parsed alone; a value that does not fit its field is
    BAD_QUERY, naming the parameter."""
    message = cls()
    try:
        json_format.ParseDict(queried, message)
    except (json_format.ParseError, ValueError, TypeError):
        for key, value in query:  # name the first parameter that does not fit alone
            if key in GATEWAY_PARAMS:
                continue
            names, field = _field(descriptor, key)
            alone: dict[str, Any] = {}
            _set(alone, names, [value] if field.is_repeated else _scalar(field, value))
            try:
                json_format.ParseDict(alone, cls())
            except (json_format.ParseError, ValueError, TypeError):
                raise BadRequestError(
                    f"query parameter {quote(key)} has an ill-typed value {quote(value)}",
                    "BAD_QUERY",
                ) from None
        raise BadRequestError("the query parameters do not fit the request", "BAD_QUERY") from None
    return message


def to_dict(message: Message) -> dict[str, Any]:
    return json_format.MessageToDict(message, always_print_fields_with_no_presence=True)


def to_json(message: Message) -> bytes:
    """One compact line of JSON (also what an SSE ``data:`` line carries)."""
    return json.dumps(to_dict(message), separators=(",", ":"), ensure_ascii=False).encode()
