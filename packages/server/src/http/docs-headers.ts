import type { FastifyInstance } from 'fastify';

/**
 * The OpenAPI UI loads its scripts, styles and the document from this origin only. Swagger UI
 * sets inline styles, so style-src allows them; nothing may frame the page.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function isDocsPath(url: string): boolean {
  return url === '/docs' || url.startsWith('/docs/') || url.startsWith('/docs?');
}

/** Content security policy, no framing and no sniffing on everything under /docs. */
export function registerDocsHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (isDocsPath(request.url)) {
      void reply.header('content-security-policy', DOCS_CONTENT_SECURITY_POLICY);
      void reply.header('x-frame-options', 'DENY');
      void reply.header('x-content-type-options', 'nosniff');
      void reply.header('referrer-policy', 'no-referrer');
    }
    done();
  });
}
