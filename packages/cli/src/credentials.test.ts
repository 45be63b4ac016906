import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { credentialsPath, resolveCredentials, saveCredentials } from './credentials.js';

describe('credentials', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  function configHome(): string {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-credentials-'));
    dirs.push(dir);
    return dir;
  }

  it('lives under XDG_CONFIG_HOME, else ~/.config', () => {
    expect(credentialsPath({ XDG_CONFIG_HOME: '/x' })).toBe('/x/gatehouse/credentials.json');
    expect(credentialsPath({ HOME: '/home/dana' })).toBe('/home/dana/.config/gatehouse/credentials.json');
  });

  it('is written readable by its owner only', () => {
    const env = { XDG_CONFIG_HOME: configHome() };
    const file = saveCredentials(env, { url: 'http://127.0.0.1:7300', token: 'ghs_a' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ url: 'http://127.0.0.1:7300', token: 'ghs_a' });
  });

  it('uses the stored server and token, and lets the environment override them', () => {
    const env = { XDG_CONFIG_HOME: configHome() };
    saveCredentials(env, { url: 'http://gate.example:7300/', token: 'ghs_stored' });
    expect(resolveCredentials(env)).toEqual({ url: 'http://gate.example:7300', token: 'ghs_stored' });
    expect(resolveCredentials({ ...env, GATEHOUSE_TOKEN: 'gha_env' }).token).toBe('gha_env');
  });

  it('never sends a stored token to another server', () => {
    const env = { XDG_CONFIG_HOME: configHome() };
    saveCredentials(env, { url: 'http://gate.example:7300', token: 'ghs_stored' });
    expect(resolveCredentials({ ...env, GATEHOUSE_URL: 'http://elsewhere.example' })).toEqual({
      url: 'http://elsewhere.example',
      token: null,
    });
  });

  it('defaults to the embedded server with no token', () => {
    expect(resolveCredentials({ XDG_CONFIG_HOME: configHome() })).toEqual({
      url: 'http://127.0.0.1:7300',
      token: null,
    });
  });

  it('says how to fix a damaged file', () => {
    const home = configHome();
    const env = { XDG_CONFIG_HOME: home };
    saveCredentials(env, { url: 'http://127.0.0.1:7300', token: 'ghs_a' });
    writeFileSync(credentialsPath(env), '{ not json');
    expect(() => resolveCredentials(env)).toThrow(/is not valid; run `gatehouse login` again/);
  });
});
