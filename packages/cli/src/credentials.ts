import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError } from './errors.js';

/** Where a signed-in terminal talks to and with which session token. */
export interface Credentials {
  url: string;
  token: string;
}

/** The address `gatehouse serve` listens on with no configuration. */
export const DEFAULT_URL = 'http://127.0.0.1:7300';

type Env = Record<string, string | undefined>;

/** `$XDG_CONFIG_HOME/gatehouse/credentials.json`, with `~/.config` when XDG_CONFIG_HOME is unset. */
export function credentialsPath(env: Env): string {
  const base = env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME : join(env.HOME || homedir(), '.config');
  return join(base, 'gatehouse', 'credentials.json');
}

/** Normalises a server address: `http(s)://host[:port]` without a trailing slash. */
export function normalizeUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(`"${text}" is not a URL; give the server address, e.g. ${DEFAULT_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`"${text}" is not an http(s) URL; give the server address, e.g. ${DEFAULT_URL}`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The stored credentials, or null when nobody signed in on this machine. */
export function readStoredCredentials(env: Env): Credentials | null {
  const path = credentialsPath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text) as Partial<Credentials>;
    if (typeof parsed.url === 'string' && typeof parsed.token === 'string') {
      return { url: parsed.url, token: parsed.token };
    }
  } catch {
    // handled below
  }
  throw new CliError(`${path} is not valid; run \`gatehouse login\` again`);
}

/**
 * The server and token to use: GATEHOUSE_URL and GATEHOUSE_TOKEN override the stored file. A stored
 * token is only sent to the server it was issued by.
 */
export function resolveCredentials(env: Env): { url: string; token: string | null } {
  const stored = readStoredCredentials(env);
  const url = normalizeUrl(env.GATEHOUSE_URL?.trim() || stored?.url || DEFAULT_URL);
  if (env.GATEHOUSE_TOKEN?.trim()) return { url, token: env.GATEHOUSE_TOKEN.trim() };
  const storedUrl = stored ? normalizeUrl(stored.url) : null;
  return { url, token: stored && storedUrl === url ? stored.token : null };
}

/** Writes the credentials readable by the owner only (0600) and returns the file's path. */
export function saveCredentials(env: Env, credentials: Credentials): string {
  const path = credentialsPath(env);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
  return path;
}
