/**
 * `GET /v1/games/{id}:play`, the WebSocket of `rpc Play`, as a {@link PlaySession}.
 *
 * The session opens from the URL: the seat token as `?access_token=` (a browser's
 * WebSocket cannot send headers) and the version already held as `?from_version=`. By
 * default it offers the subprotocol `tribes.v1.proto`: binary frames, each one protobuf
 * `PlayRequest` (in) or `PlayEvent` (out), the bytes the service built once (its JSON
 * mapping costs the server far more than the move). With `frames: "json"`, or against a
 * service that does not take the subprotocol, text frames carry the canonical JSON of the
 * same messages. An error that ends the session comes as a last `PlayEvent.error` (in JSON
 * `{"error": <google.rpc.Status>}`) before the close (README "Play sessions").
 *
 * The service answers every move with exactly one event that carries the move's request
 * id (`PlayEvent.request_id`): its snapshot (the move landed, or a retry found its first
 * answer) or its rejection. Pushes of other changes carry none. A move's promise settles
 * on that answer.
 *
 * After a dropped connection the session reconnects with `from_version` = the newest
 * version seen (nothing is sent again until the game moves past it) and sends every
 * unanswered move again with the same request id, so the service answers it with its first
 * answer instead of playing it twice. A snapshot older than one already seen (the answer to
 * such a retry) is not shown again. After the final snapshot of a finished game the service
 * ends the session; a move still unanswered then is settled by `ApplyMove` with its
 * request id (the first answer, or the service's refusal).
 */

import { create, equals, fromBinary, toBinary } from "@bufbuild/protobuf";

import { ClientReason, Code, TribesError, errorOfStatus, errorOfStatusMessage } from "./errors.js";
import { newRequestId } from "./ids.js";
import type { JsonCodec } from "./json.js";
import { GameSnapshotSchema, type GameSnapshot, type Move } from "./gen/tribes/v1/common_pb.js";
import type { Status } from "./gen/google/rpc/status_pb.js";
import {
  PlayEventSchema,
  PlayRequestSchema,
  type MoveRejected,
  type PlayRequest,
} from "./gen/tribes/v1/game_service_pb.js";

/** What a session reads of a WebSocket's events: a message's data, a close's code. */
export interface SocketEvent {
  readonly type: string;
  readonly data?: unknown;
  readonly code?: number;
}

/** The WebSocket subprotocol of binary frames (protobuf `PlayRequest` / `PlayEvent`). */
export const BINARY_SUBPROTOCOL = "tribes.v1.proto";

/** What a session needs of a WebSocket (the DOM's and the `ws` package's fit). */
export interface WebSocketLike {
  readonly readyState: number;
  /** The subprotocol the server chose ("" for none). */
  readonly protocol?: string;
  /** Set to "arraybuffer" so binary frames arrive as bytes (not a DOM Blob). */
  binaryType?: string;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
  addEventListener(
    type: "open" | "message" | "close" | "error",
    listener: (event: SocketEvent) => void,
  ): void;
}

export type WebSocketConstructor = new (url: string, protocols?: string[]) => WebSocketLike;

const OPEN = 1; // WebSocket.OPEN
const decoder = new TextDecoder("utf-8");
/** The session's idempotency keys must fit the service's limit, or it answers without. */
const MAX_REQUEST_ID = 128;

export interface PlayOptions {
  /** The version already held: no snapshot comes until the game moves past it. */
  fromVersion?: bigint | number;
  /** Aborting closes the session, as {@link PlaySession.close} does. */
  signal?: AbortSignal;
  /** The WebSocket class (default: the global one, as in browsers; in Node 20 pass the
   * `ws` package's). */
  WebSocket?: WebSocketConstructor;
  /** "binary" (default): protobuf frames, falling back to JSON when the service does not
   * take the subprotocol; "json": text frames of the JSON mapping. */
  frames?: "binary" | "json";
}

