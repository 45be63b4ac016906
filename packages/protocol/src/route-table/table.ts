import { agentRoutes } from '../routes/agents.js';
import type { RouteDefinition } from './define.js';

/** Every route of the API by subject; the server registers exactly these. */
export const routeTable = {
  agents: agentRoutes,
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
