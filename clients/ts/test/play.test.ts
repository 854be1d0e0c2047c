/**
 * Play sessions over the WebSocket against a real server: a whole game through two
 * sessions, refused moves, a connection cut by the test and resumed without a duplicate
 * move, session-ending errors, giving up, and closing; each in binary frames (the default)
 * and in JSON frames.
 */

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { fromBinary } from "@bufbuild/protobuf";
import { anyUnpack } from "@bufbuild/protobuf/wkt";
import WebSocket from "ws";

import {
  BINARY_SUBPROTOCOL,
  Code,
  PlayRequestSchema,
  TribesClient,
  TribesError,
  type GameSnapshot,
  type PlaySession,
  type SessionEvent,
  type WebSocketConstructor,
} from "../src/index.js";
import { GoofspielViewSchema } from "./gen/tests/games/goofspiel/goofspiel_pb.js";
import { startServer, type Server } from "./server.js";
import { collect, goofspiel, goofspielRegistry, round, until } from "./support.js";

let server: Server;
let client: TribesClient;

before(async () => {
  server = await startServer();
  client = new TribesClient({
    baseUrl: server.baseUrl,
    registry: goofspielRegistry,
    reconnectDelayMs: 20,
  });
});

after(async () => {
  await server?.stop();
});

/** `ws` sockets that remember what they were opened at and sent, and can be cut. */
class Sockets {
  readonly made: TestSocket[] = [];
  /** Cut the connection at the first frame that answers a move (the server has played it,
   * the client never sees the answer). */
  cutAfterMove = 0;

  get Socket(): WebSocketConstructor {
    const sockets = this;
    return class extends TestSocket {
      constructor(url: string, protocols?: string[]) {
        super(url, protocols);
        sockets.made.push(this);
        if (sockets.cutAfterMove > 0) {
          sockets.cutAfterMove -= 1;
          this.cutting = true;
        }
      }
    };
  }
}

class TestSocket extends WebSocket {
  readonly sent: (string | Uint8Array)[] = [];
  cutting = false;
  private armed = false;
  private cut = false;

  override send(data: string | Uint8Array): void {
    this.sent.push(data);
    super.send(data);
    if (this.cutting && moveId(data) !== undefined) this.armed = true;
  }

  /** The requestIds of the move frames sent, in order. */
  get moves(): string[] {
    return this.sent.flatMap((frame) => moveId(frame) ?? []);
  }

  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === "message" && this.armed) {
      // as a network that drops the connection: no close frame, and no frame after this
      // one arrives (the ones already read from the same chunk are lost too)
      this.cut = true;
      this.armed = this.cutting = false;
      this.terminate();
    }
    if (event === "message" && this.cut) return true;
    return super.emit(event, ...args);
  }
}

/** The requestId of a move frame (JSON text or protobuf bytes), undefined for others. */
function moveId(frame: string | Uint8Array): string | undefined {
  if (typeof frame === "string") {
    const parsed = JSON.parse(frame) as { move?: { requestId?: string } };
    return parsed.move?.requestId;
  }
  const request = fromBinary(PlayRequestSchema, frame);
  return request.kind.case === "move" ? request.kind.value.requestId : undefined;
}

function snapshots(events: SessionEvent[]): GameSnapshot[] {
  return events.flatMap((e) => (e.case === "snapshot" ? [e.value] : []));
}

function versions(events: SessionEvent[]): bigint[] {
  return snapshots(events).map((s) => s.version);
}

function myBid(snapshot: GameSnapshot): number | undefined {
  const view = snapshot.view?.game;
  assert.equal(view?.case, "plugin");
  return anyUnpack(view.value, GoofspielViewSchema)?.myBid;
}