export interface SessionMoveOptions {
  /** The version the move was chosen against; 0 or absent = do not check. */
  expectedVersion?: bigint | number;
  /** The idempotency key; a fresh UUID when not given. */
  requestId?: string;
}

/** What a session yields: a seat's snapshot, or a refused move with its error. */
export type SessionEvent =
  | { case: "snapshot"; value: GameSnapshot }
  | { case: "rejected"; value: MoveRejected; error: TribesError };

export type SessionChoice = { moveId: string } | { move: Move };

/** What the client gives a session. */
export interface PlayContext {
  readonly url: (path: string, query?: Record<string, string>) => string;
  readonly token: string | undefined;
  readonly codec: JsonCodec;
  readonly reconnectDelayMs: number;
  readonly maxReconnects: number;
  readonly connectTimeoutMs: number;
  /** `ApplyMove` for this seat: settles a move left unanswered when the game ended. */
  readonly applyMove: (
    choice: SessionChoice,
    options: { expectedVersion: bigint; requestId: string },
  ) => Promise<GameSnapshot>;
}

interface Pending {
  readonly requestId: string;
  readonly choice: SessionChoice;
  readonly expectedVersion: bigint;
  /** The PlayRequest, sent again as it is (same request id) after a reconnection. */
  readonly request: PlayRequest;
  settled: boolean;
  resolve(snapshot: GameSnapshot): void;
  reject(error: unknown): void;
}

type Item = { event: SessionEvent } | { end: true } | { error: TribesError };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function badFrame(cause: unknown): TribesError {
  return new TribesError({
    httpStatus: 200,
    code: Code.INTERNAL,
    reason: ClientReason.BAD_RESPONSE,
    message: `a play session frame does not parse: ${String(cause)}`.slice(0, 300),
    cause,
  });
}

function dropped(message: string, cause?: unknown): TribesError {
  return new TribesError({
    httpStatus: 0,
    code: Code.UNAVAILABLE,
    reason: ClientReason.NETWORK_ERROR,
    message: `the play session dropped: ${message}`.slice(0, 300),
    cause,
  });
}

function sessionClosed(requestId?: string): TribesError {
  return new TribesError({
    httpStatus: 0,
    code: Code.CANCELLED,
    reason: ClientReason.SESSION_CLOSED,
    message: "the play session was closed",
    ...(requestId === undefined ? {} : { requestId }),
  });
}

/** Bytes of a message event's data, or undefined for text (a `ws` socket hands over a
 * Buffer, a DOM one with `binaryType = "arraybuffer"` an ArrayBuffer). */
function bytesOf(data: unknown): Uint8Array | undefined {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data))
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return undefined;
}

/** The WebSocket class the options ask for. */
export function webSocketOf(choice: WebSocketConstructor | undefined): WebSocketConstructor {
  if (choice !== undefined) return choice;
  const global = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (global === undefined) {
    throw new TypeError(
      "play: no global WebSocket here (Node 20); pass one, e.g. the ws package's",
    );
  }
  return global;
}

/**
 * A live play session for one seat (or a spectator) on one game. Iterate it for the
 * events; `move()` plays and resolves with a snapshot that includes the move (or rejects
 * with the refusal as a {@link TribesError}, which the iterator also yields as a `rejected`
 * event, and the session goes on). The iteration ends after the final snapshot of a
 * finished game; a session-ending error (a wrong token, no such game, or a connection lost
 * for good) is thrown from it. Leaving the loop, `close()` or the signal close the session.
 */
