import {
  type AfterApproval,
  type AuditEvent,
  type Gate,
  isContradicted,
  type ReviewDecision,
  type Reviewer,
  type ReviewTimeout,
  ROLES,
  type Role,
} from 'gatehouse-hitl-core';
import type { GateView } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';

const PAGE = 500;
const TIMEOUT_ACTOR = 'system:timeout';
// Decisions from these channels leave the web app, which is the only one that reports what was opened.
const CHANNELS_WITHOUT_VIEWS = new Set(['slack', 'email']);

/** What review health is computed from: the decisions, timeouts and people of one window. */
export interface ReviewHistory {
  decisions: ReviewDecision[];
  timeouts: ReviewTimeout[];
  reviewers: Reviewer[];
}

async function allGates(ctx: AppContext): Promise<Gate[]> {
  const gates: Gate[] = [];
  let cursor: string | null = null;
  do {
    const filter: { limit: number; cursor?: string } =
      cursor === null ? { limit: PAGE } : { limit: PAGE, cursor };
    const page = await ctx.store.read((tx) => tx.listGates(filter));
    gates.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return gates;
}

async function auditOf(ctx: AppContext, kind: string, since: number): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let cursor: string | null = null;
  do {
    const page = await ctx.store.queryAudit(
      cursor === null ? { kind, since, limit: PAGE } : { kind, since, limit: PAGE, cursor },
    );
    events.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return events;
}

function personOf(actor: string): string {
  return actor.startsWith('user:') ? actor.slice('user:'.length) : actor;
}

interface Vote {
  by: string;
  at: number;
  outcome: ReviewDecision['outcome'];
}

/** Each person's say on a gate: every approval of an N-of-M gate, and the decision that ended it. */
function votesOf(gate: Gate): Vote[] {
  const votes: Vote[] = gate.approvals.map((v) => ({ by: personOf(v.by), at: v.at, outcome: 'approved' }));
  const decision = gate.decision;
  if (decision === null || decision.decidedBy.startsWith('system:')) return votes;
  const { outcome } = decision;
  if (outcome === 'expired' || outcome === 'cancelled') return votes;
  const by = personOf(decision.decidedBy);
  if (outcome === 'approved' && votes.some((v) => v.by === by)) return votes;
  return [...votes, { by, at: decision.decidedAt, outcome }];
}

function waitingOnOf(gate: Gate, event: AuditEvent): Role {
  if (event.kind !== 'gate.escalated') return gate.minRole;
  const next = event.data.minRole;
  const chain = gate.escalationChain;
  const index = chain.findIndex((role) => role === next);
  if (index > 0) return chain[index - 1] ?? gate.minRole;
  const rank = ROLES.findIndex((role) => role === next);
  return ROLES[Math.max(0, rank - 1)] ?? gate.minRole;
}

function afterApprovalOf(gate: Gate, runs: Map<string, AfterApproval>): AfterApproval {
  return (gate.runId === null ? undefined : runs.get(gate.runId)) ?? { run: null, laterDecisions: [] };
}

/** The run and the later decisions of each run an approval in `decided` belongs to. */
async function runsAfter(
  ctx: AppContext,
  gates: readonly Gate[],
  decided: readonly Gate[],
): Promise<Map<string, AfterApproval>> {
  const approved = decided.filter((g) => votesOf(g).some((vote) => vote.outcome === 'approved'));
  const wanted = new Set(approved.flatMap((g) => (g.runId === null ? [] : [g.runId])));
  const laterDecisions = new Map<string, { option: string; decidedAt: number }[]>();
  for (const gate of gates) {
    if (gate.runId === null || gate.decision === null || !wanted.has(gate.runId)) continue;
    laterDecisions.set(gate.runId, [...(laterDecisions.get(gate.runId) ?? []), gate.decision]);
  }
  const byRun = new Map<string, AfterApproval>();
  await ctx.store.read(async (tx) => {
    for (const [runId, decisions] of laterDecisions) {
      const run = await tx.getRun(runId);
      byRun.set(runId, {
        run: run && { status: run.status, updatedAt: run.updatedAt },
        laterDecisions: decisions,
      });
    }
  });
  return byRun;
}

/** Loads the decisions made since `since`, with what each person opened and what happened afterwards. */
export async function loadReviewHistory(ctx: AppContext, since: number): Promise<ReviewHistory> {
  const gates = await allGates(ctx);
  const decided = gates.filter((g) => votesOf(g).some((v) => v.at >= since));
  const [views, decidedEvents, escalated, expired, users, runs] = await Promise.all([
    ctx.store.read((tx) => tx.listGateViews(decided.map((g) => g.id))),
    auditOf(ctx, 'gate.decided', since),
    auditOf(ctx, 'gate.escalated', since),
    auditOf(ctx, 'gate.expired', since),
    ctx.store.read((tx) => tx.listUsers()),
    runsAfter(ctx, gates, decided),
  ]);
  const channels = new Map(decidedEvents.map((e) => [e.subject, String(e.data.channel ?? 'api')]));
  const viewsOf = new Map<string, GateView[]>();
  for (const view of views) {
    const key = `${view.gateId}\n${view.userId}`;
    viewsOf.set(key, [...(viewsOf.get(key) ?? []), view]);
  }
  const decisions = decided.flatMap((gate) =>
    votesOf(gate).map((vote): ReviewDecision => {
      const blindChannel = CHANNELS_WITHOUT_VIEWS.has(channels.get(gate.id) ?? 'api');
      const opened = (viewsOf.get(`${gate.id}\n${vote.by}`) ?? []).filter((v) => v.viewedAt <= vote.at);
      const decision = {
        gateId: gate.id,
        reviewer: vote.by,
        risk: gate.risk,
        openedAt: gate.createdAt,
        decidedAt: vote.at,
        outcome: vote.outcome,
        viewed: blindChannel ? null : opened.map((v) => v.part),
        contradicted: false,
      };
      return { ...decision, contradicted: isContradicted(decision, afterApprovalOf(gate, runs)) };
    }),
  );
  const byId = new Map(gates.map((g) => [g.id, g]));
  const timeouts = [...escalated, ...expired].flatMap((event): ReviewTimeout[] => {
    const gate = event.subject === null ? undefined : byId.get(event.subject);
    if (!gate || event.actor !== TIMEOUT_ACTOR) return [];
    return [
      { gateId: gate.id, at: event.at, waitingOn: waitingOnOf(gate, event), assignees: gate.assignees },
    ];
  });
  const reviewers = users.map((u) => ({ id: u.id, name: u.name, role: u.role }));
  return { decisions, timeouts, reviewers };
}
