import { GatehouseError } from 'gatehouse-hitl-core';
import type { StoreTx, UserRecord } from 'gatehouse-hitl-store';
import { type Credentials, insertLoginLink } from './sessions.js';

/** A one-time login link and whom it signs in. */
export interface IssuedLoginLink {
  userId: string;
  name: string;
  token: string;
  expiresAt: number;
}

/** The earliest admin who is not disabled: the one the first start made, unless it was replaced. */
function firstAdmin(users: readonly UserRecord[]): UserRecord | undefined {
  return users.find((user) => user.role === 'admin' && !user.disabled);
}

/** Issues a one-time login link for the person called `name`, or the first admin; actor `system`. */
export async function issueLoginLinkFor(
  tools: Credentials & { tx: Pick<StoreTx, 'listUsers' | 'getUserByName'> },
  name: string | undefined,
): Promise<IssuedLoginLink> {
  const { tx } = tools;
  const user = name === undefined ? firstAdmin(await tx.listUsers()) : await tx.getUserByName(name);
  if (!user) {
    const who = name === undefined ? 'no admin who is not disabled' : `no person named ${name}`;
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
  const link = await insertLoginLink(tools, user.id, 'system');
  return { userId: user.id, name: user.name, ...link };
}
