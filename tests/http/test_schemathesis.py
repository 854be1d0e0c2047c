"""schemathesis against the served OpenAPI document: no 5xx, every response as documented.

The real tool, run as its CLI against a real server on Redis: it generates requests from
``/openapi.json`` (examples, boundary values, fuzzing, stateful sequences) and checks
that no answer is a server error and that every status, content type and body matches
the document. The SSE route is checked by tests/http/test_sse.py (an event stream has
no end for a fuzzer to wait for).
"""

from __future__ import annotations

import asyncio
import os
import pathlib
import sys

from tests.support.server import running_app
from tribes.store.redis import RedisStore

SCHEMATHESIS = pathlib.Path(sys.executable).parent / "schemathesis"
CHECKS = ",".join(
    (
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_schema_conformance",
    )
)


async def test_schemathesis_finds_no_server_error_and_no_schema_break(
    redis_url: str, redis_prefix: str, tmp_path: pathlib.Path
) -> None:
    """The whole generated run passes (exit status 0)."""
    store = RedisStore(redis_url, prefix=redis_prefix)
    async with running_app(store, create_rate=0) as app:
        process = await asyncio.create_subprocess_exec(
            str(SCHEMATHESIS),
            "run",
            f"http://127.0.0.1:{app.http_port}/openapi.json",
            "--checks",
            CHECKS,
            "--exclude-operation-id",
            "WatchGame",
            "--exclude-operation-id",
            "PlayWebSocket",
            "--max-examples",
            os.environ.get("TRIBES_SCHEMATHESIS_EXAMPLES", "30"),
            "--seed",
            "20261201",
            "--request-timeout",
            "10",
            "--workers",
            "1",
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            cwd=tmp_path,  # its caches and reports stay out of the tree
        )
        output, _ = await process.communicate()
    text = output.decode(errors="replace")
    assert process.returncode == 0, text[-4000:]
    assert "passed" in text and "failed" not in text.lower().split("summary")[-1]
