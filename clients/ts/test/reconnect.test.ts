/**
 * How watch() survives a bad network in front of a real server: a stream gone silent, an
 * UNAVAILABLE error event (the server lost its change feed or is stopping), a 503 from a
 * proxy, and when it gives up.
 */

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { Code, TribesClient, TribesError, type GameSnapshot } from "../src/index.js";
import { startServer, type Server } from "./server.js";
import {
  collect,
  eventStream,
  goofspiel,
  goofspielRegistry,
  recordingFetch,
  round,
  stallingFetch,
  unavailable,
  type Sent,
} from "./support.js";

let server: Server;
let client: TribesClient;

before(async () => {
  // heartbeats far apart, so only a dead stream is silent for the client's idleTimeoutMs
  server = await startServer({ TRIBES_SSE_HEARTBEAT_SECONDS: "30" });
  client = new TribesClient({ baseUrl: server.baseUrl, registry: goofspielRegistry });
});

after(async () => {
  await server?.stop();
});

const STATUS = (code: number, reason: string): string =>
  JSON.stringify({
    code,
    message: `test: ${reason}`,
    details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: "tribes.v1" }],
  });

/** A fetch that answers the first watch requests from `script`, the rest from the server. */
function scriptedFetch(script: (() => Response)[], sent: Sent[]): typeof fetch {
  return recordingFetch(sent, async (input, init) => {
    const next = String(input).includes(":watch") ? script.shift() : undefined;
    return next !== undefined ? next() : globalThis.fetch(input, init);
  });
}

test("a stream silent past idleTimeoutMs is dropped and resumed after its last event", async () => {
  const table = await goofspiel(client);
  const sent: Sent[] = [];
  const watcher = new TribesClient({
    baseUrl: server.baseUrl,
    idleTimeoutMs: 500,
    reconnectDelayMs: 10,
    fetch: recordingFetch(sent, stallingFetch(1)),
  });
  const seen: GameSnapshot[] = [];
  for await (const snapshot of watcher.watch(table.name)) {
    seen.push(snapshot);
    if (snapshot.version === 1n) {
      for (const card of [1, 2, 3]) await round(table, card); // while the stream is stuck
    }
  }
  assert.deepEqual(
    seen.map((s) => s.version),
    [1n, 2n, 3n, 4n, 5n, 6n, 7n],
  );
  const watches = sent.filter((s) => s.url.includes(":watch"));
  // (a slow machine may go quiet once more on the second connection; it resumes again)
  assert.ok(watches.length >= 2);
  assert.equal(watches[1]!.headers.get("Last-Event-ID"), "1");
});

test("an UNAVAILABLE error event and a 503 are reconnected after; other errors raised", async () => {
  const table = await goofspiel(client);
  await round(table, 1);
  const sent: Sent[] = [];
  const watcher = new TribesClient({
    baseUrl: server.baseUrl,
    reconnectDelayMs: 10,
    fetch: scriptedFetch(
      [
        () => eventStream(`id: 1\nevent: snapshot\ndata: ${snapshotJson(table.name, 1)}\n\n`),
        () => eventStream(`event: error\ndata: ${STATUS(14, "FEED_LOST")}\n\n`),
        unavailable,
      ],
      sent,
    ),
  });
  const stream = watcher.watch(table.name);
  const first = await stream.next();
  assert.equal((first.value as GameSnapshot).version, 1n);
  const resumed = await stream.next(); // after the error event and the 503: the real server
  assert.equal((resumed.value as GameSnapshot).version, 2n);
  await stream.return();
  const watches = sent.filter((s) => s.url.includes(":watch"));
  assert.equal(watches.length, 4);
  assert.deepEqual(
    watches.map((w) => w.headers.get("Last-Event-ID")),
    [null, "1", "1", "1"],
  );

  const denied = new TribesClient({
    baseUrl: server.baseUrl,
    fetch: scriptedFetch(
      [() => eventStream(`event: error\ndata: ${STATUS(7, "BAD_TOKEN")}\n\n`)],
      [],
    ),
  });
  await assert.rejects(collect(denied.watch(table.name)), (err: unknown) => {
    assert.ok(err instanceof TribesError);
    assert.deepEqual([err.code, err.reason], [Code.PERMISSION_DENIED, "BAD_TOKEN"]);
    return true;
  });
});

test("after maxReconnects failures in a row, the last failure is raised", async () => {
  let calls = 0;
  const nowhere = new TribesClient({
    baseUrl: "http://127.0.0.1:9",
    maxReconnects: 2,
    reconnectDelayMs: 1,
    fetch: (input, init) => {
      calls += 1;
      return globalThis.fetch(input, init);
    },
  });
  await assert.rejects(collect(nowhere.watch("games/x")), (err: unknown) => {
    assert.ok(err instanceof TribesError);
    assert.deepEqual(
      [err.httpStatus, err.code, err.reason],
      [0, Code.UNAVAILABLE, "NETWORK_ERROR"],
    );
    return true;
  });
  assert.equal(calls, 3);
});

/** The JSON of a minimal spectator snapshot of `name` at `version`, as the server prints. */
function snapshotJson(name: string, version: number): string {
  return JSON.stringify({
    name,
    gameType: "goofspiel",
    version: String(version),
    finished: false,
    toAct: [0, 1],
    viewerSeat: -1,
    scores: [],
    legalMoves: [],
    seatCount: 2,
    options: { cards: "3" },
  });
}
