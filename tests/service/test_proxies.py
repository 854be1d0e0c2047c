"""Whose address a call comes from through trusted proxies (``tribes.core.proxies``):
the forwarded-for list read from the right, believed only from a trusted peer, bounded;
and the same resolution through both real doors, where the limits count it."""

from __future__ import annotations

import io
import json
import re

import aiohttp
import grpc
import pytest

from tests.support.http import call, reason
from tests.support.server import running_app
from tribes.core.proxies import MAX_HEADER, MAX_HOPS, TrustedProxies, parse_networks
from tribes.settings import Settings
from tribes.store.memory import MemoryStore
from tribes.v1 import game_service_pb2 as spb
from tribes.v1 import game_service_pb2_grpc as spb_grpc

PROXIES = TrustedProxies(parse_networks("10.0.0.0/8, 192.0.2.7, fd00::/8"))


@pytest.mark.parametrize(
    ("peer", "forwarded", "client"),
    [
        # a trusted proxy's header names the caller, in each door's peer spelling
        ("ipv4:10.1.2.3:5000", ["203.0.113.9"], "203.0.113.9"),
        ("10.1.2.3", ["203.0.113.9"], "203.0.113.9"),
        ("192.0.2.7", ["2001:db8::5"], "2001:db8::5"),
        ("ipv6:[fd00::1]:443", ["203.0.113.9"], "203.0.113.9"),
        ("ipv6:[::ffff:10.0.0.1]:443", ["203.0.113.9"], "203.0.113.9"),  # IPv4-mapped
        # read from the right: trusted hops are skipped, what a caller wrote is not believed
        ("10.1.2.3", ["198.51.100.1, 203.0.113.9, 10.9.9.9"], "203.0.113.9"),
        ("10.1.2.3", ["198.51.100.1", "203.0.113.9"], "203.0.113.9"),  # two header lines
        ("10.1.2.3", ["10.0.0.5, 10.0.0.6"], "10.0.0.5"),  # every hop trusted: the first
        ("10.1.2.3", ["203.0.113.9:41000"], "203.0.113.9"),
        ("10.1.2.3", ["[2001:db8::5]:41000"], "2001:db8::5"),
        # an entry that is no address stops the walk at what a trusted proxy vouched for
        ("ipv4:10.1.2.3:1", ["203.0.113.9, unknown"], "ipv4:10.1.2.3:1"),
        ("10.1.2.3", ["not-an-address, 10.0.0.5"], "10.0.0.5"),
        ("10.1.2.3", [""], "10.1.2.3"),
        ("10.1.2.3", [], "10.1.2.3"),
        # from anyone else the header is ignored: any caller can write one
        ("ipv4:203.0.113.50:5000", ["10.0.0.5"], "ipv4:203.0.113.50:5000"),
        ("ipv4:127.0.0.1:5000", ["203.0.113.9"], "ipv4:127.0.0.1:5000"),
        ("unix:/run/tribes.sock", ["203.0.113.9"], "unix:/run/tribes.sock"),
        ("", ["203.0.113.9"], ""),
    ],
)
def test_the_caller_is_the_first_untrusted_hop_from_the_right(
    peer: str, forwarded: list[str], client: str
) -> None:
    assert PROXIES.client(peer, forwarded) == client


def test_nothing_is_believed_when_no_proxy_is_trusted() -> None:
    assert TrustedProxies().client("10.1.2.3", ["203.0.113.9"]) == "10.1.2.3"
    assert not TrustedProxies()


def test_a_hostile_header_is_read_only_to_its_bound() -> None:
    """Only the last MAX_HEADER characters and MAX_HOPS entries are read: a long list of
    trusted-looking hops cannot push the walk further, and a huge header costs a slice."""
    many = ", ".join(["203.0.113.9"] + ["10.0.0.6"] * MAX_HOPS)
    assert PROXIES.client("10.1.2.3", [many]) == "10.0.0.6"  # the walk stopped at its bound
    within = ", ".join(["203.0.113.9"] + ["10.0.0.6"] * (MAX_HOPS - 1))
    assert PROXIES.client("10.1.2.3", [within]) == "203.0.113.9"
    huge = "x" * 10_000_000 + ", 203.0.113.9"
    assert PROXIES.client("10.1.2.3", [huge]) == "203.0.113.9"
    cut = "1" * (MAX_HEADER - len(", 203.0.113.9") + 5) + ", 203.0.113.9"
    assert PROXIES.client("10.1.2.3", [cut]) == "203.0.113.9"


