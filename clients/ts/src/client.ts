/**
 * `TribesClient`: a small typed client over `fetch` for the tribes REST API.
 *
 * One method per route of `protos/tribes/v1/game_service.proto`'s `google.api.http`
 * annotations. Messages are the generated protobuf-es types, parsed from the service's
 * canonical JSON (see `json.ts`). The client keeps the seat token (`Authorization:
 * Bearer`), gives every mutating call a fresh `requestId` and retries a 503 or a lost
 * answer with the same id, so a retry never plays a move twice; every failure is a
 * {@link TribesError}.
 *
 *     const client = new TribesClient({ baseUrl: "http://127.0.0.1:8080" });
 *     const { game, seatTokens } = await client.createGame({
 *       gameType: "five_tribes",
 *       seatCount: 2,
 *     });
 *     const seat0 = client.withToken(seatTokens[0]);
 *     let snap = await seat0.getGame(game.name);
 *     snap = await seat0.applyMove(game.name, { moveId: snap.legalMoves[0].id },
 *                                  { expectedVersion: snap.version });
 */

import {
  create,
  type DescMessage,
  type JsonValue,
  type MessageShape,
  type Registry,
} from "@bufbuild/protobuf";

import { ClientReason, Code, TribesError, errorOfResponse } from "./errors.js";
import { newRequestId } from "./ids.js";
import { JsonCodec } from "./json.js";
import {
  GameSnapshotSchema,
  type GameSnapshot,
  type GameSummary,
  type GameType,
  type Move,
  type MoveRecord,
  type TimeControl,
} from "./gen/tribes/v1/common_pb.js";
import {
  ApplyMoveRequestSchema,
  CreateGameRequestSchema,
  CreateGameResponseSchema,
  JoinGameRequestSchema,
  JoinGameResponseSchema,
  ListGameTypesResponseSchema,
  ListGamesResponseSchema,
  ListMovesResponseSchema,
  ResignRequestSchema,
  type ListGamesResponse,
  type ListMovesResponse,
} from "./gen/tribes/v1/game_service_pb.js";
import { PlaySession, type PlayContext, type PlayOptions } from "./play.js";
import {
  eventSourceOf,
  watchWithEventSource,
  watchWithFetch,
  type EventSourceConstructor,
  type WatchContext,
  type WatchOptions,
} from "./watch.js";

export { newRequestId };

