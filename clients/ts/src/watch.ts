/**
 * `GET /v1/{name=games/*}:watch` as an async iterator of snapshots, two ways.
 *
 * The default reads the Server-Sent Events stream over `fetch` (Node 20 and browsers):
 * the seat token goes in the `Authorization` header and a resume point in `Last-Event-ID`.
 * After a dropped connection, a stream that ended without `end`, a silent stream (no
 * heartbeat for `idleTimeoutMs`) or an `UNAVAILABLE` error event, it reconnects with the
 * last event id, so no version is missed or repeated; it stops on `end`, on a 204 (resumed
 * at a finished game's end), or when the caller aborts or leaves the loop.
 *
 * The other uses an `EventSource` (a browser's own, or any class with its interface): the
 * token and resume point travel as `?access_token=` and `?last_event_id=`, and the
 * EventSource reconnects by itself. It cannot see HTTP statuses, so when it gives up the
 * game is fetched once to tell "finished" from the real error.
 */

import { ClientReason, Code, TribesError, errorOfResponse, errorOfStatus } from "./errors.js";
import type { JsonCodec } from "./json.js";
import { SseParser, readEvents } from "./sse.js";
import { GameSnapshotSchema, type GameSnapshot } from "./gen/tribes/v1/common_pb.js";

/** What watch needs of an EventSource (the DOM's and the `eventsource` package's fit). */
export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
}

export type EventSourceConstructor = new (url: string) => EventSourceLike;

const CLOSED = 2; // EventSource.CLOSED

export interface WatchOptions {
  /** Resume after this version (the last one you have): the stream starts after it. */
  fromVersion?: bigint | number;
  /** Aborting ends the iteration (without an error) and closes the connection. */
  signal?: AbortSignal;
  /** Watch with an EventSource: a constructor, or `true` for `globalThis.EventSource`. */
  eventSource?: EventSourceConstructor | boolean;
  /**
   * Also yield the current version again whenever a seat comes or goes, with the new seat
   * list (`WatchGameRequest.presence`): such snapshots repeat a version already yielded.
   */
  presence?: boolean;
}

/** What the client gives the watchers. */
export interface WatchContext {
  readonly url: (path: string, query?: Record<string, string>) => string;
  readonly fetch: typeof fetch;
  readonly token: string | undefined;
  readonly codec: JsonCodec;
  readonly reconnectDelayMs: number;
  readonly maxReconnects: number;
  readonly idleTimeoutMs: number;
  readonly getGame: (name: string, signal?: AbortSignal) => Promise<GameSnapshot>;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

function snapshotOf(ctx: WatchContext, data: string): GameSnapshot {
  try {
    return ctx.codec.parse(GameSnapshotSchema, JSON.parse(data));
  } catch (cause) {
    throw new TribesError({
      httpStatus: 200,
      code: Code.INTERNAL,
      reason: ClientReason.BAD_RESPONSE,
      message: `a snapshot event does not parse: ${String(cause)}`.slice(0, 300),
      cause,
    });
  }
}

function streamError(ctx: WatchContext, data: string): TribesError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    parsed = undefined;
  }
  return (
    errorOfStatus(parsed, 200) ??
    new TribesError({
      httpStatus: 200,
      code: Code.UNKNOWN,
      reason: ClientReason.STREAM_FAILED,
      message: "the stream sent an error event without a status",
    })
  );
}

function networkError(cause: unknown): TribesError {
  return new TribesError({
    httpStatus: 0,
    code: Code.UNAVAILABLE,
    reason: ClientReason.NETWORK_ERROR,
    message: `the watch stream dropped: ${String(cause)}`.slice(0, 300),
    cause,
  });
}

/** Statuses worth reconnecting after: the service or a proxy in front of it is busy. */
function transient(status: number): boolean {
  return status === 502 || status === 503 || status === 504;
}

