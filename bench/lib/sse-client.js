// Reads a Server-Sent-Events stream from a loopback server, timing each event at its arrival.
import http from 'node:http';

function parseFrame(frame) {
  const event = { id: null, event: 'message', data: '' };
  let seen = false;
  for (const line of frame.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') event.data = event.data === '' ? value : `${event.data}\n${value}`;
    else if (field === 'event') event.event = value;
    else if (field === 'id') event.id = value;
    else continue;
    seen = true;
  }
  return seen ? event : null;
}

/**
 * Opens `path` as an event stream on its own socket; resolves once the response headers arrived.
 * `onEvent(event, arrivedAt)` gets `{ id, event, data }` and the `process.hrtime.bigint()` of its chunk.
 */
export function openEventStream(baseUrl, { path, headers = {}, onEvent = () => {} }) {
  const url = new URL(baseUrl);
  if (url.hostname !== '127.0.0.1') throw new Error(`benchmarks only talk to 127.0.0.1, not ${url.hostname}`);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        agent: false,
        headers: { accept: 'text/event-stream', ...headers },
      },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(new Error(`GET ${path}: ${response.statusCode}`));
          return;
        }
        let buffer = '';
        response.setEncoding('utf8');
        response.on('error', () => {});
        response.on('data', (chunk) => {
          const arrivedAt = process.hrtime.bigint();
          buffer += chunk.replaceAll('\r\n', '\n');
          for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
            const event = parseFrame(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
            if (event !== null) onEvent(event, arrivedAt);
          }
        });
        resolve({ close: () => request.destroy() });
      },
    );
    request.on('error', reject);
    request.end();
  });
}
