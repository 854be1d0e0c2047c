"""The HTTP routes, derived at start-up from the ``google.api.http`` annotations.

Every method of the service descriptor that carries an ``HttpRule`` (and its
``additional_bindings``) becomes a route: its verb, its path template with the standard
syntax (``/v1/{name=games/*}:applyMove`` — literals, ``*`` one segment, ``**`` any
number, ``{field=...}`` binding a request field, ``:verb`` suffix) turned into an aiohttp
path with regex variables, and its ``body`` rule. An RPC added to the proto with an
annotation is served by the gateway without new gateway code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from google.api import annotations_pb2, http_pb2
from google.protobuf.descriptor import MethodDescriptor, ServiceDescriptor

_VARIABLE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.]*)(?:=([^}]*))?\}")


@dataclass(frozen=True, slots=True)
class Route:
    method: MethodDescriptor
    verb: str  # GET, POST, ...
    template: str  # the annotation's path template, also the metrics label
    path: str  # the aiohttp path with regex variables
    variables: tuple[tuple[str, str], ...]  # (aiohttp variable name, request field path)
    body: str  # "" (none), "*" (the whole request) or a field name

    @property
    def streaming(self) -> bool:
        return bool(self.method.server_streaming)


def _pattern(segments: str) -> str:
    """A template's segment pattern (``games/*``) as a regex that stops at ``:``."""
    parts = []
    for segment in segments.split("/"):
        if segment == "**":
            parts.append(r"[^:]+")
        elif segment == "*":
            parts.append(r"[^/:]+")
        else:
            parts.append(re.escape(segment))
    return "/".join(parts)


def compile_template(template: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """(aiohttp path, variables) of a path template."""
    variables: list[tuple[str, str]] = []

    def variable(match: re.Match[str]) -> str:
        field, segments = match.group(1), match.group(2) or "*"
        name = f"v{len(variables)}"
        variables.append((name, field))
        return "{" + name + ":" + _pattern(segments) + "}"

    path = _VARIABLE.sub(variable, template)
    return path, tuple(variables)


def _bindings(rule: http_pb2.HttpRule) -> list[http_pb2.HttpRule]:
    return [rule, *rule.additional_bindings]


def routes(service: ServiceDescriptor) -> list[Route]:
    """Every annotated binding of every method of ``service``."""
    out: list[Route] = []
    for method in service.methods:
        options = method.GetOptions()
        if not options.HasExtension(annotations_pb2.http):
            continue
        for rule in _bindings(options.Extensions[annotations_pb2.http]):
            kind = rule.WhichOneof("pattern")
            if kind is None:
                continue
            if kind == "custom":
                verb, template = rule.custom.kind.upper(), rule.custom.path
            else:
                verb, template = kind.upper(), getattr(rule, kind)
            path, variables = compile_template(template)
            out.append(Route(method, verb, template, path, variables, rule.body))
    return out
