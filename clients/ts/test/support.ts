/**
 * Shared test helpers: the test game's registry, game set-up, and `fetch` wrappers that
 * record what the client sends or break connections on purpose (a lost answer, a dropped
 * stream) in front of the real server.
 */

import { createRegistry } from "@bufbuild/protobuf";

import { TribesClient, type CreatedGame, type GameSnapshot } from "../src/index.js";
import { file_tests_games_goofspiel_goofspiel } from "./gen/tests/games/goofspiel/goofspiel_pb.js";

/** The test game's messages, for the `plugin` Any arms of Move and View. */
export const goofspielRegistry = createRegistry(file_tests_games_goofspiel_goofspiel);

export interface Table {
  created: CreatedGame;
  name: string;
  seats: TribesClient[];
}

/** A 2-seat goofspiel game of `cards` cards, seeded, with one client per seat. */
export async function goofspiel(client: TribesClient, cards = 3, seed = 1): Promise<Table> {
  const created = await client.createGame({
    gameType: "goofspiel",
    seatCount: 2,
    options: { cards: String(cards) },
    seed,
  });
  const seats = created.seatTokens.map((token) => client.withToken(token));
  return { created, name: created.game.name, seats };
}

/** One round: both seats bid `card` (by move id); the snapshot after the second bid. */
export async function round(table: Table, card: number): Promise<GameSnapshot> {
  await table.seats[0]!.applyMove(table.name, { moveId: `bid:${card}` });
  return table.seats[1]!.applyMove(table.name, { moveId: `bid:${card}` });
}

export interface Sent {
  url: string;
  method: string;
  headers: Headers;
  body: string | undefined;
}

/** A fetch that records every request before passing it on. */
export function recordingFetch(sent: Sent[], inner: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    sent.push({
      url: String(input),
      method: init?.method ?? "GET",
      headers: new Headers(init?.headers),
      body: typeof init?.body === "string" ? init.body : undefined,
    });
    return inner(input, init);
  };
}

/** The JSON a google.rpc.Status of UNAVAILABLE, as the service sends it. */
export function unavailable(): Response {
  const status = {
    code: 14,
    message: "the game store did not answer",
    details: [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        reason: "STORE_UNAVAILABLE",
        domain: "tribes.v1",
        metadata: {},
      },
    ],
  };
  return new Response(JSON.stringify(status), {
    status: 503,
    headers: { "Content-Type": "application/json" },
  });
}

/**
 * A fetch whose first `lose` matching requests reach the server but whose answers are
 * lost: the caller gets a 503 instead, as behind a proxy whose upstream timed out.
 */
export function losingFetch(
  matches: (url: string, method: string) => boolean,
  lose: number,
): typeof fetch {
  let lost = 0;
  return async (input, init) => {
    const response = await globalThis.fetch(input, init);
    if (lost < lose && matches(String(input), init?.method ?? "GET")) {
      lost += 1;
      await response.arrayBuffer();
      return unavailable();
    }
    return response;
  };
}

/**
 * A fetch that cuts the first `drops` watch streams right after their first complete
 * event, as a network that drops the connection; later ones pass untouched.
 */
export function droppingFetch(drops: number): typeof fetch {
  let dropped = 0;
  return async (input, init) => {
    const response = await globalThis.fetch(input, init);
    if (!String(input).includes(":watch") || response.body === null || dropped >= drops) {
      return response;
    }
    dropped += 1;
    const reader = response.body.getReader();
    let seen = new Uint8Array(0);
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        const joined = new Uint8Array(seen.length + value.length);
        joined.set(seen);
        joined.set(value, seen.length);
        seen = joined;
        const end = indexOfBlankLine(seen);
        if (end < 0) return controller.enqueue(value);
        // pass exactly the first event, then fail the stream like a reset connection
        controller.enqueue(seen.slice(seen.length - value.length, end));
        await reader.cancel();
        controller.error(new TypeError("terminated: connection reset (test)"));
      },
      cancel: () => reader.cancel(),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

/**
 * A fetch whose first `stalls` watch streams deliver their first event and then nothing,
 * not even heartbeats, without closing, and without following the request's abort signal:
 * a half-dead connection (a NAT that forgot it, a stuck proxy).
 */
export function stallingFetch(stalls: number): typeof fetch {
  let stalled = 0;
  return async (input, init) => {
    const response = await globalThis.fetch(input, init);
    if (!String(input).includes(":watch") || response.body === null || stalled >= stalls) {
      return response;
    }
    stalled += 1;
    const reader = response.body.getReader();
    let first = true;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!first) return new Promise<void>(() => {}); // silence, forever
        let seen = new Uint8Array(0);
        while (indexOfBlankLine(seen) < 0) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          const joined = new Uint8Array(seen.length + value.length);
          joined.set(seen);
          joined.set(value, seen.length);
          seen = joined;
        }
        first = false;
        controller.enqueue(seen.slice(0, indexOfBlankLine(seen)));
        await reader.cancel();
      },
      cancel: () => reader.cancel(),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

/** A text/event-stream response with the given body, as a server or proxy might send. */
export function eventStream(text: string): Response {
  return new Response(text, { status: 200, headers: { "Content-Type": "text/event-stream" } });
}

function indexOfBlankLine(bytes: Uint8Array): number {
  for (let i = 0; i + 1 < bytes.length; i++) {
    if (bytes[i] === 10 && bytes[i + 1] === 10) return i + 2;
  }
  return -1;
}

/** Collect an async iterator into an array. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Wait until `ok()` holds, checking every 5 ms; fail after `ms` naming `what`. */
export async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