export interface TribesClientOptions {
  /** Where the service's HTTP door is, e.g. `"http://127.0.0.1:8080"`. */
  baseUrl: string;
  /** A seat token: the client acts for that seat. Without one it is a spectator. */
  token?: string | undefined;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Plugin games' message types, to read and write their `Any` moves and views. */
  registry?: Registry;
  /** Retries of a call answered 502/503/504, timed out or not answered (default 3). */
  retries?: number;
  /** The first retry's delay in ms, doubled each time, with jitter (default 200). */
  retryDelayMs?: number;
  /** Each attempt's time limit in ms, and a play session's to connect; 0 = none (default
   * 10000). */
  timeoutMs?: number;
  /** Watch and play: the first reconnection's delay in ms, doubled up to 30 s (default
   * 1000). */
  reconnectDelayMs?: number;
  /** Watch and play: reconnections in a row without a new event before giving up (default
   * 10). */
  maxReconnects?: number;
  /** Watch: reconnect when nothing, not even a heartbeat, arrives for this long (default
   * 45000, three of the service's 15 s heartbeats); 0 = never. */
  idleTimeoutMs?: number;
  /** Watch with an EventSource instead of fetch: a class, or `true` for the global one. */
  eventSource?: EventSourceConstructor | boolean;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface MutationOptions extends CallOptions {
  /** The idempotency key; a fresh UUID when not given. Reuse it to retry by hand. */
  requestId?: string;
}

export interface CreateGameParams extends MutationOptions {
  gameType: string;
  seatCount: number;
  options?: Record<string, string>;
  /** Honoured only by a server started with TRIBES_ALLOW_SEED=1. */
  seed?: bigint | number;
  /** List the game in the lobby: every seat is open, the creator gets no tokens and joins
   * with {@link TribesClient.joinGame} like anyone else. */
  listed?: boolean;
  /** Seats a bot plays from the start: seat -> bot kind (`"random"`, `"greedy"`, ...). */
  bots?: Record<number, string>;
  /** A time control, e.g. `{ perMoveSeconds: 60, onTimeout: "bot" }` (absent: untimed). */
  timeControl?: Partial<Omit<TimeControl, "$typeName" | "$unknown">>;
}

export type MoveChoice = { moveId: string; move?: undefined } | { move: Move; moveId?: undefined };

/** A new game: its snapshot (as a spectator sees it) and `seatTokens[i]` for seat i
 * (`""` for a bot's seat; none at all for a listed game). */
export interface CreatedGame {
  game: GameSnapshot;
  seatTokens: string[];
}

export interface ListGamesOptions extends CallOptions {
  /** Only games of this type (absent or empty: every type). */
  gameType?: string;
  /** Only games with at least one open seat. */
  openOnly?: boolean;
  /** At most this many games per page (the server's default 50, at most 200). */
  pageSize?: number;
  /** From a previous page's `nextPageToken`. */
  pageToken?: string;
}

export interface JoinGameOptions extends MutationOptions {
  /** The seat to claim; absent = the first open seat. */
  seat?: number;
  /** The name other players see (at most 40 printable characters). */
  playerName?: string;
}

/** A claimed seat: its number, its secret token, the game as that seat sees it, and a
 * client acting for it (`withToken(seatToken)`). */
export interface JoinedGame {
  seat: number;
  seatToken: string;
  game: GameSnapshot;
  client: TribesClient;
}

export interface ApplyMoveOptions extends MutationOptions {
  /** The version the move was chosen against; 0 or absent = do not check. */
  expectedVersion?: bigint | number;
}

export interface ListMovesOptions extends CallOptions {
  pageSize?: number;
  pageToken?: string;
}

/** `games/{id}` (or a bare id) as the URL path of that game. */
function gamePath(name: string): string {
  const id = name.startsWith("games/") ? name.slice("games/".length) : name;
  if (id === "") throw new TypeError(`not a game name: ${JSON.stringify(name)}`);
  return `/v1/games/${encodeURIComponent(id)}`;
}

/** The game of an answer, which must have one. */
function gameOf(game: GameSnapshot | undefined, what: string): GameSnapshot {
  if (game === undefined) {
    throw new TribesError({
      httpStatus: 200,
      code: Code.INTERNAL,
      reason: ClientReason.BAD_RESPONSE,
      message: `${what}: the answer has no game`,
    });
  }
  return game;
}

function retryable(status: number): boolean {
  return status === 502 || status === 503 || status === 504;
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Seconds of a Retry-After header, as ms (its date form is ignored). */
function retryAfter(response: Response): number | undefined {
  const value = response.headers.get("Retry-After");
  return value !== null && /^[0-9]+$/.test(value) ? Number(value) * 1000 : undefined;
}

interface Call<Desc extends DescMessage> {
  method: "GET" | "POST";
  path: string;
  schema: Desc;
  query?: Record<string, string>;
  body?: JsonValue;
  requestId?: string;
  signal?: AbortSignal | undefined;
}

/** An attempt that failed, and how long the server asked to wait before the next. */
class Failed {
  constructor(
    readonly error: TribesError,
    readonly retryAfterMs?: number,
  ) {}
}

export class TribesClient {
  readonly baseUrl: string;
  readonly token: string | undefined;
  private readonly options: TribesClientOptions;
  private readonly codec: JsonCodec;
  private readonly fetcher: typeof fetch;

  constructor(options: TribesClientOptions, codec?: JsonCodec) {
    this.options = { ...options };
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.token = options.token || undefined;
    this.codec = codec ?? new JsonCodec(options.registry);
    // a browser's fetch must be called with globalThis as `this`
    this.fetcher = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** A client for the seat of `token` (or a spectator, for undefined) on the same server. */
  withToken(token: string | undefined): TribesClient {
    return new TribesClient({ ...this.options, token }, this.codec);
  }

  /** The games the server hosts, with their seat counts and options. */
  async listGameTypes(options: CallOptions = {}): Promise<GameType[]> {
    const reply = await this.call({
      method: "GET",
      path: "/v1/gameTypes",
      schema: ListGameTypesResponseSchema,
      signal: options.signal,
    });
    return reply.gameTypes;
  }

  /** A new game: its snapshot (as a spectator sees it) and one secret token per seat. */
  async createGame(params: CreateGameParams): Promise<CreatedGame> {
    const request = create(CreateGameRequestSchema, {
      gameType: params.gameType,
      seatCount: params.seatCount,
      options: params.options ?? {},
      ...(params.seed === undefined ? {} : { seed: BigInt(params.seed) }),
      listed: params.listed ?? false,
      bots: params.bots ?? {},
      ...(params.timeControl === undefined ? {} : { timeControl: params.timeControl }),
    });
    const reply = await this.call({
      method: "POST",
      path: "/v1/games",
      schema: CreateGameResponseSchema,
      body: this.codec.write(CreateGameRequestSchema, request),
      requestId: params.requestId ?? newRequestId(),
      signal: params.signal,
    });
    return { game: gameOf(reply.game, "POST /v1/games"), seatTokens: reply.seatTokens };
  }

  /** One page of the lobby: listed games, newest first. */
  async listGames(options: ListGamesOptions = {}): Promise<ListGamesResponse> {
    const query: Record<string, string> = {};
    if (options.gameType) query["gameType"] = options.gameType;
    if (options.openOnly) query["openOnly"] = "true";
    if (options.pageSize !== undefined) query["pageSize"] = String(options.pageSize);
    if (options.pageToken) query["pageToken"] = options.pageToken;
    return this.call({
      method: "GET",
      path: "/v1/games",
      schema: ListGamesResponseSchema,
      query,
      signal: options.signal,
    });
  }

  /** Every listed game that fits the filters, fetching page after page as it is read. */
  async *allGames(
    options: Omit<ListGamesOptions, "pageToken"> = {},
  ): AsyncGenerator<GameSummary, void, undefined> {
    let pageToken = "";
    do {
      const page = await this.listGames({ ...options, pageToken });
      yield* page.games;
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
  }

  /**
   * Claim a seat of a listed game. Its token goes to this caller only; of racing joins for
   * one seat exactly one wins (the others fail with `SEAT_TAKEN`, or take the next open
   * seat when they named none), and a retry with the same `requestId` gets the same seat.
   */
  async joinGame(name: string, options: JoinGameOptions = {}): Promise<JoinedGame> {
    const request = create(JoinGameRequestSchema, {
      playerName: options.playerName ?? "",
      ...(options.seat === undefined ? {} : { seat: options.seat }),
    });
    const path = `${gamePath(name)}:join`;
    const reply = await this.call({
      method: "POST",
      path,
      schema: JoinGameResponseSchema,
      body: this.codec.write(JoinGameRequestSchema, request),
      requestId: options.requestId ?? newRequestId(),
      signal: options.signal,
    });
    return {
      seat: reply.seat,
      seatToken: reply.seatToken,
      game: gameOf(reply.game, `POST ${path}`),
      client: this.withToken(reply.seatToken),
    };
  }

  /** The game as this client may see it, with its legal moves when it is to act. */
  async getGame(name: string, options: CallOptions = {}): Promise<GameSnapshot> {
    return this.call({
      method: "GET",
      path: gamePath(name),
      schema: GameSnapshotSchema,
      signal: options.signal,
    });
  }

  /** Play one move for this client's seat, by legal-move id or typed; the new snapshot. */
  async applyMove(
    name: string,
    choice: MoveChoice,
    options: ApplyMoveOptions = {},
  ): Promise<GameSnapshot> {
    if ((choice.moveId === undefined) === (choice.move === undefined)) {
      throw new TypeError("applyMove: give exactly one of moveId and move");
    }
    const request = create(ApplyMoveRequestSchema, {
      expectedVersion: BigInt(options.expectedVersion ?? 0),
      choice:
        choice.move !== undefined
          ? { case: "move", value: choice.move }
          : { case: "moveId", value: choice.moveId },
    });
    return this.call({
      method: "POST",
      path: `${gamePath(name)}:applyMove`,
      schema: GameSnapshotSchema,
      body: this.codec.write(ApplyMoveRequestSchema, request),
      requestId: options.requestId ?? newRequestId(),
      signal: options.signal,
    });
  }

  /**
   * Leave the game for this client's seat: a two-seat game ends, in a larger one a bot
   * plays the seat out and it ranks last. The seat's snapshot after it.
   */
  async resign(name: string, options: MutationOptions = {}): Promise<GameSnapshot> {
    return this.call({
      method: "POST",
      path: `${gamePath(name)}:resign`,
      schema: GameSnapshotSchema,
      body: this.codec.write(ResignRequestSchema, create(ResignRequestSchema)),
      requestId: options.requestId ?? newRequestId(),
      signal: options.signal,
    });
  }

  /** One page of the move log, oldest first, redacted for this client. */
  async listMoves(name: string, options: ListMovesOptions = {}): Promise<ListMovesResponse> {
    const query: Record<string, string> = {};
    if (options.pageSize !== undefined) query["pageSize"] = String(options.pageSize);
    if (options.pageToken) query["pageToken"] = options.pageToken;
    return this.call({
      method: "GET",
      path: `${gamePath(name)}/moves`,
      schema: ListMovesResponseSchema,
      query,
      signal: options.signal,
    });
  }

  /** Every record of the move log so far, fetching page after page as it is read. */
  async *allMoves(
    name: string,
    options: Omit<ListMovesOptions, "pageToken"> = {},
  ): AsyncGenerator<MoveRecord, void, undefined> {
    let pageToken = "";
    do {
      const page = await this.listMoves(name, { ...options, pageToken });
      yield* page.moves;
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
  }

  /**
   * Snapshots as the game changes, each once and in order, until it ends (the last has
   * `finished`); reconnects after a dropped connection without a gap. Leave the loop or
   * abort the signal to stop watching.
   */
  watch(name: string, options: WatchOptions = {}): AsyncGenerator<GameSnapshot, void, undefined> {
    const path = `${gamePath(name)}:watch`;
    const context: WatchContext = {
      url: (p, query) => this.url(p, query),
      fetch: this.fetcher,
      token: this.token,
      codec: this.codec,
      reconnectDelayMs: this.options.reconnectDelayMs ?? 1000,
      maxReconnects: this.options.maxReconnects ?? 10,
      idleTimeoutMs: this.options.idleTimeoutMs ?? 45_000,
      getGame: (game, signal) => this.getGame(game, { signal }),
    };
    const Source = eventSourceOf(options.eventSource ?? this.options.eventSource);
    return Source
      ? watchWithEventSource(context, Source, name, path, options)
      : watchWithFetch(context, path, options);
  }

  /**
   * A live play session on the WebSocket `GET /v1/games/{id}:play` for this client's seat
   * (a spectator's without a token): iterate it for the seat's snapshots and refused moves,
   * `move()` to play. It reconnects after a dropped connection (`reconnectDelayMs`,
   * `maxReconnects`), missing nothing and playing nothing twice; see {@link PlaySession}.
   */
  play(name: string, options: PlayOptions = {}): PlaySession {
    const context: PlayContext = {
      url: (p, query) => this.url(p, query),
      token: this.token,
      codec: this.codec,
      reconnectDelayMs: this.options.reconnectDelayMs ?? 1000,
      maxReconnects: this.options.maxReconnects ?? 10,
      connectTimeoutMs: this.options.timeoutMs ?? 10_000,
      applyMove: (choice, moveOptions) => this.applyMove(name, choice, moveOptions),
    };
    return new PlaySession(context, name, `${gamePath(name)}:play`, options);
  }

  // -- transport -------------------------------------------------------------------------

  private url(path: string, query?: Record<string, string>): string {
    const search = query && Object.keys(query).length ? `?${new URLSearchParams(query)}` : "";
    return `${this.baseUrl}${path}${search}`;
  }

  /** One call, retried on 502/503/504, timeouts and lost answers with the same body. */
  private async call<Desc extends DescMessage>(call: Call<Desc>): Promise<MessageShape<Desc>> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (this.token) headers["Authorization"] = `Bearer ${this.token}`;
    let body: string | undefined;
    if (call.body !== undefined) {
      headers["Content-Type"] = "application/json";
      const json = call.body as Record<string, JsonValue>;
      body = JSON.stringify(call.requestId ? { ...json, requestId: call.requestId } : json);
    }
    const url = this.url(call.path, call.query);
    const retries = Math.max(0, this.options.retries ?? 3);
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    const firstDelay = this.options.retryDelayMs ?? 200;
    let wait = 0;
    for (let attempt = 0; ; attempt++) {
      if (wait > 0) await delay(wait, call.signal);
      const outcome = await this.attempt(call, url, headers, body, timeoutMs);
      if (!(outcome instanceof Failed)) return outcome;
      const { error } = outcome;
      const again = error.httpStatus === 0 || retryable(error.httpStatus);
      if (!again || attempt >= retries) throw error;
      // jittered exponential backoff, or longer when the server asks for it
      const backoff = firstDelay * 2 ** attempt;
      wait = Math.max(backoff / 2 + Math.random() * (backoff / 2), outcome.retryAfterMs ?? 0);
      wait = Math.min(wait, 10_000);
    }
  }

  /** One attempt: the parsed answer, or the TribesError it failed with. */
  private async attempt<Desc extends DescMessage>(
    call: Call<Desc>,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeoutMs: number,
  ): Promise<MessageShape<Desc> | Failed> {
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(call.signal?.reason);
    if (call.signal?.aborted) throw call.signal.reason;
    call.signal?.addEventListener("abort", onAbort, { once: true });
    let timedOut = false;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutMs)
        : undefined;
    const what = `${call.method} ${call.path}`;
    const failed = (reason: string, code: number, cause: unknown): Failed =>
      new Failed(
        new TribesError({
          httpStatus: 0,
          code,
          reason,
          message: `${what}: ${String(cause)}`.slice(0, 300),
          requestId: call.requestId,
          cause,
        }),
      );
    try {
      let response: Response;
      let text: string;
      try {
        response = await this.fetcher(url, {
          method: call.method,
          headers,
          ...(body === undefined ? {} : { body }),
          signal: controller.signal,
        });
        text = await response.text();
      } catch (cause) {
        if (call.signal?.aborted) throw call.signal.reason; // the caller's own abort
        if (timedOut) return failed(ClientReason.TIMEOUT, Code.DEADLINE_EXCEEDED, cause);
        return failed(ClientReason.NETWORK_ERROR, Code.UNAVAILABLE, cause);
      }
      if (!response.ok) {
        const error = errorOfResponse(response.status, response.statusText, text, call.requestId);
        return new Failed(error, retryAfter(response));
      }
      try {
        return this.codec.parse(call.schema, JSON.parse(text) as JsonValue);
      } catch (cause) {
        throw new TribesError({
          httpStatus: response.status,
          code: Code.INTERNAL,
          reason: ClientReason.BAD_RESPONSE,
          message: `${what}: the answer does not parse: ${String(cause)}`.slice(0, 300),
          requestId: call.requestId,
          cause,
        });
      }
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener("abort", onAbort);
    }
  }
}
