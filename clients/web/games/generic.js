// The fallback for a game without its own picture (a plugin game): its view as nested,
// labelled panels — never one block of raw JSON.

import { h, panel, pretty, svg, s } from "/web/dom.js";

function value(v, depth) {
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x !== "object")) return v.length ? v.map((x) => pretty(String(x))).join(", ") : "—";
    return h("ol", { class: "nested" }, v.map((x) => h("li", {}, value(x, depth + 1))));
  }
  if (v && typeof v === "object") return table(v, depth + 1);
  if (typeof v === "boolean") return v ? "yes" : "no";
  return String(v);
}

function table(object, depth = 0) {
  return h(
    "dl",
    { class: `facts depth-${depth}` },
    Object.entries(object)
      .filter(([key]) => key !== "@type")
      .map(([key, v]) => [h("dt", {}, pretty(key.replace(/([A-Z])/g, "_$1"))), h("dd", {}, value(v, depth))]),
  );
}

export function render(view, ctx) {
  const width = 60 * Math.max(ctx.seatCount, 1) + 20;
  const board = svg(
    width,
    70,
    "generic",
    Array.from({ length: ctx.seatCount }, (_, seat) =>
      s("g", { class: "seat-token", "data-seat": seat },
        s("circle", { cx: 40 + seat * 60, cy: 35, r: 22, class: `seat-fill-${seat}` }),
        s("text", { x: 40 + seat * 60, y: 40, "text-anchor": "middle", class: "label-light" }, seat)),
    ),
  );
  return { board, panels: [panel("Game state", table(view))] };
}
