import type { Gate } from 'gatehouse-hitl-core';
import { reviewHealthRoutes } from 'gatehouse-hitl-protocol';
import type { ApiClient } from './http.js';

/**
 * Tells the server which parts of a pending gate a person had on screen, as the web app does, so
 * review health does not count a terminal reviewer's approvals as "opened nothing". The terminal's
 * gate box shows the action and its arguments; diffs and findings are not claimed. Each gate is
 * reported once per process, and a failure (an agent token, an older server) is ignored: it is a
 * report, never part of deciding.
 */
export function createViewReporter(client: ApiClient): (gate: Gate) => Promise<void> {
  const reported = new Set<string>();
  return async (gate) => {
    if (gate.status !== 'pending' || gate.action === null || reported.has(gate.id)) return;
    reported.add(gate.id);
    await client
      .call(reviewHealthRoutes.recordView, { params: { id: gate.id }, body: { part: 'arguments' } })
      .then(
        () => {},
        () => {},
      );
  };
}
