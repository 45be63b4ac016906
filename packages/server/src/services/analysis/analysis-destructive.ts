import type { ChangeFacts, FileChange } from 'gatehouse-hitl-analysis';
import type { Gate, TriggerEvaluation } from 'gatehouse-hitl-core';
import type { CommitTools } from '../commit.js';
import { assertWritten } from '../lost-update.js';
import type { GateService } from '../types.js';
import { type GateOrigin, openDestructiveGate } from './analysis-gates.js';
import type { KeyedFinding } from './findings.js';

/** A destructive change of a run, as the analysis found it. */
export interface DestructiveChange {
  facts: ChangeFacts;
  evaluation: TriggerEvaluation;
  findings: readonly KeyedFinding[];
  /** The files the change was analysed from, for each finding's hunk. */
  files?: readonly FileChange[] | undefined;
}

/** The keys (pattern, file, test or export name) of the findings a destructive_action gate is about. */
export function destructiveKeys(findings: readonly KeyedFinding[]): string[] {
  return [
    ...new Set(findings.filter((finding) => finding.kind !== 'laziness').map((finding) => finding.key)),
  ];
}

function keysOnGate(gate: Gate): Set<string> {
  const findings = gate.context.findings;
  if (!Array.isArray(findings)) return new Set();
  return new Set(
    findings.flatMap((finding: unknown) => {
      const key = (finding as { key?: unknown } | null)?.key;
      return typeof key === 'string' ? [key] : [];
    }),
  );
}

/** The run's pending destructive_action gate that already holds every one of `keys`, if any. */
async function coveringGate(tools: CommitTools, runId: string, keys: readonly string[]) {
  const page = await tools.tx.listGates({ runId, type: 'destructive_action', status: 'pending', limit: 500 });
  const covering = page.items.find((gate) => {
    const held = keysOnGate(gate);
    return keys.every((key) => held.has(key));
  });
  return covering === undefined ? null : tools.tx.getGate(covering.id);
}

function pushedBranch(action: GateOrigin['action'] | Gate['action']): string | null {
  if (action === null || action === undefined || !('tool' in action) || action.tool !== 'git_push')
    return null;
  const branch = action.args.branch;
  return typeof branch === 'string' ? branch : null;
}

/**
 * The run's approved destructive_action gate about a push of the same branch that held every one of
 * `keys`: each push is judged against main, so a deletion a person approved is seen again on every
 * later push of that branch and must not be asked about twice.
 */
async function approvedOnBranch(
  tools: CommitTools,
  origin: GateOrigin & { runId: string },
  keys: readonly string[],
): Promise<Gate | null> {
  const branch = pushedBranch(origin.action);
  if (branch === null) return null;
  const page = await tools.tx.listGates({
    runId: origin.runId,
    type: 'destructive_action',
    status: 'approved',
    limit: 500,
  });
  const approved = page.items.find((gate) => {
    if (pushedBranch(gate.action) !== branch) return false;
    const held = keysOnGate(gate);
    return keys.every((key) => held.has(key));
  });
  return approved ?? null;
}

function repeatCount(gate: Gate): number {
  const repeats = gate.context.repeats;
  const count = (repeats as { count?: unknown } | null | undefined)?.count;
  return typeof count === 'number' && Number.isInteger(count) ? count : 0;
}

/**
 * Opens the change's `destructive_action` gate, unless a pending one of the run already covers each of
 * its destructive findings (same pattern, file and test or export name): then the repeat is counted
 * on that gate's context and audited, and that gate is the one the change waits on. A change with a
 * finding the open gate does not hold, or with no findings (coverage alone), opens its own gate.
 */
export async function openOrMergeDestructive(
  gates: GateService,
  tools: CommitTools,
  origin: GateOrigin & { runId: string },
  change: DestructiveChange,
): Promise<Gate> {
  const keys = destructiveKeys(change.findings);
  const approved = keys.length === 0 ? null : await approvedOnBranch(tools, origin, keys);
  if (approved !== null) return approved;
  const stored = keys.length === 0 ? null : await coveringGate(tools, origin.runId, keys);
  if (stored === null) return openDestructiveGate(gates, tools, origin, change);
  const { version, ...gate } = stored;
  const count = repeatCount(gate) + 1;
  const latest = { at: tools.tx.now, action: origin.action ?? null, facts: change.facts };
  const merged: Gate = { ...gate, context: { ...gate.context, repeats: { count, latest } } };
  assertWritten(await tools.tx.updateGate(merged, version), { kind: 'gate', id: gate.id });
  await tools.audit({
    kind: 'analysis.destructive_repeated',
    actor: origin.requestedBy,
    subject: gate.id,
    data: {
      runId: origin.runId,
      gateId: gate.id,
      findings: keys,
      count,
      action: origin.action ?? null,
      triggerRules: change.evaluation.rules,
    },
  });
  return merged;
}
