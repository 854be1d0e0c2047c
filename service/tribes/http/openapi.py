"""OpenAPI 3 generated from the protos: messages -> schemas, annotations -> paths.

Served at ``GET /openapi.json``. Schemas follow protobuf's JSON mapping, as the gateway
speaks it: lowerCamelCase names, 64-bit integers as strings, enums by name, maps as
objects, ``google.protobuf.Any`` as an object with ``@type``. A path variable that binds
a resource name (``{name=games/*}``) appears as its id segment (``/v1/games/{name}``),
which is what OpenAPI path templating can express. Every error is the
``google.rpc.Status`` schema.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from google.protobuf.descriptor import (
    Descriptor,
    EnumDescriptor,
    FieldDescriptor,
    MethodDescriptor,
    ServiceDescriptor,
)
from google.rpc import status_pb2

from tribes.http.routes import Route, compile_template

FD = FieldDescriptor
_INTS = {FD.TYPE_INT32, FD.TYPE_SINT32, FD.TYPE_SFIXED32}
_UINTS = {FD.TYPE_UINT32, FD.TYPE_FIXED32}
_LONGS = {FD.TYPE_INT64, FD.TYPE_SINT64, FD.TYPE_SFIXED64, FD.TYPE_UINT64, FD.TYPE_FIXED64}
_ERRORS = {
    "400": "INVALID_ARGUMENT or FAILED_PRECONDITION",
    "401": "UNAUTHENTICATED (a seat token is required)",
    "403": "PERMISSION_DENIED (a wrong seat token)",
    "404": "NOT_FOUND",
    "409": "ABORTED (a stale expected_version)",
    "429": "RESOURCE_EXHAUSTED (a rate or capacity limit)",
    "503": "UNAVAILABLE (retry with the same request_id)",
}


class _Schemas:
    def __init__(self) -> None:
        self.components: dict[str, Any] = {}

    def ref(self, descriptor: Descriptor) -> dict[str, Any]:
        name = descriptor.full_name
        if name not in self.components:
            self.components[name] = {}  # placeholder first: recursive messages terminate
            self.components[name] = self._message(descriptor)
        return {"$ref": f"#/components/schemas/{name}"}

    def _message(self, descriptor: Descriptor) -> dict[str, Any]:
        if descriptor.full_name == "google.protobuf.Any":
            return {
                "type": "object",
                "properties": {"@type": {"type": "string"}},
                "additionalProperties": True,
                "description": "A message of the type that @type names.",
            }
        properties = {field.json_name: self.field(field) for field in descriptor.fields}
        return {"type": "object", "properties": properties, "additionalProperties": False}

    def field(self, field: FieldDescriptor) -> dict[str, Any]:
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            value = field.message_type.fields_by_name["value"]
            return {"type": "object", "additionalProperties": self.single(value)}
        single = self.single(field)
        if field.is_repeated:
            return {"type": "array", "items": single}
        return single

    def single(self, field: FieldDescriptor) -> dict[str, Any]:
        kind = field.type
        if field.message_type is not None:
            return self.ref(field.message_type)
        if field.enum_type is not None:
            return _enum(field.enum_type)
        if kind == FD.TYPE_BOOL:
            return {"type": "boolean"}
        if kind == FD.TYPE_STRING:
            return {"type": "string"}
        if kind == FD.TYPE_BYTES:
            return {"type": "string", "format": "byte"}
        if kind in _INTS:
            return {"type": "integer", "format": "int32"}
        if kind in _UINTS:
            return {"type": "integer", "format": "int64", "minimum": 0, "maximum": 2**32 - 1}
        if kind in _LONGS:
            return {"type": "string", "format": "int64", "pattern": "^-?[0-9]+$"}
        return {"type": "number"}


def _enum(descriptor: EnumDescriptor) -> dict[str, Any]:
    return {"type": "string", "enum": [value.name for value in descriptor.values]}


def _path(route: Route) -> tuple[str, list[dict[str, Any]]]:
    """The OpenAPI path of a route and its path parameters."""
    path, parameters = route.template, []
    for _, field in route.variables:
        start = path.index("{" + field)
        end = path.index("}", start)
        inner = path[start + 1 : end]
        prefix = inner.partition("=")[2].rsplit("*", 1)[0] if "=" in inner else ""
        path = path[:start] + prefix + "{" + field + "}" + path[end + 1 :]
        parameters.append(
            {
                "name": field,
                "in": "path",
                "required": True,
                "schema": {"type": "string"},
                "description": f"the id part of the resource name ({inner.partition('=')[2]})",
            }
        )
    return path, parameters


def _query(schemas: _Schemas, route: Route) -> list[dict[str, Any]]:
    bound = {field for _, field in route.variables}
    out = []
    for field in route.method.input_type.fields:
        if field.name in bound or field.type == FD.TYPE_MESSAGE:
            continue
        schema = schemas.field(field)
        out.append({"name": field.json_name, "in": "query", "required": False, "schema": schema})
    return out


def _query_text(name: str, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "schema": {"type": "string"},
        "description": description,
    }


def _header(name: str, description: str) -> dict[str, Any]:
    return {**_query_text(name, description), "in": "header"}


#: What browsers send in the URL on streaming routes (EventSource and WebSocket cannot
#: set headers); refused on every other route.
_BROWSER_PARAMS = (
    _query_text("access_token", "the seat token, for a client that cannot send Authorization"),
)


def _websocket(
    schemas: _Schemas, method: MethodDescriptor, parameters: list[dict[str, Any]]
) -> dict[str, Any]:
    """The WebSocket of a bidirectional RPC: OpenAPI 3 can only name its upgrade, so its
    messages' schemas are named by an extension (``x-websocket-messages``)."""
    request, event = method.input_type.full_name, method.output_type.full_name
    return {
        "operationId": method.name + "WebSocket",
        "summary": f"{method.name} as a WebSocket",
        "x-websocket-messages": {
            "client": schemas.ref(method.input_type),
            "server": schemas.ref(method.output_type),
        },
        "description": (
            f"Upgrades to a WebSocket session: {request} in, {event} out, as text frames of "
            f"their JSON mapping, or binary protobuf frames when the subprotocol "
            f"`{SUBPROTOCOL}` is asked for and answered. The session opens from the URL; an "
            'error that ends it comes as a final `{"error": <google.rpc.Status>}` frame.'
        ),
        "parameters": [
            *parameters,
            *_BROWSER_PARAMS,
            {
                "name": "from_version",
                "in": "query",
                "required": False,
                "schema": {"type": "string", "pattern": "^[0-9]+$"},
                "description": "the version the client holds: no snapshot until a newer one",
            },
            _header("Sec-WebSocket-Protocol", f"`{SUBPROTOCOL}` for binary frames"),
        ],
        "security": [{}, {"seatToken": []}],
        "responses": {
            "101": {"description": "Switching Protocols: the session runs on the WebSocket"},
            "default": {
                "description": "an error before the upgrade",
                "content": {
                    "application/json": {"schema": schemas.ref(status_pb2.Status.DESCRIPTOR)}
                },
            },
        },
    }


