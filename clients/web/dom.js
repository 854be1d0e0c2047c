// Small DOM helpers shared by every page: HTML and SVG element builders, names, colours.

const SVG_NS = "http://www.w3.org/2000/svg";

function build(element, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      element.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(element.dataset, value);
    } else {
      element.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** An HTML element: h("div", {class: "x"}, "text", otherElement). */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element: s("circle", {cx: 1, cy: 2, r: 3}). */
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** A whole SVG picture with a viewBox, scaled to its container. */
export function svg(width, height, cls, ...children) {
  return s(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, class: `board ${cls}`, role: "img", width, height },
    ...children,
  );
}

/** "FIVE_TRIBES_TILE_KIND_SMALL_MARKET" -> "Small market" (the enum's prefix removed). */
export function pretty(name, prefix = "") {
  if (!name) return "";
  let text = String(name);
  if (prefix && text.startsWith(prefix)) text = text.slice(prefix.length);
  text = text.replaceAll("_", " ").toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The short tail of an enum name: "FIVE_TRIBES_MEEPLE_VIZIER" -> "vizier". */
export function slug(name, prefix) {
  return String(name || "").slice(prefix.length).toLowerCase();
}

/** One colour per seat, the same in panels (CSS .seat-N) and pictures. */
export const SEAT_COLOURS = ["#d64541", "#2f6fbd", "#2e9d5b", "#e39b1b", "#8e44ad", "#16a5a5"];

export function seatColour(seat) {
  return SEAT_COLOURS[((seat % SEAT_COLOURS.length) + SEAT_COLOURS.length) % SEAT_COLOURS.length];
}

/** A titled panel of the page. */
export function panel(title, ...children) {
  return h("section", { class: "panel" }, h("h3", {}, title), ...children);
}

/** A definition list of label/value pairs, for the structured panels. */
export function facts(pairs) {
  return h(
    "dl",
    { class: "facts" },
    pairs.filter(Boolean).map(([label, value]) => [h("dt", {}, label), h("dd", {}, value)]),
  );
}

/** A small coloured chip naming a seat. */
export function seatChip(seat, label) {
  return h("span", { class: `chip seat-${seat}` }, label ?? `Seat ${seat}`);
}

/** int64 fields arrive as strings in the JSON mapping. */
export function num(value) {
  return value === undefined || value === null || value === "" ? 0 : Number(value);
}
