import {
  type Action,
  type Gate,
  type GateCatalog,
  GatehouseError,
  revealDeep,
  revealText,
} from 'gatehouse-hitl-core';
import type { StreamEventName } from 'gatehouse-hitl-protocol';
import type { GatesRepo } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import type { CommitTools } from '../commit.js';
import type { PolicyService } from '../policy/policy-service.js';
import type { InterventionNotice, RequestAnsweredListener } from '../types.js';
import type { GateEndedHandlers } from './gate-ended.js';
import type { GateWaiters } from './gate-wait.js';

/** What the gate service's parts share. */
export interface GateDeps {
  ctx: AppContext;
  catalog: GateCatalog;
  policies: PolicyService;
  waiters: GateWaiters;
  /** How long a medium-confidence step of an `auto` run waits before it proceeds. */
  autoProceedDelayMs: number;
  /** Interventions of a run the agent has not seen yet, from the run service when there is one. */
  interventions(runId: string): Promise<InterventionNotice[]>;
  /** Agents' profiles by id, each read once: an agent's profile never changes after it is registered. */
  agentProfiles: Map<string, string | null>;
  /** What the features do when a person decides a gate. */
  ended: GateEndedHandlers;
  /** Hear of each request answered at once, after its commit. */
  answered: RequestAnsweredListener[];
}

/** A stored gate with its row version, for conditional updates. */
export type VersionedGate = Gate & { version: number };

/** Splits the row version off a stored gate. */
export function withoutVersion(stored: VersionedGate): Gate {
  const { version: _version, ...gate } = stored;
  return gate;
}

/** The gate, or NOT_FOUND. */
export async function loadGate(tx: GatesRepo, gateId: string): Promise<VersionedGate> {
  const gate = await tx.getGate(gateId);
  if (gate === null) throw new GatehouseError('NOT_FOUND', `no gate ${gateId}`, { gateId });
  return gate;
}

/** Agents see only their own gates, and another agent's gate is as unknown as a missing one; people see every gate. */
export function assertCanRead(principal: Principal, gate: Gate): void {
  if (principal.kind === 'anonymous')
    throw new GatehouseError('UNAUTHENTICATED', 'log in or send a bearer token');
  if (principal.kind === 'agent' && gate.agentId !== principal.id) {
    throw new GatehouseError('NOT_FOUND', `no gate ${gate.id}`, { gateId: gate.id });
  }
}

/** The agent's own gate, or 403/404. */
export function assertOwnGate(principal: Principal, gate: Gate): string {
  if (principal.kind !== 'agent')
    throw new GatehouseError('FORBIDDEN', 'only the agent that asked can do this');
  assertCanRead(principal, gate);
  return principal.id;
}

/** Appends a stream event about a gate; listeners wake after the commit. */
export async function announce(
  tools: CommitTools,
  type: StreamEventName,
  gate: Gate,
  data: Record<string, unknown> = {},
): Promise<void> {
  await tools.emit({
    type,
    runId: gate.runId,
    agentId: gate.agentId,
    gateId: gate.id,
    data: { status: gate.status, type: gate.type, ...data },
  });
}

const TITLE_MAX = 200;

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= TITLE_MAX ? line : `${line.slice(0, TITLE_MAX - 1)}…`;
}

function describeArgs(args: Record<string, unknown>): string {
  const parts = Object.entries(args)
    .slice(0, 4)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return parts.join(' ');
}

/** A one-line title, hidden characters shown as markers: the agent's own, else the tool and its arguments or the operation. */
export function gateTitle(title: string | undefined, action: Action | null): string | undefined {
  const raw =
    title ??
    (action?.tool !== undefined
      ? `${action.tool} ${describeArgs(action.args)}`
      : action?.operation !== undefined
        ? action.operation
        : undefined);
  if (raw === undefined) return undefined;
  const line = clip(revealText(raw, { multiline: true }));
  return line === '' ? undefined : line;
}

/** Context from agents, made safe to display: hidden characters shown as markers, never dropped. */
export function cleanContext(context: Record<string, unknown> | undefined): Record<string, unknown> {
  if (context === undefined) return {};
  const clean = revealDeep(context);
  return clean !== null && typeof clean === 'object' && !Array.isArray(clean) ? clean : {};
}

/** Free text from people, made safe to display; line breaks kept, hidden characters shown as markers. */
export function cleanText(text: string | undefined): string | undefined {
  return text === undefined ? undefined : revealText(text, { multiline: true });
}
