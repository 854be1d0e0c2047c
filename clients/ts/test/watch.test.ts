/**
 * watch() against a real server, over fetch and over an EventSource (the `eventsource`
 * package, which follows the browser's spec): every version once and in order to the end
 * of a game, resuming from a version, resuming after a dropped connection, a finished
 * game's end, redaction for spectators, errors and stopping early.
 */

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { anyUnpack, type Any } from "@bufbuild/protobuf/wkt";
import { EventSource } from "eventsource";
import WebSocket from "ws";

import { Code, TribesClient, TribesError, type GameSnapshot } from "../src/index.js";
import { GoofspielViewSchema } from "./gen/tests/games/goofspiel/goofspiel_pb.js";
import { startServer, type Server } from "./server.js";
import {
  collect,
  droppingFetch,
  goofspiel,
  goofspielRegistry,
  recordingFetch,
  round,
  type Sent,
  type Table,
} from "./support.js";

let server: Server;
let client: TribesClient;

before(async () => {
  server = await startServer({ TRIBES_SSE_HEARTBEAT_SECONDS: "0.2" });
  client = new TribesClient({
    baseUrl: server.baseUrl,
    registry: goofspielRegistry,
    reconnectDelayMs: 10,
  });
});

after(async () => {
  await server?.stop();
});

/** Plays a 3-card game to its end (versions 2..7) once the watcher has its first snapshot. */
async function playOut(table: Table, started: Promise<void>): Promise<void> {
  await started;
  for (const card of [1, 2, 3]) await round(table, card);
}

/** Watches `stream` while `play` runs; resolves `started` at the first snapshot. */
async function watchWhile(
  stream: AsyncIterable<GameSnapshot>,
  play: (started: Promise<void>) => Promise<void>,
): Promise<GameSnapshot[]> {
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const seen: GameSnapshot[] = [];
  const watching = (async () => {
    for await (const snapshot of stream) {
      seen.push(snapshot);
      markStarted();
    }
  })();
  await Promise.all([watching, play(started)]);
  return seen;
}

const versions = (snapshots: GameSnapshot[]): bigint[] => snapshots.map((s) => s.version);

test("watch yields every version once, in order, and ends after the final snapshot", async () => {
  const table = await goofspiel(client);
  const seen = await watchWhile(table.seats[0]!.watch(table.name), (s) => playOut(table, s));
  assert.deepEqual(versions(seen), [1n, 2n, 3n, 4n, 5n, 6n, 7n]);
  assert.equal(seen.at(-1)!.finished, true);
  assert.ok(seen.slice(0, -1).every((s) => !s.finished));
  assert.equal(seen[0]!.viewerSeat, 0);
  assert.equal(seen[0]!.legalMoves.length, 3); // the seat's own moves
  assert.ok((seen.at(-1)!.result?.winners.length ?? 0) > 0);
});

test("watch from a version resumes after it; a finished game replays to its end", async () => {
  const table = await goofspiel(client);
  for (const card of [1, 2, 3]) await round(table, card);
  const resumed = await collect(client.watch(table.name, { fromVersion: 4n }));
  assert.deepEqual(versions(resumed), [5n, 6n, 7n]);
  // at the end already: the server answers 204 and the iteration ends at once
  const atEnd = await collect(client.watch(table.name, { fromVersion: 7 }));
  assert.deepEqual(atEnd, []);
});

test("a dropped stream resumes with Last-Event-ID: no version missed or repeated", async () => {
  const table = await goofspiel(client);
  const sent: Sent[] = [];
  const flaky = new TribesClient({
    baseUrl: server.baseUrl,
    registry: goofspielRegistry,
    reconnectDelayMs: 10,
    fetch: recordingFetch(sent, droppingFetch(2)),
  });
  const seen = await watchWhile(flaky.watch(table.name), (s) => playOut(table, s));
  assert.deepEqual(versions(seen), [1n, 2n, 3n, 4n, 5n, 6n, 7n]);
  const watches = sent.filter((s) => s.url.includes(":watch"));
  assert.ok(watches.length >= 3, `reconnected twice (${watches.length} requests)`);
  assert.equal(watches[0]!.headers.get("Last-Event-ID"), null);
  for (const request of watches.slice(1)) {
    assert.match(request.headers.get("Last-Event-ID") ?? "", /^[1-7]$/);
  }
});

