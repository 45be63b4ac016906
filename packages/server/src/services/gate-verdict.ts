import {
  type ApprovalMode,
  checkApproval,
  type PolicyDecision,
  type PolicyDecisionGate,
} from '@gatehouse/core';

/** Read-only tools of the cowork seed and common agent frameworks: every approval mode lets them through. */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  'read_file',
  'search_files',
  'list_directory',
  'glob_find',
  'ripgrep_search',
  'analyze_code',
  'ask_user',
  'web_search',
  'web_fetch',
  'task_tracker',
  'Read',
  'Glob',
  'Grep',
  'LS',
]);

/** Everything that decides one request besides the policy text itself. */
export interface VerdictInput {
  policy: PolicyDecision;
  /** The run's approval settings; null when the request belongs to no run. */
  run: { approvalMode: ApprovalMode; confidenceThreshold: number } | null;
  /** The agent's confidence for this step, 0–1; null when it gave none. */
  confidence: number | null;
  alwaysGated: boolean;
  /** The tool only reads. */
  readOnly: boolean;
  /** A remembered "approve always" rule covering this tool, if any. */
  rememberedRuleId: string | null;
  /** Gate type to open when the approval mode (not the policy) asks for a person. */
  fallbackGateType: string;
  /** The medium band waits this long, then proceeds. */
  autoProceedDelayMs: number;
  /** The gate type and risk allow "proceed" on timeout (core canProceedOnTimeout). */
  canAutoProceed: boolean;
}

/** What happens to one request, and which rule or setting said so. */
export type Verdict =
  | { outcome: 'allowed'; ruleId: string | null; reason: string; via: 'policy' | 'remembered_rule' }
  | { outcome: 'denied'; ruleId: string | null; reason: string; via: 'policy' }
  | {
      outcome: 'gated';
      ruleId: string | null;
      reason: string;
      via: 'policy' | 'approval_mode';
      gate: PolicyDecisionGate;
    };

function remembered(input: VerdictInput): Verdict | null {
  if (input.rememberedRuleId === null || input.alwaysGated) return null;
  return {
    outcome: 'allowed',
    ruleId: input.rememberedRuleId,
    reason: `a person chose "approve always" for this tool (rule ${input.rememberedRuleId})`,
    via: 'remembered_rule',
  };
}

function modeGate(input: VerdictInput, mode: ApprovalMode, timed: boolean): Verdict {
  const type = input.fallbackGateType;
  if (timed && input.canAutoProceed) {
    const seconds = Math.max(1, Math.ceil(input.autoProceedDelayMs / 1000));
    return {
      outcome: 'gated',
      ruleId: null,
      reason: `medium confidence in ${mode} mode: goes ahead after ${seconds}s unless a person intervenes`,
      via: 'approval_mode',
      gate: { type, timeoutAction: 'proceed', timeoutSeconds: seconds },
    };
  }
  const why =
    mode === 'manual'
      ? 'the run is in manual approval mode: every step waits for a person'
      : `confidence is too low for the run's ${mode} approval mode`;
  return { outcome: 'gated', ruleId: null, reason: why, via: 'approval_mode', gate: { type } };
}

/**
 * Combines the policy's decision, remembered "approve always" rules and the run's approval mode.
 * The approval mode only ever adds a wait: it never lets through what the policy gates or denies.
 */
export function decideVerdict(input: VerdictInput): Verdict {
  const { policy } = input;
  if (policy.action === 'deny') {
    return { outcome: 'denied', ruleId: policy.ruleId, reason: policy.reason, via: 'policy' };
  }
  if (policy.action === 'gate') {
    const gate = policy.gate ?? { type: input.fallbackGateType };
    return (
      remembered(input) ?? {
        outcome: 'gated',
        ruleId: policy.ruleId,
        reason: policy.reason,
        via: 'policy',
        gate,
      }
    );
  }
  const allowed: Verdict = {
    outcome: 'allowed',
    ruleId: policy.ruleId,
    reason: policy.reason,
    via: 'policy',
  };
  const { run } = input;
  if (run === null || input.readOnly) return allowed;
  const mode = run.approvalMode;
  // Without a confidence only manual mode has something to say.
  if (mode !== 'manual' && input.confidence === null) return allowed;
  const approval = checkApproval({
    mode,
    confidence: input.confidence ?? 0,
    alwaysGated: input.alwaysGated,
    threshold: run.confidenceThreshold,
  });
  if (approval === 'proceed') return allowed;
  return remembered(input) ?? modeGate(input, mode, approval === 'wait_with_timeout');
}
