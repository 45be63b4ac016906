/** One Server-Sent Events message. */
export interface SseMessage {
  /** The `event:` field; `message` when absent. */
  event: string;
  data: string;
  /** The last `id:` seen on the stream so far (what `Last-Event-ID` resends). */
  id: string | null;
}

/**
 * An incremental parser for the `text/event-stream` format: feed it text as it arrives, in chunks
 * of any size, and it returns every message completed so far.
 */
export class SseParser {
  #buffer = '';
  #started = false;
  #pendingCr = false;
  #event = '';
  #data: string[] = [];
  #hasData = false;
  /** The last event id, kept across messages as the format requires. */
  lastEventId: string | null = null;
  /** The reconnection delay the server asked for with `retry:`, in ms. */
  retryMs: number | null = null;

  push(chunk: string): SseMessage[] {
    let text = chunk;
    if (!this.#started && text.length > 0) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    // A CR that ended the previous chunk already ended its line; skip the LF of that CRLF.
    if (this.#pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.#pendingCr = false;
    this.#buffer += text;
    const messages: SseMessage[] = [];
    for (;;) {
      const end = this.#buffer.search(/[\r\n]/);
      if (end === -1) break;
      const line = this.#buffer.slice(0, end);
      let next = end + 1;
      if (this.#buffer[end] === '\r') {
        if (end + 1 === this.#buffer.length) this.#pendingCr = true;
        else if (this.#buffer[end + 1] === '\n') next = end + 2;
      }
      this.#buffer = this.#buffer.slice(next);
      const message = this.#line(line);
      if (message) messages.push(message);
    }
    return messages;
  }

  #line(line: string): SseMessage | null {
    if (line === '') return this.#dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.#event = value;
        break;
      case 'data':
        this.#data.push(value);
        this.#hasData = true;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
        break;
    }
    return null;
  }

  #dispatch(): SseMessage | null {
    const message: SseMessage | null = this.#hasData
      ? { event: this.#event || 'message', data: this.#data.join('\n'), id: this.lastEventId }
      : null;
    this.#event = '';
    this.#data = [];
    this.#hasData = false;
    return message;
  }
}

/**
 * Reads a response body as SSE messages until it ends; an incomplete last message is dropped.
 * `onChunk` hears every chunk (heartbeats included), for idle detection.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  parser = new SseParser(),
  onChunk?: () => void,
): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      onChunk?.();
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    yield* parser.push(decoder.decode());
  } finally {
    await reader.cancel().catch(() => {});
  }
}
