/**
 * The lobby and hosted play against a real server: listed games in pages, joins (racing
 * ones too), resignation, bot seats and time controls at creation.
 */

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { Code, TribesClient, TribesError } from "../src/index.js";
import { startServer, type Server } from "./server.js";
import { collect, goofspielRegistry, recordingFetch, type Sent } from "./support.js";

let server: Server;
let client: TribesClient;

before(async () => {
  server = await startServer();
  client = new TribesClient({ baseUrl: server.baseUrl, registry: goofspielRegistry });
});

after(async () => {
  await server?.stop();
});

/** A listed 2-seat goofspiel game's name. */
async function listedGame(cards = 3): Promise<string> {
  const { game, seatTokens } = await client.createGame({
    gameType: "goofspiel",
    seatCount: 2,
    options: { cards: String(cards) },
    listed: true,
  });
  assert.deepEqual(seatTokens, []); // a listed game's tokens go to the players who join
  assert.equal(game.listed, true);
  return game.name;
}

function rejectsWith(reason: string, code: number) {
  return (err: unknown): boolean => {
    assert.ok(err instanceof TribesError, String(err));
    assert.deepEqual([err.reason, err.code], [reason, code]);
    return true;
  };
}

test("listGames pages the lobby newest first; allGames reads every page", async () => {
  const names: string[] = [];
  for (let i = 0; i < 5; i++) names.push(await listedGame());
  const unlisted = await client.createGame({ gameType: "goofspiel", seatCount: 2 });
  const first = await client.listGames({ gameType: "goofspiel", pageSize: 2 });
  assert.equal(first.games.length, 2);
  assert.notEqual(first.nextPageToken, "");
  assert.deepEqual(
    first.games.map((g) => g.name),
    [names[4], names[3]],
  );
  const second = await client.listGames({
    gameType: "goofspiel",
    pageSize: 2,
    pageToken: first.nextPageToken,
  });
  assert.deepEqual(
    second.games.map((g) => g.name),
    [names[2], names[1]],
  );
  const all = await collect(client.allGames({ gameType: "goofspiel", pageSize: 2 }));
  const seen = all.map((g) => g.name);
  assert.equal(new Set(seen).size, seen.length, "no game twice across pages");
  // newest first: our five in reverse order of creation, and the unlisted one nowhere
  assert.deepEqual(
    seen.filter((n) => names.includes(n)),
    [...names].reverse(),
  );
  assert.ok(!seen.includes(unlisted.game.name));
  const summary = all.find((g) => g.name === names[0])!;
  assert.deepEqual(summary.openSeats, [0, 1]);
  assert.equal(summary.seatCount, 2);
  assert.deepEqual(summary.options, { cards: "3" });
  assert.equal(typeof summary.createTimeUnixMs, "bigint");
  // another type's filter leaves them out
  const others = await collect(client.allGames({ gameType: "five_tribes" }));
  assert.ok(others.every((g) => g.gameType === "five_tribes"));
});

test("joinGame claims a seat, names the player, and gives a client for that seat", async () => {
  const name = await listedGame();
  const ana = await client.joinGame(name, { playerName: "Ana" });
  assert.equal(ana.seat, 0); // the first open seat
  assert.notEqual(ana.seatToken, "");
  assert.equal(ana.game.viewerSeat, 0);
  assert.equal(ana.client.token, ana.seatToken);
  const bo = await client.joinGame(name, { seat: 1, playerName: "Bo" });
  assert.equal(bo.seat, 1);
  // the seat clients act: both are to act in goofspiel, each sees its own legal moves
  const mine = await ana.client.getGame(name);
  assert.equal(mine.viewerSeat, 0);
  assert.ok(mine.legalMoves.length > 0);
  const after = await bo.client.applyMove(name, { moveId: mine.legalMoves[0]!.id });
  assert.equal(after.viewerSeat, 1);
  assert.deepEqual(
    after.seats.map((s) => [s.playerName, s.open]),
    [
      ["Ana", false],
      ["Bo", false],
    ],
  );
  // a full game is no longer open
  const open = await collect(client.allGames({ gameType: "goofspiel", openOnly: true }));
  assert.ok(!open.some((g) => g.name === name));
  const any = await collect(client.allGames({ gameType: "goofspiel" }));
  assert.deepEqual(any.find((g) => g.name === name)?.playerNames, ["Ana", "Bo"]);
  await assert.rejects(client.joinGame(name), rejectsWith("GAME_FULL", Code.FAILED_PRECONDITION));
});

