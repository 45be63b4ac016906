import type { StreamEvent } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { SseSink } from '../../http/sse.js';
import { createCredentialWatch, type StreamCredential } from './stream-credentials.js';

/** What one stream follows. */
export interface FollowOptions {
  /** Only this run's events; null follows every event (the inbox). */
  runId: string | null;
  /** Replay events after this seq first; null starts from now. */
  afterSeq: number | null;
  /** Which events the client gets. */
  accept(event: StreamEvent): boolean;
  sink: SseSink;
  /** Re-checked while the stream is open: the stream ends once it is revoked. */
  credential?: StreamCredential | null;
}

/** Event streams: replay from the store, then live events from the bus, in seq order without duplicates. */
export interface StreamService {
  follow(options: FollowOptions): Promise<void>;
  /** How many streams are open on this node. */
  readonly openCount: number;
  /** Ends every open stream. */
  close(): void;
}

export interface StreamServiceOptions {
  /** @default 15000 */
  heartbeatMs?: number;
  /** How often open streams' credentials are re-checked. @default config.streamRecheckMs */
  recheckMs?: number;
}

/** Inbox streams carry gate events, run status changes and a pattern's false-positive-rate alert. */
export function isInboxEvent(event: StreamEvent): boolean {
  return (
    event.type.startsWith('gate.') ||
    event.type === 'run.status' ||
    event.type === 'analysis.false_positive_rate'
  );
}

const REPLAY_PAGE = 500;

interface OpenStream {
  sink: SseSink;
  lastSeq: number;
  /** Live events that arrive while the replay runs; null once live. */
  buffer: StreamEvent[] | null;
}

function deliver(stream: OpenStream, event: StreamEvent, accept: (event: StreamEvent) => boolean): void {
  if (event.seq <= stream.lastSeq || stream.sink.closed) return;
  stream.lastSeq = event.seq;
  if (accept(event)) stream.sink.send(event);
}

/** Creates the stream service; one heartbeat timer serves every open stream. */
export function createStreamService(ctx: AppContext, options: StreamServiceOptions = {}): StreamService {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const credentials = createCredentialWatch(ctx, {
    intervalMs: options.recheckMs ?? ctx.config.streamRecheckMs,
  });
  const open = new Set<OpenStream>();
  let timer: NodeJS.Timeout | null = null;
  let closing = false;

  function track(stream: OpenStream): void {
    open.add(stream);
    if (timer === null) {
      timer = setInterval(() => {
        for (const each of open) each.sink.heartbeat();
      }, heartbeatMs);
      timer.unref();
    }
  }

  function untrack(stream: OpenStream): void {
    open.delete(stream);
    if (open.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  }

  async function replay(stream: OpenStream, options: FollowOptions, from: number): Promise<void> {
    let cursor = from;
    for (;;) {
      const page = await ctx.store.listStreamEvents({
        afterSeq: cursor,
        limit: REPLAY_PAGE,
        ...(options.runId === null ? {} : { runId: options.runId }),
      });
      for (const event of page) deliver(stream, event, options.accept);
      const last = page.at(-1);
      if (last === undefined || page.length < REPLAY_PAGE || stream.sink.closed) return;
      cursor = last.seq;
    }
  }

  return {
    async follow(options) {
      const { sink, runId } = options;
      if (closing) {
        sink.end();
        return;
      }
      const stream: OpenStream = { sink, lastSeq: 0, buffer: [] };
      // Subscribe before reading the store, so nothing committed in between is missed.
      const unsubscribe = ctx.bus.subscribe((event) => {
        if (runId !== null && event.runId !== runId) return;
        if (stream.buffer !== null) stream.buffer.push(event);
        else deliver(stream, event, options.accept);
      });
      track(stream);
      const { credential } = options;
      const unwatch = credential == null ? () => {} : credentials.watch(credential, () => sink.end());
      sink.onClose(() => {
        unsubscribe();
        unwatch();
        untrack(stream);
      });
      try {
        const from = options.afterSeq ?? (await ctx.store.latestStreamSeq());
        stream.lastSeq = from;
        await replay(stream, options, from);
        const buffered = (stream.buffer ?? []).sort((a, b) => a.seq - b.seq);
        stream.buffer = null;
        for (const event of buffered) deliver(stream, event, options.accept);
      } catch (error) {
        ctx.log.warn({ err: error, runId }, 'event stream replay failed; closing the stream');
        sink.end();
      }
    },
    get openCount() {
      return open.size;
    },
    close() {
      closing = true;
      credentials.close();
      for (const stream of [...open]) stream.sink.end();
      open.clear();
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
  };
}
