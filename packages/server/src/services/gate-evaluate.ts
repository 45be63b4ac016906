import {
  type Action,
  type CompiledPolicy,
  canProceedOnTimeout,
  classifyAlwaysGated,
  DEFAULT_AUTO_PROCEED_DELAY_MS,
  evaluatePolicy,
  type GateCatalog,
  loadConfidenceConfig,
  type OpenGateInput,
  type PolicyDecision,
  type PolicyRequest,
  RISK_LEVELS,
  type RiskLevel,
  type Run,
  type TimeoutAction,
} from '@gatehouse/core';
import type { RememberedRule, StoreTx } from '@gatehouse/store';
import { decideVerdict, READ_ONLY_TOOLS, type Verdict } from './gate-verdict.js';
import { findRememberedRule } from './rule-service.js';

/** One request, evaluated: the policy's answer and what actually happens. */
export interface Evaluation {
  decision: PolicyDecision;
  verdict: Verdict;
  alwaysGated: boolean;
  rule: RememberedRule | null;
}

export interface EvaluateOptions {
  policy: CompiledPolicy;
  catalog: GateCatalog;
  request: PolicyRequest;
  run: Pick<Run, 'approvalMode' | 'confidenceThreshold'> | null;
  autoProceedDelayMs: number;
}

/** How long a medium-confidence step waits before it proceeds, from the CONFIDENCE_* settings. */
export function autoProceedDelayOf(confidenceEnv: Record<string, string | undefined>): number {
  try {
    return loadConfidenceConfig(confidenceEnv).autoProceedDelayMs;
  } catch {
    // A bad CONFIDENCE_* value is reported where confidence reports are handled; the delay keeps its default.
    return DEFAULT_AUTO_PROCEED_DELAY_MS;
  }
}

/** The action a request is about: what approvals bind to. */
export function actionOf(request: Pick<PolicyRequest, 'tool' | 'operation' | 'args'>): Action {
  return {
    ...(request.tool === undefined ? {} : { tool: request.tool }),
    ...(request.operation === undefined ? {} : { operation: request.operation }),
    args: request.args,
  };
}

/** The gate type a request opens when nothing more specific names one. */
export function fallbackGateType(request: Pick<PolicyRequest, 'gateType' | 'tool'>): string {
  return request.gateType ?? (request.tool === undefined ? 'operation' : 'tool_call');
}

function autoProceedAllowed(options: EvaluateOptions, alwaysGated: boolean): boolean {
  const type = fallbackGateType(options.request);
  if (!options.catalog.has(type)) return false;
  const definition = options.catalog.get(type);
  const risk = options.request.risk ?? definition.defaultRisk;
  return canProceedOnTimeout({ definition, risk, alwaysGated, destructive: false });
}

/**
 * Evaluates a request against the policy, remembered rules (read in `tx`) and the run's
 * approval mode; remembered rules are only looked up when they could change the answer.
 */
export async function evaluateRequest(tx: StoreTx, options: EvaluateOptions): Promise<Evaluation> {
  const { request } = options;
  const decision = evaluatePolicy(options.policy, request);
  const alwaysGated =
    (decision.alwaysGated?.length ?? 0) > 0 || classifyAlwaysGated(actionOf(request)).length > 0;
  const input = {
    policy: decision,
    run: options.run,
    confidence: request.confidence ?? null,
    alwaysGated,
    readOnly: request.tool !== undefined && READ_ONLY_TOOLS.has(request.tool),
    rememberedRuleId: null,
    fallbackGateType: fallbackGateType(request),
    autoProceedDelayMs: options.autoProceedDelayMs,
    canAutoProceed: autoProceedAllowed(options, alwaysGated),
  };
  const verdict = decideVerdict(input);
  if (verdict.outcome !== 'gated' || request.tool === undefined || alwaysGated) {
    return { decision, verdict, alwaysGated, rule: null };
  }
  const rule = await findRememberedRule(tx, {
    tool: request.tool,
    runId: request.run?.id ?? null,
    agentId: request.agent.id,
  });
  if (rule === null) return { decision, verdict, alwaysGated, rule: null };
  return { decision, verdict: decideVerdict({ ...input, rememberedRuleId: rule.id }), alwaysGated, rule };
}

function higherRisk(a: RiskLevel | undefined, b: RiskLevel | undefined): RiskLevel | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return RISK_LEVELS.indexOf(a) >= RISK_LEVELS.indexOf(b) ? a : b;
}

/** What the agent asked for, where the policy's gate settings leave room. */
export interface RequestedGateSettings {
  risk?: RiskLevel | undefined;
  timeoutSeconds?: number | undefined;
  timeoutAction?: TimeoutAction | undefined;
}

/** The gate settings of a gated verdict: the policy's win, the agent's fill the gaps, risk only goes up. */
export function gateSettingsOf(
  verdict: Extract<Verdict, { outcome: 'gated' }>,
  requested: RequestedGateSettings,
  alwaysGated: boolean,
): OpenGateInput {
  const { gate } = verdict;
  const timeoutSeconds = gate.timeoutSeconds ?? requested.timeoutSeconds;
  return {
    type: gate.type,
    risk: higherRisk(gate.risk, requested.risk),
    threshold: gate.threshold,
    timeoutMs: timeoutSeconds === undefined ? null : timeoutSeconds * 1000,
    timeoutAction: gate.timeoutAction ?? requested.timeoutAction,
    requiredApprovals: gate.requiredApprovals,
    minRole: gate.minRole,
    assignees: gate.assignees,
    signature: gate.signature,
    escalationChain: gate.escalationChain,
    policyRuleId: verdict.ruleId,
    alwaysGated,
  };
}
