import { type PolicyRule, parsePolicyText, policySchema } from 'gatehouse-hitl-core';
import { z } from 'zod';
import type { PolicyView } from './api.js';

/** The most rules one context answer lists; the rest are counted. */
export const MAX_LISTED_RULES = 200;

export const ruleOutput = z
  .object({
    id: z.string(),
    priority: z.number().describe('Higher wins; at equal priority deny > gate > allow'),
    action: z.enum(['allow', 'deny', 'gate']),
    gate: z.record(z.string(), z.unknown()).nullable().describe('How the gate is set up, for gate rules'),
    tools: z.array(z.string()).nullable().describe('Only these tools; null = any'),
    events: z.array(z.string()).nullable().describe('Only these events; null = any'),
    condition: z.string().nullable().describe('CEL condition over the request; null = always'),
    description: z.string().nullable(),
    reason: z.string(),
  })
  .describe('One policy rule in force');

export const policyOutput = z
  .object({
    version: z.number(),
    name: z.string(),
    defaultAction: z.string().describe('What happens when no rule matches'),
    failure: z
      .string()
      .nullable()
      .describe('Why the stored policy does not load (everything is gated meanwhile)'),
    rules: z.array(ruleOutput),
    omittedRules: z.number().describe('Rules in force that were not listed'),
  })
  .describe('The active policy');

export type PolicyOutput = z.infer<typeof policyOutput>;
type RuleOutput = z.infer<typeof ruleOutput>;

function ruleView(rule: PolicyRule): RuleOutput {
  const gate = typeof rule.action === 'string' ? null : rule.action.gate;
  return {
    id: rule.id,
    priority: rule.priority,
    action: gate === null ? (rule.action as 'allow' | 'deny') : 'gate',
    gate: gate === null ? null : { ...gate },
    tools: rule.match?.tools ?? null,
    events: rule.match?.events ?? null,
    condition: rule.condition ?? null,
    description: rule.description ?? null,
    reason: rule.reason,
  };
}

/**
 * The enabled rules of the active policy that can apply to `tool` (all of them without a tool),
 * highest priority first. The server evaluates them; this only reads them.
 */
export function policyRules(policy: PolicyView, tool: string | null): PolicyOutput {
  let parsed: ReturnType<typeof policySchema.safeParse> | null = null;
  try {
    parsed = policySchema.safeParse(parsePolicyText(policy.source, policy.format));
  } catch {
    parsed = null;
  }
  const document = parsed?.success ? parsed.data : null;
  const applicable = (document?.rules ?? [])
    .filter((rule) => rule.enabled)
    .filter((rule) => tool === null || !rule.match?.tools || rule.match.tools.includes(tool))
    .sort((a, b) => b.priority - a.priority);
  return {
    version: policy.version,
    name: policy.name,
    defaultAction: document?.defaultAction ?? 'gate',
    failure: policy.failure ?? (document === null ? 'the policy source could not be read' : null),
    rules: applicable.slice(0, MAX_LISTED_RULES).map(ruleView),
    omittedRules: Math.max(0, applicable.length - MAX_LISTED_RULES),
  };
}
