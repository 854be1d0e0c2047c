"""The system Chromium for the playground's tests and screenshots, and a random player.

Only a Chromium already on the machine is used (Debian's ``chromium``, which ``make test``
installs when it can): nothing here downloads a browser.
"""

from __future__ import annotations

import os
import pathlib
import random
import shutil
from typing import Any

import aiohttp

WEB_DIR = pathlib.Path(__file__).resolve().parents[2] / "clients" / "web"

#: Flags for a quiet headless Chromium that makes no network calls of its own.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    """The system Chromium (``TRIBES_CHROMIUM``, /usr/bin/chromium or on PATH), if any."""
    for candidate in (os.environ.get("TRIBES_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("chromium") or shutil.which("chromium-browser")


def missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if chromium_path() is None:
        return (
            "no Chromium: install Debian's `chromium` (make test does when run as root with "
            "apt-get) or set TRIBES_CHROMIUM to a Chromium binary"
        )
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "the playwright library is not installed (pip install -e '.[dev]')"
    return None


async def call(
    http: aiohttp.ClientSession, path: str, body: Any = None, token: str = ""
) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if body is None:
        response = await http.get(path, headers=headers)
    else:
        response = await http.post(path, json=body, headers=headers)
    async with response:
        reply: dict[str, Any] = await response.json()
        assert response.status == 200, reply
        return reply


async def play_random(
    http: aiohttp.ClientSession, name: str, tokens: list[str], moves: int, seed: int = 1
) -> None:
    """Play up to ``moves`` random legal moves, each by the first seat to act."""
    rng = random.Random(seed)
    for _ in range(moves):
        public = await call(http, f"/v1/{name}")
        if public["finished"] or not public["toAct"]:
            return
        seat = public["toAct"][0]
        mine = await call(http, f"/v1/{name}", token=tokens[seat])
        move = rng.choice(mine["legalMoves"])
        await call(http, f"/v1/{name}:applyMove", {"moveId": move["id"]}, tokens[seat])
