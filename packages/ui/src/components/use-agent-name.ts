import { useEffect, useState } from 'react';
import { getAgentName } from '../api/gate-review.js';

const known = new Map<string, string>();

/** The agent's display name, or its id until (or unless) the name arrives. */
export function useAgentName(agentId: string | null): string | null {
  const [name, setName] = useState(agentId === null ? null : (known.get(agentId) ?? agentId));
  useEffect(() => {
    if (agentId === null || known.has(agentId)) return;
    let live = true;
    getAgentName(agentId).then(
      (found) => {
        known.set(agentId, found);
        if (live) setName(found);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [agentId]);
  return name;
}
