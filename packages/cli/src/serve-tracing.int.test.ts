import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runGatehouse, startServe, tempDir } from './testing/cli-process.js';

describe('gatehouse serve --otlp-endpoint', { timeout: 60_000 }, () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('sends the server’s spans and metrics to the OTLP/HTTP collector it names', async () => {
    const posted: { path: string; type: string }[] = [];
    const collector = createServer((request, response) => {
      posted.push({ path: request.url ?? '', type: request.headers['content-type'] ?? '' });
      request.resume();
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => collector.close());
    const temp = tempDir();
    cleanup.push(temp.remove);
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    const server = await startServe(join(temp.dir, 'data'), { args: ['--otlp-endpoint', endpoint] });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('traceresponse')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    // Spans go out in batches and metrics on an interval: stopping flushes both.
    expect(await server.stop()).toBe(0);
    expect(posted.map((post) => post.path)).toEqual(expect.arrayContaining(['/v1/traces', '/v1/metrics']));
  });

  it('refuses an endpoint that is not an http(s) URL, as a usage error', async () => {
    const temp = tempDir();
    cleanup.push(temp.remove);
    const result = await runGatehouse([
      'serve',
      '--data-dir',
      join(temp.dir, 'data'),
      '--otlp-endpoint',
      'collector:4318',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--otlp-endpoint takes an OTLP/HTTP base URL');
  });
});
