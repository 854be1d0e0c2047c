"""The playground in a real headless Chromium against a real server: the lobby, live play
between two pages, bot seats, spectators, clocks and resignation, and every game's board."""

from __future__ import annotations

import pathlib
from typing import Any

import aiohttp
import pytest

from tests.support.server import running_app
from tests.web.browser import WEB_DIR, call, play_random
from tribes.store.redis import RedisStore

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1400, "height": 1000}


async def open_page(browser: Any, url: str, errors: list[str]) -> Any:
    """A page in a context of its own (its own localStorage: another person)."""
    context = await browser.new_context(viewport=VIEWPORT)
    page = await context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(url)
    return page


async def version_of(page: Any) -> int:
    return int(await page.locator("body").get_attribute("data-version") or 0)


async def wait_version_above(page: Any, version: int) -> None:
    await page.wait_for_function(
        f"() => Number(document.body.dataset.version || 0) > {version}", timeout=10_000
    )


async def page_to_move(pages: list[Any]) -> Any:
    """The page that shows move buttons (the seat to act), once one does."""
    for _ in range(200):
        for page in pages:
            if await page.locator("button.move:not([disabled])").count():
                return page
        await pages[0].wait_for_timeout(50)
    raise AssertionError("no page shows a move to play")


async def test_lobby_create_join_and_play_live(browser: Any, base_url: str) -> None:
    """A listed game made in the lobby is joined from a second page; a clicked move shows
    on the other page without a reload, in its board, seat list and move log."""
    from playwright.async_api import expect

    errors: list[str] = []
    ana = await open_page(browser, base_url + "/", errors)
    await ana.fill("#player-name", "Ana")
    await ana.locator(".game-type", has_text="Five Tribes").click()
    await ana.select_option("#seat-count", "2")
    await ana.click("#create-button")
    await ana.wait_for_url("**/web/game.html?game=*&seat=0#token=*")
    await expect(ana.locator("svg.board g.tile")).to_have_count(30)
    game = ana.url.split("game=")[1].split("&")[0]

    bo = await open_page(browser, base_url + "/", errors)
    await bo.fill("#player-name", "Bo")
    join = bo.locator(f'tr[data-game="{game}"] button.join[data-seat="1"]')
    await join.click()
    await bo.wait_for_url("**/web/game.html?game=*&seat=1#token=*")
    await expect(bo.locator("#viewer")).to_contain_text("Bo")
    # Ana's page learns Bo's name and presence live
    await expect(ana.locator('li.seat[data-seat="1"]')).to_contain_text("Bo")
    await expect(ana.locator('li.seat[data-seat="1"] .presence.on')).to_have_count(1)

    for _ in range(3):
        pages = [ana, bo]
        mover = await page_to_move(pages)
        other = bo if mover is ana else ana
        before = await version_of(other)
        button = mover.locator("button.move").first
        description = (await button.inner_text()).strip()
        await button.click()
        await wait_version_above(other, before)
        await expect(other.locator("#log li.entry").last).to_contain_text(description)
        await wait_version_above(mover, before)
        assert [await version_of(p) for p in pages] == [before + 1, before + 1]
    assert errors == []


async def test_bot_seat_plays_itself_forward(browser: Any, base_url: str) -> None:
    """A seat set to random moves in the create form plays whenever it is to act; the
    Hint button marks the move the server's bot suggests."""
    from playwright.async_api import expect

    errors: list[str] = []
    page = await open_page(browser, base_url + "/", errors)
    await page.fill("#player-name", "Ana")
    await page.locator(".game-type", has_text="Five Tribes").click()
    await page.select_option("#seat-count", "2")
    await page.select_option('#seat-bots select[data-seat="1"]', "random")
    await page.click("#create-button")
    await page.wait_for_url("**/web/game.html?game=*&seat=0#token=*")
    await expect(page.locator('li.seat[data-seat="1"] .tag.bot')).to_have_text("bot: random")
    # the Hint button asks SuggestMove: one of the seat's own move buttons is marked
    await page.wait_for_selector("button.move:not([disabled])")
    await page.click("#hint")
    await expect(page.locator("#hint-text")).to_contain_text("Hint: ")
    suggested = page.locator("button.move.suggested")
    await expect(suggested).to_have_count(1)
    hint = (await page.locator("#hint-text").inner_text()).removeprefix("Hint: ").strip()
    assert hint == (await suggested.inner_text()).strip()
    for _ in range(6):
        if await page.locator('#log li.entry[data-seat="1"]').count():
            break
        before = await version_of(page)
        if await page.locator("button.move").count():
            await page.locator("button.move").first.click()
        await wait_version_above(page, before)
    await expect(page.locator('#log li.entry[data-seat="1"]').first).to_be_visible()
    assert errors == []


