import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../testing/http-client.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const INDEX = '<!doctype html><title>Gatehouse</title><script type="module" src="/assets/app.js"></script>';

describe.each(dialects)('protocol hygiene on %s', (dialect) => {
  let live: ListeningApp<{ now(): number }>;
  let uiDir: string;

  beforeAll(async () => {
    uiDir = mkdtempSync(join(tmpdir(), 'gatehouse-ui-'));
    mkdirSync(join(uiDir, 'assets'));
    writeFileSync(join(uiDir, 'index.html'), INDEX);
    live = await startListeningApp({ dialect, uiDir });
  }, 120_000);
  afterAll(async () => {
    await live?.close();
    rmSync(uiDir, { recursive: true, force: true });
  });

  it.each(['/docs', '/docs/', '/docs/static/index.html'])(
    'serves %s with a content security policy, no framing and no sniffing',
    async (path) => {
      const response = await fetch(`${live.url}${path}`);
      expect(response.status).toBe(200);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-(inline|eval)/);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    },
  );

  it('frames the docs’ scripts and styles with the same headers', async () => {
    const script = await fetch(`${live.url}/docs/static/swagger-initializer.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect(script.headers.get('x-frame-options')).toBe('DENY');
  });

  it.each([
    '/.well-known/oauth-authorization-server',
    '/.well-known/oauth-protected-resource',
    '/.well-known/oauth-protected-resource/mcp',
    '/.well-known/openid-configuration',
  ])('answers %s with a JSON 404, not the web app', async (path) => {
    const response = await fetch(`${live.url}${path}`, { headers: { accept: 'text/html,*/*' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(((await response.json()) as Json).error.code).toBe('NOT_FOUND');
  });

  it.each(['/v1/nothing-here', '/v1/', '/v1/gates/gate_x/nothing'])(
    'answers the unknown API path %s with a JSON 404',
    async (path) => {
      const response = await fetch(`${live.url}${path}`, {
        headers: { accept: 'text/html', authorization: `Bearer ${live.test.tokens.viewer}` },
      });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(((await response.json()) as Json).error.code).toBe('NOT_FOUND');
    },
  );

  it('still answers a client-side route with the web app', async () => {
    const response = await fetch(`${live.url}/inbox`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(INDEX);
  });

  it.each([
    ['GET', '/v1/me', undefined],
    ['GET', '/v1/gates', 'gha_revoked_or_unknown_token_000000000000'],
    ['POST', '/v1/auth/logout', undefined],
  ] as const)('says how to authenticate on a 401 from %s %s', async (method, path, token) => {
    const response = await fetch(`${live.url}${path}`, {
      method,
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="gatehouse"');
    expect(((await response.json()) as Json).error.code).toBe('UNAUTHENTICATED');
  });

  it('sends no WWW-Authenticate on other errors', async () => {
    const response = await fetch(`${live.url}/v1/users`, {
      headers: { authorization: `Bearer ${live.test.tokens.agent}` },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBeNull();
  });
});
