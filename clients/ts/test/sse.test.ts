/**
 * The SSE parser by the WHATWG event-stream rules, on streams cut at awkward places: the
 * same events whatever the chunking, every line ending, comments, multi-line data, the
 * persistent last event id and the retry field.
 */

import assert from "node:assert/strict";
import { test } from "node:test";

import { SseParser, type SseEvent } from "../src/index.js";

const STREAM =
  'id: 1\nevent: snapshot\ndata: {"version":"1"}\n\n' +
  ": heartbeat\n\n" +
  'id: 2\r\nevent: snapshot\r\ndata: {"version":\r\ndata: "2"}\r\n\r\n' +
  "event: end\rdata: {}\r\r";

function parseAll(chunks: string[]): SseEvent[] {
  const parser = new SseParser();
  const events = chunks.flatMap((chunk) => parser.feed(chunk));
  return [...events, ...parser.end()];
}

const WANT: SseEvent[] = [
  { event: "snapshot", data: '{"version":"1"}', id: "1" },
  { event: "snapshot", data: '{"version":\n"2"}', id: "2" },
  { event: "end", data: "{}", id: "2" }, // the id persists: it is where to resume
];

test("a whole stream parses into its events; comments are not events", () => {
  assert.deepEqual(parseAll([STREAM]), WANT);
});

test("the same events whatever the chunking, even between a CR and its LF", () => {
  for (let size = 1; size <= 7; size++) {
    const chunks: string[] = [];
    for (let i = 0; i < STREAM.length; i += size) chunks.push(STREAM.slice(i, i + size));
    assert.deepEqual(parseAll(chunks), WANT, `chunks of ${size}`);
  }
});

test("a field without a space or a value, unknown fields and an unfinished event", () => {
  const events = parseAll(["data:x\nfoo: bar\ndata\n\n", "data: never dispatched"]);
  assert.deepEqual(events, [{ event: "message", data: "x\n", id: undefined }]);
});

test("retry sets the reconnection delay; an id with NUL is ignored; a start id is kept", () => {
  const parser = new SseParser("7");
  const events = parser.feed("retry: 2500\nid: a\0b\ndata: 1\n\nretry: soon\n\n");
  assert.equal(parser.retry, 2500);
  assert.deepEqual(events, [{ event: "message", data: "1", id: "7" }]);
});