export class PlaySession implements AsyncIterable<SessionEvent> {
  readonly name: string;
  private readonly ctx: PlayContext;
  private readonly path: string;
  private readonly Socket: WebSocketConstructor;
  private readonly fromVersion: bigint | undefined;
  private readonly signal: AbortSignal | undefined;
  private readonly offerBinary: boolean;
  /** Whether the current connection speaks binary frames (the server took the subprotocol). */
  private binary = false;
  private readonly onAbort = (): void => this.close();
  private state: "open" | "finished" | "closed" | "failed" = "open";
  private failure: TribesError | undefined;
  private socket: WebSocketLike | undefined;
  /** Why the current connection is ending, when the service said (UNAVAILABLE). */
  private ending: TribesError | undefined;
  private latest: GameSnapshot | undefined;
  /** Unsettled moves, in the order they were made. */
  private pending: Pending[] = [];
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly queue: Item[] = [];
  private wake: (() => void) | undefined;

  constructor(ctx: PlayContext, name: string, path: string, options: PlayOptions = {}) {
    this.ctx = ctx;
    this.name = name;
    this.path = path;
    this.Socket = webSocketOf(options.WebSocket);
    this.fromVersion = options.fromVersion === undefined ? undefined : BigInt(options.fromVersion);
    this.signal = options.signal;
    this.offerBinary = (options.frames ?? "binary") === "binary";
    if (this.signal?.aborted) {
      this.close();
      return;
    }
    this.signal?.addEventListener("abort", this.onAbort, { once: true });
    this.connect();
  }

  /** The newest snapshot this session has received (undefined before the first). */
  get snapshot(): GameSnapshot | undefined {
    return this.latest;
  }

  /** Whether the session still runs (false once it ended, failed or was closed). */
  get open(): boolean {
    return this.state === "open";
  }

  /**
   * Play a move for this seat, by legal-move id or typed. Resolves with a snapshot that
   * includes it; rejects with the service's refusal ({@link TribesError}: its `reason`,
   * e.g. `ILLEGAL_MOVE` or `STALE_VERSION`), or `SESSION_CLOSED` when the session is closed
   * first. A dropped connection does not fail it: it is sent again with the same requestId.
   */
  move(choice: string | Move, options: SessionMoveOptions = {}): Promise<GameSnapshot> {
    const requestId = options.requestId ?? newRequestId();
    if (requestId === "" || requestId.length > MAX_REQUEST_ID) {
      return Promise.reject(new TypeError(`move: a requestId has 1 to ${MAX_REQUEST_ID} chars`));
    }
    const picked: SessionChoice =
      typeof choice === "string" ? { moveId: choice } : { move: choice };
    const expectedVersion = BigInt(options.expectedVersion ?? 0);
    if (this.state === "finished")
      return this.ctx.applyMove(picked, { expectedVersion, requestId });
    if (this.state !== "open") return Promise.reject(this.failure ?? sessionClosed(requestId));
    const request = create(PlayRequestSchema, {
      kind: {
        case: "move",
        value: {
          expectedVersion,
          requestId,
          choice:
            "moveId" in picked
              ? { case: "moveId", value: picked.moveId }
              : { case: "move", value: picked.move },
        },
      },
    });
    return new Promise<GameSnapshot>((resolve, reject) => {
      const pending: Pending = {
        requestId,
        choice: picked,
        expectedVersion,
        request,
        settled: false,
        resolve,
        reject,
      };
      this.pending.push(pending);
      if (this.socket?.readyState === OPEN) this.send(this.socket, pending);
    });
  }

  /** End the session: the iteration ends and unanswered moves reject with SESSION_CLOSED. */
  close(): void {
    if (this.state !== "open") return;
    this.state = "closed";
    this.stop();
    for (const p of this.takePending()) p.reject(sessionClosed(p.requestId));
    this.push({ end: true });
  }

  [Symbol.asyncIterator](): AsyncGenerator<SessionEvent, void, undefined> {
    return this.events();
  }

  /** The events, in order: each snapshot once (a newer version, or the same version with a
   * new seat list), and each refused move. Iterate once. */
  async *events(): AsyncGenerator<SessionEvent, void, undefined> {
    try {
      for (;;) {
        while (this.queue.length === 0) await new Promise<void>((r) => (this.wake = r));
        const item = this.queue.shift() as Item;
        if ("end" in item) return;
        if ("error" in item) throw item.error;
        yield item.event;
      }
    } finally {
      this.close();
    }
  }

