import { z } from 'zod';
import { BUILTIN_GATE_SPECS } from '../gate-types/index.js';
import {
  approvalModeSchema,
  autonomyLevelSchema,
  gateThresholdSchema,
  gateTypeIdSchema,
  riskLevelSchema,
  roleSchema,
  timeoutActionSchema,
} from '../schemas.js';

/** The request events Gatehouse itself raises; agents may send others. */
export const POLICY_EVENTS = [
  'tool_call',
  'operation',
  'task_completion',
  'planning_complete',
  'constraint_violation',
  'recovery',
  'destructive_action',
  'false_positive',
  'phase_boundary',
  'question',
] as const;
export type PolicyEvent = (typeof POLICY_EVENTS)[number];

/** The event of a request that names none: a tool call when it names a tool, else an operation. */
export function defaultEventOf(request: { tool?: string | undefined }): 'tool_call' | 'operation' {
  return request.tool === undefined ? 'operation' : 'tool_call';
}

/** The gate type a gating rule opens when it names none, by request event. */
export const POLICY_EVENT_GATE_TYPES: Readonly<Record<PolicyEvent, string>> = Object.freeze(
  Object.fromEntries(
    BUILTIN_GATE_SPECS.flatMap(({ policyEvent, definition }) =>
      policyEvent === undefined ? [] : [[policyEvent, definition.type]],
    ),
  ) as Record<PolicyEvent, string>,
);

const MAX_TIMEOUT_SECONDS = 30 * 24 * 3600;

const got = (input: unknown): string => JSON.stringify(input) ?? String(input);

/** How a gate opened by a rule is set up; anything left out comes from the gate type's defaults. */
export const policyGateSettingsSchema = z
  .strictObject({
    type: gateTypeIdSchema.optional(),
    risk: riskLevelSchema.optional(),
    threshold: gateThresholdSchema.optional(),
    timeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(MAX_TIMEOUT_SECONDS, {
        error: (i) => `timeoutSeconds must be between 1s and 30d (got ${got(i.input)})`,
      })
      .optional(),
    timeoutAction: timeoutActionSchema.optional(),
    minRole: roleSchema.optional(),
    requiredApprovals: z.number().int().min(1).max(20).optional(),
    signature: z.boolean().optional(),
    separationOfDuties: z.boolean().optional(),
    assignees: z.array(z.string().min(1).max(200)).max(50).optional(),
    escalationChain: z.array(roleSchema).max(10).optional(),
    editable: z
      .literal(false, { error: (i) => `editable can only be false: it forbids edits (got ${got(i.input)})` })
      .optional(),
  })
  .refine((s) => !(s.threshold === 'mandatory' && s.timeoutAction === 'proceed'), {
    message: 'timeoutAction "proceed" is not allowed on a mandatory gate; use "deny" or "escalate"',
    path: ['timeoutAction'],
  });
export type PolicyGateSettings = z.infer<typeof policyGateSettingsSchema>;

/** What a rule does when it matches; the string `gate` is short for `{ gate: {} }`. */
export const policyRuleActionSchema = z.union(
  [
    z.enum(['allow', 'deny']),
    z.literal('gate').transform(() => ({ gate: {} as PolicyGateSettings })),
    z.strictObject({ gate: policyGateSettingsSchema }),
  ],
  { error: (i) => `action must be "allow", "deny", "gate" or { gate: { … } } (got ${got(i.input)})` },
);
export type PolicyRuleAction = z.output<typeof policyRuleActionSchema>;
export type PolicyAction = 'allow' | 'deny' | 'gate';

const keyList = (what: string) =>
  z.array(z.string().min(1).max(200)).min(1, `${what} must not be empty`).max(500);

/** Cheap keys the index files a rule under; all given keys must fit the request. */
export const policyRuleMatchSchema = z.strictObject({
  tools: keyList('match.tools').optional(),
  events: keyList('match.events').optional(),
  gateTypes: keyList('match.gateTypes').optional(),
});
export type PolicyRuleMatch = z.infer<typeof policyRuleMatchSchema>;

export const policyRuleIdSchema = z
  .string()
  .max(100)
  .regex(/^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/, {
    error: (i) => `rule ids are slugs of lowercase letters, digits and - _ . (got ${got(i.input)})`,
  });

const priorityMessage = (i: { input: unknown }) =>
  `priority must be an integer between 0 and 1000 (got ${got(i.input)})`;

const objectError = (what: string) => (i: { code: string; input: unknown }) =>
  i.code === 'invalid_type' ? `${what} (got ${got(i.input)})` : undefined;

/** One policy rule: match keys and a CEL condition decide whether it applies, priority settles conflicts. */
export const policyRuleSchema = z.strictObject(
  {
    id: policyRuleIdSchema,
    description: z.string().max(2000).optional(),
    priority: z
      .number({ error: priorityMessage })
      .int({ error: priorityMessage })
      .min(0, { error: priorityMessage })
      .max(1000, { error: priorityMessage }),
    enabled: z.boolean().default(true),
    match: policyRuleMatchSchema.optional(),
    condition: z
      .string()
      .trim()
      .min(1, 'condition must not be empty; leave it out to always match')
      .max(4000)
      .optional(),
    action: policyRuleActionSchema,
    reason: z.string().trim().min(1, 'reason is required: say why the rule decides as it does').max(1000),
  },
  { error: objectError('each rule is an object with id, priority, action and reason') },
);
export type PolicyRule = z.output<typeof policyRuleSchema>;

const REDACT_PATTERN_MAX = 200;