async def test_spectator_sees_the_game_live_without_moves(
    browser: Any, base_url: str, http: aiohttp.ClientSession
) -> None:
    """The spectator link shows board and log, no move buttons, and follows the game,
    also across a dropped connection."""
    from playwright.async_api import expect

    created = await call(http, "/v1/games", {"gameType": "rise_of_tribes", "seatCount": 2})
    name, tokens = created["game"]["name"], created["seatTokens"]
    errors: list[str] = []
    page = await open_page(browser, f"{base_url}/web/game.html?game={name[6:]}", errors)
    await expect(page.locator("svg.board g.hex")).not_to_have_count(0)
    await expect(page.locator("#viewer")).to_have_text("Spectating")
    assert await page.locator("button.move").count() == 0
    assert await page.locator("#resign").count() == 0
    await play_random(http, name, tokens, 1)
    await wait_version_above(page, 1)
    await expect(page.locator("#log li.entry")).to_have_count(1)
    assert await page.locator("button.move").count() == 0
    # a dropped connection comes back (from_version = the version shown) and catches up
    await page.evaluate("() => window.tribesSession.socket.close()")
    await play_random(http, name, tokens, 1, seed=2)
    await wait_version_above(page, 2)
    await expect(page.locator("#status")).to_have_text("live")
    await expect(page.locator("#log li.entry")).to_have_count(2)
    assert errors == []


async def test_clock_counts_down_and_resign_ends_a_two_seat_game(
    browser: Any, base_url: str, http: aiohttp.ClientSession
) -> None:
    """A timed game shows the seat to act's clock running; Resign ends a 2-seat game."""
    from playwright.async_api import expect

    created = await call(
        http,
        "/v1/games",
        {"gameType": "five_tribes", "seatCount": 2, "timeControl": {"perMoveSeconds": 600}},
    )
    name, tokens = created["game"]["name"], created["seatTokens"]
    acting = created["game"]["toAct"][0]
    errors: list[str] = []
    url = f"{base_url}/web/game.html?game={name[6:]}&seat={acting}#token={tokens[acting]}"
    page = await open_page(browser, url, errors)
    clock = page.locator(f'.clock.running[data-seat="{acting}"]')
    await expect(clock).to_contain_text(":")
    first = int(await clock.get_attribute("data-ms") or 0)
    assert 590_000 < first <= 600_000
    await page.wait_for_timeout(1200)
    later = int(await clock.get_attribute("data-ms") or 0)
    assert first - later >= 900  # it counts down in the browser

    await page.click("#resign")
    await page.click("#resign-confirm")
    await expect(page.locator("#result-panel")).to_be_visible()
    await expect(page.locator("#result .summary")).to_contain_text("resigned")
    await expect(page.locator(f'li.seat[data-seat="{acting}"] .tag.resigned')).to_be_visible()
    assert await page.locator("button.move").count() == 0
    public = await call(http, f"/v1/{name}")
    assert public["finished"] is True
    assert errors == []


def _five_tribes(view: dict[str, Any]) -> dict[str, int]:
    tiles = view["tiles"]
    return {
        "g.tile": len(tiles),
        "g.meeple": sum(sum(t["meeples"].values()) for t in tiles),
        "g.palm": sum(t["palms"] for t in tiles),
        "g.palace": sum(t["palaces"] for t in tiles),
        "g.camel": sum(1 for t in tiles if t.get("owner") is not None),
    }


def _tec(view: dict[str, Any]) -> dict[str, int]:
    players = view["players"]
    return {
        "g.hex": sum(len(p["tiles"]) for p in players),
        "circle.member": sum(t["members"] for p in players for t in p["tiles"]),
        "g.row-tile": len(view["sequence"]),
        "g.achievement": len(view["boards"]),
    }


def _rise(view: dict[str, Any]) -> dict[str, int]:
    hexes = view["hexes"]
    return {
        "g.hex": len(hexes),
        "circle.member": sum(sum(h["members"]) for h in hexes),
        "path.village": sum(1 for h in hexes if h.get("villageOwner") is not None),
        "g.action-column": len(view["actionRows"]),
        "g.action-column g.die": sum(len(r["dice"]) for r in view["actionRows"]),
    }


def _akalon(view: dict[str, Any]) -> dict[str, int]:
    me = next(p for p in view["players"] if p["seat"] == view["viewer"])
    others = [p for p in view["players"] if p["seat"] != view["viewer"]]
    return {
        "g.card.battlefield": len(view["battlefield"]),
        "g.card.hand:not(.back)": len(me["hand"]),
        "g.card.hand.back": sum(p["handSize"] for p in others),
        "g.player-row": len(view["players"]),
    }


