/**
 * The method and path of the routes the Claude Code hook calls, without their schemas: the hook
 * starts before every tool call and loads no zod. The route table builds these routes from the same
 * objects, so each path is still written once.
 */
export const lightRoutes = {
  gateRequest: { method: 'POST', path: '/v1/gates' },
  gateWait: { method: 'GET', path: '/v1/gates/:id/wait' },
  gateConsume: { method: 'POST', path: '/v1/gates/:id/consume' },
  analyze: { method: 'POST', path: '/v1/analyze' },
} as const;

/** A route as the hook knows it: method and path only. */
export type LightRoute = (typeof lightRoutes)[keyof typeof lightRoutes];
