import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatehouseError } from 'gatehouse-hitl-core';
import type { ServerConfig } from '../config.js';
import { SESSION_COOKIE } from './principal.js';

const STATE_CHANGING: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** /mcp never takes the session cookie as a credential and checks Origin itself. */
const COOKIELESS_ROUTES: ReadonlySet<string> = new Set(['/mcp']);

/** What a request says about where it comes from, and how it is authenticated. */
export interface RequestSource {
  method: string;
  /** The Origin header, absent when the client sent none. */
  origin: string | undefined;
  /** The Sec-Fetch-Site header browsers send: same-origin, same-site, cross-site or none. */
  secFetchSite: string | undefined;
  /** The credential is the session cookie (no Authorization header). */
  cookieCredential: boolean;
}

/** `scheme://host:port` as browsers send it, or null for anything that is not an origin. */
export function normalizeOrigin(text: string): string | null {
  if (!URL.canParse(text)) return null;
  const origin = new URL(text).origin;
  return origin === 'null' ? null : origin;
}

/**
 * Whether a request is a cookie-authenticated write from a page that is not this server's own.
 * A browser attaches the cookie to requests from any page of the same site (another port
 * included), so only Origin and Sec-Fetch-Site tell them apart; bearer tokens are never attached
 * by a browser, so those requests are left alone.
 */
export function isCrossSiteWrite(source: RequestSource, isOwn: (origin: string) => boolean): boolean {
  if (!source.cookieCredential || !STATE_CHANGING.has(source.method)) return false;
  const origin = source.origin === undefined ? null : normalizeOrigin(source.origin);
  if (origin !== null && isOwn(origin)) return false;
  return source.secFetchSite !== 'same-origin' && source.secFetchSite !== 'none';
}

function hasSessionCookie(cookie: string | undefined): boolean {
  return cookie?.split(';').some((part) => part.trim().startsWith(`${SESSION_COOKIE}=`)) ?? false;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The origins this server answers as: the public URL, GATEHOUSE_ALLOWED_ORIGINS, and the address
 * the request was sent to when that is an IP address, localhost or the configured host. A DNS name
 * only counts when configured: a DNS-rebinding page sends its own name as Host and as Origin.
 */
export function createOriginPolicy(
  config: ServerConfig,
): (origin: string, request: FastifyRequest) => boolean {
  const configured = new Set(config.allowedOrigins);
  const publicOrigin = config.publicUrl === null ? null : normalizeOrigin(config.publicUrl);
  if (publicOrigin !== null) configured.add(publicOrigin);
  const trustedNames = new Set(['localhost', config.host.toLowerCase()]);
  return (origin, request) => {
    if (configured.has(origin)) return true;
    const own = normalizeOrigin(`${request.protocol}://${request.host}`);
    if (own === null || own !== origin) return false;
    const hostname = new URL(own).hostname.replace(/^\[|\]$/g, '');
    return isIP(hostname) !== 0 || trustedNames.has(hostname);
  };
}

/** Refuses a request whose Origin is present and not one this server answers as (MCP's rule). */
export function assertAllowedOrigin(
  request: FastifyRequest,
  isOwn: (origin: string, request: FastifyRequest) => boolean,
): void {
  const header = headerText(request.headers.origin);
  if (header === undefined) return;
  const origin = normalizeOrigin(header);
  if (origin === null || !isOwn(origin, request)) {
    throw new GatehouseError(
      'ORIGIN_NOT_ALLOWED',
      `origin ${header} may not call this server; add it to GATEHOUSE_ALLOWED_ORIGINS if it should`,
      { origin: header },
    );
  }
}

/** Refuses cookie-authenticated writes from other origins with ORIGIN_NOT_ALLOWED, before any lookup. */
export function registerOriginCheck(app: FastifyInstance, config: ServerConfig): void {
  const isOwn = createOriginPolicy(config);
  // Callback hooks (here and in the other checks every request passes) cost no promise; a throw refuses.
  app.addHook('onRequest', (request, _reply, done) => {
    checkOrigin(request);
    done();
  });

  function checkOrigin(request: FastifyRequest): void {
    if (COOKIELESS_ROUTES.has(request.routeOptions.url ?? '')) return;
    const authorization = request.headers.authorization;
    const source: RequestSource = {
      method: request.method,
      origin: headerText(request.headers.origin),
      secFetchSite: headerText(request.headers['sec-fetch-site']),
      cookieCredential: !authorization?.startsWith('Bearer ') && hasSessionCookie(request.headers.cookie),
    };
    if (!isCrossSiteWrite(source, (origin) => isOwn(origin, request))) return;
    throw new GatehouseError(
      'ORIGIN_NOT_ALLOWED',
      `a signed-in change must come from this server's own pages (origin ${source.origin ?? 'not sent'}); use a bearer token from other clients`,
      { origin: source.origin ?? null, secFetchSite: source.secFetchSite ?? null },
    );
  }
}