const redactKeySchema = z
  .string()
  .trim()
  .min(1, 'a redact key pattern must not be empty')
  .max(REDACT_PATTERN_MAX)
  .refine((pattern) => /[^\s_.*-]/.test(pattern), {
    error: (i) =>
      `a redact key pattern needs a letter or digit (got ${got(i.input)}); to hide every argument use the path args.*`,
  });

const redactPathSchema = z
  .string()
  .trim()
  .max(1000)
  .regex(/^(?:args|context)(?:\.[^.\s]+)+$/, {
    error: (i) =>
      `a redact path starts with args. or context. and names keys joined by dots, * for any one key, e.g. args.headers.authorization (got ${got(i.input)})`,
  });

/**
 * What audit events hide of agents' arguments and context, on top of the built-in secret names and
 * values: key-name patterns (case-insensitive, `*` a wildcard) and exact paths.
 */
export const policyRedactSchema = z.strictObject(
  {
    keys: z.array(redactKeySchema).max(500).optional(),
    paths: z.array(redactPathSchema).max(500).optional(),
  },
  { error: objectError('redact is an object with keys and paths, both lists') },
);
export type PolicyRedact = z.output<typeof policyRedactSchema>;

/** When repeated approvals become a trust proposal, and how long an accepted one lasts (docs/trust.md). */
export const policyTrustSchema = z.strictObject(
  {
    minApprovals: z.number().int().min(1).max(10_000).optional(),
    minPeople: z.number().int().min(1).max(100).optional(),
    minDays: z.number().int().min(0).max(365).optional(),
    windowDays: z.number().int().min(1).max(365).optional(),
    ruleDays: z.number().int().min(1).max(365).optional(),
    autonomyMinApprovals: z.number().int().min(1).max(10_000).optional(),
    autonomyMinPeople: z.number().int().min(1).max(100).optional(),
    autonomyMinDays: z.number().int().min(0).max(365).optional(),
    autonomyMaxLevel: z
      .enum(['dependent', 'guided', 'partial', 'review', 'full'], {
        error: (i) =>
          `trust.autonomyMaxLevel must be dependent, guided, partial, review or full (got ${got(i.input)})`,
      })
      .optional(),
  },
  {
    error: objectError(
      'trust is an object of thresholds: minApprovals, minPeople, minDays, windowDays, ruleDays, autonomyMinApprovals, autonomyMinPeople, autonomyMinDays, autonomyMaxLevel',
    ),
  },
);

/** Rules for merging phase reviews (docs/reviews.md); only people change them, with the policy. */
export const policyReviewsSchema = z.strictObject(
  {
    requireResolvedThreads: z
      .boolean({ error: 'reviews.requireResolvedThreads must be true or false' })
      .optional(),
  },
  { error: objectError('reviews is an object with requireResolvedThreads') },
);
export type PolicyReviews = z.output<typeof policyReviewsSchema>;

/** A policy document as written in YAML or JSON. */
export const policySchema = z.strictObject(
  {
    name: z.string().trim().min(1, 'name is required').max(200),
    version: z
      .union([z.string().min(1).max(100), z.number().nonnegative()])
      .transform(String)
      .optional(),
    description: z.string().max(4000).optional(),
    defaultAction: z
      .enum(['gate', 'deny'], {
        error: (i) =>
          `defaultAction must be "gate" or "deny" (got ${got(i.input)}); a policy never allows by default`,
      })
      .default('gate'),
    rules: z.array(policyRuleSchema).max(10_000).default([]),
    redact: policyRedactSchema.optional(),
    trust: policyTrustSchema.optional(),
    reviews: policyReviewsSchema.optional(),
  },
  { error: objectError('a policy is an object with a name and rules') },
);
export type Policy = z.output<typeof policySchema>;
export type PolicyInput = z.input<typeof policySchema>;

/** What an agent asks to do, as the policy sees it. */
export const policyRequestSchema = z.object({
  event: z.string().min(1).max(100),
  tool: z.string().min(1).max(200).optional(),
  operation: z.string().min(1).max(2000).optional(),
  args: z.record(z.string(), z.unknown()).default({}),
  risk: riskLevelSchema.optional(),
  confidence: z.number().min(0).max(1).optional(),
  agent: z.object({ id: z.string().min(1).max(200), profile: z.string().max(200).nullable().optional() }),
  /**
   * The person the agent's client acts for, from a bearer token the server verified (MCP over
   * OAuth); never from what the agent sends. Absent: the agent acts for nobody in particular.
   */
  actor: z
    .object({
      user: z.string().min(1).max(500),
      groups: z.array(z.string().max(500)).max(1000),
    })
    .optional(),
  run: z
    .object({
      id: z.string().min(1).max(200),
      autonomy: autonomyLevelSchema,
      approvalMode: approvalModeSchema,
    })
    .optional(),
  gateType: gateTypeIdSchema.optional(),
  impact: z
    .object({
      files: z.array(z.string().max(4000)).max(10_000).optional(),
      resources: z.array(z.string().max(4000)).max(10_000).optional(),
    })
    .optional(),
});
export type PolicyRequest = z.output<typeof policyRequestSchema>;
export type PolicyRequestInput = z.input<typeof policyRequestSchema>;

/** One fault in a policy document, placed at its rule so an editor can show it there. */
export interface PolicyIssue {
  /** The rule's id when it has a readable one. */
  ruleId: string | null;
  /** Position of the rule in `rules`, or null for document-level faults. */
  ruleIndex: number | null;
  /** Where in the document, e.g. `rules[2].condition`. */
  path: string;
  message: string;
}
