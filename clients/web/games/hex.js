// Pointy-top hexagons on axial coordinates (q, r), shared by the two hex-map games.

const SQRT3 = Math.sqrt(3);

/** The centre of hex (q, r) for hexagons of the given size (centre to corner). */
export function centre(q, r, size) {
  return [size * SQRT3 * (q + r / 2), size * 1.5 * r];
}

/** The SVG points of a hexagon centred at (x, y). */
export function corners(x, y, size) {
  const points = [];
  for (let i = 0; i < 6; i++) {
    const angle = (Math.PI / 180) * (60 * i - 30);
    points.push(`${(x + size * Math.cos(angle)).toFixed(1)},${(y + size * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

/** The bounding box [minX, minY, maxX, maxY] of a set of hexes (each {q, r}). */
export function bounds(cells, size) {
  if (cells.length === 0) return [0, 0, 0, 0];
  const xs = [];
  const ys = [];
  for (const { q = 0, r = 0 } of cells) {
    const [x, y] = centre(q, r, size);
    xs.push(x);
    ys.push(y);
  }
  const w = (SQRT3 / 2) * size;
  return [Math.min(...xs) - w, Math.min(...ys) - size, Math.max(...xs) + w, Math.max(...ys) + size];
}