  // -- the connection ------------------------------------------------------------------

  private connect(): void {
    const query: Record<string, string> = {};
    if (this.ctx.token) query["access_token"] = this.ctx.token;
    const from = this.latest?.version ?? this.fromVersion;
    if (from !== undefined) query["from_version"] = String(from);
    const url = this.ctx.url(this.path, query).replace(/^http/, "ws");
    this.ending = undefined;
    let socket: WebSocketLike;
    try {
      socket = this.offerBinary ? new this.Socket(url, [BINARY_SUBPROTOCOL]) : new this.Socket(url);
      if (this.offerBinary) socket.binaryType = "arraybuffer";
    } catch (cause) {
      this.fail(dropped(String(cause), cause)); // a bad URL: no retry helps
      return;
    }
    this.socket = socket;
    const opening =
      this.ctx.connectTimeoutMs > 0
        ? setTimeout(() => socket.close(), this.ctx.connectTimeoutMs)
        : undefined;
    const on = (
      type: "open" | "message" | "close" | "error",
      listener: (event: SocketEvent) => void,
    ): void => socket.addEventListener(type, listener);
    on("open", () => {
      clearTimeout(opening);
      if (this.socket !== socket) return;
      this.binary = socket.protocol === BINARY_SUBPROTOCOL;
      for (const p of this.pending) this.send(socket, p);
    });
    on("message", (event) => {
      if (this.socket !== socket) return;
      const bytes = bytesOf(event.data);
      if (!this.binary)
        this.frame(bytes === undefined ? String(event.data) : decoder.decode(bytes));
      else if (bytes === undefined) this.fail(badFrame("a text frame in a binary session"));
      else this.binaryFrame(bytes);
    });
    on("error", () => {}); // a close event follows
    on("close", (event) => {
      clearTimeout(opening);
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.lost(this.ending ?? dropped(`closed with code ${event.code ?? "?"}`));
    });
  }

  private send(socket: WebSocketLike, pending: Pending): void {
    const request = pending.request;
    try {
      socket.send(
        this.binary
          ? toBinary(PlayRequestSchema, request)
          : JSON.stringify(this.ctx.codec.write(PlayRequestSchema, request)),
      );
    } catch {
      // the socket is closing: its close event reconnects, and the move goes again
    }
  }

