import { revealText, sanitizeText } from 'gatehouse-hitl-core';

/** One POST of one delivery. */
export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Aborted when the node shuts down. */
  signal: AbortSignal;
}

/** What the attempt got back; `interrupted` when the node's own shutdown cut it short. */
export interface WebhookResponse {
  ok: boolean;
  statusCode: number | null;
  responseExcerpt: string | null;
  error: string | null;
  durationMs: number;
  interrupted: boolean;
}

const EXCERPT_BYTES = 1024;
const EXCERPT_CHARS = 500;

/** The start of the body, made safe to store and display; the rest is not read. */
async function readExcerpt(response: Response): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const text = revealText(Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'), {
    multiline: true,
  });
  return text === '' ? null : text.slice(0, EXCERPT_CHARS);
}

function describeFailure(error: unknown, timeoutMs: number, timedOut: boolean): string {
  if (timedOut) return `no response within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const detail = cause?.message ?? (error instanceof Error ? error.message : String(error));
  const code = typeof cause?.code === 'string' ? `${cause.code}: ` : '';
  // Our own network error text, kept to one clean line.
  return sanitizeText(`${code}${String(detail)}`).slice(0, EXCERPT_CHARS);
}

function statusError(response: Response): string | null {
  if (response.ok) return null;
  if (response.status >= 300 && response.status < 400)
    return `HTTP ${response.status}: redirects are not followed`;
  return `HTTP ${response.status}`;
}

/** POSTs one delivery with a deadline; never throws, every outcome is a result to record. */
export async function sendWebhook(request: WebhookRequest): Promise<WebhookResponse> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = AbortSignal.any([timeout, request.signal]);
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal,
    });
    const responseExcerpt = await readExcerpt(response).catch(() => null);
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      statusCode: response.status,
      responseExcerpt,
      error: ok ? null : statusError(response),
      durationMs: elapsed(),
      interrupted: false,
    };
  } catch (error) {
    return {
      ok: false,
      statusCode: null,
      responseExcerpt: null,
      error: describeFailure(error, request.timeoutMs, timeout.aborted),
      durationMs: elapsed(),
      interrupted: request.signal.aborted && !timeout.aborted,
    };
  }
}
