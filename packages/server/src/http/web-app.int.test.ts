import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createSqliteStore, type Store } from 'gatehouse-hitl-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createInProcessBus } from '../events/bus.js';

const INDEX =
  '<!doctype html><title>Gatehouse</title><script type="module" src="/assets/app-1a2b.js"></script>';

describe('the web app served at /', () => {
  let dir: string;
  let store: Store;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-web-'));
    const ui = join(dir, 'ui');
    mkdirSync(join(ui, 'assets'), { recursive: true });
    writeFileSync(join(ui, 'index.html'), INDEX);
    writeFileSync(join(ui, 'assets', 'app-1a2b.js'), 'console.log("app")');
    const clock = { now: () => Date.now() };
    store = await createSqliteStore({ file: join(dir, 'gatehouse.db'), clock });
    const config = loadConfig({}, { dataDir: dir });
    app = await buildApp({ store, bus: createInProcessBus(), clock, config, uiDir: ui });
  });

  afterAll(async () => {
    await app.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['/', '/inbox', '/gates/gate_123', '/login'])(
    'answers the client-side route %s with index.html',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toBe(INDEX);
      expect(response.headers['cache-control']).toBe('no-cache');
    },
  );

  it('sends a strict content security policy with the page: scripts from this origin only, no framing', async () => {
    const response = await app.inject({ method: 'GET', url: '/inbox' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves hashed assets cached for a year', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/app-1a2b.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('console.log');
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('answers a browser loading /metrics with the page and a scraper with Prometheus text', async () => {
    const page = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(page.body).toBe(INDEX);
    const scrape = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { accept: 'application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.3' },
    });
    expect(scrape.headers['content-type']).toContain('text/plain');
    expect(scrape.body).toContain('gatehouse_gates_pending');
  });

  it('keeps unknown API paths as JSON 404s, never the page', async () => {
    for (const url of ['/v1/nope', '/v1', '/mcp/x', '/metrics/x']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });

  it('answers a missing asset or a POST to a page path with a 404, not the page', async () => {
    const post = await app.inject({ method: 'POST', url: '/inbox', payload: {} });
    expect(post.statusCode).toBe(404);
    const traversal = await app.inject({ method: 'GET', url: '/assets/../../gatehouse.db' });
    expect(traversal.body).not.toContain('SQLite format');
  });
});