for (const frames of ["binary", "json"] as const) {
  test(`a whole game through two sessions: each seat sees every version, then it ends [${frames}]`, async () => {
    const table = await goofspiel(client, 5);
    const sockets = new Sockets();
    const sessions = table.seats.map((seat) =>
      seat.play(table.name, { frames, WebSocket: sockets.Socket }),
    );
    const seen = sessions.map((s) => collect(s));
    // both open before the first move: a session opened after it starts at version 2
    await until("both opening snapshots", () => sessions.every((s) => s.snapshot !== undefined));
    const played: bigint[] = [];
    for (const card of [5, 4, 3, 2, 1]) {
      for (const [seat, session] of sessions.entries()) {
        const at = session.snapshot?.version ?? 0n;
        const answer = await session.move(`bid:${card}`);
        assert.ok(answer.version > at);
        assert.equal(answer.viewerSeat, seat);
        played.push(answer.version);
        // the next move only once both seats have seen this one
        await until("both seats", () =>
          sessions.every((s) => (s.snapshot?.version ?? 0n) >= answer.version),
        );
      }
    }
    const [zero, one] = await Promise.all(seen);
    const all = Array.from({ length: 11 }, (_, i) => BigInt(i + 1));
    assert.deepEqual(played, all.slice(1));
    assert.deepEqual([...new Set(versions(zero!))], all);
    assert.deepEqual([...new Set(versions(one!))], all);
    // each seat's own view: its pending bid shows to it alone
    const second = (events: SessionEvent[]) => snapshots(events).find((s) => s.version === 2n)!;
    assert.deepEqual([myBid(second(zero!)), myBid(second(one!))], [5, undefined]);
    const last = snapshots(zero!).at(-1)!;
    assert.equal(last.finished, true);
    assert.deepEqual(last.result, snapshots(one!).at(-1)!.result);
    assert.ok(sessions.every((s) => !s.open));
    assert.equal(sockets.made.length, 2);
    // one move frame per move, each with its own requestId
    const ids = sockets.made.flatMap((s) => s.moves);
    assert.equal(new Set(ids).size, 10);
    // the frames are the kind asked for: binary only where the server took the subprotocol
    for (const socket of sockets.made) {
      assert.equal(socket.protocol, frames === "binary" ? BINARY_SUBPROTOCOL : "");
      assert.ok(socket.sent.every((f) => (frames === "binary") === f instanceof Uint8Array));
    }
    // after the end a move is answered by the service's refusal
    await assert.rejects(sessions[0]!.move("bid:1"), (err: unknown) => {
      assert.ok(err instanceof TribesError);
      assert.equal(err.reason, "GAME_FINISHED");
      return true;
    });
  });

  test(`two seats answering pushed snapshots play a game out; a spectator follows it [${frames}]`, async () => {
    const table = await goofspiel(client, 8);
    const spectator = client.play(table.name, { frames, WebSocket: WebSocket });
    const watching = collect(spectator);
    const runs = table.seats.map(async (seat, i) => {
      const session = seat.play(table.name, { frames, WebSocket: WebSocket });
      const events: SessionEvent[] = [];
      for await (const event of session) {
        events.push(event);
        if (event.case !== "snapshot") continue;
        const snap = event.value;
        // act on the newest snapshot only: an older one was already answered
        if (snap.version < session.snapshot!.version) continue;
        if (snap.toAct.includes(i) && snap.legalMoves.length > 0) {
          const answer = await session.move(snap.legalMoves.at(-1)!.id);
          assert.ok(answer.version > snap.version);
        }
      }
      return events;
    });
    const [zero, one] = await Promise.all(runs);
    const ends = [zero!, one!, await watching].map((events) => snapshots(events).at(-1)!);
    assert.ok(ends.every((s) => s.finished && s.version === 17n)); // 16 bids after version 1
    assert.deepEqual(ends[0]!.result, ends[2]!.result);
    assert.deepEqual(
      ends.map((s) => s.viewerSeat),
      [0, 1, -1],
    );
    for (const events of [zero!, one!]) {
      assert.ok(
        events.every((e) => e.case === "snapshot"),
        "no move was refused",
      );
      const seen = versions(events);
      assert.deepEqual(
        seen,
        [...seen].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      );
    }
  });

  test(`a refused move rejects with its reason, shows as an event, and the session goes on [${frames}]`, async () => {
    const table = await goofspiel(client);
    const sockets = new Sockets();
    const session = table.seats[0]!.play(table.name, { frames, WebSocket: sockets.Socket });
    const events: SessionEvent[] = [];
    const reading = (async () => {
      for await (const event of session) events.push(event);
    })();
    await assert.rejects(session.move("bid:99", { requestId: "bad-bid" }), (err: unknown) => {
      assert.ok(err instanceof TribesError);
      assert.deepEqual(
        [err.code, err.reason, err.requestId],
        [Code.FAILED_PRECONDITION, "ILLEGAL_MOVE", "bad-bid"],
      );
      return true;
    });
    await assert.rejects(session.move("bid:1", { expectedVersion: 9 }), (err: unknown) => {
      assert.ok(err instanceof TribesError);
      assert.equal(err.reason, "STALE_VERSION");
      assert.equal(err.metadata["current_version"], "1");
      return true;
    });
    const answer = await session.move("bid:1", { expectedVersion: 1 });
    assert.equal(answer.version, 2n);
    assert.equal(myBid(answer), 1);
    assert.ok(session.open);
    session.close();
    await reading;
    const rejected = events.flatMap((e) => (e.case === "rejected" ? [e] : []));
    assert.deepEqual(
      rejected.map((r) => [r.value.requestId, r.error.reason, r.value.status?.code]),
      [
        ["bad-bid", "ILLEGAL_MOVE", Code.FAILED_PRECONDITION],
        [rejected[1]!.value.requestId, "STALE_VERSION", Code.ABORTED],
      ],
    );
    assert.deepEqual(versions(events), [1n, 2n]);
    assert.equal(sockets.made.length, 1);
  });

  test(`a connection cut after the server played a move resumes without playing it twice [${frames}]`, async () => {
    const table = await goofspiel(client);
    const sockets = new Sockets();
    sockets.cutAfterMove = 1;
    const session = table.seats[0]!.play(table.name, { frames, WebSocket: sockets.Socket });
    const seen = collect(session);
    await until("the first snapshot", () => session.snapshot !== undefined);
    const answer = await session.move("bid:2", { requestId: "cut-move" });
    assert.equal(answer.version, 2n);
    assert.equal(myBid(answer), 2);
    assert.equal(sockets.made.length, 2);
    assert.match(sockets.made[1]!.url, /[?&]from_version=1(&|$)/);
    assert.match(sockets.made[1]!.url, /[?&]access_token=/);
    // the same move, with the same requestId, on both connections
    const moves = sockets.made.map((s) => s.moves);
    assert.deepEqual(moves, [["cut-move"], ["cut-move"]]);
    // and played once: the log has one bid of seat 0
    const log = await collect(table.seats[0]!.allMoves(table.name));
    assert.deepEqual(
      log.map((m) => [m.version, m.seat, m.moveId]),
      [[2n, 0, "bid:2"]],
    );
    // the session goes on, every version once
    await table.seats[1]!.applyMove(table.name, { moveId: "bid:1" });
    await until("version 3", () => session.snapshot!.version === 3n);
    session.close();
    assert.deepEqual(versions(await seen), [1n, 2n, 3n]);
  });

  test(`fromVersion: nothing comes until the game moves past the version held [${frames}]`, async () => {
    const table = await goofspiel(client);
    await table.seats[1]!.applyMove(table.name, { moveId: "bid:3" });
    const sockets = new Sockets();
    const session = table.seats[0]!.play(table.name, {
      frames,
      fromVersion: 2,
      WebSocket: sockets.Socket,
    });
    const seen = collect(session);
    await until("the socket", () => sockets.made[0]?.readyState === WebSocket.OPEN);
    assert.match(sockets.made[0]!.url, /[?&]from_version=2(&|$)/);
    const answer = await session.move("bid:1");
    assert.equal(answer.version, 3n);
    session.close();
    assert.deepEqual(versions(await seen), [3n]);
  });

  test(`a wrong token ends the session with a TribesError; so does a missing game [${frames}]`, async () => {
    const table = await goofspiel(client);
    const impostor = client.withToken("not-a-token");
    const session = impostor.play(table.name, { frames, WebSocket: WebSocket });
    const move = session.move("bid:1");
    await assert.rejects(collect(session), (err: unknown) => {
      assert.ok(err instanceof TribesError, String(err));
      assert.equal(err.codeName, "PERMISSION_DENIED");
      assert.equal(err.reason, "BAD_TOKEN");
      return true;
    });
    await assert.rejects(
      move,
      (err: unknown) => err instanceof TribesError && err.reason === "BAD_TOKEN",
    );
    assert.equal(session.open, false);
    const nowhere = client.play("games/no-such-game", { frames, WebSocket: WebSocket });
    await assert.rejects(collect(nowhere), (err: unknown) => {
      assert.ok(err instanceof TribesError);
      assert.equal(err.code, Code.NOT_FOUND);
      return true;
    });
    // the game was never touched
    assert.equal((await client.getGame(table.name)).version, 1n);
  });

  test(`after maxReconnects failed connections in a row the session fails [${frames}]`, async () => {
    const sockets = new Sockets();
    const nowhere = new TribesClient({
      baseUrl: "http://127.0.0.1:9",
      maxReconnects: 2,
      reconnectDelayMs: 1,
    });
    const session = nowhere.play("games/x", { frames, WebSocket: sockets.Socket });
    await assert.rejects(collect(session), (err: unknown) => {
      assert.ok(err instanceof TribesError);
      assert.deepEqual([err.code, err.reason], [Code.UNAVAILABLE, "NETWORK_ERROR"]);
      return true;
    });
    assert.equal(sockets.made.length, 3);
  });

  test(`moves left unanswered when the game ends are answered as applyMove answers them [${frames}]`, async () => {
    // a session opened on a finished game ends after its one snapshot without reading the
    // moves queued before its socket opened: each is then settled through applyMove
    const table = await goofspiel(client);
    await round(table, 1);
    await round(table, 2);
    await table.seats[0]!.applyMove(table.name, { moveId: "bid:3" });
    const final = await table.seats[1]!.applyMove(
      table.name,
      { moveId: "bid:3" },
      { requestId: "last" },
    );
    assert.equal(final.finished, true);
    const session = table.seats[1]!.play(table.name, { frames, WebSocket: WebSocket });
    const again = session.move("bid:3", { requestId: "last" });
    const fresh = session.move("bid:3", { requestId: "fresh" });
    const replayed = await again;
    assert.deepEqual([replayed.version, replayed.finished], [final.version, true]);
    assert.deepEqual(replayed.result, final.result);
    await assert.rejects(fresh, (err: unknown) => {
      assert.ok(err instanceof TribesError);
      assert.deepEqual([err.reason, err.code], ["GAME_FINISHED", Code.FAILED_PRECONDITION]);
      return true;
    });
    assert.deepEqual(versions(await collect(session)), [final.version]);
    assert.equal(session.open, false);
  });

  test(`close() and the signal end the iteration; an unanswered move gets SESSION_CLOSED [${frames}]`, async () => {
    const table = await goofspiel(client);
    const session: PlaySession = table.seats[0]!.play(table.name, { frames, WebSocket: WebSocket });
    const move = session.move("bid:1"); // made before the socket is open
    session.close();
    await assert.rejects(move, (err: unknown) => {
      assert.ok(err instanceof TribesError);
      assert.deepEqual([err.reason, err.code], ["SESSION_CLOSED", Code.CANCELLED]);
      assert.ok(err.requestId);
      return true;
    });
    assert.deepEqual(await collect(session), []);

    const controller = new AbortController();
    const watched = table.seats[1]!.play(table.name, {
      frames,
      WebSocket: WebSocket,
      signal: controller.signal,
    });
    const events: SessionEvent[] = [];
    for await (const event of watched) {
      events.push(event);
      controller.abort();
    }
    assert.deepEqual(versions(events), [1n]);
    assert.equal(watched.open, false);
  });
}

test("a binary session whose handshake ends without the subprotocol plays in JSON frames", async () => {
  // as a service (or a proxy) that does not take tribes.v1.proto answers: no subprotocol
  const offered: (string[] | undefined)[] = [];
  const made: TestSocket[] = [];
  class NoOffer extends TestSocket {
    constructor(url: string, protocols?: string[]) {
      super(url);
      offered.push(protocols);
      made.push(this);
    }
  }
  const table = await goofspiel(client);
  const session = table.seats[0]!.play(table.name, { WebSocket: NoOffer });
  const seen = collect(session);
  const answer = await session.move("bid:3", { requestId: "json-fallback" });
  assert.equal(myBid(answer), 3);
  session.close();
  assert.deepEqual(versions(await seen), [1n, 2n]);
  assert.deepEqual(offered, [[BINARY_SUBPROTOCOL]]);
  assert.equal(made[0]!.protocol, "");
  assert.deepEqual(
    made[0]!.sent.map((f) => typeof f),
    ["string"],
  );
  assert.deepEqual(made[0]!.moves, ["json-fallback"]);
});
