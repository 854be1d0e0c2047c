/**
 * A Server-Sent Events parser for `fetch` response bodies (the WHATWG "event stream
 * interpretation" algorithm), so watching works the same in Node and in browsers, with
 * headers (a seat token, `Last-Event-ID`) that a browser `EventSource` cannot send.
 *
 * The stream is UTF-8 text in lines ended by CRLF, LF or CR; `field: value` lines build an
 * event, a blank line dispatches it, and lines starting with `:` are comments (the
 * service's heartbeats). The `id` field persists across events, as the spec says, so the
 * last one seen is the point to resume from.
 */

export interface SseEvent {
  /** The `event` field; `"message"` when the event named none. */
  readonly event: string;
  /** The `data` lines, joined with `\n`. */
  readonly data: string;
  /** The last event ID seen so far in this stream (the spec's "last event ID buffer"). */
  readonly id: string | undefined;
}

/** Incremental parser: feed it text as it arrives, take the complete events out. */
export class SseParser {
  private pending = "";
  private data: string[] = [];
  private eventType = "";
  private lastId: string | undefined;
  /** The last `retry` field: the server's reconnection delay in milliseconds. */
  retry: number | undefined;

  constructor(lastId?: string) {
    this.lastId = lastId;
  }

  /** The events completed by `text` (which may end anywhere, even inside a CRLF). */
  feed(text: string): SseEvent[] {
    const events: SseEvent[] = [];
    let buffer = this.pending + text;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const ch = buffer.charCodeAt(i);
      if (ch !== 10 && ch !== 13) continue;
      if (ch === 13 && i + 1 === buffer.length) break; // a CR whose LF may come next
      this.line(buffer.slice(start, i), events);
      if (ch === 13 && buffer.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
    buffer = buffer.slice(start);
    this.pending = buffer;
    return events;
  }

  /** Call at the end of the stream: a trailing CR ends its line; an unfinished event is
   * dropped, as the spec says. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.pending.endsWith("\r")) this.line(this.pending.slice(0, -1), events);
    this.pending = "";
    this.data = [];
    this.eventType = "";
    return events;
  }

  private line(line: string, events: SseEvent[]): void {
    if (line === "") {
      this.dispatch(events);
      return;
    }
    if (line.startsWith(":")) return; // a comment: the service's heartbeat
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "event":
        this.eventType = value;
        break;
      case "data":
        this.data.push(value);
        break;
      case "id":
        if (!value.includes("\0")) this.lastId = value;
        break;
      case "retry":
        if (/^[0-9]+$/.test(value)) this.retry = Number(value);
        break;
      default:
        break; // unknown fields are ignored
    }
  }

  private dispatch(events: SseEvent[]): void {
    if (this.data.length > 0) {
      events.push({
        event: this.eventType || "message",
        data: this.data.join("\n"),
        id: this.lastId,
      });
    }
    this.data = [];
    this.eventType = "";
  }
}

/**
 * The events of a response body, read with a reader (async iteration of a
 * ReadableStream is not in every browser). `onChunk` is called for every chunk, heartbeats
 * included, so a caller can tell a quiet stream from a dead one. Aborting `signal` ends
 * the events even when the body does not follow the fetch's own signal (a wrapped fetch).
 */
export async function* readEvents(
  body: ReadableStream<Uint8Array>,
  parser: SseParser,
  onChunk: () => void = () => {},
  signal?: AbortSignal,
): AsyncGenerator<SseEvent, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder("utf-8");
  // cancelling the reader settles a pending read() as done
  const stop = (): void => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener("abort", stop, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) return;
      const { done, value } = await reader.read();
      if (signal?.aborted) return;
      if (done) break;
      onChunk();
      yield* parser.feed(decoder.decode(value, { stream: true }));
    }
    yield* parser.feed(decoder.decode());
    yield* parser.end();
  } finally {
    signal?.removeEventListener("abort", stop);
    // the consumer stopped early (or the stream failed): release the connection
    reader.cancel().catch(() => {});
  }
}
