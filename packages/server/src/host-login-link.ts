import type { Clock } from 'gatehouse-hitl-core';
import type { ServerConfig } from './config.js';
import { openStore } from './main.js';
import { auditedTx } from './services/commit.js';
import { issueLoginLinkFor } from './services/people/login-link-for.js';

/** A login link issued on the server host. */
export interface HostLoginLink {
  userId: string;
  name: string;
  token: string;
  expiresAt: number;
  /** The link to open: `<public URL or http://host:port>/login#token=…`. */
  url: string;
}

function siteUrl(config: ServerConfig): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/**
 * Opens the database `config` names, the way `gatehouse serve` does, and issues a one-time login
 * link (15 minutes) for the person called `name`, or the first admin; audited with actor `system`.
 * Whoever runs it can read the database already, so it needs no other credential.
 */
export async function issueHostLoginLink(
  config: ServerConfig,
  options: { name?: string | undefined; clock?: Clock } = {},
): Promise<HostLoginLink> {
  const store = await openStore(config, options.clock ?? { now: () => Date.now() });
  try {
    const link = await store.transaction((tx) => issueLoginLinkFor(auditedTx(tx), options.name));
    return { ...link, url: `${siteUrl(config)}/login#token=${link.token}` };
  } finally {
    await store.close();
  }
}
