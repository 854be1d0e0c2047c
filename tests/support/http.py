"""HTTP helpers for tests: JSON calls that return (status, body), and an SSE reader."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


async def call(
    http: aiohttp.ClientSession,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    **kw: Any,
) -> tuple[int, Any]:
    """(status, parsed JSON body) of one request."""
    headers = {**auth(token), **kw.pop("headers", {})}
    data = None if body is None else (body if isinstance(body, (bytes, str)) else json.dumps(body))
    async with http.request(method, path, data=data, headers=headers, **kw) as response:
        text = await response.read()
        return response.status, json.loads(text) if text else None


def reason(body: Any) -> str:
    """The ErrorInfo reason of a google.rpc.Status JSON body."""
    for detail in body["details"]:
        if detail["@type"].endswith("google.rpc.ErrorInfo"):
            return str(detail["reason"])
    raise AssertionError(f"no ErrorInfo in {body}")


@dataclass
class Event:
    event: str
    id: str | None
    data: Any


async def events(response: aiohttp.ClientResponse) -> AsyncIterator[Event | None]:
    """Server-Sent Events from a streaming response; None for a heartbeat comment."""
    kind, ident, data = "message", None, []
    async for raw in response.content:
        line = raw.decode().rstrip("\r\n")
        if line.startswith(":"):
            yield None
        elif line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("id: "):
            ident = line[4:]
        elif line.startswith("data: "):
            data.append(line[6:])
        elif line == "" and data:
            yield Event(kind, ident, json.loads("\n".join(data)))
            kind, ident, data = "message", None, []
