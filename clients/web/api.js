// The service's HTTP/JSON API and its play-session WebSocket, as the pages use them.

export class ApiError extends Error {
  constructor(status, body) {
    const reason = (body?.details || []).find((d) => d.reason)?.reason || "";
    super(body?.message || `HTTP ${status}`);
    this.status = status;
    this.reason = reason;
  }
}

/** A fresh idempotency key (also where crypto.randomUUID is missing: plain http). */
export function requestId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function call(method, path, body, token) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : {};
  if (!response.ok) throw new ApiError(response.status, parsed);
  return parsed;
}

/** "games/abc" -> "abc" and back. */
export const gameId = (name) => String(name).replace(/^games\//, "");

export const api = {
  gameTypes: () => call("GET", "/v1/gameTypes"),
  listGames: (openOnly) => call("GET", `/v1/games?pageSize=50${openOnly ? "&openOnly=true" : ""}`),
  create: (request) => call("POST", "/v1/games", request),
  join: (id, seat, playerName) =>
    call("POST", `/v1/games/${id}:join`, { seat, playerName, requestId: requestId() }),
  get: (id, token) => call("GET", `/v1/games/${id}`, undefined, token),
  moves: (id, token, pageToken) =>
    call(
      "GET",
      `/v1/games/${id}/moves?pageSize=200${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ""}`,
      undefined,
      token,
    ),
  resign: (id, token) => call("POST", `/v1/games/${id}:resign`, { requestId: requestId() }, token),
  suggest: (id, token) => call("POST", `/v1/games/${id}:suggestMove`, { budgetMs: 300 }, token),
};

const UNAVAILABLE = 14; // google.rpc.Code: the one code that ends a session but not the game

/**
 * A play session over the WebSocket (README "Play sessions"): snapshots come in at open and
 * after every change; moves go out. A dropped connection, or one the server ends with
 * UNAVAILABLE (it is stopping: a deploy), reconnects with from_version = the version held,
 * so nothing is missed and nothing already shown is sent again.
 */
export class Session {
  constructor(id, token, { onSnapshot, onRejected, onError, onState }) {
    this.id = id;
    this.token = token;
    this.handlers = { onSnapshot, onRejected, onError, onState };
    this.version = 0;
    this.finished = false;
    this.closed = false;
    this.delay = 250;
    this.connect();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = new URLSearchParams();
    if (this.token) query.set("access_token", this.token);
    if (this.version) query.set("from_version", String(this.version));
    return `${scheme}//${location.host}/v1/games/${this.id}:play?${query}`;
  }

  connect() {
    this.handlers.onState?.("connecting");
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.onopen = () => {
      this.delay = 250;
      this.handlers.onState?.("live");
    };
    socket.onmessage = (message) => {
      const event = JSON.parse(message.data);
      if (event.snapshot) {
        this.version = Math.max(this.version, Number(event.snapshot.version));
        this.finished = event.snapshot.finished;
        this.handlers.onSnapshot?.(event.snapshot);
      } else if (event.rejected) {
        this.handlers.onRejected?.(event.rejected);
      } else if (event.error?.code === UNAVAILABLE) {
        // the server is stopping (SERVER_SHUTTING_DOWN) or lost its change feed: the
        // close that follows reconnects, from the version held
      } else if (event.error) {
        this.fatal = event.error;
        this.handlers.onError?.(event.error);
      }
    };
    socket.onclose = () => {
      if (this.closed || this.finished || this.fatal) {
        this.handlers.onState?.(this.finished ? "finished" : "closed");
        return;
      }
      this.handlers.onState?.("reconnecting");
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  }

  /** Send a move by id, against the version shown (a stale click is refused, not replayed). */
  play(moveId) {
    const id = requestId();
    const move = { moveId, expectedVersion: String(this.version), requestId: id };
    this.socket.send(JSON.stringify({ move }));
    return id;
  }

  close() {
    this.closed = true;
    this.socket?.close();
  }
}
