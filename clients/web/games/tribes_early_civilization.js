// Tribes: Early Civilization: the action row (spec §4), the achievement boards of the three
// epochs with the seats' markers, and every player's territory of hex tiles with its tribe
// members (exhausted tiles dimmed), drawn from TribesEarlyCivilizationView.

import { facts, h, panel, pretty, s, seatChip, seatColour, slug, svg } from "/web/dom.js";
import { bounds, centre, corners } from "/web/games/hex.js";

const P = "TRIBES_EARLY_CIVILIZATION_";
const TERRAIN = `${P}TERRAIN_`;
const TERRAIN_FILL = {
  goat: "#b7d98b",
  horse: "#d9b98a",
  wheat: "#f4d35e",
  gold: "#e8a33d",
  incense: "#c39bd3",
};
const HEX = 30;
const WIDTH = 900;

function actionRow(view, y) {
  const tiles = view.sequence || [];
  const w = Math.min(120, (WIDTH - 40) / Math.max(tiles.length, 1) - 6);
  return s(
    "g",
    { class: "action-row" },
    s("text", { x: 20, y, class: "caption" }, "Action row"),
    tiles.map((tile, i) => {
      const x = 20 + i * (w + 6);
      const event = tile.kind?.endsWith("EVENT");
      const shells = Array.from({ length: tile.shells || 0 }, (_, k) =>
        s("circle", { class: "shell", cx: x + 12 + (k % 8) * 12, cy: y + 58 + Math.floor(k / 8) * 12, r: 5, fill: "#fdf2e9", stroke: "#a04000" }),
      );
      return s(
        "g",
        { class: "row-tile", "data-kind": event ? "event" : "action", "data-position": tile.position },
        s("rect", { x, y: y + 8, width: w, height: 66, rx: 6, fill: event ? "#f5b7b1" : "#d6eaf8", stroke: "#566573" }),
        s("text", { x: x + 6, y: y + 26, class: "small" }, tile.name.length > 16 ? `${tile.name.slice(0, 15)}…` : tile.name),
        shells,
      );
    }),
  );
}

function boardsGrid(view, y) {
  const cards = view.boards || [];
  const w = 200;
  const hgt = 62;
  return s(
    "g",
    { class: "achievements" },
    s("text", { x: 20, y, class: "caption" }, "Achievement boards"),
    cards.map((board) => {
      const x = 20 + board.column * (w + 10);
      const top = y + 8 + (board.epoch - 1) * (hgt + 8);
      if (!board.faceUp || !board.face) {
        return s("g", { class: "achievement face-down", "data-epoch": board.epoch },
          s("rect", { x, y: top, width: w, height: hgt, rx: 6, fill: "#d5d8dc", stroke: "#909497" }),
          s("text", { x: x + w / 2, y: top + 36, "text-anchor": "middle", class: "small" }, `Epoch ${board.epoch}`));
      }
      const face = board.face;
      const spaces = (face.spaces || []).map((space, k) =>
        s("g", { class: "space" },
          s("rect", { x: x + 8 + k * 46, y: top + 28, width: 40, height: 26, rx: 4, fill: space.lightning ? "#fef9e7" : "#fff", stroke: "#aaa" }),
          s("text", { x: x + 14 + k * 46, y: top + 46, class: "small" }, `${space.vp}`),
          space.seat !== undefined
            ? s("circle", { class: "achieved", "data-seat": space.seat, cx: x + 36 + k * 46, cy: top + 41, r: 8, fill: seatColour(space.seat), stroke: "#222" })
            : ""),
      );
      return s("g", { class: "achievement face-up", "data-epoch": board.epoch },
        s("rect", { x, y: top, width: w, height: hgt, rx: 6, fill: TERRAIN_FILL[slug(face.resource, TERRAIN)] || "#eee", stroke: "#566573" }),
        s("text", { x: x + 8, y: top + 18, class: "label" }, `${face.name} · ${face.required}× ${pretty(face.resource, TERRAIN)}`),
        spaces);
    }),
  );
}

