"""Write clients/web/screenshots/<game>.png: a game page of each game in mid-play.

Run as ``.venv/bin/python -m tests.web.screenshots`` (needs the system Chromium). It starts
a server in-process on the embedded store, seats two named players in a listed game of
each type, plays seeded random moves, and photographs the page of the seat to act.
"""

from __future__ import annotations

import asyncio
import pathlib
import sys

import aiohttp

from tests.support.server import running_app
from tests.web.browser import CHROMIUM_ARGS, WEB_DIR, call, chromium_path, missing, play_random

OUT = WEB_DIR / "screenshots"
#: game type -> random moves played before the picture (far enough for pieces everywhere)
GAMES = {
    "five_tribes": 120,
    "tribes_early_civilization": 45,
    "rise_of_tribes": 40,
    "fate_of_akalon": 14,
}
PLAYERS = ("Ana", "Bo")


async def photograph(base: str, http: aiohttp.ClientSession, browser: object) -> list[pathlib.Path]:
    written = []
    for game_type, moves in GAMES.items():
        created = await call(
            http,
            "/v1/games",
            {"gameType": game_type, "seatCount": 2, "seed": "3", "listed": True},
        )
        name = created["game"]["name"]
        tokens = []
        for seat, player in enumerate(PLAYERS):
            joined = await call(http, f"/v1/{name}:join", {"seat": seat, "playerName": player})
            tokens.append(joined["seatToken"])
        await play_random(http, name, tokens, moves, seed=3)
        public = await call(http, f"/v1/{name}")
        seat = public["toAct"][0] if public["toAct"] else 0
        context = await browser.new_context(viewport={"width": 1400, "height": 900})  # type: ignore[attr-defined]
        page = await context.new_page()
        await page.goto(f"{base}/web/game.html?game={name[6:]}&seat={seat}#token={tokens[seat]}")
        await page.wait_for_function(
            f"() => document.body.dataset.version === '{public['version']}'"
        )
        await page.wait_for_timeout(300)  # the move log's fetch
        path = OUT / f"{game_type}.png"
        await page.screenshot(path=str(path), full_page=True)
        await context.close()
        written.append(path)
    return written


async def main() -> int:
    reason = missing()
    if reason:
        print(f"screenshots: {reason}", file=sys.stderr)
        return 1
    from playwright.async_api import async_playwright

    OUT.mkdir(exist_ok=True)
    async with running_app(None, web_dir=str(WEB_DIR)) as app, async_playwright() as driver:
        base = f"http://127.0.0.1:{app.http_port}"
        browser = await driver.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            async with aiohttp.ClientSession(base) as http:
                for path in await photograph(base, http, browser):
                    print(f"wrote {path.relative_to(WEB_DIR.parents[1])}")
        finally:
            await browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
