import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PROVIDER_MAIN = fileURLToPath(new URL('./oidc-provider-main.mjs', import.meta.url));

/** A person at the test provider: their login (also their subject) and the groups the provider names. */
export interface ProviderAccount {
  login: string;
  name: string;
  groups: string[];
  /** The provider (misbehaving on purpose) makes this person's id tokens out to this audience instead. */
  idTokenAudience?: string;
}

/** The people every test provider knows. */
export const PROVIDER_ACCOUNTS: readonly ProviderAccount[] = [
  { login: 'alice', name: 'Alice Admin', groups: ['gatehouse-admins', 'engineering'] },
  { login: 'lee', name: 'Lee Lead', groups: ['leads'] },
  { login: 'dana', name: 'Dana Developer', groups: ['engineering'] },
  { login: 'olga', name: 'Olga Outsider', groups: ['contractors'] },
  { login: 'mallory', name: 'Mallory', groups: ['gatehouse-admins'], idTokenAudience: 'another-client' },
];

export interface OidcProviderOptions {
  /** The confidential client Gatehouse signs people in with. @default 'gatehouse' */
  clientId?: string;
  /** @default 'gatehouse-test-secret' */
  clientSecret?: string;
  /** A public client (PKCE, no secret) that asks for MCP access tokens. @default 'mcp-client' */
  mcpClientId?: string;
  accounts?: readonly ProviderAccount[];
  /** Lifetime of the JWT access tokens issued for a resource. @default 600 */
  accessTokenTtlSeconds?: number;
}

/** `oidc-provider` running as a child process on 127.0.0.1. */
export interface OidcProviderProcess {
  readonly pid: number;
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly mcpClientId: string;
  output(): string;
  /** SIGKILL this process by its pid and wait for its exit. */
  stop(): Promise<void>;
}

function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** Starts a real OpenID provider with Gatehouse's client, an MCP client and the given accounts. */
export async function startOidcProvider(options: OidcProviderOptions = {}): Promise<OidcProviderProcess> {
  const settings = {
    clientId: options.clientId ?? 'gatehouse',
    clientSecret: options.clientSecret ?? 'gatehouse-test-secret',
    mcpClientId: options.mcpClientId ?? 'mcp-client',
    accounts: options.accounts ?? PROVIDER_ACCOUNTS,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 600,
  };
  const child = spawn(process.execPath, [PROVIDER_MAIN, JSON.stringify(settings)], {
    env: { ...process.env, NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const exited = exitOf(child);
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the test provider did not start:\n${text}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const line = /\{"issuer":"[^"]+"\}/.exec(text)?.[0];
      if (line === undefined) return;
      clearTimeout(timer);
      resolve((JSON.parse(line) as { issuer: string }).issuer);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the test provider exited:\n${text}`));
    });
  });
  const pid = child.pid as number;
  return {
    pid,
    issuer,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    mcpClientId: settings.mcpClientId,
    output: () => text,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(pid, 'SIGKILL');
      await exited;
    },
  };
}
