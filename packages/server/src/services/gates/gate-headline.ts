import { type Briefing, buildBriefing, type Gate, type GateCatalog, revealText } from 'gatehouse-hitl-core';
import type { AppContext } from '../../context.js';

/** A gate as lists carry it: with the headline its page leads with. */
export type ListedGate = Gate & { headline: string };

/** The registered names of the agents behind `gates`, read once for the lot. */
async function agentNamesOf(ctx: AppContext, gates: readonly Gate[]): Promise<Map<string, string>> {
  const ids = [...new Set(gates.flatMap((gate) => (gate.agentId === null ? [] : [gate.agentId])))];
  if (ids.length === 0) return new Map();
  const agents = await ctx.store.read((tx) => Promise.all(ids.map((id) => tx.getAgent(id))));
  return new Map(agents.flatMap((agent) => (agent === null ? [] : [[agent.id, agent.name] as const])));
}

// People read the agent's registered name in the briefing, never its id.
function briefingWith(
  ctx: AppContext,
  catalog: GateCatalog,
  gate: Gate,
  agent: string | null,
): Briefing | null {
  try {
    const builder = catalog.has(gate.type) ? catalog.spec(gate.type).briefing : undefined;
    return buildBriefing(gate, { agent }, builder);
  } catch (error) {
    ctx.log.warn({ err: error, gateId: gate.id }, 'briefing could not be built');
    return null;
  }
}

/**
 * The line a gate's page leads with, and every other place names the gate by (lists, Slack): its
 * briefing's summary, or its title when no briefing could be built.
 */
export function headlineOf(gate: Pick<Gate, 'title'>, briefing: Briefing | null): string {
  return briefing?.summary ?? revealText(gate.title);
}

/** The Summary of Action of one gate, with its headline and its agent's registered name. */
export async function briefingOf(
  ctx: AppContext,
  catalog: GateCatalog,
  gate: Gate,
): Promise<{ briefing: Briefing | null; headline: string; agentName: string | null }> {
  const names = await agentNamesOf(ctx, [gate]);
  const agentName = names.get(gate.agentId ?? '') ?? null;
  const briefing = briefingWith(ctx, catalog, gate, agentName);
  return { briefing, headline: headlineOf(gate, briefing), agentName };
}

/** Each gate with the headline its page leads with, so a list names a gate as its page does. */
export async function withHeadlines(
  ctx: AppContext,
  catalog: GateCatalog,
  gates: readonly Gate[],
): Promise<ListedGate[]> {
  const names = await agentNamesOf(ctx, gates);
  return gates.map((gate) => {
    const briefing = briefingWith(ctx, catalog, gate, names.get(gate.agentId ?? '') ?? null);
    return { ...gate, headline: headlineOf(gate, briefing) };
  });
}
