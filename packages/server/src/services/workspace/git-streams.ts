import { PassThrough, type Readable, Transform, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { GatehouseError } from 'gatehouse-hitl-core';

/** A request body as git sends it: plain, or gzip (git compresses large fetch negotiations). */
export function decodedBody(body: Readable, encoding: string | undefined): Readable {
  const name = (encoding ?? 'identity').trim().toLowerCase();
  if (name === 'identity' || name === '') return body;
  if (name !== 'gzip' && name !== 'x-gzip') {
    throw new GatehouseError('VALIDATION_FAILED', `content-encoding must be gzip or none (got ${name})`, {
      field: 'content-encoding',
    });
  }
  const gunzip = createGunzip();
  body.on('error', (error) => gunzip.destroy(error));
  return body.pipe(gunzip);
}

/**
 * Passes bytes on until `limit`, then ends its output (git sees a cut pack and keeps nothing) and
 * swallows the rest of the request, up to `drainLimit` more bytes, so the client still reads the
 * answer; past that the connection is dropped.
 */
export class ByteMeter extends Transform {
  total = 0;
  exceeded = false;
  /** Settles once the whole request was read (or dropped). */
  readonly drained: Promise<void>;

  constructor(
    private readonly limit: number,
    private readonly drainLimit: number,
  ) {
    super();
    this.drained = new Promise((resolve) => {
      this.on('finish', resolve);
      this.on('close', resolve);
    });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.total += chunk.length;
    if (!this.exceeded && this.total <= this.limit) {
      callback(null, chunk);
    } else if (!this.exceeded) {
      this.exceeded = true;
      this.push(null);
      callback();
    } else if (this.total > this.limit + this.drainLimit) {
      callback(new Error('request too large to drain'));
    } else {
      callback();
    }
  }
}

/** `source` through a meter; a failing source fails the meter. */
export function metered(source: Readable, limit: number, drainLimit: number): ByteMeter {
  const meter = new ByteMeter(limit, drainLimit);
  source.on('error', (error) => meter.destroy(error));
  meter.on('error', () => source.destroy());
  source.pipe(meter);
  return meter;
}

/**
 * Reads `stream` until `parse` accepts what came so far; the stream is left paused, with what was
 * read returned as `head` so it can still be passed on.
 */
export function readHead<T>(
  stream: Readable,
  parse: (head: Buffer) => T | null,
): Promise<{ parsed: T | null; head: Buffer }> {
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const done = (parsed: T | null) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', reject);
      stream.pause();
      resolve({ parsed, head });
    };
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const parsed = parse(head);
      if (parsed !== null) done(parsed);
    };
    const onEnd = () => done(null);
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', reject);
  });
}

/** `head`, then the rest of `stream`. */
export function prepend(head: Buffer, stream: Readable): Readable {
  const out = new PassThrough();
  out.write(head);
  stream.on('error', (error) => out.destroy(error));
  stream.pipe(out);
  return out;
}

/** Reads what is left of `stream` and drops it. */
export async function drain(stream: ByteMeter): Promise<void> {
  stream.resume();
  await stream.drained;
}

/** All of `stream`, up to `max` bytes (a receive-pack report is a few lines). */
export async function collect(stream: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw new Error(`git answered more than ${max} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
