// What this browser remembers: the player's name and the seat tokens it holds per game.

const NAME_KEY = "tribes:name";
const tokensKey = (id) => `tribes:tokens:${id}`;

export function playerName() {
  return localStorage.getItem(NAME_KEY) || "";
}

export function setPlayerName(name) {
  localStorage.setItem(NAME_KEY, name);
}

/** seat -> token for the seats of game `id` this browser holds. */
export function tokens(id) {
  try {
    return JSON.parse(localStorage.getItem(tokensKey(id)) || "{}");
  } catch {
    return {};
  }
}

export function saveToken(id, seat, token) {
  const held = tokens(id);
  held[seat] = token;
  localStorage.setItem(tokensKey(id), JSON.stringify(held));
}

/** The game page of a seat (its token in the fragment, which is never sent to a server). */
export function seatLink(id, seat, token) {
  const base = `${location.origin}/web/game.html?game=${encodeURIComponent(id)}`;
  return token ? `${base}&seat=${seat}#token=${encodeURIComponent(token)}` : base;
}

export function spectatorLink(id) {
  return seatLink(id, -1, "");
}
