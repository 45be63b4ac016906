import { agentRoutes } from 'gatehouse-hitl-protocol';
import { useCallback, useEffect, useState } from 'react';
import { callApi } from '../api/client.js';

/** Agent names by id (`GET /v1/agents`), read again when a gate names an agent not seen yet. */
export function useAgentNames(agentIds: readonly string[]): (agentId: string) => string | null {
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  const unknown = [...new Set(agentIds.filter((id) => !names.has(id)))].sort().join(',');

  useEffect(() => {
    if (unknown === '') return;
    const controller = new AbortController();
    callApi(agentRoutes.list, {}, controller.signal).then(
      (answer) => setNames(new Map(answer.agents.map((agent) => [agent.id, agent.name]))),
      // Names are a nicety: the ids still show.
      () => {},
    );
    return () => controller.abort();
  }, [unknown]);

  return useCallback((agentId: string) => names.get(agentId) ?? null, [names]);
}
