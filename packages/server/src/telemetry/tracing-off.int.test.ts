import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const SERVER = pathToFileURL(join(import.meta.dirname, '../../dist/index.js')).href;

/** Records every @opentelemetry module the child resolves. */
const HOOKS = `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.includes('/@opentelemetry/')) appendFileSync(log, result.url + '\\n');
  return result;
}
`;

/** Starts the built server on SQLite, makes one request, stops. */
const MAIN = `import { register } from 'node:module';
const [hooks, log, dataDir] = process.argv.slice(2);
register(hooks, { data: { log } });
const { loadConfig, startServer } = await import(${JSON.stringify(SERVER)});
const config = loadConfig(process.env, { port: 0, dataDir, logLevel: 'silent' });
const server = await startServer({ config, handleSignals: false, print: () => {} });
const response = await fetch(server.url + '/healthz');
process.stdout.write(JSON.stringify({ status: response.status, traceresponse: response.headers.get('traceresponse') }));
await server.close();
`;

interface Run {
  status: number;
  traceresponse: string | null;
  /** The @opentelemetry modules the process loaded. */
  loaded: string[];
}

describe('tracing switched off', { timeout: 60_000 }, () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir !== null) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  async function runServer(env: Record<string, string>): Promise<Run> {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-otel-'));
    const hooks = join(dir, 'hooks.mjs');
    const main = join(dir, 'main.mjs');
    const log = join(dir, 'loaded.txt');
    writeFileSync(hooks, HOOKS);
    writeFileSync(main, MAIN);
    writeFileSync(log, '');
    const child = spawn(process.execPath, [main, pathToFileURL(hooks).href, log, join(dir, 'data')], {
      env: { PATH: process.env.PATH ?? '', GATEHOUSE_NODE_CHECK: 'off', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`the server exited with ${code}: ${stderr}`);
    const loaded = readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    return { ...(JSON.parse(stdout) as Omit<Run, 'loaded'>), loaded };
  }

  const sdkModules = (run: Run) => run.loaded.filter((url) => !url.includes('/@opentelemetry/api/'));

  it('loads no OpenTelemetry SDK and starts no span: only the API is imported', async () => {
    const off = await runServer({});
    expect(off.status).toBe(200);
    expect(off.traceresponse).toBeNull();
    expect(sdkModules(off)).toEqual([]);
  });

  it('loads the SDK, answers with a traceresponse and exports over OTLP once OTEL_EXPORTER_OTLP_ENDPOINT is set', async () => {
    const posted: string[] = [];
    const collector = createServer((request, response) => {
      posted.push(`${request.method} ${request.url}`);
      request.resume();
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = collector.address() as AddressInfo;
      const on = await runServer({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` });
      expect(on.status).toBe(200);
      expect(on.traceresponse).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      expect(sdkModules(on).some((url) => url.includes('/@opentelemetry/sdk-trace/'))).toBe(true);
      // The server flushes its spans and metrics as it stops.
      expect(posted).toContain('POST /v1/traces');
      expect(posted).toContain('POST /v1/metrics');
    } finally {
      collector.close();
    }
  });
});
