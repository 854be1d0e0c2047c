/**
 * Failures as TribesError against a real server: HTTP status, gRPC code, reason, metadata
 * for each kind of error; retries of a lost answer with the same requestId that play
 * once; what is and is not retried; failures that never reached the service.
 */

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { Code, TribesError, TribesClient } from "../src/index.js";
import { startServer, type Server } from "./server.js";
import {
  collect,
  goofspiel,
  goofspielRegistry,
  losingFetch,
  recordingFetch,
  unavailable,
  type Sent,
} from "./support.js";

let server: Server;
let client: TribesClient;

before(async () => {
  server = await startServer();
  client = new TribesClient({
    baseUrl: server.baseUrl,
    registry: goofspielRegistry,
    retryDelayMs: 10,
  });
});

after(async () => {
  await server?.stop();
});

/** The TribesError `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<TribesError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof TribesError, `a TribesError, not ${String(err)}`);
    return err;
  }
  assert.fail("the call succeeded");
}

function summary(err: TribesError): [number, number, string] {
  return [err.httpStatus, err.code, err.reason];
}

test("request errors carry their HTTP status, code, reason and the service's message", async () => {
  // calls, not promises: each is made when its turn comes, so no rejection waits unhandled
  const cases: [() => Promise<unknown>, [number, number, string]][] = [
    [() => client.getGame("games/nosuchgame"), [404, Code.NOT_FOUND, "GAME_NOT_FOUND"]],
    [() => client.getGame("games/bad name"), [400, Code.INVALID_ARGUMENT, "BAD_NAME"]],
    [
      () => client.createGame({ gameType: "chess", seatCount: 2 }),
      [404, Code.NOT_FOUND, "UNKNOWN_GAME_TYPE"],
    ],
    [
      () => client.createGame({ gameType: "goofspiel", seatCount: 7 }),
      [400, Code.INVALID_ARGUMENT, "BAD_OPTIONS"],
    ],
    [
      () => client.createGame({ gameType: "goofspiel", seatCount: 2, options: { cards: "4" } }),
      [400, Code.INVALID_ARGUMENT, "BAD_OPTIONS"],
    ],
  ];
  for (const [call, want] of cases) {
    const err = await failure(call());
    assert.deepEqual(summary(err), want, err.message);
    assert.equal(err.domain, "tribes.v1");
    assert.ok(err.message.length > 0 && err.message.length < 300);
  }
});

test("game errors: tokens, turns, rules, stale versions with the current version", async () => {
  const table = await goofspiel(client);
  const { name, seats } = table;
  const forged = client.withToken("0.forged");
  const checks: [() => Promise<unknown>, [number, number, string]][] = [
    [
      () => client.applyMove(name, { moveId: "bid:1" }),
      [401, Code.UNAUTHENTICATED, "TOKEN_REQUIRED"],
    ],
    [() => forged.applyMove(name, { moveId: "bid:1" }), [403, Code.PERMISSION_DENIED, "BAD_TOKEN"]],
    [
      () => seats[0]!.applyMove(name, { moveId: "bid:9" }),
      [400, Code.FAILED_PRECONDITION, "ILLEGAL_MOVE"],
    ],
    [
      () => seats[0]!.applyMove(name, { moveId: "??" }),
      [400, Code.INVALID_ARGUMENT, "MALFORMED_MOVE"],
    ],
  ];
  for (const [call, want] of checks) {
    const err = await failure(call());
    assert.deepEqual(summary(err), want, err.message);
    assert.equal(err.codeName, Object.entries(Code).find(([, v]) => v === want[1])![0]);
  }
  const stale = await failure(
    seats[0]!.applyMove(name, { moveId: "bid:1" }, { expectedVersion: 9 }),
  );
  assert.deepEqual(summary(stale), [409, Code.ABORTED, "STALE_VERSION"]);
  assert.equal(stale.metadata["current_version"], "1");
  assert.equal(stale.codeName, "ABORTED");
  assert.match(stale.requestId ?? "", /^[0-9a-f-]{36}$/);
  await seats[0]!.applyMove(name, { moveId: "bid:1" });
  const turn = await failure(seats[0]!.applyMove(name, { moveId: "bid:2" }));
  assert.deepEqual(summary(turn), [400, Code.FAILED_PRECONDITION, "NOT_YOUR_TURN"]);
  for (const card of [1, 2, 3]) {
    if (card > 1) await seats[0]!.applyMove(name, { moveId: `bid:${card}` });
    await seats[1]!.applyMove(name, { moveId: `bid:${card}` });
  }
  const over = await failure(seats[0]!.applyMove(name, { moveId: "bid:1" }));
  assert.deepEqual(summary(over), [400, Code.FAILED_PRECONDITION, "GAME_FINISHED"]);
  const page = await failure(client.listMoves(name, { pageSize: -1 }));
  assert.deepEqual(summary(page), [400, Code.INVALID_ARGUMENT, "BAD_PAGE_SIZE"]);
  const token = await failure(client.listMoves(name, { pageToken: "999" }));
  assert.deepEqual(summary(token), [400, Code.INVALID_ARGUMENT, "BAD_PAGE_TOKEN"]);
});

test("a lost answer to applyMove is retried with the same requestId and plays once", async () => {
  const table = await goofspiel(client);
  const sent: Sent[] = [];
  const lossy = new TribesClient({
    baseUrl: server.baseUrl,
    token: table.created.seatTokens[0],
    retryDelayMs: 10,
    fetch: recordingFetch(
      sent,
      losingFetch((url) => url.endsWith(":applyMove"), 2),
    ),
  });
  const snapshot = await lossy.applyMove(table.name, { moveId: "bid:2" });
  assert.equal(snapshot.version, 2n);
  assert.equal(sent.length, 3); // two lost answers, then the first answer replayed
  const ids = sent.map((s) => JSON.parse(s.body!).requestId as string);
  assert.equal(new Set(ids).size, 1);
  const log = await collect(client.allMoves(table.name));
  assert.deepEqual(
    log.map((m) => m.version),
    [2n],
  );
});

test("a lost answer to createGame is retried and gives back the same game and tokens", async () => {
  const sent: Sent[] = [];
  const lossy = new TribesClient({
    baseUrl: server.baseUrl,
    retryDelayMs: 10,
    fetch: recordingFetch(
      sent,
      losingFetch((url, method) => method === "POST", 1),
    ),
  });
  const created = await lossy.createGame({ gameType: "goofspiel", seatCount: 2 });
  const ids = sent.map((s) => JSON.parse(s.body!).requestId as string);
  assert.equal(sent.length, 2);
  assert.equal(ids[0], ids[1]);
  // the same request id by hand answers the same game: the first one was remembered
  const again = await client.createGame({ gameType: "goofspiel", seatCount: 2, requestId: ids[0] });
  assert.equal(again.game.name, created.game.name);
  assert.deepEqual(again.seatTokens, created.seatTokens);
});

test("503s are retried `retries` times, then the last one is raised", async () => {
  let calls = 0;
  const down = new TribesClient({
    baseUrl: server.baseUrl,
    retries: 2,
    retryDelayMs: 1,
    fetch: async () => {
      calls += 1;
      return unavailable();
    },
  });
  const err = await failure(down.listGameTypes());
  assert.equal(calls, 3);
  assert.deepEqual(summary(err), [503, Code.UNAVAILABLE, "STORE_UNAVAILABLE"]);
});

test("errors the service decided (4xx) are not retried", async () => {
  const sent: Sent[] = [];
  const recording = new TribesClient({ baseUrl: server.baseUrl, fetch: recordingFetch(sent) });
  await failure(recording.getGame("games/nosuchgame"));
  assert.equal(sent.length, 1);
});

test("429 RATE_LIMITED from a server with a create limit, not retried", async () => {
  const limited = await startServer({
    TRIBES_CREATE_RATE: "0.001",
    TRIBES_CREATE_BURST: "1",
    TRIBES_LIMIT_LOOPBACK: "1", // the test runs on loopback, which is not limited by default
  });
  try {
    const sent: Sent[] = [];
    const c = new TribesClient({ baseUrl: limited.baseUrl, fetch: recordingFetch(sent) });
    await c.createGame({ gameType: "goofspiel", seatCount: 2 });
    const err = await failure(c.createGame({ gameType: "goofspiel", seatCount: 2 }));
    assert.deepEqual(summary(err), [429, Code.RESOURCE_EXHAUSTED, "RATE_LIMITED"]);
    assert.equal(sent.length, 2);
  } finally {
    await limited.stop();
  }
});

test("no server: NETWORK_ERROR with HTTP status 0, after the retries", async () => {
  let calls = 0;
  const nowhere = new TribesClient({
    baseUrl: "http://127.0.0.1:9",
    retries: 1,
    retryDelayMs: 1,
    fetch: (input, init) => {
      calls += 1;
      return globalThis.fetch(input, init);
    },
  });
  const err = await failure(nowhere.listGameTypes());
  assert.deepEqual(summary(err), [0, Code.UNAVAILABLE, "NETWORK_ERROR"]);
  assert.equal(calls, 2);
});

test("an error page that is not a google.rpc.Status is an HTTP_ERROR of its code", async () => {
  const proxy = new TribesClient({
    baseUrl: server.baseUrl,
    fetch: async () =>
      new Response("<html>Forbidden</html>", { status: 403, statusText: "Forbidden" }),
  });
  const err = await failure(proxy.listGameTypes());
  assert.deepEqual(summary(err), [403, Code.PERMISSION_DENIED, "HTTP_ERROR"]);
  assert.equal(err.message, "HTTP 403 Forbidden");
});

test("a timed-out attempt is retried; the last timeout is DEADLINE_EXCEEDED", async () => {
  let calls = 0;
  const slow = new TribesClient({
    baseUrl: server.baseUrl,
    retries: 1,
    retryDelayMs: 1,
    timeoutMs: 20,
    fetch: (_input, init) => {
      calls += 1;
      // never answers; rejects when the client gives up on it
      return new Promise((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      });
    },
  });
  const err = await failure(slow.listGameTypes());
  assert.deepEqual(summary(err), [0, Code.DEADLINE_EXCEEDED, "TIMEOUT"]);
  assert.equal(calls, 2);
});

test("the caller's abort rejects with the abort reason and is not retried", async () => {
  const controller = new AbortController();
  controller.abort(new Error("stop"));
  await assert.rejects(client.listGameTypes({ signal: controller.signal }), /stop/);
});
