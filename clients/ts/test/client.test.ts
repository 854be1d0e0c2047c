/**
 * The client's unary methods against a real server: game types, create, get, moves by id
 * and typed (hosted and plugin games), the move log in pages, seat tokens and what a
 * spectator may not see.
 */

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { create } from "@bufbuild/protobuf";
import { anyPack, anyUnpack } from "@bufbuild/protobuf/wkt";

import { MoveSchema, TribesClient, type GameSnapshot } from "../src/index.js";
import {
  GoofspielMoveSchema,
  GoofspielViewSchema,
  type GoofspielView,
} from "./gen/tests/games/goofspiel/goofspiel_pb.js";
import { startServer, type Server } from "./server.js";
import {
  collect,
  goofspiel,
  goofspielRegistry,
  recordingFetch,
  round,
  type Sent,
} from "./support.js";

let server: Server;
let client: TribesClient;

before(async () => {
  server = await startServer();
  client = new TribesClient({ baseUrl: server.baseUrl, registry: goofspielRegistry });
});

after(async () => {
  await server?.stop();
});

function goofView(snapshot: GameSnapshot): GoofspielView {
  const view = snapshot.view?.game;
  assert.equal(view?.case, "plugin");
  const unpacked = anyUnpack(view.value, GoofspielViewSchema);
  assert.ok(unpacked, "the plugin view unpacks as a GoofspielView");
  return unpacked;
}

test("listGameTypes lists every hosted game with its seat counts and options", async () => {
  const types = await client.listGameTypes();
  const byId = new Map(types.map((t) => [t.id, t]));
  assert.ok(byId.has("five_tribes") && byId.has("fate_of_akalon") && byId.has("goofspiel"));
  assert.deepEqual(byId.get("five_tribes")!.seatCounts, [2, 3, 4]);
  const cards = byId.get("goofspiel")!.options.find((o) => o.name === "cards");
  assert.deepEqual(cards?.choices, ["3", "5", "8", "13", "25"]);
});

test("createGame returns the spectator's snapshot and one token per seat", async () => {
  const { created } = await goofspiel(client, 5);
  const game = created.game;
  assert.match(game.name, /^games\/[^/]+$/);
  assert.equal(game.version, 1n); // uint64 parsed as a bigint
  assert.equal(game.viewerSeat, -1);
  assert.equal(game.seatCount, 2);
  assert.deepEqual(game.options, { cards: "5" });
  assert.deepEqual(game.legalMoves, []);
  assert.equal(created.seatTokens.length, 2);
  assert.notEqual(created.seatTokens[0], created.seatTokens[1]);
});

test("createGame honours the seed: the same seed deals the same game", async () => {
  const views = [];
  for (let i = 0; i < 2; i++) {
    const created = await client.createGame({ gameType: "five_tribes", seatCount: 2, seed: 42n });
    views.push(created.game.view);
  }
  assert.deepEqual(views[0], views[1]);
  const created = await client.createGame({ gameType: "five_tribes", seatCount: 2, seed: 43 });
  assert.notDeepEqual(created.game.view, views[0]);
});

test("getGame as a seat shows that seat's legal moves; as a spectator none", async () => {
  const table = await goofspiel(client);
  const mine = await table.seats[0]!.getGame(table.name);
  assert.equal(mine.viewerSeat, 0);
  assert.deepEqual(
    mine.legalMoves.map((m) => m.id),
    ["bid:1", "bid:2", "bid:3"],
  );
  assert.deepEqual(mine.toAct, [0, 1]);
  const spectator = await client.getGame(table.name);
  assert.equal(spectator.viewerSeat, -1);
  assert.deepEqual(spectator.legalMoves, []);
  // a bare id names the same game
  const bare = await client.getGame(table.name.slice("games/".length));
  assert.equal(bare.name, table.name);
});

test("applyMove by move id plays the move and checks expectedVersion", async () => {
  const table = await goofspiel(client);
  const after = await table.seats[0]!.applyMove(
    table.name,
    { moveId: "bid:2" },
    { expectedVersion: 1n },
  );
  assert.equal(after.version, 2n);
  assert.equal(after.viewerSeat, 0);
  assert.equal(goofView(after).myBid, 2);
  assert.deepEqual(after.toAct, [1]);
});

test("applyMove with a typed plugin move, packed as an Any of the game's message", async () => {
  const table = await goofspiel(client);
  const bid = create(GoofspielMoveSchema, { kind: { case: "bid", value: { card: 3 } } });
  const move = create(MoveSchema, {
    game: { case: "plugin", value: anyPack(GoofspielMoveSchema, bid) },
  });
  const after = await table.seats[1]!.applyMove(table.name, { move });
  assert.equal(after.version, 2n);
  assert.equal(goofView(after).myBid, 3);
  // the legal moves' typed form unpacks to the same kind of message
  const legal = (await table.seats[0]!.getGame(table.name)).legalMoves[0]!;
  assert.equal(legal.move?.game.case, "plugin");
  const typed = anyUnpack(legal.move.game.value, GoofspielMoveSchema);
  assert.equal(typed?.kind.case, "bid");
});

