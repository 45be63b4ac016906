import type { FastifyInstance, FastifyRequest } from 'fastify';
import { canonicalJson, GatehouseError, hasRole, isGatehouseError, type Role } from 'gatehouse-hitl-core';
import type { Store } from 'gatehouse-hitl-store';
import type { BearerJwtVerifier } from '../auth/mcp-oauth.js';
import { hashToken } from '../auth/secrets.js';
import { gitBasicPassword } from '../workspace/http-backend.js';
import { createPrincipalCache, type Found } from './principal-cache.js';

/** Who is calling: an agent by its token, a person by a session, or nobody. */
export type Principal =
  | {
      kind: 'agent';
      id: string;
      /** The person the agent's client acts for, from an OAuth bearer token the server verified. */
      actor?: { user: string; groups: string[] };
    }
  | {
      kind: 'user';
      id: string;
      name: string;
      role: Role;
      /** When this session began (epoch ms): a recent sign-in stands in for the password. */
      signedInAt?: number;
    }
  | { kind: 'anonymous' };

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
    /** SHA-256 of the bearer token (or session cookie), hashed once per request; null without one. */
    credentialHash: string | null;
  }
  interface FastifyInstance {
    /** Who the request's credential names now, checked as a new request's would be. */
    principalNow(request: FastifyRequest): Promise<Principal>;
  }
}

export const SESSION_COOKIE = 'gatehouse_session';

/** The bearer token of a request, from the Authorization header or the session cookie. */
export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header === 'string' && header.startsWith('Bearer ')) return header.slice(7).trim();
  const basic = typeof header === 'string' ? gitBasicPassword(header, request.url) : null;
  if (basic !== null) return basic;
  const cookie = request.headers.cookie;
  if (typeof cookie === 'string') {
    for (const part of cookie.split(';')) {
      const [name, ...rest] = part.trim().split('=');
      if (name === SESSION_COOKIE) return decodeURIComponent(rest.join('='));
    }
  }
  return null;
}

type Known = Exclude<Principal, { kind: 'anonymous' }>;

// Principals are shared by every request that presents the same credential: none may change one.
const ANONYMOUS: Principal = Object.freeze({ kind: 'anonymous' });

async function lookUpCredential(store: Store, tokenHash: string): Promise<Found<Known> | null> {
  return store.read(async (tx) => {
    const record = await tx.getToken(tokenHash);
    if (!record || record.revokedAt !== null) return null;
    const { expiresAt } = record;
    if (record.kind === 'agent') {
      return { value: Object.freeze({ kind: 'agent', id: record.subjectId }), expiresAt };
    }
    if (record.kind !== 'session') return null;
    const user = await tx.getUser(record.subjectId);
    if (!user || user.disabled) return null;
    const principal = {
      kind: 'user',
      id: user.id,
      name: user.name,
      role: user.role,
      signedInAt: record.createdAt,
    } as const;
    return { value: Object.freeze(principal), expiresAt };
  });
}

/**
 * Resolves bearer tokens to principals. A credential is looked up again once it is 500 ms old or
 * as soon as anything changed tokens or people through this store, so a revocation applies to the
 * very next request on this node and within 500 ms on every other node.
 */
export function createPrincipalResolver(
  store: Store,
): (tokenHash: string | null, now: number) => Promise<Principal> {
  const cache = createPrincipalCache<Known>(() => store.credentialsVersion());
  return async (tokenHash, now) => {
    if (tokenHash === null) return ANONYMOUS;
    return (await cache.get(tokenHash, now, () => lookUpCredential(store, tokenHash))) ?? ANONYMOUS;
  };
}

/** The hash of the request's bearer token (what tokens are stored and limited by), or null without one. */
export function credentialHashOf(request: FastifyRequest): string | null {
  const token = bearerOf(request);
  return token === null || token.length > 200 ? null : hashToken(token);
}

/** The /v1 routes anyone may call; every other /v1 route needs a credential. */
export const PUBLIC_API_ROUTES: ReadonlySet<string> = new Set([
  '/v1/auth/login',
  '/v1/auth/link',
  // Single sign-on: the provider's callback carries its own state, code and id token (routes/sso.ts).
  '/v1/auth/sso',
  '/v1/auth/sso/start',
  '/v1/auth/sso/callback',
  '/v1/openapi.json',
  // Checked by its own Slack signature instead (routes/slack.ts).
  '/v1/slack/interactions',
  // Checked by its own signed, single-use link instead (routes/email-actions.ts).
  '/v1/email-actions',
  // Checked by its own host secret instead (routes/host.ts); registered only by `gatehouse serve`.
  '/v1/host/login-link',
]);

/** OAuth for MCP: a provider's JWT makes its holder this agent, acting for the token's person. */
export interface BearerJwtPrincipals {
  verify: BearerJwtVerifier;
  /** The agent OAuth clients act through; null while no agent of the configured name exists. */
  agentId(): Promise<string | null>;
  /** This server's origin as the caller reached it (the audience a token must name). */
  originOf(request: FastifyRequest): string;
}