function territory(player, x0, y0, size) {
  const tiles = player.tiles || [];
  const [minX, minY] = bounds(tiles.map((t) => t.hex), size);
  const hexes = tiles.map((tile) => {
    const [cx, cy] = centre(tile.hex.q || 0, tile.hex.r || 0, size);
    const x = x0 - minX + cx;
    const y = y0 - minY + cy;
    const terrain = slug(tile.terrain, TERRAIN);
    const members = Array.from({ length: tile.members || 0 }, (_, k) =>
      s("circle", { class: "member", "data-seat": player.seat, cx: x - 8 + (k % 3) * 8, cy: y + 4 + Math.floor(k / 3) * 8, r: 4.5, fill: seatColour(player.seat), stroke: "#fff", "stroke-width": 1.2 }),
    );
    return s("g", { class: `hex${tile.exhausted ? " exhausted" : ""}`, "data-terrain": terrain, "data-q": tile.hex.q || 0, "data-r": tile.hex.r || 0 },
      s("polygon", { points: corners(x, y, size - 1), fill: TERRAIN_FILL[terrain] || "#ddd", stroke: "#5d6d7e", "fill-opacity": tile.exhausted ? 0.4 : 1 }),
      s("text", { x, y: y - 8, "text-anchor": "middle", class: "tiny" }, terrain),
      members);
  });
  return hexes;
}

export function render(view, ctx) {
  const players = view.players || [];
  const perRow = Math.min(players.length, 2);
  const slotW = (WIDTH - 40) / perRow;
  const sized = players.map((p) => bounds((p.tiles || []).map((t) => t.hex), HEX));
  const slotH = Math.max(160, ...sized.map(([, y0, , y1]) => y1 - y0 + 40));
  const territoriesY = 346;
  const rows = Math.ceil(players.length / perRow);
  const height = territoriesY + rows * slotH + 10;
  const areas = players.map((player, i) => {
    const x = 20 + (i % perRow) * slotW;
    const y = territoriesY + Math.floor(i / perRow) * slotH;
    const [x0, , x1] = sized[i];
    const offset = Math.max(0, (slotW - (x1 - x0)) / 2);
    return s("g", { class: "territory", "data-seat": player.seat },
      s("rect", { x, y, width: slotW - 10, height: slotH - 10, rx: 8, fill: "#fbfcfc", stroke: seatColour(player.seat), "stroke-width": 2 }),
      s("text", { x: x + 10, y: y + 18, class: "label" }, `${ctx.name(player.seat)} — territory`),
      territory(player, x + offset, y + 26, HEX));
  });
  const board = svg(WIDTH, height, "tribes-early-civilization",
    s("rect", { x: 0, y: 0, width: WIDTH, height, fill: "#eef3e2", rx: 10 }),
    actionRow(view, 24),
    boardsGrid(view, 118),
    areas);
  return { board, panels: panels(view, ctx) };
}

function panels(view, ctx) {
  const players = (view.players || []).map((p) =>
    h("div", { class: `player seat-border-${p.seat}`, "data-seat": p.seat },
      h("h4", {}, seatChip(p.seat, ctx.name(p.seat)), p.isStartPlayer ? " (start player)" : ""),
      facts([
        ["VP", p.vp === undefined ? "hidden" : p.vp],
        ["Shells", p.shells],
        ["Members", `${p.membersOnBoard} on tiles, ${p.reserve} in reserve`],
        ["Stones left", p.stonesLeft],
        ["Levels", `procreation ${p.levels?.procreation}, exploration ${p.levels?.exploration}, movement ${p.levels?.movement}, strength ${p.levels?.strength}`],
        ["Arrow", p.arrowAvailable ? "available" : "used"],
      ])));
  const pending = view.pending;
  const log = (view.log || []).slice(-8).map((line) => h("li", {}, line.seat >= 0 ? seatChip(line.seat, ctx.name(line.seat)) : "", line.text));
  return [
    panel(`Round ${view.round} · ${pretty(view.phase, `${P}PHASE_`)}`,
      pending?.prompt ? h("p", { class: "prompt" }, pending.prompt) : "",
      facts([
        ["Bag", `${view.bagTotal} tiles: ${(view.bag || []).map((b) => `${b.count} ${pretty(b.terrain, TERRAIN)}`).join(", ")}`],
        ["Events left", (view.eventStacks || []).map((e) => `epoch ${e.epoch}: ${e.count}`).join(", ")],
        ["Turns", `${view.turnCount} of at most ${view.turnCap}`],
        view.endTriggered ? ["End", "triggered"] : null,
      ])),
    panel("Players", h("div", { class: "players" }, players)),
    panel("Chronicle", h("ul", { class: "chronicle" }, log)),
  ];
}
