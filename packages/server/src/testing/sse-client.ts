/** One Server-Sent Events message as a test reads it. */
export interface TestSseMessage {
  id: string | null;
  event: string;
  data: string;
  /** `data` parsed as JSON. */
  json: Record<string, unknown> & { seq?: number; type?: string; data?: Record<string, unknown> };
}

/** An open event stream over real HTTP, read message by message. */
export interface TestEventStream {
  status: number;
  headers: Headers;
  /** Every comment line seen so far (heartbeats, the greeting). */
  comments: string[];
  /** The `retry:` hint, once seen. */
  retryMs: number | null;
  /** Resolves with the next message that matches, or rejects after `timeoutMs`. */
  next(match?: (message: TestSseMessage) => boolean, timeoutMs?: number): Promise<TestSseMessage>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** The error body when the server refused the stream. */
  body: string;
  close(): void;
}

function parseBlock(block: string, stream: TestEventStream): TestSseMessage | null {
  let id: string | null = null;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) stream.comments.push(line.slice(1).trim());
    else if (line.startsWith('id: ')) id = line.slice(4);
    else if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
    else if (line.startsWith('retry: ')) stream.retryMs = Number(line.slice(7));
  }
  if (data.length === 0) return null;
  const text = data.join('\n');
  return { id, event, data: text, json: JSON.parse(text) };
}

/** Opens `url` with `headers` and reads it as an event stream; a refusal is returned with its status and body. */
export async function openEventStream(
  url: string,
  headers: Record<string, string> = {},
): Promise<TestEventStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const received: TestSseMessage[] = [];
  const waiters = new Set<() => void>();
  let endStream: () => void = () => {};
  const stream: TestEventStream = {
    status: response.status,
    headers: response.headers,
    comments: [],
    retryMs: null,
    body: '',
    ended: new Promise<void>((resolve) => {
      endStream = resolve;
    }),
    close: () => controller.abort(),
    next(match = () => true, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const index = received.findIndex(match);
          if (index < 0) return false;
          const [message] = received.splice(index, 1);
          waiters.delete(check as () => void);
          clearTimeout(timer);
          resolve(message as TestSseMessage);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check as () => void);
          reject(new Error(`no matching event within ${timeoutMs} ms`));
        }, timeoutMs);
        if (!check()) waiters.add(check as () => void);
      });
    },
  };
  if (!response.ok || response.body === null) {
    stream.body = await response.text();
    endStream();
    return stream;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const message = parseBlock(buffer.slice(0, cut), stream);
          buffer = buffer.slice(cut + 2);
          if (message !== null) received.push(message);
          cut = buffer.indexOf('\n\n');
        }
        for (const waiter of [...waiters]) waiter();
      }
    } catch {
      // Aborted by close(), or the server went away.
    }
    endStream();
  })();
  return stream;
}
