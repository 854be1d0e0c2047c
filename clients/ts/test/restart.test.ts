/**
 * A play session across a real server restart (a rolling deploy): the server on a fixed
 * port, its games in Redis (the tests' Redis, under a key prefix of this file's own, whose
 * keys are deleted afterwards), stopped while two seats' sessions are open, and another
 * server started on the same port. Each session comes back from the version it held, a move
 * made while no server ran is played once, and the game goes on.
 */

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { after, test } from "node:test";

import WebSocket from "ws";

import {
  TribesClient,
  type PlaySession,
  type SessionEvent,
  type WebSocketConstructor,
} from "../src/index.js";
import { repoRoot, startServer, type Server } from "./server.js";
import { collect, goofspiel, goofspielRegistry, type Table, until } from "./support.js";

const REDIS = process.env["TRIBES_TEST_REDIS_URL"] ?? "redis://127.0.0.1:6379/0";
const PREFIX = `tribes-ts-restart-${randomUUID().slice(0, 12)}`;
const servers: Server[] = [];

/** A socket the session opened: its URL, and the code it closed with. */
interface Opened {
  url: string;
  closed?: number;
}

after(async () => {
  for (const server of servers) await server.stop();
  const python = process.env["TRIBES_PYTHON"] ?? join(repoRoot(), ".venv", "bin", "python");
  const drop = [
    "import redis, sys",
    "r = redis.Redis.from_url(sys.argv[1])",
    "keys = list(r.scan_iter(match=sys.argv[2] + ':*', count=1000))",
    "r.delete(*keys) if keys else None",
  ].join("\n");
  spawnSync(python, ["-c", drop, REDIS, PREFIX], { timeout: 30_000 });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** `ws` sockets that remember the URL each was opened at and the code each closed with. */
function recording(made: Opened[]): WebSocketConstructor {
  return class extends WebSocket {
    constructor(url: string, protocols?: string[]) {
      super(url, protocols);
      const entry: Opened = { url };
      made.push(entry);
      this.on("close", (code: number) => (entry.closed = code));
    }
  } as unknown as WebSocketConstructor;
}

function versions(events: SessionEvent[]): bigint[] {
  return [...new Set(events.flatMap((e) => (e.case === "snapshot" ? [e.value.version] : [])))];
}

test("sessions carry on across a server restart; a move made meanwhile is played once", async () => {
  const env = {
    REDIS_URL: REDIS,
    TRIBES_REDIS_PREFIX: PREFIX,
    TRIBES_TOKEN_SECRET: "ts-restart-test-secret-0123456789",
    TRIBES_HTTP_PORT: String(await freePort()),
  };
  const first = await startServer(env);
  servers.push(first);
  const client = new TribesClient({
    baseUrl: first.baseUrl,
    registry: goofspielRegistry,
    reconnectDelayMs: 100,
  });
  const table = await goofspiel(client, 3);
  const made: Opened[] = [];
  const sessions = table.seats.map((seat) => seat.play(table.name, { WebSocket: recording(made) }));
  const seen = sessions.map((s) => collect(s));
  for (const events of seen) events.catch(() => {}); // a failed session fails below, not here
  try {
    await played(sessions, first, env, made, table);
  } finally {
    for (const session of sessions) session.close();
    await Promise.allSettled(seen);
  }
  const [zero, one] = await Promise.all(seen);
  assert.deepEqual(versions(zero!), [1n, 2n, 3n, 4n]);
  assert.deepEqual(versions(one!), [1n, 2n, 3n, 4n]);
});

async function played(
  sessions: PlaySession[],
  first: Server,
  env: Record<string, string>,
  made: Opened[],
  table: Table,
): Promise<void> {
  await until("both opening snapshots", () => sessions.every((s) => s.snapshot !== undefined));
  assert.equal((await sessions[0]!.move("bid:2")).version, 2n);
  await until("the push of version 2", () => sessions[1]!.snapshot?.version === 2n);

  await first.stop();
  // the stopping server said why: each WebSocket closed with 1001 (going away)
  await until("both closes", () => made.slice(0, 2).every((m) => m.closed !== undefined));
  assert.deepEqual(
    made.slice(0, 2).map((m) => m.closed),
    [1001, 1001],
  );
  // a move while no server runs: held by the session, sent when it is back
  const meanwhile = sessions[1]!.move("bid:1", { requestId: "while-down" });
  meanwhile.catch(() => {}); // awaited below, once the next server runs

  const second = await startServer(env);
  servers.push(second);
  assert.equal(second.baseUrl, first.baseUrl);
  const answer = await meanwhile;
  assert.equal(answer.version, 3n);
  await until("the push of version 3", () => sessions[0]!.snapshot?.version === 3n);
  assert.equal((await sessions[0]!.move("bid:3")).version, 4n);
  await until("the push of version 4", () => sessions[1]!.snapshot?.version === 4n);

  // every reconnection resumed from the version its session held
  const resumed = made.slice(2).map((m) => new URL(m.url).searchParams.get("from_version"));
  assert.ok(resumed.length >= 2);
  assert.ok(resumed.every((v) => v === "2"));
  // each move played once, in order (seat 1's bid is hidden from seat 0, whose log this is)
  const log = await collect(table.seats[0]!.allMoves(table.name));
  assert.deepEqual(
    log.map((m) => [m.version, m.seat, m.moveId]),
    [
      [2n, 0, "bid:2"],
      [3n, 1, ""],
      [4n, 0, "bid:3"],
    ],
  );
  const theirs = await collect(table.seats[1]!.allMoves(table.name));
  assert.equal(theirs[1]!.moveId, "bid:1");
}
