import type { Clock } from 'gatehouse-hitl-core';
import { GatehouseError } from 'gatehouse-hitl-core';
import type { UserRecord } from 'gatehouse-hitl-store';
import type { ServerConfig } from './config.js';
import { openStore } from './main.js';
import { auditedTx } from './services/commit.js';
import { insertLoginLink } from './services/people/sessions.js';

/** A login link issued on the server host. */
export interface HostLoginLink {
  userId: string;
  name: string;
  token: string;
  expiresAt: number;
  /** The link to open: `<public URL or http://host:port>/login#token=…`. */
  url: string;
}

/** The earliest admin who is not disabled: the one the first start made, unless it was replaced. */
function firstAdmin(users: readonly UserRecord[]): UserRecord | undefined {
  return users.find((user) => user.role === 'admin' && !user.disabled);
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
    return await store.transaction(async (tx) => {
      const user =
        options.name === undefined ? firstAdmin(await tx.listUsers()) : await tx.getUserByName(options.name);
      if (!user) {
        const who =
          options.name === undefined ? 'no admin who is not disabled' : `no person named ${options.name}`;
        throw new GatehouseError('NOT_FOUND', `${who}; see the people with \`gatehouse users list\``, {
          field: 'name',
        });
      }
      if (user.disabled) {
        throw new GatehouseError(
          'INVALID_TRANSITION',
          `${user.name} is disabled; an admin must enable them first`,
          {
            userId: user.id,
          },
        );
      }
      const link = await insertLoginLink(auditedTx(tx), user.id, 'system');
      return {
        userId: user.id,
        name: user.name,
        ...link,
        url: `${siteUrl(config)}/login#token=${link.token}`,
      };
    });
  } finally {
    await store.close();
  }
}
