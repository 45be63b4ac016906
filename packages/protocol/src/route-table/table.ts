import { agentRoutes } from '../routes/agents.js';
import { reviewHealthRoutes } from '../routes/review-health.js';
import type { RouteDefinition } from './define.js';

/** Every route of the API by subject; the server registers exactly these. */
export const routeTable = {
  agents: agentRoutes,
  reviewHealth: reviewHealthRoutes,
} as const satisfies Record<string, Record<string, RouteDefinition>>;

/** The table as a flat list with each route's `subject.name`. */
export function listRoutes(): { name: string; route: RouteDefinition }[] {
  return Object.entries(routeTable).flatMap(([subject, routes]) =>
    Object.entries(routes).map(([name, route]) => ({
      name: `${subject}.${name}`,
      route: route as RouteDefinition,
    })),
  );
}