#: game type -> (view key, random moves first, expected counts, a piece that must be there)
BOARDS = {
    "five_tribes": ("fiveTribes", 25, _five_tribes, "g.meeple"),
    "tribes_early_civilization": ("tribesEarlyCivilization", 40, _tec, "circle.member"),
    "rise_of_tribes": ("riseOfTribes", 30, _rise, "circle.member"),
    "fate_of_akalon": ("fateOfAkalon", 12, _akalon, "g.card.hand:not(.back)"),
}


@pytest.mark.parametrize("game_type", sorted(BOARDS))
async def test_board_is_drawn_with_the_pieces_of_the_view(
    browser: Any, base_url: str, http: aiohttp.ClientSession, game_type: str, tmp_path: pathlib.Path
) -> None:
    """Each game's board picture holds one element per piece of the seat's view."""
    key, moves, expected, piece = BOARDS[game_type]
    created = await call(http, "/v1/games", {"gameType": game_type, "seatCount": 2, "seed": "5"})
    name, tokens = created["game"]["name"], created["seatTokens"]
    await play_random(http, name, tokens, moves, seed=5)
    public = await call(http, f"/v1/{name}")
    seat = public["toAct"][0] if public["toAct"] else 0
    snapshot = await call(http, f"/v1/{name}", token=tokens[seat])
    counts = expected(snapshot["view"][key])
    assert counts[piece] > 0  # the position has pieces to draw

    errors: list[str] = []
    url = f"{base_url}/web/game.html?game={name[6:]}&seat={seat}#token={tokens[seat]}"
    page = await open_page(browser, url, errors)
    await page.wait_for_function(
        f"() => document.body.dataset.version === '{snapshot['version']}'", timeout=10_000
    )
    board = page.locator("#board svg.board")
    drawn = {selector: await board.locator(selector).count() for selector in counts}
    assert drawn == counts
    assert await page.locator("button.move").count() == len(snapshot["legalMoves"])
    shot = tmp_path / f"{game_type}.png"
    await board.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000  # a drawn picture, not an empty box
    assert errors == []


async def test_a_game_page_carries_on_across_a_server_restart(
    browser: Any, redis_url: str, redis_prefix: str
) -> None:
    """A deploy: the server a page plays on stops (its session ends with UNAVAILABLE,
    SERVER_SHUTTING_DOWN) and a new one takes its address; the page reconnects by itself,
    shows no error, and follows the game on the new server."""
    from playwright.async_api import expect

    web = str(WEB_DIR)
    async with running_app(RedisStore(redis_url, prefix=redis_prefix), web_dir=web) as first:
        base = f"http://127.0.0.1:{first.http_port}"
        async with aiohttp.ClientSession(base) as http:
            body = {"gameType": "rise_of_tribes", "seatCount": 2}
            created = await call(http, "/v1/games", body)
        name, tokens = created["game"]["name"], created["seatTokens"]
        errors: list[str] = []
        page = await open_page(
            browser, f"{base}/web/game.html?game={name[6:]}&seat=0#token={tokens[0]}", errors
        )
        await expect(page.locator("#status")).to_have_text("live")
        await expect(page.locator("svg.board g.hex")).not_to_have_count(0)
        await first.stop(grace=0.5)
        await expect(page.locator("#status")).to_have_text("reconnecting")
        store = RedisStore(redis_url, prefix=redis_prefix)
        async with running_app(store, web_dir=web, http_port=first.http_port or 0):
            async with aiohttp.ClientSession(base) as http:
                await play_random(http, name, tokens, 1)
            await wait_version_above(page, 1)
            await expect(page.locator("#status")).to_have_text("live")
            assert await page.locator("#banner").is_hidden()
            assert errors == []


async def test_a_board_whose_script_failed_to_load_comes_with_the_next_snapshot(
    browser: Any, base_url: str, http: aiohttp.ClientSession
) -> None:
    """The board's script failing to load (its server restarting as the page opens) leaves
    the page working with the generic view, and a later snapshot draws the board: a browser
    remembers a failed import, so the page asks again under another URL."""
    from playwright.async_api import expect

    created = await call(http, "/v1/games", {"gameType": "rise_of_tribes", "seatCount": 2})
    name, tokens = created["game"]["name"], created["seatTokens"]
    context = await browser.new_context(viewport=VIEWPORT)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    asked: list[str] = []

    async def fail_the_first(route: Any) -> None:
        asked.append(route.request.url)
        await (route.abort() if len(asked) == 1 else route.continue_())

    await page.route("**/web/games/rise_of_tribes.js*", fail_the_first)
    await page.goto(f"{base_url}/web/game.html?game={name[6:]}")
    await expect(page.locator("#status")).to_have_text("live")
    await wait_version_above(page, 0)  # drawn, with the generic view
    assert await page.locator("svg.board g.hex").count() == 0
    await play_random(http, name, tokens, 1)
    await expect(page.locator("svg.board g.hex")).not_to_have_count(0)
    assert len(asked) == 2 and asked[1].endswith("?retry=1")
    assert errors == []