def test_a_misspelt_network_stops_the_start() -> None:
    with pytest.raises(ValueError, match=re.escape("10.0.0.0/33")):
        Settings.from_env({"TRIBES_TRUSTED_PROXIES": "10.0.0.0/8,10.0.0.0/33"})
    parsed = Settings.from_env({"TRIBES_TRUSTED_PROXIES": " 127.0.0.1, fd00::/8"}).trusted_proxies
    assert parsed == parse_networks("127.0.0.1,fd00::/8")
    assert Settings.from_env({}).trusted_proxies == ()


#: one CreateGame per address, then RATE_LIMITED; the request log on
LIMITED = {"create_rate": 0.001, "create_burst": 1, "limit_loopback": True, "log_requests": True}


def _peers(log: io.StringIO) -> list[str]:
    """The request log's peer of each CreateGame, in order."""
    lines = [json.loads(line) for line in log.getvalue().splitlines()]
    return [line["peer"] for line in lines if line["method"] in ("CreateGame", "POST /v1/games")]


async def _create_http(http: aiohttp.ClientSession, forwarded: str) -> tuple[int, str]:
    body = {"gameType": "goofspiel", "seatCount": 2}
    headers = {"X-Forwarded-For": forwarded}
    status, answer = await call(http, "POST", "/v1/games", body, headers=headers)
    return status, reason(answer) if status != 200 else ""


@pytest.mark.parametrize("trusted", ["127.0.0.1", "10.0.0.0/8"])
async def test_http_limits_count_the_forwarded_caller_only_from_a_trusted_proxy(
    trusted: str,
) -> None:
    """Behind a trusted proxy (here: the test itself on 127.0.0.1) each forwarded caller
    has its own CreateGame budget; when the peer is not trusted, the header changes
    nothing and every caller shares the peer's budget."""
    log = io.StringIO()
    async with running_app(
        MemoryStore(), log, trusted_proxies=parse_networks(trusted), **LIMITED
    ) as app:
        async with aiohttp.ClientSession(f"http://127.0.0.1:{app.http_port}") as http:
            assert await _create_http(http, "203.0.113.1") == (200, "")
            second = await _create_http(http, "203.0.113.2")
            third = await _create_http(http, "203.0.113.1")
    if trusted == "127.0.0.1":
        assert (second, third) == ((200, ""), (429, "RATE_LIMITED"))
        assert _peers(log) == ["203.0.113.1", "203.0.113.2", "203.0.113.1"]
    else:
        assert (second, third) == ((429, "RATE_LIMITED"), (429, "RATE_LIMITED"))
        assert _peers(log) == ["127.0.0.1"] * 3


@pytest.mark.parametrize("trusted", ["127.0.0.1", "10.0.0.0/8"])
async def test_grpc_limits_count_the_forwarded_caller_only_from_a_trusted_proxy(
    trusted: str,
) -> None:
    """The same through gRPC, the address in ``x-forwarded-for`` metadata."""
    request = spb.CreateGameRequest(game_type="goofspiel", seat_count=2)
    log = io.StringIO()
    async with running_app(
        MemoryStore(), log, trusted_proxies=parse_networks(trusted), **LIMITED
    ) as app:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
            stub = spb_grpc.GameServiceStub(channel)

            async def create(forwarded: str) -> grpc.StatusCode:
                try:
                    await stub.CreateGame(request, metadata=(("x-forwarded-for", forwarded),))
                except grpc.aio.AioRpcError as exc:
                    return exc.code()
                return grpc.StatusCode.OK

            codes = [await create(a) for a in ("203.0.113.1", "203.0.113.2", "203.0.113.1")]
    ok, limited = grpc.StatusCode.OK, grpc.StatusCode.RESOURCE_EXHAUSTED
    if trusted == "127.0.0.1":
        assert codes == [ok, ok, limited]
        assert _peers(log) == ["203.0.113.1", "203.0.113.2", "203.0.113.1"]
    else:
        assert codes == [ok, limited, limited]
        assert all(peer.startswith("ipv4:127.0.0.1:") for peer in _peers(log))
