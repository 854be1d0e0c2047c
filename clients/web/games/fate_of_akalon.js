// Fate of Akalon: Tribes: the battlefield in play order with each card's current value,
// every player's hand (face up for the viewer, backs for the others), deck, discard pile
// and cemetery with its value (rules §3, §5), drawn from FateOfAkalonView.

import { facts, h, panel, pretty, s, seatChip, seatColour, slug, svg } from "/web/dom.js";

const P = "FATE_OF_AKALON_";
const CARD_W = 72;
const CARD_H = 100;
const WIDTH = 940;
const ROW_H = CARD_H + 56;
const FACTION_FILL = { elf: "#d5f5e3", orc: "#f6ddcc", dwarf: "#e5e7e9", undead: "#e8daef" };

function card(view, id, x, y, cls, extra = {}) {
  const def = view.cards?.[id];
  const faction = slug(def?.faction, `${P}FACTION_`);
  const value = extra.value ?? def?.printedValue;
  const name = def?.name || id;
  const words = name.length > 11 ? [name.slice(0, name.lastIndexOf(" ", 11) > 0 ? name.lastIndexOf(" ", 11) : 11), name.slice(name.lastIndexOf(" ", 11) > 0 ? name.lastIndexOf(" ", 11) + 1 : 11)] : [name];
  return s("g", { class: `card ${cls}`, "data-card": id, "data-owner": extra.owner, transform: `translate(${x},${y})` },
    s("title", {}, def ? `${name} (${def.printedValue}) ${def.text}` : id),
    s("rect", { width: CARD_W, height: CARD_H, rx: 6, fill: FACTION_FILL[faction] || "#fff", stroke: extra.owner !== undefined ? seatColour(extra.owner) : "#566573", "stroke-width": extra.owner !== undefined ? 3 : 1.2 }),
    s("circle", { cx: 16, cy: 16, r: 11, fill: "#fdfefe", stroke: "#333" }),
    s("text", { x: 16, y: 21, "text-anchor": "middle", class: "label" }, value ?? "?"),
    words.map((w, i) => s("text", { x: CARD_W / 2, y: 50 + i * 13, "text-anchor": "middle", class: "small" }, w)),
    def?.attribute ? s("text", { x: CARD_W / 2, y: 88, "text-anchor": "middle", class: "tiny" }, def.attribute) : "");
}

function back(x, y, cls, label) {
  return s("g", { class: `card back ${cls}`, transform: `translate(${x},${y})` },
    s("rect", { width: CARD_W, height: CARD_H, rx: 6, fill: "#34495e", stroke: "#1c2833" }),
    s("rect", { x: 6, y: 6, width: CARD_W - 12, height: CARD_H - 12, rx: 4, fill: "none", stroke: "#85929e", "stroke-dasharray": "3 3" }),
    label !== undefined ? s("text", { x: CARD_W / 2, y: CARD_H / 2 + 5, "text-anchor": "middle", class: "label-light" }, label) : "");
}

function pile(view, ids, x, y, cls, caption, faceUp) {
  const top = ids[ids.length - 1];
  const drawn = ids.length === 0
    ? s("rect", { x, y, width: CARD_W, height: CARD_H, rx: 6, fill: "none", stroke: "#aaa", "stroke-dasharray": "4 3" })
    : faceUp ? card(view, top, x, y, cls) : back(x, y, cls, ids.length);
  return s("g", { class: `pile ${cls}-pile`, "data-count": ids.length },
    s("text", { x, y: y - 6, class: "small" }, caption), drawn);
}