test("of racing joins for one seat exactly one wins; the others get SEAT_TAKEN", async () => {
  const name = await listedGame();
  const joins = await Promise.allSettled(
    Array.from({ length: 6 }, (_, i) => client.joinGame(name, { seat: 0, playerName: `p${i}` })),
  );
  const won = joins.flatMap((j, i) => (j.status === "fulfilled" ? [{ i, joined: j.value }] : []));
  assert.equal(won.length, 1);
  for (const lost of joins.filter((j) => j.status === "rejected")) {
    rejectsWith("SEAT_TAKEN", Code.FAILED_PRECONDITION)(lost.reason);
  }
  const game = await client.getGame(name);
  assert.deepEqual(
    game.seats.map((s) => [s.open, s.playerName]),
    [
      [false, `p${won[0]!.i}`],
      [true, ""],
    ],
  );
  // the winner's token is seat 0's
  assert.equal((await won[0]!.joined.client.getGame(name)).viewerSeat, 0);
});

test("a join retried with the same requestId gets the same seat and token", async () => {
  const name = await listedGame();
  const sent: Sent[] = [];
  const recording = new TribesClient({ baseUrl: server.baseUrl, fetch: recordingFetch(sent) });
  const first = await recording.joinGame(name, { playerName: "Ana", requestId: "join-ana-1" });
  const again = await recording.joinGame(name, { playerName: "Ana", requestId: "join-ana-1" });
  assert.deepEqual([again.seat, again.seatToken], [first.seat, first.seatToken]);
  const other = await recording.joinGame(name, { playerName: "Bo" });
  assert.equal(other.seat, 1 - first.seat);
  const bodies = sent.map((s) => JSON.parse(s.body!) as Record<string, unknown>);
  assert.deepEqual(bodies[0], { playerName: "Ana", requestId: "join-ana-1" });
  assert.match(String(bodies[2]!["requestId"]), /^[0-9a-f-]{36}$/);
  assert.ok(sent.every((s) => s.method === "POST" && s.url.endsWith(`${name}:join`)));
});

test("joining an unlisted game or a bad seat fails with the service's reason", async () => {
  const { game } = await client.createGame({ gameType: "goofspiel", seatCount: 2 });
  await assert.rejects(
    client.joinGame(game.name),
    rejectsWith("NOT_LISTED", Code.FAILED_PRECONDITION),
  );
  const name = await listedGame();
  await assert.rejects(
    client.joinGame(name, { seat: 7 }),
    rejectsWith("BAD_SEAT", Code.INVALID_ARGUMENT),
  );
});

test("resign ends a two-seat game; a retry answers the same; twice is refused", async () => {
  const { game, seatTokens } = await client.createGame({
    gameType: "goofspiel",
    seatCount: 2,
    options: { cards: "3" },
  });
  const seat0 = client.withToken(seatTokens[0]);
  const resigned = await seat0.resign(game.name, { requestId: "resign-0" });
  assert.equal(resigned.finished, true);
  assert.equal(resigned.viewerSeat, 0);
  assert.equal(resigned.seats[0]!.resigned, true);
  assert.deepEqual(resigned.result?.winners, [1]);
  const retried = await seat0.resign(game.name, { requestId: "resign-0" });
  assert.equal(retried.version, resigned.version);
  await assert.rejects(
    seat0.resign(game.name),
    rejectsWith("GAME_FINISHED", Code.FAILED_PRECONDITION),
  );
  const log = await collect(client.allMoves(game.name));
  assert.deepEqual(
    log.map((m) => [m.moveId, m.system]),
    [["!resign:0", true]],
  );
  // a spectator has no seat to resign
  await assert.rejects(client.resign(game.name), (err: unknown) => err instanceof TribesError);
});

test("createGame seats bots and sets a time control", async () => {
  const { game, seatTokens } = await client.createGame({
    gameType: "goofspiel",
    seatCount: 2,
    options: { cards: "3" },
    bots: { 1: "random" },
    timeControl: { perMoveSeconds: 600 },
  });
  assert.equal(seatTokens[1], ""); // a bot's seat has no token
  assert.notEqual(seatTokens[0], "");
  assert.deepEqual(
    game.seats.map((s) => s.bot),
    ["", "random"],
  );
  assert.equal(game.timeControl?.perMoveSeconds, 600);
  assert.ok(game.deadlineUnixMs > 0n);
  assert.ok(game.serverTimeUnixMs > 0n);
  // the bot bids for its seat whenever it is to act: seat 0's three bids end the game
  const me = client.withToken(seatTokens[0]);
  const bids: number[] = [];
  let answered = 0n; // the snapshots of versions before our last move are already answered
  for await (const snapshot of me.watch(game.name)) {
    if (snapshot.version > answered && snapshot.toAct.includes(0)) {
      const card = Math.max(...snapshot.legalMoves.map((m) => Number(m.id.split(":")[1])));
      bids.push(card);
      answered = (await me.applyMove(game.name, { moveId: `bid:${card}` })).version;
    }
  }
  assert.deepEqual(bids, [3, 2, 1]);
  const end = await me.getGame(game.name);
  assert.equal(end.finished, true);
  const log = await collect(me.allMoves(game.name));
  // three bids of each seat, the bot's made by the server
  assert.deepEqual(log.map((m) => m.seat).sort(), [0, 0, 0, 1, 1, 1]);
});