export async function* watchWithFetch(
  ctx: WatchContext,
  path: string,
  options: WatchOptions,
): AsyncGenerator<GameSnapshot, void, undefined> {
  const { signal } = options;
  let lastId = options.fromVersion === undefined ? undefined : String(options.fromVersion);
  let failures = 0;
  for (;;) {
    if (signal?.aborted) return;
    const connection = new AbortController();
    const onAbort = (): void => connection.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    let idle: ReturnType<typeof setTimeout> | undefined;
    const quiet = (): void => {
      clearTimeout(idle);
      if (ctx.idleTimeoutMs > 0) {
        idle = setTimeout(() => connection.abort(new Error("no heartbeat")), ctx.idleTimeoutMs);
      }
    };
    const parser = new SseParser(lastId);
    let failure: TribesError;
    try {
      const headers: Record<string, string> = { Accept: "text/event-stream" };
      if (ctx.token) headers["Authorization"] = `Bearer ${ctx.token}`;
      if (lastId !== undefined) headers["Last-Event-ID"] = lastId;
      quiet(); // a server that accepts the connection and never answers is dead too
      const query = options.presence ? { presence: "true" } : undefined;
      const response = await ctx.fetch(ctx.url(path, query), {
        headers,
        signal: connection.signal,
        cache: "no-store",
      });
      if (response.status === 204) return; // resumed at the end of a finished game
      if (!response.ok || response.body === null) {
        const error = errorOfResponse(response.status, response.statusText, await response.text());
        if (!transient(response.status)) throw error;
        failure = error;
      } else {
        failure = networkError("the stream ended before its end event");
        for await (const event of readEvents(response.body, parser, quiet, connection.signal)) {
          if (event.event === "snapshot") {
            const snapshot = snapshotOf(ctx, event.data);
            lastId = event.id ?? String(snapshot.version);
            failures = 0;
            yield snapshot;
          } else if (event.event === "end") {
            return;
          } else if (event.event === "error") {
            const error = streamError(ctx, event.data);
            if (error.code !== Code.UNAVAILABLE) throw error;
            failure = error; // the server lost its feed or is stopping: resume elsewhere
            break;
          }
        }
      }
    } catch (err) {
      if (signal?.aborted) return;
      if (err instanceof TribesError) throw err;
      failure = networkError(err);
    } finally {
      clearTimeout(idle);
      signal?.removeEventListener("abort", onAbort);
      connection.abort();
    }
    if (signal?.aborted) return;
    failures += 1;
    if (failures > ctx.maxReconnects) throw failure;
    const delay = parser.retry ?? ctx.reconnectDelayMs * 2 ** Math.min(failures - 1, 5);
    await sleep(Math.min(delay, 30_000), signal);
  }
}

type Item =
  | { kind: "snapshot"; data: string; id: string }
  | { kind: "end" }
  | { kind: "error"; data: string }
  | { kind: "closed" }
  | { kind: "aborted" };

export async function* watchWithEventSource(
  ctx: WatchContext,
  Source: EventSourceConstructor,
  name: string,
  path: string,
  options: WatchOptions,
): AsyncGenerator<GameSnapshot, void, undefined> {
  const { signal } = options;
  if (signal?.aborted) return;
  const query: Record<string, string> = {};
  if (ctx.token) query["access_token"] = ctx.token;
  if (options.fromVersion !== undefined) query["last_event_id"] = String(options.fromVersion);
  if (options.presence) query["presence"] = "true";
  const queue: Item[] = [];
  let wake: (() => void) | undefined;
  const push = (item: Item): void => {
    queue.push(item);
    wake?.();
  };
  const source = new Source(ctx.url(path, query));
  source.addEventListener("snapshot", (e) =>
    push({ kind: "snapshot", data: String(e.data), id: e.lastEventId }),
  );
  source.addEventListener("end", () => push({ kind: "end" }));
  source.addEventListener("error", (e) => {
    if (typeof e.data === "string")
      push({ kind: "error", data: e.data }); // the server's
    else if (source.readyState === CLOSED) push({ kind: "closed" }); // it gave up
    // otherwise it is reconnecting by itself, with Last-Event-ID
  });
  const onAbort = (): void => push({ kind: "aborted" });
  signal?.addEventListener("abort", onAbort, { once: true });
  let last: bigint | undefined =
    options.fromVersion === undefined ? undefined : BigInt(options.fromVersion);
  try {
    for (;;) {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const item = queue.shift() as Item;
      switch (item.kind) {
        case "snapshot": {
          const snapshot = snapshotOf(ctx, item.data);
          last = snapshot.version;
          yield snapshot;
          break;
        }
        case "end":
        case "aborted":
          return;
        case "error": {
          const error = streamError(ctx, item.data);
          if (error.code !== Code.UNAVAILABLE) throw error;
          break; // the EventSource reconnects with Last-Event-ID
        }
        case "closed": {
          // A 204 (resumed at the end) and a 404 look the same from here: ask once.
          const game = await ctx.getGame(name, signal);
          if (game.finished && last !== undefined && last >= game.version) return;
          throw new TribesError({
            httpStatus: 0,
            code: Code.UNAVAILABLE,
            reason: ClientReason.STREAM_FAILED,
            message: "the EventSource closed the watch stream",
          });
        }
      }
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    source.close();
  }
}

/** The EventSource class the options ask for, or undefined to use fetch. */
export function eventSourceOf(
  choice: EventSourceConstructor | boolean | undefined,
): EventSourceConstructor | undefined {
  if (choice === undefined || choice === false) return undefined;
  if (choice !== true) return choice;
  const global = (globalThis as { EventSource?: EventSourceConstructor }).EventSource;
  if (global === undefined) {
    throw new TypeError("eventSource: true needs a global EventSource (a browser); pass a class");
  }
  return global;
}