async function jwtPrincipal(request: FastifyRequest, jwt: BearerJwtPrincipals): Promise<Principal | null> {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return null;
  const actor = await jwt.verify(header.slice(7).trim(), jwt.originOf(request));
  const id = actor === null ? null : await jwt.agentId();
  return actor === null || id === null ? null : Object.freeze({ kind: 'agent', id, actor });
}

/**
 * Resolves the principal of every request; an anonymous call to a /v1 route that needs a
 * credential is refused before its body is read or validated.
 */
export function registerPrincipalHook(
  app: FastifyInstance,
  store: Store,
  now: () => number,
  jwt: BearerJwtPrincipals | null = null,
): void {
  const resolvePrincipal = createPrincipalResolver(store);
  const checked = (request: FastifyRequest): Promise<Principal> =>
    resolvePrincipal(request.credentialHash, now()).catch((error: unknown) => {
      if (isGatehouseError(error)) throw error;
      // A credential that cannot be checked is refused: fail closed, never guess.
      request.log.error({ err: error }, 'could not check the credential');
      throw new GatehouseError(
        'SERVICE_UNAVAILABLE',
        'the database is unavailable; try again shortly',
        {},
        error,
      );
    });
  const principalNow = (request: FastifyRequest): Promise<Principal> =>
    jwt === null
      ? checked(request)
      : jwtPrincipal(request, jwt).then((fromJwt) => fromJwt ?? checked(request));
  app.decorate('principalNow', principalNow);
  app.decorateRequest('principal', null as never);
  app.decorateRequest('credentialHash', null);
  app.addHook('onRequest', async (request) => {
    request.credentialHash = credentialHashOf(request);
    request.principal = await principalNow(request);
    const route = request.routeOptions.url;
    if (
      request.principal.kind === 'anonymous' &&
      route?.startsWith('/v1/') &&
      !PUBLIC_API_ROUTES.has(route)
    ) {
      throw new GatehouseError('UNAUTHENTICATED', 'log in or send a bearer token');
    }
  });
}

/**
 * Whether `now` names the caller `then` named, with the same rights: the same agent acting for the
 * same person in the same groups, or the same person in the same role.
 */
export function isSameCaller(then: Principal, now: Principal): boolean {
  if (then.kind === 'agent')
    return (
      now.kind === 'agent' &&
      now.id === then.id &&
      canonicalJson(now.actor ?? null) === canonicalJson(then.actor ?? null)
    );
  if (then.kind === 'user') return now.kind === 'user' && now.id === then.id && now.role === then.role;
  return now.kind === 'anonymous';
}

/**
 * Throws UNAUTHENTICATED unless the request's credential still names the caller it named when the
 * request began, checked as a new request's is: a request that waited tells a revoked caller nothing.
 */
export async function assertStillCaller(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  if (!isSameCaller(request.principal, await app.principalNow(request)))
    throw new GatehouseError('UNAUTHENTICATED', 'the credential was revoked while the request waited');
}

/** A person with at least `minimum` role, or a 401/403. */
export function requireUser(
  request: FastifyRequest,
  minimum: Role = 'viewer',
): Extract<Principal, { kind: 'user' }> {
  const principal = request.principal;
  if (principal.kind === 'anonymous')
    throw new GatehouseError('UNAUTHENTICATED', 'log in or send a bearer token');
  if (principal.kind !== 'user')
    throw new GatehouseError('FORBIDDEN', 'agent tokens cannot do this; a person must');
  if (!hasRole(principal.role, minimum)) {
    throw new GatehouseError(
      'ROLE_TOO_LOW',
      `this needs role ${minimum} or higher (you are ${principal.role})`,
      {
        required: minimum,
        role: principal.role,
      },
    );
  }
  return principal;
}

/** An agent token, or a 401/403. */
export function requireAgent(request: FastifyRequest): Extract<Principal, { kind: 'agent' }> {
  const principal = request.principal;
  if (principal.kind === 'anonymous')
    throw new GatehouseError('UNAUTHENTICATED', 'send the agent token as a bearer token');
  if (principal.kind !== 'agent') throw new GatehouseError('FORBIDDEN', 'only agent tokens can do this');
  return principal;
}

/** Anyone authenticated. */
export function requireAuthenticated(request: FastifyRequest): Exclude<Principal, { kind: 'anonymous' }> {
  const principal = request.principal;
  if (principal.kind === 'anonymous')
    throw new GatehouseError('UNAUTHENTICATED', 'log in or send a bearer token');
  return principal;
}

/** The audit actor string for a principal: `user:<id>`, `agent:<id>` or `anonymous`. */
export function actorOf(principal: Principal): string {
  return principal.kind === 'anonymous' ? 'anonymous' : `${principal.kind}:${principal.id}`;
}
