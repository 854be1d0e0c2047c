// Rise of Tribes: the hex map with every tribe's members, villages, invaders, the mammoth,
// the tiger and the volcano, and the Action Board's four columns of dice with their tier
// (rules §2, §4), drawn from RiseOfTribesView; players, goals and events as panels.

import { facts, h, panel, pretty, s, seatChip, seatColour, slug, svg } from "/web/dom.js";
import { bounds, centre, corners } from "/web/games/hex.js";

const P = "RISE_OF_TRIBES_";
const TERRAIN_FILL = { forest: "#5b9a55", mountain: "#a3a3a3", lake: "#6bb6e0" };
const HEX = 52;
const FACE = `${P}FACE_`;

function die(x, y, face, size = 30) {
  const name = slug(face, FACE);
  const mark =
    name === "sun"
      ? s("circle", { cx: x + size / 2, cy: y + size / 2, r: size / 4, fill: "#f5b041", stroke: "#b9770e" })
      : name === "moon"
        ? s("path", {
            d: `M${x + size * 0.6} ${y + size * 0.22} a ${size * 0.3} ${size * 0.3} 0 1 0 0 ${size * 0.56} a ${size * 0.22} ${size * 0.22} 0 1 1 0 -${size * 0.56} Z`,
            fill: "#5d6d7e",
          })
        : "";
  return s("g", { class: "die", "data-face": name },
    s("rect", { x, y, width: size, height: size, rx: 5, fill: "#fdfefe", stroke: "#34495e", "stroke-width": 1.5 }), mark);
}

function hexPiece(hex, x, y, seats) {
  const terrain = slug(hex.terrain, `${P}TERRAIN_`);
  const pieces = [];
  let k = 0;
  (hex.members || []).forEach((count, seat) => {
    for (let i = 0; i < count; i++, k++) {
      pieces.push(s("circle", { class: "member", "data-seat": seat, cx: x - 20 + (k % 5) * 10, cy: y + 8 + Math.floor(k / 5) * 10, r: 5, fill: seatColour(seat), stroke: "#fff", "stroke-width": 1.3 }));
    }
  });
  if (hex.villageOwner !== undefined && hex.villageOwner !== null) {
    pieces.push(s("path", { class: "village", "data-owner": hex.villageOwner, d: `M${x - 11} ${y - 10} l11 -11 l11 11 v12 h-22 Z`, fill: seatColour(hex.villageOwner), stroke: "#222", "stroke-width": 1.5 }));
  }
  for (let i = 0; i < (hex.invaders || 0); i++) {
    pieces.push(s("path", { class: "invader", d: `M${x + 14 + i * 8} ${y - 6} l4 -8 l4 8 Z`, fill: "#1b1b1b" }));
  }
  if (hex.mammoth) pieces.push(s("text", { class: "beast mammoth", x: x - 30, y: y - 10, "font-size": 11 }, "Mammoth"));
  if (hex.tiger) pieces.push(s("text", { class: "beast tiger", x: x - 30, y: y - 10, "font-size": 11 }, "Tiger"));
  return s("g", { class: "hex", "data-terrain": terrain, "data-id": hex.id },
    s("polygon", { points: corners(x, y, HEX - 2), fill: TERRAIN_FILL[terrain] || "#ccc", stroke: hex.nextToVolcano ? "#c0392b" : "#eee", "stroke-width": 2 }),
    s("text", { x, y: y + HEX - 14, "text-anchor": "middle", class: "tiny" }, `${pretty(terrain)} (${hex.coord?.q || 0},${hex.coord?.r || 0})`),
    pieces);
}

function map(view, x0, y0) {
  const hexes = view.hexes || [];
  const cells = hexes.map((hex) => hex.coord || {});
  if (view.volcano) cells.push(view.volcano);
  const [minX, minY, maxX, maxY] = bounds(cells, HEX);
  const at = (c) => {
    const [x, y] = centre(c.q || 0, c.r || 0, HEX);
    return [x0 - minX + x, y0 - minY + y];
  };
  const drawn = hexes.map((hex) => hexPiece(hex, ...at(hex.coord || {}), view.seats));
  if (view.volcano) {
    const [x, y] = at(view.volcano);
    drawn.push(s("g", { class: "volcano" },
      s("polygon", { points: corners(x, y, HEX - 2), fill: "#922b21" }),
      s("text", { x, y: y + 4, "text-anchor": "middle", class: "label-light" }, "Volcano")));
  }
  return { group: s("g", { class: "map" }, drawn), width: maxX - minX, height: maxY - minY };
}

