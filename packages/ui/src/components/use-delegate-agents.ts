import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { useEffect, useState } from 'react';
import { type Agent, listAgents } from '../api/admin.js';

/** The agents a delegate option may hand the task to, read once when the gate offers one; null while loading. */
export function useDelegateAgents(gate: Gate): readonly Agent[] | null {
  const delegates = gate.options.some((option) => option.requires.includes('delegateTo'));
  const [agents, setAgents] = useState<readonly Agent[] | null>(null);
  useEffect(() => {
    if (!delegates) return;
    const controller = new AbortController();
    listAgents(controller.signal).then(
      (found) => setAgents([...found].sort((a, b) => a.name.localeCompare(b.name))),
      // Without the list the picker stays empty and says so; the decision cannot be sent without an agent.
      () => setAgents([]),
    );
    return () => controller.abort();
  }, [delegates]);
  return agents;
}
