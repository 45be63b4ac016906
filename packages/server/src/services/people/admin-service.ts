import type { AppContext } from '../../context.js';
import { commit } from '../commit.js';
import { type AgentService, createAgentService } from './agents.js';
import { createSessionService, type SessionService } from './sessions.js';
import { createSsoService, type SsoService } from './sso.js';
import { createUserService, type UserService } from './users.js';

/** People, agents and sessions. */
export interface AdminServices {
  users: UserService;
  agents: AgentService;
  sessions: SessionService;
  /** Sign-in through an OpenID provider, when one is configured. */
  sso: SsoService;
}

/** A one-time login link for the first admin on a start while no admin has a password, or nothing. */
export interface BootstrapResult {
  created: boolean;
  loginToken: string | null;
  expiresAt: number | null;
  /** On a later start: no admin who is not disabled has a password, so one may be locked out. */
  noAdminPassword: boolean;
}

export function createAdminServices(ctx: AppContext): AdminServices {
  const sessions = createSessionService(ctx);
  return {
    users: createUserService(ctx, sessions),
    agents: createAgentService(ctx),
    sessions,
    sso: createSsoService(ctx),
  };
}

/**
 * On first start (no person exists) creates `admin` with no password and a one-time login link;
 * restarts never add a second admin, and issue a new link for the first admin only while no admin
 * has a password. A later link comes from `gatehouse admin login-link` on the server host, or from
 * another admin.
 */
export async function bootstrap(ctx: AppContext, sessions: SessionService): Promise<BootstrapResult> {
  return commit(ctx, async (tools) => {
    const { tx, audit } = tools;
    const users = await tx.listUsers();
    if (users.length > 0) {
      const admins = users.filter((u) => u.role === 'admin' && !u.disabled);
      if (admins.some((u) => u.passwordHash !== null) || admins[0] === undefined) {
        return { created: false, loginToken: null, expiresAt: null, noAdminPassword: admins.length === 0 };
      }
      // Without a password the first link was the only way in; a restart must not lock the admin out.
      const link = await sessions.issueLoginLink(tools, admins[0].id, 'system');
      return { created: false, loginToken: link.token, expiresAt: link.expiresAt, noAdminPassword: true };
    }
    const id = ctx.ids.next('user');
    await tx.insertUser({
      id,
      name: 'admin',
      role: 'admin',
      passwordHash: null,
      disabled: false,
      createdAt: tx.now,
    });
    await audit({
      kind: 'user.created',
      actor: 'system',
      subject: id,
      data: { name: 'admin', role: 'admin', via: 'first_start' },
    });
    const link = await sessions.issueLoginLink(tools, id, 'system');
    return { created: true, loginToken: link.token, expiresAt: link.expiresAt, noAdminPassword: false };
  });
}