function playerRow(view, player, y, ctx) {
  const seat = player.seat;
  const faction = pretty(player.faction, `${P}FACTION_`);
  const parts = [
    s("rect", { x: 8, y, width: WIDTH - 16, height: ROW_H - 8, rx: 8, fill: "#fbfcfc", stroke: seatColour(seat), "stroke-width": 2, class: "player-area", "data-seat": seat }),
    s("text", { x: 20, y: y + 20, class: "label" }, `${ctx.name(seat)} · ${faction} · ${pretty(player.side, `${P}SIDE_`)}${player.eliminated ? " · eliminated" : ""}`),
  ];
  const cy = y + 44;
  parts.push(pile(view, Array.from({ length: player.deckSize }, () => ""), 20, cy + 4, "deck", `deck ${player.deckSize}`, false));
  const shown = player.hand || [];
  const handCards = shown.length
    ? shown.map((id, i) => card(view, id, 110 + i * (CARD_W + 6), cy + 4, "hand"))
    : Array.from({ length: player.handSize }, (_, i) => back(110 + i * 26, cy + 4, "hand"));
  parts.push(s("text", { x: 110, y: cy - 2, class: "small" }, `hand ${player.handSize}`), handCards);
  parts.push(pile(view, player.discard || [], WIDTH - 200, cy + 4, "discard", `discard ${(player.discard || []).length}`, true));
  parts.push(pile(view, player.cemetery || [], WIDTH - 110, cy + 4, "cemetery", `cemetery ${player.cemeteryValue}`, true));
  return s("g", { class: "player-row", "data-seat": seat }, parts);
}

export function render(view, ctx) {
  const players = view.players || [];
  const viewer = players.find((p) => p.seat === view.viewer);
  const others = players.filter((p) => p !== viewer);
  const rows = [];
  let y = 10;
  for (const player of others) {
    rows.push(playerRow(view, player, y, ctx));
    y += ROW_H;
  }
  const fieldY = y;
  const field = (view.battlefield || []).map((entry, i) =>
    card(view, entry.card, 30 + i * (CARD_W + 10), fieldY + 30, "battlefield", { owner: entry.owner, value: entry.value }));
  rows.push(s("g", { class: "battlefield" },
    s("rect", { x: 8, y: fieldY, width: WIDTH - 16, height: CARD_H + 50, rx: 8, fill: "#7d6608", "fill-opacity": 0.18, stroke: "#7d6608" }),
    s("text", { x: 20, y: fieldY + 20, class: "label" }, view.battle ? `Battlefield · battle ${view.battle}` : "Battlefield"),
    field));
  y += CARD_H + 58;
  if (viewer) {
    rows.push(playerRow(view, viewer, y, ctx));
    y += ROW_H;
  }
  const board = svg(WIDTH, y + 4, "fate-of-akalon", s("rect", { x: 0, y: 0, width: WIDTH, height: y + 4, fill: "#f2ede3", rx: 10 }), rows);
  return { board, panels: panels(view, ctx) };
}

function panels(view, ctx) {
  const players = (view.players || []).map((p) =>
    h("div", { class: `player seat-border-${p.seat}`, "data-seat": p.seat },
      h("h4", {}, seatChip(p.seat, ctx.name(p.seat)), ` ${pretty(p.faction, `${P}FACTION_`)}`),
      facts([
        ["Side", pretty(p.side, `${P}SIDE_`)],
        ["Cemetery value", p.cemeteryValue],
        ["On the battlefield", `${p.battlefieldValue} (${p.plays} played)`],
        ["Hand / deck", `${p.handSize} / ${p.deckSize}`],
      ])));
  const hand = (view.players || []).find((p) => p.seat === view.viewer)?.hand || [];
  const cardText = hand.map((id) => {
    const def = view.cards?.[id];
    return h("li", {}, h("strong", {}, `${def?.name} (${def?.printedValue})`), " ", def?.text || "");
  });
  return [
    panel(`Battle ${view.battle} · ${pretty(view.phase, `${P}PHASE_`)}`,
      facts([
        view.attacker !== undefined && view.battle ? ["Attacker", seatChip(view.attacker, ctx.name(view.attacker))] : null,
        (view.playOrder || []).length ? ["Play order", (view.playOrder || []).map((seat) => seatChip(seat, ctx.name(seat)))] : null,
        (view.teamValues || []).length ? ["Team values", view.teamValues.join(" vs ")] : null,
      ]),
      hand.length ? h("ul", { class: "card-texts" }, cardText) : ""),
    panel("Players", h("div", { class: "players" }, players)),
    panel("Chronicle", h("ul", { class: "chronicle" }, [...(view.log || []).slice(-8), ...(view.privateLog || []).slice(-3).map((l) => `(private) ${l}`)].map((line) => h("li", {}, line)))),
  ];
}
