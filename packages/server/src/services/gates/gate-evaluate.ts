import {
  type Action,
  autoProceedAllowed,
  type CompiledPolicy,
  classifyAlwaysGated,
  DEFAULT_AUTO_PROCEED_DELAY_MS,
  decideVerdict,
  evaluatePolicy,
  fallbackGateType,
  type GateCatalog,
  isReadOnlyTool,
  loadConfidenceConfig,
  type PolicyDecision,
  type PolicyRequest,
  type Run,
  readAction,
  requestHasHiddenCharacters,
  type Verdict,
} from 'gatehouse-hitl-core';
import type { RememberedRule, RulesRepo, TxClock } from 'gatehouse-hitl-store';
import { findRememberedRule } from '../policy/rule-service.js';

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

function canAutoProceed(options: EvaluateOptions, alwaysGated: boolean): boolean {
  const type = fallbackGateType(options.request);
  if (!options.catalog.has(type)) return false;
  return autoProceedAllowed(options.catalog.get(type), options.request.risk, alwaysGated);
}

/**
 * Evaluates a request against the policy, remembered rules (read in `tx`) and the run's
 * approval mode; remembered rules are only looked up when they could change the answer.
 */
export async function evaluateRequest(
  tx: RulesRepo & TxClock,
  options: EvaluateOptions,
): Promise<Evaluation> {
  const { request } = options;
  const decision = evaluatePolicy(options.policy, request);
  // Text that reads differently from what runs is never let through by a remembered rule or an approval mode.
  const alwaysGated =
    (decision.alwaysGated?.length ?? 0) > 0 ||
    classifyAlwaysGated(actionOf(request)).length > 0 ||
    requestHasHiddenCharacters(request);
  const input = {
    policy: decision,
    run: options.run,
    confidence: request.confidence ?? null,
    alwaysGated,
    readOnly: isReadOnlyTool(request.tool) || readAction(actionOf(request)).readOnly,
    rememberedRuleId: null,
    fallbackGateType: fallbackGateType(request),
    autoProceedDelayMs: options.autoProceedDelayMs,
    canAutoProceed: canAutoProceed(options, alwaysGated),
  };
  const verdict = decideVerdict(input);
  if (verdict.outcome !== 'gated' || request.tool === undefined || alwaysGated) {
    return { decision, verdict, alwaysGated, rule: null };
  }
  const rule = await findRememberedRule(tx, {
    tool: request.tool,
    action: actionOf(request),
    runId: request.run?.id ?? null,
    agentId: request.agent.id,
  });
  if (rule === null) return { decision, verdict, alwaysGated, rule: null };
  return { decision, verdict: decideVerdict({ ...input, rememberedRuleId: rule.id }), alwaysGated, rule };
}
