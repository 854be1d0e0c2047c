"""TLS on both doors (with optional client certificates), rediss:// to Redis, and
seat-token key rotation — real certificates (openssl), real servers, real Redis."""

from __future__ import annotations

import asyncio
import pathlib
import shutil
import ssl
import subprocess
import uuid

import aiohttp
import grpc
import pytest

from tests.service.helpers import create, fails, move
from tests.support.redis_server import PrivateRedis
from tests.support.server import bearer, running_app, server_process
from tribes.core.tokens import SeatTokens
from tribes.store.memory import MemoryStore
from tribes.store.redis import RedisStore
from tribes.v1 import game_service_pb2 as spb
from tribes.v1 import game_service_pb2_grpc as spb_grpc

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is missing")
Stub = spb_grpc.GameServiceStub


def _openssl(*args: str, cwd: pathlib.Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """A CA, a server certificate for localhost/127.0.0.1 and a client certificate."""
    d = tmp_path_factory.mktemp("certs")
    _openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=tribes test CA",
        cwd=d,
    )
    (d / "san.cnf").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    for name in ("server", "client"):
        _openssl(
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            f"{name}.key",
            "-out",
            f"{name}.csr",
            "-subj",
            f"/CN={name}",
            cwd=d,
        )
        _openssl(
            "x509",
            "-req",
            "-in",
            f"{name}.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            f"{name}.pem",
            "-days",
            "2",
            "-extfile",
            "san.cnf",
            cwd=d,
        )
    return d


def _files(d: pathlib.Path, *names: str) -> tuple[bytes, ...]:
    return tuple((d / name).read_bytes() for name in names)


async def test_grpc_and_http_serve_tls(certs: pathlib.Path) -> None:
    """With a certificate and key both doors speak TLS; plaintext clients are refused."""
    settings = {"tls_cert": str(certs / "server.pem"), "tls_key": str(certs / "server.key")}
    async with running_app(MemoryStore(), **settings) as app:
        (ca,) = _files(certs, "ca.pem")
        credentials = grpc.ssl_channel_credentials(root_certificates=ca)
        async with grpc.aio.secure_channel(f"127.0.0.1:{app.port}", credentials) as channel:
            types = await Stub(channel).ListGameTypes(spb.ListGameTypesRequest())
            assert types.game_types
        async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as plain:
            with pytest.raises(grpc.aio.AioRpcError):
                await Stub(plain).ListGameTypes(spb.ListGameTypesRequest(), timeout=3)
        context = ssl.create_default_context(cafile=str(certs / "ca.pem"))
        async with aiohttp.ClientSession() as http:
            async with http.get(
                f"https://127.0.0.1:{app.http_port}/v1/gameTypes", ssl=context
            ) as r:
                assert r.status == 200 and "five_tribes" in await r.text()


def test_tls_with_the_io_on_the_grpc_poller_thread(certs: pathlib.Path) -> None:
    """TRIBES_GRPC_POLLER=1 serves gRPC's connections through another listener: TLS
    holds there too (a Play session opens over it; plaintext is refused)."""
    env = {
        "TRIBES_GRPC_POLLER": "1",
        "TRIBES_TLS_CERT": str(certs / "server.pem"),
        "TRIBES_TLS_KEY": str(certs / "server.key"),
    }
    (ca,) = _files(certs, "ca.pem")

    async def run(target: str) -> None:
        credentials = grpc.ssl_channel_credentials(root_certificates=ca)
        async with grpc.aio.secure_channel(target, credentials) as channel:
            created = await create(Stub(channel))
            session = Stub(channel).Play(metadata=bearer(created.tokens[0]))
            await session.write(spb.PlayRequest(open=spb.OpenSession(name=created.name)))
            event = await session.read()
            assert event.snapshot.version == 1 and event.snapshot.viewer_seat == 0
            session.cancel()
        async with grpc.aio.insecure_channel(target) as plain:
            with pytest.raises(grpc.aio.AioRpcError):
                await Stub(plain).ListGameTypes(spb.ListGameTypesRequest(), timeout=3)

    with server_process(env) as server:
        asyncio.run(run(f"localhost:{server.port}"))


