/**
 * The tribes TypeScript SDK: the client, its play sessions, its error type, and every tribes.v1 message type
 * and schema (generated from protos/ at build time by `npm run generate`).
 */

export {
  TribesClient,
  newRequestId,
  type ApplyMoveOptions,
  type CallOptions,
  type CreateGameParams,
  type CreatedGame,
  type JoinGameOptions,
  type JoinedGame,
  type ListGamesOptions,
  type ListMovesOptions,
  type MoveChoice,
  type MutationOptions,
  type TribesClientOptions,
} from "./client.js";
export {
  ClientReason,
  Code,
  TribesError,
  codeName,
  type CodeName,
  type CodeNumber,
  type TribesErrorInit,
} from "./errors.js";
export {
  BINARY_SUBPROTOCOL,
  PlaySession,
  type PlayOptions,
  type SessionChoice,
  type SessionEvent,
  type SessionMoveOptions,
  type SocketEvent,
  type WebSocketConstructor,
  type WebSocketLike,
} from "./play.js";
export { SseParser, type SseEvent } from "./sse.js";
export type { EventSourceConstructor, EventSourceLike, WatchOptions } from "./watch.js";

export * from "./gen/index.js";