test("a spectator's stream shows no seat's pending bid and no legal moves", async () => {
  const table = await goofspiel(client);
  const [one, two] = table.seats as [TribesClient, TribesClient];
  const seen = await watchWhile(client.watch(table.name), async (started) => {
    await started;
    for (const [a, b] of [
      [2, 1],
      [1, 2],
      [3, 3],
    ] as const) {
      await one.applyMove(table.name, { moveId: `bid:${a}` });
      await two.applyMove(table.name, { moveId: `bid:${b}` });
    }
  });
  assert.deepEqual(versions(seen), [1n, 2n, 3n, 4n, 5n, 6n, 7n]);
  assert.ok(seen.every((s) => s.viewerSeat === -1 && s.legalMoves.length === 0));
  const pending = seen[1]!.view?.game;
  assert.equal(pending?.case, "plugin");
  const view = anyUnpack(pending.value, GoofspielViewSchema);
  assert.deepEqual(view?.hasBid, [true, false]);
  assert.equal(view?.myBid, undefined);
  const revealed = anyUnpack(seen[2]!.view?.game.value as Any, GoofspielViewSchema);
  assert.deepEqual(revealed?.tricks[0]?.bids, [2, 1]); // shown once both have bid
});

test("leaving the loop or aborting stops watching", async () => {
  const table = await goofspiel(client);
  for await (const snapshot of client.watch(table.name)) {
    assert.equal(snapshot.version, 1n);
    break; // the connection closes; the loop does not hang on heartbeats
  }
  const controller = new AbortController();
  const seen: GameSnapshot[] = [];
  for await (const snapshot of client.watch(table.name, { signal: controller.signal })) {
    seen.push(snapshot);
    controller.abort();
  }
  assert.deepEqual(versions(seen), [1n]);
});

test("watching a game that does not exist raises NOT_FOUND", async () => {
  await assert.rejects(collect(client.watch("games/nosuchgame")), (err: unknown) => {
    assert.ok(err instanceof TribesError);
    assert.deepEqual(
      [err.httpStatus, err.code, err.reason],
      [404, Code.NOT_FOUND, "GAME_NOT_FOUND"],
    );
    return true;
  });
});

test("a bad seat token on a watch raises BAD_TOKEN", async () => {
  const table = await goofspiel(client);
  const forged = client.withToken("0.forged");
  await assert.rejects(collect(forged.watch(table.name)), (err: unknown) => {
    assert.ok(err instanceof TribesError);
    assert.equal(err.reason, "BAD_TOKEN");
    return true;
  });
});

test("with an EventSource: the seat's stream to the end, its token as access_token", async () => {
  const table = await goofspiel(client);
  const urls: string[] = [];
  class RecordingEventSource extends EventSource {
    constructor(url: string) {
      urls.push(url);
      super(url);
    }
  }
  const seat = table.seats[1]!;
  const seen = await watchWhile(
    seat.watch(table.name, { eventSource: RecordingEventSource }),
    (s) => playOut(table, s),
  );
  assert.deepEqual(versions(seen), [1n, 2n, 3n, 4n, 5n, 6n, 7n]);
  assert.ok(seen.every((s) => s.viewerSeat === 1));
  assert.equal(new URL(urls[0]!).searchParams.get("access_token"), table.created.seatTokens[1]);
});

test("with an EventSource: resume from a version, and a finished game's end", async () => {
  const table = await goofspiel(client);
  for (const card of [1, 2, 3]) await round(table, card);
  const es = new TribesClient({
    baseUrl: server.baseUrl,
    registry: goofspielRegistry,
    eventSource: EventSource,
  });
  assert.deepEqual(versions(await collect(es.watch(table.name, { fromVersion: 5 }))), [6n, 7n]);
  assert.deepEqual(await collect(es.watch(table.name, { fromVersion: 7 })), []);
});

test("with an EventSource: an unknown game raises the service's NOT_FOUND", async () => {
  const es = new TribesClient({ baseUrl: server.baseUrl, eventSource: EventSource });
  await assert.rejects(collect(es.watch("games/nosuchgame")), (err: unknown) => {
    assert.ok(err instanceof TribesError);
    assert.equal(err.reason, "GAME_NOT_FOUND");
    return true;
  });
});

test("eventSource: true without a global EventSource is a TypeError", () => {
  assert.throws(() => client.watch("games/x", { eventSource: true }), TypeError);
});

for (const eventSource of [false, EventSource] as const) {
  const over = eventSource ? "EventSource" : "fetch";
  test(`presence: true yields the version again when a seat comes and goes [${over}]`, async () => {
    const table = await goofspiel(client);
    const controller = new AbortController();
    const stream = client.watch(table.name, {
      presence: true,
      eventSource,
      signal: controller.signal,
    });
    const first = await stream.next();
    assert.ok(!first.done);
    assert.deepEqual(
      first.value.seats.map((s) => s.present),
      [false, false],
    );
    const session = table.seats[1]!.play(table.name, { WebSocket });
    const came = await stream.next();
    assert.ok(!came.done);
    assert.equal(came.value.version, first.value.version);
    assert.deepEqual(
      came.value.seats.map((s) => s.present),
      [false, true],
    );
    session.close();
    const left = await stream.next();
    assert.ok(!left.done);
    assert.equal(left.value.version, first.value.version);
    assert.equal(left.value.seats[1]!.present, false);
    controller.abort();
    assert.ok((await stream.next()).done);
  });
}
