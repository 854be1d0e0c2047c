// Five Tribes: the Sultanate's 5×6 tiles with their meeples, palm trees, palaces and camels,
// the Turn Order track, the resource row and the Djinns for sale (spec §3, §6), drawn from
// FiveTribesView; the players' holdings as panels.

import { facts, h, num, panel, pretty, s, seatChip, seatColour, slug, svg } from "/web/dom.js";

const TILE_W = 104;
const TILE_H = 92;
const PAD = 14;
const TRIBES = [
  ["viziers", "vizier", "#f4d03f"],
  ["elders", "elder", "#fbfcfc"],
  ["merchants", "merchant", "#28a35a"],
  ["builders", "builder", "#2e86c1"],
  ["assassins", "assassin", "#c0392b"],
];
const KIND_FILL = {
  village: "#b9d7ee",
  sacred_place: "#dcc6e8",
  oasis: "#b5e3c4",
  small_market: "#f7d7b5",
  large_market: "#f1bd8a",
};
const KIND = "FIVE_TRIBES_TILE_KIND_";
const CARD = "FIVE_TRIBES_CARD_";
const DJINN = "FIVE_TRIBES_DJINN_";

const same = (a, b) => a && b && a.row === b.row && a.column === b.column;

function meeple(x, y, tribe, colour) {
  // a meeple: head and body, as on the board
  return s(
    "g",
    { class: "meeple", "data-tribe": tribe, transform: `translate(${x},${y})` },
    s("circle", { cx: 0, cy: -6, r: 4.2, fill: colour, stroke: "#333", "stroke-width": 0.8 }),
    s("path", { d: "M-6 7 L-4 -2 L4 -2 L6 7 Z", fill: colour, stroke: "#333", "stroke-width": 0.8 }),
  );
}

function palm(x, y) {
  return s(
    "g",
    { class: "palm", transform: `translate(${x},${y})` },
    s("path", { d: "M0 10 Q1 2 0 -4", stroke: "#7d5a35", "stroke-width": 2, fill: "none" }),
    s("path", { d: "M0 -4 q-7 -3 -10 2 M0 -4 q7 -3 10 2 M0 -4 q-4 -7 -9 -6 M0 -4 q4 -7 9 -6", stroke: "#1e8449", "stroke-width": 2.4, fill: "none", "stroke-linecap": "round" }),
  );
}

function palace(x, y) {
  return s(
    "g",
    { class: "palace", transform: `translate(${x},${y})` },
    s("rect", { x: -7, y: -3, width: 14, height: 11, fill: "#f8f9f9", stroke: "#555" }),
    s("path", { d: "M-8 -3 Q0 -14 8 -3 Z", fill: "#f5b041", stroke: "#555" }),
  );
}

function camel(x, y, owner) {
  return s(
    "g",
    { class: "camel", "data-owner": owner, transform: `translate(${x},${y})` },
    s("path", {
      d: "M-12 4 Q-11 -6 -5 -4 Q-2 -12 2 -4 Q6 -8 8 -2 L12 -8 L14 -7 L11 2 L10 10 L8 10 L8 4 L-8 4 L-9 10 L-11 10 Z",
      fill: seatColour(owner),
      stroke: "#222",
      "stroke-width": 1,
    }),
  );
}

function tileGroup(tile, turn) {
  const { row, column } = tile.position;
  const x = PAD + column * TILE_W;
  const y = PAD + row * TILE_H;
  const kind = slug(tile.kind, KIND);
  const classes = ["tile"];
  if (turn) {
    if (same(turn.startTile, tile.position)) classes.push("start");
    if (same(turn.position, tile.position)) classes.push("current");
    if (same(turn.finalTile, tile.position)) classes.push("final");
  }
  const pieces = [];
  let slot = 0;
  for (const [field, tribe, colour] of TRIBES) {
    for (let i = 0; i < num(tile.meeples?.[field]); i++, slot++) {
      pieces.push(meeple(x + 16 + (slot % 7) * 12.5, y + 38 + Math.floor(slot / 7) * 19, tribe, colour));
    }
  }
  for (let i = 0; i < num(tile.palms); i++) pieces.push(palm(x + TILE_W - 16 - i * 14, y + 16));
  for (let i = 0; i < num(tile.palaces); i++) pieces.push(palace(x + TILE_W - 16 - (num(tile.palms) + i) * 16, y + 16));
  if (tile.owner !== undefined && tile.owner !== null) pieces.push(camel(x + TILE_W - 22, y + TILE_H - 16, tile.owner));
  return s(
    "g",
    { class: classes.join(" "), "data-kind": kind, "data-row": row, "data-column": column },
    s("rect", { x: x + 2, y: y + 2, width: TILE_W - 4, height: TILE_H - 4, rx: 7, fill: KIND_FILL[kind] || "#eee" }),
    s("text", { x: x + 10, y: y + 20, class: `value ${kind === "village" || kind === "sacred_place" ? "blue" : "red"}` }, tile.value),
    s("text", { x: x + 10, y: y + TILE_H - 9, class: "kind" }, pretty(kind)),
    pieces,
  );
}

