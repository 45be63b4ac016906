import {
  type ApprovalMode,
  type AutonomyLevel,
  type CompiledPolicy,
  DEFAULT_APPROVAL_THRESHOLD,
  defaultEventOf,
  fallbackGateType,
  type GateCatalog,
  gateSettingsOf,
  openGate,
  type PolicyDecision,
  type PolicyFormat,
  type PolicyRequest,
  type RiskLevel,
  type Role,
  replayConditionOutcomes,
  type TimeoutAction,
} from 'gatehouse-hitl-core';
import type { AppContext } from '../../context.js';
import { type Evaluation, evaluateRequest } from '../gates/gate-evaluate.js';
import type { PolicyEvaluator } from './policy-evaluator.js';

/** A request as a person describes it for a dry run; anything left out is absent from the context. */
export interface DryRunRequest {
  event?: string | undefined;
  tool?: string | undefined;
  operation?: string | undefined;
  args?: Record<string, unknown> | undefined;
  risk?: RiskLevel | undefined;
  confidence?: number | undefined;
  gateType?: string | undefined;
  agent?: { id: string; profile?: string | null | undefined } | undefined;
  run?:
    | {
        id: string;
        autonomy: AutonomyLevel;
        approvalMode: ApprovalMode;
        confidenceThreshold?: number | undefined;
      }
    | undefined;
  impact?: { files?: string[] | undefined; resources?: string[] | undefined } | undefined;
  timeoutSeconds?: number | undefined;
  timeoutAction?: TimeoutAction | undefined;
}

/** The gate a request would open, with every default filled in. */
export interface GatePreview {
  type: string;
  risk: RiskLevel;
  threshold: string;
  timeoutSeconds: number | null;
  timeoutAction: TimeoutAction;
  minRole: Role;
  requiredApprovals: number;
  signatureRequired: boolean;
  assignees: string[];
  escalationChain: Role[];
}

/** What a request would meet, without opening anything. */
export interface DryRunResult {
  decision: PolicyDecision;
  outcome: 'allowed' | 'denied' | 'gated';
  /** What decided: the policy, a remembered "approve always" rule, or the run's approval mode. */
  via: 'policy' | 'remembered_rule' | 'trigger_rules' | 'approval_mode';
  ruleId: string | null;
  reason: string;
  rememberedRuleId: string | null;
  gate: GatePreview | null;
  /** The stored version evaluated; null for a policy sent with the dry run. */
  policyVersion: number | null;
}

function toPolicyRequest(input: DryRunRequest): PolicyRequest {
  const event = input.event ?? defaultEventOf(input);
  const { timeoutSeconds: _t, timeoutAction: _a, run, agent, ...rest } = input;
  return {
    ...rest,
    event,
    args: input.args ?? {},
    agent: agent ?? { id: 'dry-run' },
    ...(run === undefined
      ? {}
      : { run: { id: run.id, autonomy: run.autonomy, approvalMode: run.approvalMode } }),
  } as PolicyRequest;
}

function preview(
  evaluation: Evaluation,
  input: DryRunRequest,
  catalog: GateCatalog,
  now: number,
): GatePreview | null {
  const { verdict } = evaluation;
  if (verdict.outcome !== 'gated') return null;
  const definition = catalog.get(verdict.gate.type);
  const settings = gateSettingsOf(verdict, input, { definition, alwaysGated: evaluation.alwaysGated });
  const gate = openGate({ ...settings, action: null }, { id: 'gate_dry_run', now, catalog });
  return {
    type: gate.type,
    risk: gate.risk,
    threshold: gate.threshold,
    timeoutSeconds: gate.timeoutAt === null ? null : (gate.timeoutAt - now) / 1000,
    timeoutAction: gate.timeoutAction,
    minRole: gate.minRole,
    requiredApprovals: gate.requiredApprovals,
    signatureRequired: gate.signatureRequired,
    assignees: gate.assignees,
    escalationChain: gate.escalationChain,
  };
}

/**
 * The policy with its conditions already run for `request` in a worker under the time and memory
 * budget, so nothing a person sends can hold the event loop.
 */
async function budgeted(
  evaluator: PolicyEvaluator,
  compiled: CompiledPolicy,
  request: PolicyRequest,
): Promise<CompiledPolicy> {
  if (compiled.rules.every((rule) => rule.condition === null)) return compiled;
  const outcomes = await evaluator.evaluate({ policy: compiled.policy, request });
  return replayConditionOutcomes(compiled, outcomes);
}

/** Evaluates a request against the active policy (or `source`), remembered rules and the run's approval mode. */
export async function dryRunPolicy(
  ctx: AppContext,
  options: {
    catalog: GateCatalog;
    policy: CompiledPolicy;
    policyVersion: number | null;
    input: DryRunRequest;
    autoProceedDelayMs: number;
    evaluator: PolicyEvaluator;
  },
): Promise<DryRunResult> {
  const { input, catalog } = options;
  const request = toPolicyRequest(input);
  catalog.get(fallbackGateType(request));
  const policy = await budgeted(options.evaluator, options.policy, request);
  const run =
    input.run === undefined
      ? null
      : {
          approvalMode: input.run.approvalMode,
          confidenceThreshold: input.run.confidenceThreshold ?? DEFAULT_APPROVAL_THRESHOLD,
        };
  const evaluation = await ctx.store.read((tx) =>
    evaluateRequest(tx, {
      policy,
      catalog,
      request,
      run,
      autoProceedDelayMs: options.autoProceedDelayMs,
    }),
  );
  const { verdict } = evaluation;
  return {
    decision: evaluation.decision,
    outcome: verdict.outcome,
    via: verdict.via,
    ruleId: verdict.ruleId,
    reason: verdict.reason,
    rememberedRuleId: evaluation.rule?.id ?? null,
    gate: preview(evaluation, input, catalog, ctx.clock.now()),
    policyVersion: options.policyVersion,
  };
}

/** Used by the policy route: compiles `source` when given, else the active policy. */
export interface DryRunInput {
  request: DryRunRequest;
  source?: string | undefined;
  format?: PolicyFormat | undefined;
}
