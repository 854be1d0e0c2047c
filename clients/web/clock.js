// Seat clocks and presence for hosted play (README "Hosted play"): what is left of a seat's
// time now, from the snapshot's SeatInfo and the store's clock (server_time_unix_ms).

import { num } from "/web/dom.js";

/**
 * Milliseconds the seat has left now, or null when it has no clock. `serverNow` is the
 * store's clock estimated in the browser (its skew corrected).
 */
export function timeLeft(snapshot, seat, serverNow) {
  const control = snapshot.timeControl;
  if (!control) return null;
  const since = num(seat.clockSinceUnixMs);
  const candidates = [];
  const remaining = num(seat.remainingMs);
  if (num(control.initialSeconds) > 0 && remaining >= 0) {
    candidates.push(since > 0 ? remaining - (serverNow - since) : remaining);
  }
  const deadline = num(seat.deadlineUnixMs);
  if (deadline > 0) candidates.push(deadline - serverNow);
  else if (num(control.perMoveSeconds) > 0 && since === 0 && candidates.length === 0) {
    candidates.push(num(control.perMoveSeconds) * 1000);
  }
  if (candidates.length === 0) return null;
  return Math.max(0, Math.min(...candidates));
}

/** 75_000 -> "1:15"; hours and days for correspondence play. */
export function formatClock(ms) {
  const total = Math.ceil(ms / 1000);
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`;
  return `${minutes}:${seconds}`;
}

/** "2 min ago" for presence. */
export function ago(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} days ago`;
}
