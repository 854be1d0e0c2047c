// The game page (game.html?game=ID[&seat=N#token=T]): one seat's view of a game (or a
// spectator's), followed live through the play session, its legal moves as buttons, the
// board drawn by the game's renderer, the seats with their clocks, and the move log.

import { api, Session } from "/web/api.js";
import { ago, formatClock, timeLeft } from "/web/clock.js";
import { h, num, panel, pretty, seatChip } from "/web/dom.js";
import { render as renderGeneric } from "/web/games/generic.js";
import { playerName, saveToken, seatLink, setPlayerName, spectatorLink, tokens } from "/web/store.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const id = params.get("game");
const seatParam = params.has("seat") ? Number(params.get("seat")) : -1;
const hashToken = new URLSearchParams(location.hash.slice(1)).get("token");
const token = hashToken || (seatParam >= 0 ? tokens(id)[seatParam] : "") || "";
if (hashToken && seatParam >= 0) saveToken(id, seatParam, hashToken);

const state = {
  snapshot: null,
  skew: 0, // the store's clock minus ours (ms)
  renderer: null,
  importFailures: 0, // failed imports of the game's renderer
  pending: false, // a move was sent and is not answered yet
  log: { records: [], tailToken: "", tailStart: 0, busy: false, again: false },
  resignArmed: false,
};

const RENDERERS = {
  five_tribes: "/web/games/five_tribes.js",
  tribes_early_civilization: "/web/games/tribes_early_civilization.js",
  rise_of_tribes: "/web/games/rise_of_tribes.js",
  fate_of_akalon: "/web/games/fate_of_akalon.js",
};

async function rendererFor(gameType) {
  if (!state.renderer) {
    const path = RENDERERS[gameType];
    if (!path) {
      state.renderer = renderGeneric;
    } else {
      try {
        // a browser remembers a failed import of a URL (a server restarting while the
        // page loads): a retry asks again under another URL
        const url = state.importFailures ? `${path}?retry=${state.importFailures}` : path;
        state.renderer = (await import(url)).render;
      } catch {
        state.importFailures += 1;
        return renderGeneric; // the game stays playable; the next snapshot tries again
      }
    }
  }
  return state.renderer;
}

function seatName(seat) {
  const info = state.snapshot?.seats?.[seat];
  if (info?.playerName) return info.playerName;
  if (info?.bot) return `Bot ${seat}`;
  return `Seat ${seat}`;
}

function showBanner(text) {
  const banner = $("banner");
  banner.textContent = text;
  banner.hidden = !text;
}

async function onSnapshot(snapshot) {
  if (state.snapshot && num(snapshot.version) < num(state.snapshot.version)) return;
  state.snapshot = snapshot;
  state.pending = false;
  if (num(snapshot.serverTimeUnixMs) > 0) state.skew = num(snapshot.serverTimeUnixMs) - Date.now();
  const render = await rendererFor(snapshot.gameType);
  drawHeader(snapshot);
  drawSeats(snapshot);
  drawMoves(snapshot);
  drawResult(snapshot);
  drawLinks(snapshot);
  const ctx = { snapshot, viewer: snapshot.viewerSeat, seatCount: snapshot.seatCount, name: seatName };
  const viewKey = Object.keys(snapshot.view || {})[0];
  const drawn = render(snapshot.view?.[viewKey] || {}, ctx);
  $("board").replaceChildren(drawn.board);
  $("game-panels").replaceChildren(...drawn.panels);
  document.body.dataset.version = snapshot.version;
  refreshLog();
}

const titles = api.gameTypes().then(
  (reply) => Object.fromEntries(reply.gameTypes.map((type) => [type.id, type.title])),
  () => ({}),
);

async function drawHeader(snapshot) {
  const title = (await titles)[snapshot.gameType] || pretty(snapshot.gameType);
  $("title").textContent = `${title} · ${id} · version ${snapshot.version}`;
  document.title = `tribes — ${title}`;
  const viewer = snapshot.viewerSeat;
  $("viewer").replaceChildren(
    viewer >= 0 ? h("span", {}, "You are ", seatChip(viewer, seatName(viewer))) : "Spectating",
  );
  const turn = $("turn");
  if (snapshot.finished) {
    turn.replaceChildren(h("strong", {}, "Game over. "), snapshot.result?.summary || "");
  } else {
    const acting = snapshot.toAct.map((seat) => seatChip(seat, seatName(seat)));
    const mine = snapshot.toAct.includes(viewer);
    turn.replaceChildren(
      mine ? h("strong", { class: "your-turn" }, "Your turn. ") : "",
      "To act: ",
      ...acting,
    );
  }
}