#: The WebSocket subprotocol of binary protobuf frames.
SUBPROTOCOL = "tribes.v1.proto"


def document(
    service: ServiceDescriptor,
    routes: list[Route],
    websockets: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    schemas = _Schemas()
    status = schemas.ref(status_pb2.Status.DESCRIPTOR)
    errors = {"application/json": {"schema": status}}
    paths: dict[str, Any] = {}
    for route in routes:
        path, parameters = _path(route)
        method = route.method
        operation: dict[str, Any] = {
            "operationId": method.name if route.verb != "OPTIONS" else method.name + "Options",
            "summary": method.name,
            "parameters": parameters,
            "security": [{}, {"seatToken": []}],
            "responses": {
                code: {"description": text, "content": errors} for code, text in _ERRORS.items()
            },
        }
        operation["responses"]["default"] = {"description": "an error", "content": errors}
        if route.body == "*":
            operation["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": schemas.ref(method.input_type)}},
            }
        else:
            operation["parameters"] = parameters + _query(schemas, route)
        if route.streaming:
            operation["parameters"] += [
                _header("Last-Event-ID", "resume after this version (EventSource sends it)"),
                *_BROWSER_PARAMS,
                _query_text("last_event_id", "as Last-Event-ID, for a client that cannot send it"),
            ]
            operation["responses"]["200"] = {
                "description": "Server-Sent Events: one `snapshot` event per version "
                f"(data: {method.output_type.full_name} as JSON), then `end`",
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
            }
            operation["responses"]["204"] = {"description": "resumed at the end of a finished game"}
        else:
            operation["responses"]["200"] = {
                "description": "OK",
                "content": {"application/json": {"schema": schemas.ref(method.output_type)}},
            }
        paths.setdefault(path, {})[route.verb.lower()] = operation
    for rpc, template in (websockets or {}).items():
        method = service.methods_by_name[rpc]
        compiled, variables = compile_template(template)
        path, parameters = _path(Route(method, "GET", template, compiled, variables, ""))
        paths.setdefault(path, {})["get"] = _websocket(schemas, method, parameters)
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "tribes",
            "version": "v1",
            "description": f"{service.full_name}: REST/JSON transcoded from the gRPC API.",
        },
        "paths": paths,
        "components": {
            "schemas": schemas.components,
            "securitySchemes": {"seatToken": {"type": "http", "scheme": "bearer"}},
        },
    }
