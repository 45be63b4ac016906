import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCrossSiteWrite, normalizeOrigin, type RequestSource } from './origin.js';

const OWN = 'http://127.0.0.1:7300';
const isOwn = (origin: string) => origin === OWN;

const methods = fc.constantFrom('GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE');
const writes = fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE');
const sites = fc.constantFrom(undefined, 'same-origin', 'same-site', 'cross-site', 'none', 'bogus');
const foreignOrigins = fc.oneof(
  fc.constantFrom('http://127.0.0.1:1', 'http://localhost:7300', 'null', 'https://127.0.0.1:7300', 'junk'),
  fc.webUrl().filter((url) => normalizeOrigin(url) !== OWN),
);
const origins = fc.oneof(fc.constant(undefined), fc.constant(OWN), foreignOrigins);

function source(parts: Partial<RequestSource>): RequestSource {
  return { method: 'POST', origin: undefined, secFetchSite: undefined, cookieCredential: true, ...parts };
}

describe('isCrossSiteWrite', () => {
  it('never refuses a bearer-token request or a read', () => {
    fc.assert(
      fc.property(methods, origins, sites, fc.boolean(), (method, origin, secFetchSite, cookie) => {
        const request = source({ method, origin, secFetchSite, cookieCredential: cookie });
        if (!cookie || !['POST', 'PUT', 'PATCH', 'DELETE'].includes(method))
          expect(isCrossSiteWrite(request, isOwn)).toBe(false);
      }),
    );
  });

  it('lets a cookie write through from its own origin, or when the browser says same-origin', () => {
    fc.assert(
      fc.property(writes, origins, sites, (method, origin, secFetchSite) => {
        expect(isCrossSiteWrite(source({ method, origin: OWN, secFetchSite }), isOwn)).toBe(false);
        for (const site of ['same-origin', 'none'])
          expect(isCrossSiteWrite(source({ method, origin, secFetchSite: site }), isOwn)).toBe(false);
      }),
    );
  });

  it('refuses every other cookie write, including one that says nothing', () => {
    fc.assert(
      fc.property(
        writes,
        fc.oneof(fc.constant(undefined), foreignOrigins),
        fc.constantFrom(undefined, 'same-site', 'cross-site', 'bogus'),
        (method, origin, secFetchSite) => {
          expect(isCrossSiteWrite(source({ method, origin, secFetchSite }), isOwn)).toBe(true);
        },
      ),
    );
  });
});

describe('normalizeOrigin', () => {
  it('reads an origin as a browser serializes it and refuses what is not one', () => {
    expect(normalizeOrigin('HTTP://LocalHost:80')).toBe('http://localhost');
    expect(normalizeOrigin('https://a.example:8443/path?q')).toBe('https://a.example:8443');
    expect(normalizeOrigin('null')).toBeNull();
    expect(normalizeOrigin('file:///etc/passwd')).toBeNull();
  });
});