function actionBoard(view, x0, y0) {
  const rows = view.actionRows || [];
  const taken = new Set(view.turn?.actionsTaken || []);
  return s("g", { class: "action-board" },
    s("text", { x: x0, y: y0, class: "caption" }, "Action board"),
    rows.map((row, i) => {
      const x = x0 + i * 78;
      return s("g", { class: `action-column${taken.has(row.action) ? " taken" : ""}`, "data-action": slug(row.action, `${P}ACTION_`) },
        s("rect", { x, y: y0 + 8, width: 70, height: 176, rx: 6, fill: taken.has(row.action) ? "#fdebd0" : "#f8f9f9", stroke: "#7f8c8d" }),
        s("text", { x: x + 35, y: y0 + 26, "text-anchor": "middle", class: "label" }, pretty(row.action, `${P}ACTION_`)),
        (row.dice || []).map((face, k) => die(x + 20, y0 + 36 + k * 36, face)),
        s("text", { x: x + 35, y: y0 + 160, "text-anchor": "middle", class: "small" }, pretty(row.tier, `${P}TIER_`)),
        s("text", { x: x + 35, y: y0 + 176, "text-anchor": "middle", class: "small" }, `power ${row.basePower}`));
    }),
    s("text", { x: x0, y: y0 + 210, class: "caption" }, "Rolled"),
    (view.turn?.rolled?.length ? view.turn.rolled : view.rollPool || []).map((face, k) => die(x0 + k * 40, y0 + 218, face)),
  );
}

export function render(view, ctx) {
  const drawnMap = map(view, 20, 20);
  const boardX = drawnMap.width + 50;
  const width = boardX + 4 * 78 + 10;
  const height = Math.max(drawnMap.height + 40, 300);
  const board = svg(width, height, "rise-of-tribes",
    s("rect", { x: 0, y: 0, width, height, fill: "#efe6d2", rx: 10 }),
    drawnMap.group,
    actionBoard(view, boardX, 30));
  return { board, panels: panels(view, ctx) };
}

const resources = (r) => `${r?.food || 0} food, ${r?.wood || 0} wood, ${r?.stone || 0} stone`;

function panels(view, ctx) {
  const goal = (g) => pretty(g, `${P}GOAL_`);
  const players = (view.players || []).map((p) =>
    h("div", { class: `player seat-border-${p.seat}`, "data-seat": p.seat },
      h("h4", {}, seatChip(p.seat, ctx.name(p.seat)), ` ${p.tribeName}`),
      facts([
        ["VP", `${p.vp} (${p.vpFromVillages} from villages, ${p.vpFromEvents} from events)`],
        ["Resources", resources(p.resources)],
        ["Members", `${p.membersOnMap} on the map, ${p.supply} in supply`],
        ["Villages", `${p.villages} (cost ${resources(p.villageCost)})`],
        ["Goals", (p.goalsInProgress || []).map(goal).join(", ") || "—"],
        ["Completed", (p.goalsCompleted || []).map(goal).join(", ") || "—"],
        p.eliminated ? ["Out", "eliminated"] : null,
      ])));
  const events = (view.eventSlots || []).map((slot) =>
    h("li", {}, `Slot ${slot.slot}: `, slot.event ? h("strong", {}, pretty(slot.event, `${P}EVENT_`)) : "empty",
      slot.event ? ` — ${resources(slot)}` : ""));
  return [
    panel(`Turn ${view.turnCount} · ${pretty(view.step, `${P}STEP_`)}`,
      facts([
        ["Active", seatChip(view.active, ctx.name(view.active))],
        ["Hex limit", view.hexLimit],
        ["Villages in pool", view.villagesInPool],
        ["Event deck", view.eventDeckSize],
      ]),
      h("ul", { class: "events" }, events)),
    panel("Tribes", h("div", { class: "players" }, players)),
    panel("Chronicle", h("ul", { class: "chronicle" }, (view.log || []).slice(-8).map((line) => h("li", {}, line)))),
  ];
}