async def test_client_certificates_are_required_with_a_client_ca(certs: pathlib.Path) -> None:
    """TRIBES_TLS_CLIENT_CA: a client without a certificate signed by it is refused."""
    settings = {
        "tls_cert": str(certs / "server.pem"),
        "tls_key": str(certs / "server.key"),
        "tls_client_ca": str(certs / "ca.pem"),
    }
    async with running_app(MemoryStore(), **settings) as app:
        ca, key, cert = _files(certs, "ca.pem", "client.key", "client.pem")
        anonymous = grpc.ssl_channel_credentials(root_certificates=ca)
        async with grpc.aio.secure_channel(f"127.0.0.1:{app.port}", anonymous) as channel:
            with pytest.raises(grpc.aio.AioRpcError):
                await Stub(channel).ListGameTypes(spb.ListGameTypesRequest(), timeout=3)
        mutual = grpc.ssl_channel_credentials(
            root_certificates=ca, private_key=key, certificate_chain=cert
        )
        async with grpc.aio.secure_channel(f"127.0.0.1:{app.port}", mutual) as channel:
            assert (await Stub(channel).ListGameTypes(spb.ListGameTypesRequest())).game_types
        context = ssl.create_default_context(cafile=str(certs / "ca.pem"))
        async with aiohttp.ClientSession() as http:
            with pytest.raises(aiohttp.ClientError):
                async with http.get(f"https://127.0.0.1:{app.http_port}/healthz", ssl=context):
                    pass
            context.load_cert_chain(str(certs / "client.pem"), str(certs / "client.key"))
            async with http.get(f"https://127.0.0.1:{app.http_port}/healthz", ssl=context) as r:
                assert r.status == 200


async def test_the_store_speaks_tls_to_redis(certs: pathlib.Path) -> None:
    """rediss:// with the CA: games are created, moved and watched over TLS."""
    port = PrivateRedis().port
    redis = PrivateRedis(
        extra=(
            "--port",
            "0",
            "--tls-port",
            str(port),
            "--tls-cert-file",
            str(certs / "server.pem"),
            "--tls-key-file",
            str(certs / "server.key"),
            "--tls-ca-cert-file",
            str(certs / "ca.pem"),
            "--tls-auth-clients",
            "no",
        )
    )
    redis.port = port
    redis.start_tls()
    try:
        url = f"rediss://127.0.0.1:{port}/0?ssl_ca_certs={certs / 'ca.pem'}"
        async with running_app(RedisStore(url, prefix=uuid.uuid4().hex[:8])) as app:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
                stub = Stub(channel)
                created = await create(stub)
                watch = stub.WatchGame(spb.WatchGameRequest(name=created.name))
                await watch.read()
                await move(stub, created.name, created.tokens[0], "bid:1")
                assert (await watch.read()).version == 2
                watch.cancel()
    finally:
        redis.stop()


async def test_rotated_keys_keep_old_tokens_working_until_retired(
    redis_url: str, redis_prefix: str
) -> None:
    """Tokens issued under the old key work while it is a previous key, and stop when it
    is dropped; new tokens use the new key; page tokens and create retries follow too."""
    old, new = "old-secret-0123456789abcdef", "new-secret-0123456789abcdef"

    def store() -> RedisStore:  # each server (a restart with new settings) on one Redis
        return RedisStore(redis_url, prefix=redis_prefix)

    async with running_app(store(), token_secret=old) as before:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{before.port}") as channel:
            stub = Stub(channel)
            created = await create(stub, request_id="made-before-rotation")
            await move(stub, created.name, created.tokens[0], "bid:1")
            page = await stub.ListMoves(spb.ListMovesRequest(name=created.name, page_size=1))
    async with running_app(store(), token_secret=new, previous_secrets=(old,)) as rotated:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{rotated.port}") as channel:
            stub = Stub(channel)
            await move(stub, created.name, created.tokens[1], "bid:1")  # an old token works
            await stub.ListMoves(
                spb.ListMovesRequest(name=created.name, page_token=page.next_page_token)
            )
            again = await create(stub, request_id="made-before-rotation")
            assert again.name == created.name  # the retry found its game
            fresh = await create(stub)
            assert fresh.tokens[0] != SeatTokens(old.encode()).issue(fresh.game_id, 0, "any")
    async with running_app(store(), token_secret=new) as retired:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{retired.port}") as channel:
            stub = Stub(channel)
            code, reason, _ = await fails(move(stub, created.name, created.tokens[0], "bid:2"))
            assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "BAD_TOKEN")
            await move(stub, fresh.name, fresh.tokens[0], "bid:1")  # new tokens still work
