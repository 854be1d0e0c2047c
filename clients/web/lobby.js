// The lobby (index.html): game types with their options, create a game, listed games with
// open seats, join one by name.

import { api, gameId } from "/web/api.js";
import { h, seatChip } from "/web/dom.js";
import { playerName, saveToken, seatLink, setPlayerName, spectatorLink } from "/web/store.js";

const $ = (id) => document.getElementById(id);
let gameTypes = [];

function selectedType() {
  const checked = document.querySelector('input[name="game-type"]:checked');
  return gameTypes.find((t) => t.id === checked?.value) || gameTypes[0];
}

function renderTypes() {
  const box = $("game-types");
  box.replaceChildren(
    ...gameTypes.map((type, i) =>
      h(
        "label",
        { class: `game-type type-${type.id}` },
        h("input", {
          type: "radio",
          name: "game-type",
          value: type.id,
          checked: i === 0,
          onchange: renderTypeForm,
        }),
        h("span", { class: "title" }, type.title),
        h("span", { class: "muted" }, `${type.seatCounts.join(", ")} players`),
      ),
    ),
  );
  renderTypeForm();
}

function renderTypeForm() {
  const type = selectedType();
  const seats = $("seat-count");
  const previous = Number(seats.value) || 2;
  seats.replaceChildren(
    ...type.seatCounts.map((n) => h("option", { value: n, selected: n === previous }, n)),
  );
  seats.onchange = renderBots;
  renderBots();
  const options = $("options");
  options.replaceChildren(
    h("legend", {}, "Options"),
    ...type.options.map((option) =>
      h(
        "label",
        { class: "option", title: option.description },
        h("span", { class: "name" }, option.name.replaceAll("_", " ")),
        option.choices.length
          ? h(
              "select",
              { "data-option": option.name },
              option.choices.map((c) =>
                h("option", { value: c, selected: c === option.defaultValue }, c),
              ),
            )
          : h("input", { "data-option": option.name, value: option.defaultValue }),
        h("small", { class: "muted" }, option.description),
      ),
    ),
  );
  options.hidden = type.options.length === 0;
}

function renderBots() {
  const count = Number($("seat-count").value);
  const rows = [];
  for (let seat = 0; seat < count; seat++) {
    rows.push(
      h(
        "label",
        { class: "seat-bot" },
        seatChip(seat),
        h(
          "select",
          { "data-seat": seat, "aria-label": `Seat ${seat}` },
          h("option", { value: "" }, "a person"),
          // the bots this server can seat in this game (GameType.bot_kinds)
          (selectedType()?.botKinds || []).map((kind) =>
            h("option", { value: kind }, `bot: ${kind}`),
          ),
        ),
      ),
    );
  }
  $("seat-bots").replaceChildren(...rows);
}

function timeControl() {
  const preset = $("tc-preset").value;
  if (!preset) return undefined;
  const [kind, a, b] = preset.split(":");
  const control = { onTimeout: $("tc-timeout").value };
  if (kind === "move") control.perMoveSeconds = Number(a);
  else Object.assign(control, { initialSeconds: Number(a), incrementSeconds: Number(b) });
  return control;
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const type = selectedType();
  const request = {
    gameType: type.id,
    seatCount: Number($("seat-count").value),
    listed: $("listed").checked,
    options: {},
    bots: {},
  };
  for (const input of document.querySelectorAll("[data-option]")) {
    request.options[input.dataset.option] = input.value;
  }
  for (const select of document.querySelectorAll("#seat-bots select")) {
    if (select.value) request.bots[select.dataset.seat] = select.value;
  }
  const control = timeControl();
  if (control) request.timeControl = control;
  try {
    $("create-button").disabled = true;
    const created = await api.create(request);
    const id = gameId(created.game.name);
    if (request.listed) {
      const open = created.game.seats.find((seat) => seat.open);
      if (open) {
        await joinSeat(id, open.seat);
        return;
      }
      location.href = spectatorLink(id);
      return;
    }
    showCreated(id, created);
  } catch (error) {
    $("create-error").textContent = error.message;
  } finally {
    $("create-button").disabled = false;
  }
}

/** A private game: every seat's link, for the creator to hand out. */
function showCreated(id, created) {
  const items = created.seatTokens.map((token, seat) => {
    if (!token) return h("li", {}, seatChip(seat), " played by a bot");
    saveToken(id, seat, token);
    const link = seatLink(id, seat, token);
    return h(
      "li",
      {},
      seatChip(seat),
      " ",
      h("a", { href: link, class: "seat-link", "data-seat": seat }, "play this seat"),
      " ",
      h("input", { class: "link", readonly: true, value: link, onclick: (e) => e.target.select() }),
    );
  });
  const box = $("created");
  box.hidden = false;
  box.replaceChildren(
    h("h3", {}, `Created ${id}: share one link per seat`),
    h("ul", { class: "links" }, items),
    h("p", {}, "Spectators: ", h("a", { href: spectatorLink(id) }, spectatorLink(id))),
  );
}

async function joinSeat(id, seat) {
  const name = $("player-name").value.trim();
  setPlayerName(name);
  const joined = await api.join(id, seat, name);
  saveToken(id, joined.seat, joined.seatToken);
  location.href = seatLink(id, joined.seat, joined.seatToken);
}

function typeTitle(id) {
  return gameTypes.find((t) => t.id === id)?.title || id;
}

async function refresh() {
  const listing = await api.listGames($("open-only").checked);
  const rows = listing.games.map((game) => {
    const id = gameId(game.name);
    const seats = game.playerNames.map((name, seat) =>
      game.openSeats.includes(seat)
        ? h(
            "button",
            {
              class: `join seat-${seat}`,
              "data-game": id,
              "data-seat": seat,
              onclick: () =>
                joinSeat(id, seat).catch((e) => ($("create-error").textContent = e.message)),
            },
            `Join seat ${seat}`,
          )
        : seatChip(seat, name || `Seat ${seat}`),
    );
    return h(
      "tr",
      { "data-game": id },
      h("td", {}, h("strong", {}, typeTitle(game.gameType)), h("br"), h("small", {}, id)),
      h("td", { class: "seats" }, seats),
      h("td", {}, game.finished ? "finished" : `v${game.version}`),
      h("td", {}, h("a", { href: spectatorLink(id), class: "watch" }, "watch")),
    );
  });
  $("game-list").replaceChildren(...rows);
  $("lobby-empty").hidden = rows.length > 0;
}

async function main() {
  $("player-name").value = playerName();
  $("player-name").onchange = (e) => setPlayerName(e.target.value.trim());
  gameTypes = (await api.gameTypes()).gameTypes;
  renderTypes();
  $("create-form").onsubmit = create;
  $("refresh").onclick = refresh;
  $("open-only").onchange = refresh;
  await refresh();
  setInterval(() => refresh().catch(() => {}), 5000);
}

main();
