// A small HTTP client for loopback servers (keep-alive sockets, JSON bodies) and a bounded load loop.
import http from 'node:http';
import { msSince, summarize } from './stats.js';

function loopbackUrl(baseUrl) {
  const url = new URL(baseUrl);
  if (url.hostname !== '127.0.0.1') throw new Error(`benchmarks only talk to 127.0.0.1, not ${url.hostname}`);
  return url;
}

/** A keep-alive client for one server on 127.0.0.1; `send` answers `{ status, body }` (JSON parsed). */
export function createHttpClient(baseUrl, { maxSockets = 50 } = {}) {
  const url = loopbackUrl(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  function send({ method = 'GET', path, headers = {}, body, timeoutMs = 70_000, onSent }) {
    const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const allHeaders = { ...headers };
    if (payload !== null) {
      allHeaders['content-type'] = 'application/json';
      allHeaders['content-length'] = payload.length;
    }
    return new Promise((resolve, reject) => {
      const request = http.request(
        { agent, host: url.hostname, port: url.port, method, path, headers: allHeaders },
        (response) => {
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const json = (response.headers['content-type'] ?? '').includes('json');
            resolve({ status: response.statusCode, body: json && text.length > 0 ? JSON.parse(text) : text });
          });
        },
      );
      request.setTimeout(timeoutMs, () => request.destroy(new Error(`${method} ${path} timed out`)));
      request.on('error', reject);
      if (onSent) request.on('finish', onSent);
      request.end(payload ?? undefined);
    });
  }
  return { send, agent, close: () => agent.destroy() };
}

/** Like `send`, but throws unless the status is `expected`. */
export async function sendOk(client, call, expected = 200) {
  const response = await client.send(call);
  if (response.status !== expected) {
    throw new Error(
      `${call.method ?? 'GET'} ${call.path}: ${response.status} ${JSON.stringify(response.body)}`,
    );
  }
  return response.body;
}

async function loadFor(client, { connections, durationMs, maxRequests, makeCall, check }) {
  const deadline = Date.now() + durationMs;
  const latencies = [];
  let issued = 0;
  let errors = 0;
  let firstError = null;
  const started = process.hrtime.bigint();
  const worker = async (connection) => {
    while (Date.now() < deadline && issued < maxRequests) {
      const call = makeCall(issued++, connection);
      const t0 = process.hrtime.bigint();
      try {
        const response = await client.send(call);
        latencies.push(msSince(t0));
        if (!check(response)) {
          errors += 1;
          firstError ??= `${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
        }
      } catch (error) {
        errors += 1;
        firstError ??= String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, c) => worker(c)));
  const seconds = msSince(started) / 1000;
  return {
    requests: latencies.length,
    errors,
    firstError,
    rps: latencies.length / seconds,
    ...summarize(latencies),
  };
}

/**
 * Closed-loop load: `connections` workers, each sending its next request when the last one answered,
 * for a warm-up and then `durationMs` (never more than `maxRequests` each phase). With `server` (a
 * child handle) the result also has the server's CPU milliseconds and bytes written to storage per request.
 */
export async function runLoad(client, options) {
  const { warmupMs = 1000, durationMs = 5000, maxRequests = 1_000_000, connections = 50 } = options;
  const check = options.check ?? ((response) => response.status === 200);
  const common = { connections, maxRequests, makeCall: options.makeCall, check };
  await loadFor(client, { ...common, durationMs: warmupMs });
  const cpuBefore = options.server?.cpu();
  const writtenBefore = options.server?.written();
  const result = await loadFor(client, { ...common, durationMs });
  if (result.errors > 0) throw new Error(`${result.errors} failed requests, first: ${result.firstError}`);
  const perRequest = (total) => (options.server ? total / result.requests : null);
  return {
    ...result,
    cpuPerRequest: perRequest(options.server?.cpu() - cpuBefore),
    bytesWrittenPerRequest: perRequest(options.server?.written() - writtenBefore),
  };
}

/** Starts a request; `sent` resolves once it is written to the socket, `answered` with `{ status, body }`. */
export function startRequest(client, call) {
  let onSent = () => {};
  const written = new Promise((resolve) => {
    onSent = resolve;
  });
  const answered = client.send({ ...call, onSent });
  return { sent: Promise.race([written, answered.then(() => {})]), answered };
}