  /** The connection ended while the session runs: reconnect after a while, or give up. */
  private lost(failure: TribesError): void {
    if (this.state !== "open") return;
    this.failures += 1;
    if (this.failures > this.ctx.maxReconnects) {
      this.fail(failure);
      return;
    }
    const wait = this.ctx.reconnectDelayMs * 2 ** Math.min(this.failures - 1, 5);
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        if (this.state === "open") this.connect();
      },
      Math.min(wait, 30_000),
    );
  }

  /** A binary frame: one protobuf PlayEvent. */
  private binaryFrame(bytes: Uint8Array): void {
    let event;
    try {
      event = fromBinary(PlayEventSchema, bytes);
    } catch (cause) {
      this.fail(badFrame(cause));
      return;
    }
    const { kind, requestId } = event;
    if (kind.case === "snapshot") {
      this.failures = 0;
      this.snapshotEvent(kind.value, requestId);
    } else if (kind.case === "rejected") {
      this.failures = 0;
      this.rejectedEvent(kind.value, this.statusError(kind.value.status, kind.value.requestId));
    } else if (kind.case === "error") {
      this.ended(errorOfStatusMessage(kind.value, 200));
    } // an event kind of a newer service: nothing to do
  }

  private statusError(status: Status | undefined, requestId: string): TribesError {
    if (status !== undefined) return errorOfStatusMessage(status, 200, requestId || undefined);
    return new TribesError({
      httpStatus: 200,
      code: Code.UNKNOWN,
      reason: "",
      message: "",
      ...(requestId ? { requestId } : {}),
    });
  }

  /** The error that ends this connection (its close follows). */
  private ended(error: TribesError): void {
    // UNAVAILABLE: the server lost its feed or is stopping; resume on the next connection
    if (error.code === Code.UNAVAILABLE) this.ending = error;
    else this.fail(error);
  }

  private frame(text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      this.fail(badFrame(cause));
      return;
    }
    if (isObject(json) && "error" in json) {
      const error =
        errorOfStatus(json["error"], 200) ??
        new TribesError({
          httpStatus: 200,
          code: Code.UNKNOWN,
          reason: ClientReason.STREAM_FAILED,
          message: "the play session ended with an error frame without a status",
        });
      this.ended(error);
      return;
    }
    let kind, requestId;
    try {
      ({ kind, requestId } = this.ctx.codec.parse(PlayEventSchema, json as never));
    } catch (cause) {
      this.fail(badFrame(cause));
      return;
    }
    if (kind.case === "snapshot") {
      this.failures = 0;
      this.snapshotEvent(kind.value, requestId);
    } else if (kind.case === "rejected") {
      this.failures = 0;
      const raw = isObject(json) && isObject(json["rejected"]) ? json["rejected"]["status"] : {};
      const requestId = kind.value.requestId;
      this.rejectedEvent(
        kind.value,
        errorOfStatus(raw, 200, requestId || undefined) ??
          this.statusError(kind.value.status, requestId),
      );
    } // an event kind of a newer service: nothing to do
  }

  private snapshotEvent(snapshot: GameSnapshot, requestId: string): void {
    const mine = requestId === "" ? undefined : this.pending.find((p) => p.requestId === requestId);
    if (mine !== undefined) this.settle(mine).resolve(snapshot);
    const last = this.latest;
    const news =
      last === undefined ||
      snapshot.version > last.version ||
      (snapshot.version === last.version &&
        !equals(
          GameSnapshotSchema,
          { ...snapshot, serverTimeUnixMs: last.serverTimeUnixMs },
          last,
        ));
    if (!news) return; // the answer to a move sent again, or nothing new
    this.latest = snapshot;
    this.push({ event: { case: "snapshot", value: snapshot } });
    if (snapshot.finished) this.finish();
  }

  private rejectedEvent(rejected: MoveRejected, error: TribesError): void {
    const requestId = rejected.requestId;
    const mine = requestId === "" ? undefined : this.pending.find((p) => p.requestId === requestId);
    if (mine !== undefined) this.settle(mine).reject(error);
    this.push({ event: { case: "rejected", value: rejected, error } });
  }

  /** The final snapshot came: the iteration ends; unanswered moves are asked about. */
  private finish(): void {
    this.state = "finished";
    this.stop();
    for (const p of this.takePending()) {
      this.ctx
        .applyMove(p.choice, { expectedVersion: p.expectedVersion, requestId: p.requestId })
        .then(p.resolve, p.reject);
    }
    this.push({ end: true });
  }

  private fail(error: TribesError): void {
    if (this.state !== "open") return;
    this.state = "failed";
    this.failure = error;
    this.stop();
    for (const p of this.takePending()) p.reject(error);
    this.push({ error });
  }

  /** Close the connection and forget the reconnection timer and the signal. */
  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.signal?.removeEventListener("abort", this.onAbort);
    const socket = this.socket;
    this.socket = undefined;
    try {
      socket?.close(1000);
    } catch {
      // already closing
    }
  }

  private settle(pending: Pending): Pending {
    pending.settled = true;
    this.pending = this.pending.filter((p) => p !== pending);
    return pending;
  }

  private takePending(): Pending[] {
    const taken = this.pending;
    this.pending = [];
    for (const p of taken) p.settled = true;
    return taken;
  }

  private push(item: Item): void {
    this.queue.push(item);
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