function track(view, y) {
  const owners = view.markerOwners || [];
  const marker = (m, x, dy = 0) =>
    m === undefined || m === null
      ? ""
      : s("circle", { cx: x, cy: y + 26 + dy, r: 9, class: "marker", "data-marker": m, fill: seatColour(owners[m]), stroke: "#222" });
  const spots = (view.paidSpots || []).map((spot, i) => {
    const x = PAD + 24 + i * 46;
    return s("g", { class: "spot" },
      s("rect", { x: x - 20, y: y + 6, width: 40, height: 40, rx: 5, fill: "#fdebd0", stroke: "#b9770e" }),
      s("text", { x, y: y + 18, "text-anchor": "middle", class: "small" }, spot.cost),
      marker(spot.marker, x));
  });
  const zero = (view.zeroAisle || []).map((m, i) => marker(m, PAD + 300 + i * 22, 8));
  return s("g", { class: "track" },
    s("text", { x: PAD, y: y, class: "caption" }, "Turn order (GC)"),
    spots,
    s("text", { x: PAD + 288, y: y + 18, class: "small" }, "zero spots"),
    zero);
}

function market(view, y) {
  const cards = (view.resourceRow || []).map((card, i) => {
    const x = PAD + 364 + i * 30;
    const name = slug(card, CARD);
    return s("g", { class: "resource", "data-card": name },
      s("rect", { x, y: y + 6, width: 27, height: 40, rx: 4, class: `card-fill ${name}` }),
      s("text", { x: x + 13.5, y: y + 30, "text-anchor": "middle", class: "tiny" }, name.slice(0, 4)));
  });
  return s("g", { class: "market" }, s("text", { x: PAD + 364, y, class: "caption" }, `Resources (${view.resourcePileSize} in the pile)`), cards);
}

export function render(view, ctx) {
  const tiles = view.tiles || [];
  const width = PAD * 2 + 6 * TILE_W;
  const gridH = PAD + 5 * TILE_H;
  const board = svg(
    width,
    gridH + 74,
    "five-tribes",
    s("rect", { x: 0, y: 0, width, height: gridH + 74, fill: "#f6e7c8", rx: 10 }),
    tiles.map((tile) => tileGroup(tile, view.turn)),
    track(view, gridH + 20),
    market(view, gridH + 20),
  );
  return { board, panels: panels(view, ctx) };
}

function cardsText(cards) {
  const parts = Object.entries(cards || {}).filter(([, n]) => n > 0).map(([name, n]) => `${n} ${name}`);
  return parts.length ? parts.join(", ") : "none";
}

function panels(view, ctx) {
  const players = (view.players || []).map((player, seat) =>
    h("div", { class: `player seat-border-${seat}`, "data-seat": seat },
      h("h4", {}, seatChip(seat, ctx.name(seat))),
      facts([
        ["Gold", player.gold === undefined ? "hidden" : `${player.gold} GC`],
        ["Camels left", player.camels],
        ["Viziers", player.viziers],
        ["Elders", player.elders],
        ["Cards", cardsText(player.cards)],
        ["Djinns", (player.djinns || []).map((d) => pretty(d, DJINN)).join(", ") || "none"],
      ])));
  const turn = view.turn;
  const turnFacts = turn
    ? facts([
        ["Playing", seatChip(turn.seat, ctx.name(turn.seat))],
        ["In hand", TRIBES.filter(([f]) => num(turn.hand?.[f]) > 0).map(([f]) => `${turn.hand[f]} ${f}`).join(", ") || "—"],
        turn.tribe && !turn.tribe.endsWith("UNSPECIFIED") ? ["Collected", `${turn.collected} × ${pretty(turn.tribe, "FIVE_TRIBES_MEEPLE_")}`] : null,
      ])
    : h("p", { class: "muted" }, view.step?.endsWith("BID") ? "Bidding for turn order" : "");
  return [
    panel(`Round ${view.round} · ${pretty(view.step, "FIVE_TRIBES_STEP_")}`, turnFacts,
      facts([
        ["Djinns for sale", (view.djinnDisplay || []).map((d) => pretty(d, DJINN)).join(", ")],
        ["Supply", `${view.palmSupply} palm trees, ${view.palaceSupply} palaces`],
        ["Bag", `${view.bagSize} meeples`],
        view.endTriggered ? ["End", "this is the last round"] : null,
      ])),
    panel("Players", h("div", { class: "players" }, players)),
  ];
}