function drawSeats(snapshot) {
  const items = snapshot.seats.map((seat) => {
    const tags = [];
    if (seat.open) tags.push(h("span", { class: "tag open" }, "open"));
    if (seat.bot) tags.push(h("span", { class: "tag bot", title: `played by the ${seat.bot} bot` }, `bot: ${seat.bot}`));
    if (seat.resigned) tags.push(h("span", { class: "tag resigned" }, "resigned"));
    if (seat.timedOut) tags.push(h("span", { class: "tag timed-out" }, "lost on time"));
    if (snapshot.toAct.includes(seat.seat) && !snapshot.finished) tags.push(h("span", { class: "tag acting" }, "to act"));
    const since = num(seat.presenceSinceUnixMs);
    const presence = seat.present
      ? "connected"
      : since > 0
        ? `disconnected ${ago(Date.now() + state.skew - since)}`
        : "never connected";
    const score = snapshot.scores?.[seat.seat];
    const join =
      seat.open && snapshot.viewerSeat < 0 && !snapshot.finished
        ? h("button", { class: "join", "data-seat": seat.seat, onclick: () => join(seat.seat) }, "Join")
        : "";
    return h(
      "li",
      {
        class: `seat seat-${seat.seat}${seat.resigned || seat.timedOut ? " out" : ""}`,
        "data-seat": seat.seat,
      },
      h("span", {
        class: `presence ${seat.present ? "on" : "off"}`,
        title: presence,
        "data-present": seat.present ? "1" : "0",
      }),
      seatChip(seat.seat, seatName(seat.seat)),
      score !== undefined ? h("span", { class: "score", title: "score" }, String(score)) : "",
      h("span", { class: "clock", "data-seat": seat.seat }),
      h("span", { class: "tags" }, tags),
      join,
    );
  });
  $("seats").replaceChildren(...items);
  tickClocks();
  drawResign(snapshot);
}

function tickClocks() {
  const snapshot = state.snapshot;
  if (!snapshot) return;
  const serverNow = Date.now() + state.skew;
  for (const element of document.querySelectorAll(".clock[data-seat]")) {
    const seat = snapshot.seats[Number(element.dataset.seat)];
    const left = snapshot.finished ? null : timeLeft(snapshot, seat, serverNow);
    element.textContent = left === null ? "" : formatClock(left);
    element.classList.toggle("running", num(seat.clockSinceUnixMs) > 0);
    element.classList.toggle("low", left !== null && left < 10000);
    element.dataset.ms = left === null ? "" : String(left);
  }
}

function drawResign(snapshot) {
  const box = $("resign-box");
  const me = snapshot.seats[snapshot.viewerSeat];
  if (!token || !me || me.resigned || me.timedOut || snapshot.finished) {
    box.replaceChildren();
    return;
  }
  const button = state.resignArmed
    ? h("button", { id: "resign-confirm", class: "danger", onclick: resign }, "Really resign?")
    : h(
        "button",
        { id: "resign", class: "danger-outline", onclick: () => ((state.resignArmed = true), drawResign(snapshot)) },
        "Resign",
      );
  box.replaceChildren(button);
}

async function resign() {
  try {
    const snapshot = await api.resign(id, token);
    state.resignArmed = false;
    onSnapshot(snapshot);
  } catch (error) {
    showBanner(error.message);
  }
}

async function join(seat) {
  let name = playerName();
  if (!name) {
    name = (prompt("Your name") || "").trim();
    setPlayerName(name);
  }
  try {
    const joined = await api.join(id, seat, name);
    saveToken(id, joined.seat, joined.seatToken);
    location.href = seatLink(id, joined.seat, joined.seatToken);
  } catch (error) {
    showBanner(error.message);
  }
}

/** The move kind of an id: "drop:2-4:w" -> "drop". */
const kindOf = (moveId) => moveId.split(":")[0];

function drawMoves(snapshot) {
  const box = $("moves");
  $("moves-panel").hidden = snapshot.viewerSeat < 0;
  const moves = snapshot.legalMoves || [];
  $("hint").hidden = moves.length === 0;
  $("hint").onclick = hint;
  $("hint-text").hidden = true;
  if (moves.length === 0) {
    box.replaceChildren(
      h("p", { class: "muted" }, snapshot.finished ? "The game is over." : "Waiting for the others…"),
    );
    return;
  }
  const groups = new Map();
  for (const move of moves) {
    const kind = kindOf(move.id);
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(move);
  }
  const button = (move) =>
    h(
      "button",
      { class: "move", "data-move-id": move.id, title: move.id, onclick: () => play(move.id) },
      move.description || move.id,
    );
  const grouped = groups.size > 1 && moves.length > 8;
  box.replaceChildren(
    ...[...groups.entries()].flatMap(([kind, list]) =>
      grouped
        ? [h("div", { class: "move-group" }, h("h4", {}, `${pretty(kind)} (${list.length})`), list.map(button))]
        : list.map(button),
    ),
  );
}