test("applyMove echoes a hosted game's typed legal move back (Five Tribes)", async () => {
  const created = await client.createGame({ gameType: "five_tribes", seatCount: 2, seed: 7 });
  const game = created.game;
  const seat = client.withToken(created.seatTokens[game.toAct[0]!]);
  const mine = await seat.getGame(game.name);
  const legal = mine.legalMoves[0]!;
  assert.equal(legal.move?.game.case, "fiveTribes");
  const after = await seat.applyMove(
    game.name,
    { move: legal.move },
    { expectedVersion: mine.version },
  );
  assert.equal(after.version, mine.version + 1n);
  const [record] = await collect(client.allMoves(game.name));
  assert.equal(record?.moveId, legal.id);
});

test("applyMove refuses a choice with both or neither of moveId and move", async () => {
  const table = await goofspiel(client);
  const move = create(MoveSchema, {});
  await assert.rejects(
    table.seats[0]!.applyMove(table.name, { moveId: "bid:1", move } as never),
    TypeError,
  );
  await assert.rejects(table.seats[0]!.applyMove(table.name, {} as never), TypeError);
});

test("listMoves pages the log; allMoves reads every page; bids stay face down in it", async () => {
  const table = await goofspiel(client, 5);
  for (const card of [1, 2, 3]) await round(table, card);
  await table.seats[0]!.applyMove(table.name, { moveId: "bid:5" }); // pending, face down
  const first = await client.listMoves(table.name, { pageSize: 2 });
  assert.deepEqual(
    first.moves.map((m) => m.version),
    [2n, 3n],
  );
  assert.notEqual(first.nextPageToken, "");
  const second = await client.listMoves(table.name, {
    pageSize: 2,
    pageToken: first.nextPageToken,
  });
  assert.deepEqual(
    second.moves.map((m) => m.version),
    [4n, 5n],
  );
  const all = await collect(client.allMoves(table.name, { pageSize: 2 }));
  assert.deepEqual(
    all.map((m) => m.version),
    [2n, 3n, 4n, 5n, 6n, 7n, 8n],
  );
  assert.deepEqual(
    all.map((m) => m.seat),
    [0, 1, 0, 1, 0, 1, 0],
  );
  // bids are face down: a spectator's log has every record, but none says which card
  assert.ok(all.every((m) => m.hidden && m.moveId === "" && m.move === undefined));
  assert.equal(typeof all[0]!.timeUnixMs, "bigint");
  // a seat's log shows its own bids and hides the other seat's
  const own = await collect(table.seats[0]!.allMoves(table.name));
  assert.deepEqual(
    own.map((m) => m.moveId),
    ["bid:1", "", "bid:2", "", "bid:3", "", "bid:5"],
  );
});

test("a spectator and the other seat see no pending bid; the bidder sees its own", async () => {
  const table = await goofspiel(client);
  await table.seats[0]!.applyMove(table.name, { moveId: "bid:2" });
  const spectator = goofView(await client.getGame(table.name));
  const other = goofView(await table.seats[1]!.getGame(table.name));
  const bidder = goofView(await table.seats[0]!.getGame(table.name));
  assert.deepEqual(spectator.hasBid, [true, false]);
  assert.equal(spectator.myBid, undefined);
  assert.equal(other.myBid, undefined);
  assert.equal(bidder.myBid, 2);
});

test("Five Tribes: a spectator sees no gold, a seat only its own", async () => {
  const created = await client.createGame({ gameType: "five_tribes", seatCount: 2, seed: 3 });
  const name = created.game.name;
  const players = async (c: TribesClient) => {
    const view = (await c.getGame(name)).view?.game;
    assert.equal(view?.case, "fiveTribes");
    return view.value.players;
  };
  const spectator = await players(client);
  assert.ok(spectator.every((p) => p.gold === undefined));
  const seat0 = await players(client.withToken(created.seatTokens[0]));
  assert.equal(typeof seat0[0]!.gold, "number");
  assert.equal(seat0[1]!.gold, undefined);
});

test("the token goes as a Bearer header; every mutating call has a fresh requestId", async () => {
  const sent: Sent[] = [];
  const recording = new TribesClient({ baseUrl: server.baseUrl, fetch: recordingFetch(sent) });
  const created = await recording.createGame({
    gameType: "goofspiel",
    seatCount: 2,
    options: { cards: "3" },
  });
  const seat = recording.withToken(created.seatTokens[0]);
  assert.equal(seat.token, created.seatTokens[0]);
  await seat.applyMove(created.game.name, { moveId: "bid:1" });
  await seat.getGame(created.game.name);
  assert.equal(sent[0]!.headers.get("Authorization"), null);
  assert.equal(sent[1]!.headers.get("Authorization"), `Bearer ${created.seatTokens[0]}`);
  const ids = sent.slice(0, 2).map((s) => JSON.parse(s.body!).requestId as string);
  assert.match(ids[0]!, /^[0-9a-f-]{36}$/);
  assert.notEqual(ids[0], ids[1]);
  assert.equal(sent[2]!.body, undefined);
  assert.equal(seat.withToken(undefined).token, undefined);
});

test("without the plugin's registry a plugin game still plays by move id", async () => {
  const generic = new TribesClient({ baseUrl: server.baseUrl });
  const table = await goofspiel(generic);
  const mine = await table.seats[0]!.getGame(table.name);
  const view = mine.view?.game;
  assert.equal(view?.case, "plugin");
  assert.equal(view.value.typeUrl, "type.googleapis.com/tribes.examples.goofspiel.GoofspielView");
  assert.equal(view.value.value.length, 0); // its contents need the registry
  const after = await table.seats[0]!.applyMove(table.name, { moveId: mine.legalMoves[0]!.id });
  assert.equal(after.version, 2n);
});
