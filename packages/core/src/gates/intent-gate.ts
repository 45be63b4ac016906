import { assertNever } from '../errors.js';
import { shouldFreeze } from '../runs/autonomy.js';
import type { AutonomyLevel, GateStatus } from '../schemas.js';
import { isQuestionRequest } from './question.js';
import { isReadOnlyTool, type Verdict } from './request-verdict.js';

/** What a run's agent is trying to do. Reads are never held; everything else acts. */
export type RunAct =
  | 'read'
  | 'tool_request'
  /** Announces the plan (event planning_complete), which opens the run's intent gate. */
  | 'plan'
  /** Asks a person a question; only their answer comes back. */
  | 'question'
  | 'confidence_report'
  | 'checkpoint'
  | 'complete';

const PLAN_EVENT = 'planning_complete';

/** What an agent's request is to its run: a read-only tool reads, a plan plans, a question asks; the rest acts. */
export function requestActOf(request: {
  tool?: string | undefined;
  event?: string | undefined;
  gateType?: string | undefined;
}): RunAct {
  if (isReadOnlyTool(request.tool)) return 'read';
  if (request.event === PLAN_EVENT) return 'plan';
  return isQuestionRequest(request) ? 'question' : 'tool_request';
}

/** Why Gate 0 holds a run: no plan approved yet, the plan waits for a person, or it was not approved. */
export type IntentHoldReason = 'intent_required' | 'intent_pending' | 'intent_not_approved';

/** Gate 0's hold on a run, and the intent gate that releases it (null while no plan was sent). */
export interface IntentHold {
  reason: IntentHoldReason;
  gateId: string | null;
}

/** The run's newest intent_approval gate. */
export interface LatestIntent {
  id: string;
  status: GateStatus;
}

/**
 * True when a run at `autonomy` implements nothing before a person approves its intent (Gate 0):
 * the levels that freeze after the initial strategic (planning) phase — partial, guided, dependent.
 */
export function requiresIntentApproval(autonomy: AutonomyLevel): boolean {
  return shouldFreeze({ autonomy, phaseType: 'strategic', phaseNumber: 1, jobCompleteCalled: false });
}

/** True when an intent gate that ended with `status` releases the hold: only an approval does. */
export function releasesIntentHold(status: GateStatus): boolean {
  return status === 'approved';
}

/**
 * True when `act` is implementation work Gate 0 holds: tool calls and operations that are not
 * read-only, phase checkpoints and completing the run. Reads, the plan itself, questions to a person
 * and reports of facts are planning.
 */
export function isImplementation(act: RunAct): boolean {
  return act === 'tool_request' || act === 'checkpoint' || act === 'complete';
}

/** The facts Gate 0 is read from. */
export interface IntentHoldFacts {
  autonomy: AutonomyLevel;
  latestIntent: LatestIntent | null;
}

/**
 * Gate 0's hold on a run, or null when it may implement. A run that opened an intent gate is held
 * until that gate is approved, at any level; at a level that freezes after planning it is held
 * before it sends a plan too.
 * @example intentHoldOf({ autonomy: 'partial', latestIntent: null }) // { reason: 'intent_required', gateId: null }
 */
export function intentHoldOf(facts: IntentHoldFacts): IntentHold | null {
  const intent = facts.latestIntent;
  if (intent === null) {
    return requiresIntentApproval(facts.autonomy) ? { reason: 'intent_required', gateId: null } : null;
  }
  if (intent.status === 'pending') return { reason: 'intent_pending', gateId: intent.id };
  return releasesIntentHold(intent.status) ? null : { reason: 'intent_not_approved', gateId: intent.id };
}

/**
 * True when an intent hold stops `act`. Reads always pass. Before its first plan a run may plan, ask
 * and report; while its plan waits it does nothing else; after a plan was not approved only a new plan passes.
 */
export function intentHoldBlocks(reason: IntentHoldReason, act: RunAct): boolean {
  if (act === 'read') return false;
  switch (reason) {
    case 'intent_required':
      return isImplementation(act);
    case 'intent_pending':
      return true;
    case 'intent_not_approved':
      return act !== 'plan';
    default:
      return assertNever(reason);
  }
}

/** What a plan announcement is judged on. */
export interface PlanVerdictInput {
  /** The run's autonomy; null when the request belongs to no run. */
  autonomy: AutonomyLevel | null;
  /** The request's event. */
  event: string | undefined;
  /** What the policy (and the rules after it) said. */
  verdict: Verdict;
}

/**
 * The verdict on a request: at a level that freezes after planning, a plan (event planning_complete)
 * always opens an intent_approval gate, since only its approval releases the run; a deny stays a deny.
 * Any other request keeps its verdict.
 */
export function planVerdict(input: PlanVerdictInput): Verdict {
  const { verdict, autonomy } = input;
  if (input.event !== PLAN_EVENT || autonomy === null || !requiresIntentApproval(autonomy)) return verdict;
  if (verdict.outcome === 'denied') return verdict;
  if (verdict.outcome === 'gated') {
    return { ...verdict, gate: { ...verdict.gate, type: 'intent_approval', threshold: 'mandatory' } };
  }
  return {
    outcome: 'gated',
    ruleId: verdict.ruleId,
    reason: `at autonomy ${autonomy} a person approves the plan (Gate 0) before any implementation`,
    via: 'policy',
    gate: { type: 'intent_approval', threshold: 'mandatory' },
  };
}