/** SuggestMove for this seat: the bot's choice is named and its button marked. */
async function hint() {
  const text = $("hint-text");
  text.hidden = false;
  text.textContent = "Thinking…";
  try {
    const suggestion = await api.suggest(id, token);
    text.textContent = `Hint: ${suggestion.description || suggestion.moveId}`;
    for (const b of document.querySelectorAll("button.move")) {
      b.classList.toggle("suggested", b.dataset.moveId === suggestion.moveId);
    }
  } catch (error) {
    text.textContent = `No hint: ${error.message}`;
  }
}

function play(moveId) {
  if (state.pending) return;
  state.pending = true;
  for (const b of document.querySelectorAll("button.move")) b.disabled = true;
  showBanner("");
  session.play(moveId);
}

function onRejected(rejected) {
  state.pending = false;
  for (const b of document.querySelectorAll("button.move")) b.disabled = false;
  showBanner(`Move refused: ${rejected.status?.message || "unknown error"}`);
}

function drawResult(snapshot) {
  const result = snapshot.result;
  $("result-panel").hidden = !snapshot.finished || !result;
  if (!result) return;
  const rows = (result.ranks || []).map((rank, seat) =>
    h("tr", { class: result.winners.includes(seat) ? "winner" : "" },
      h("td", {}, rank), h("td", {}, seatChip(seat, seatName(seat))), h("td", {}, result.scores[seat])),
  );
  $("result").replaceChildren(
    h("p", { class: "summary" }, result.summary),
    h("table", { class: "ranks" }, h("tr", {}, h("th", {}, "Rank"), h("th", {}, "Seat"), h("th", {}, "Score")), rows),
  );
}

function drawLinks(snapshot) {
  const held = tokens(id);
  const items = [h("li", {}, h("a", { href: spectatorLink(id), class: "spectator-link" }, "spectator link"), " — anyone can watch")];
  for (const seat of snapshot.seats) {
    if (held[seat.seat]) {
      items.push(h("li", {}, seatChip(seat.seat, seatName(seat.seat)), " ",
        h("a", { href: seatLink(id, seat.seat, held[seat.seat]), class: "seat-link", "data-seat": seat.seat }, "seat link (keep it secret)")));
    }
  }
  if (snapshot.listed && snapshot.seats.some((seat) => seat.open)) {
    items.push(h("li", {}, "Open seats: others join from the ", h("a", { href: "/" }, "lobby"), " or the spectator link."));
  }
  $("links").replaceChildren(...items);
}

/** The move log from ListMoves, fetched again from the last (partial) page on each change. */
async function refreshLog() {
  const log = state.log;
  if (log.busy) {
    log.again = true;
    return;
  }
  log.busy = true;
  try {
    do {
      log.again = false;
      for (;;) {
        const page = await api.moves(id, token, log.tailToken);
        log.records.splice(log.tailStart, log.records.length - log.tailStart, ...page.moves);
        if (!page.nextPageToken) break;
        log.tailToken = page.nextPageToken;
        log.tailStart = log.records.length;
      }
    } while (log.again);
    drawLog();
  } catch (error) {
    showBanner(`Move log: ${error.message}`);
  } finally {
    log.busy = false;
  }
}

function drawLog() {
  const list = $("log");
  const shown = state.log.records.slice(-300);
  list.replaceChildren(
    ...shown.map((record) =>
      h(
        "li",
        {
          class: `entry${record.system ? " system" : ""}${record.hidden ? " hidden" : ""}`,
          "data-version": record.version,
          "data-seat": record.seat,
        },
        h("span", { class: "v" }, record.version),
        seatChip(record.seat, seatName(record.seat)),
        h("span", { class: "text" }, record.hidden ? "(a hidden move)" : record.description || record.moveId),
      ),
    ),
  );
  list.scrollTop = list.scrollHeight;
}

function onState(text) {
  const status = $("status");
  status.dataset.state = text;
  status.textContent = text;
}

function onError(error) {
  showBanner(error.message || "the session ended");
}

if (!id) {
  showBanner("No game given: open a game from the lobby.");
}
const session = id ? new Session(id, token, { onSnapshot, onRejected, onError, onState }) : null;
window.tribesSession = session; // for the console (and the tests' reconnect check)
setInterval(tickClocks, 250);
