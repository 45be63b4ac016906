import {
  gateStatusSchema,
  gateThresholdSchema,
  riskLevelSchema,
  roleSchema,
  timeoutActionSchema,
} from 'gatehouse-hitl-core';
import { z } from 'zod';

/** Gate ids as the server makes them: `gate_…`. */
export const gateIdSchema = z
  .string()
  .regex(/^gate_[A-Za-z0-9_]{1,64}$/, 'a gate id looks like gate_…')
  .describe('Gate id');

export const runIdSchema = z
  .string()
  .regex(/^run_[A-Za-z0-9_]{1,64}$/, 'a run id looks like run_…')
  .describe('Run id');

export const ruleIdSchema = z
  .string()
  .regex(/^rule_[A-Za-z0-9_]{1,64}$/, 'a rule id looks like rule_…')
  .describe('Remembered rule id');

const optionSchema = z
  .object({
    id: z.string().describe('Option id, sent as `option` when deciding'),
    label: z.string().describe('Button label'),
    key: z.string().describe('Single-key shortcut in the terminal inbox'),
    description: z.string().describe('What choosing it does'),
    ends: z.boolean().describe('False for options that only show more (view, diff, history)'),
    outcome: z
      .enum(['approved', 'rejected', 'steered', 'resolved'])
      .optional()
      .describe('Where it ends the gate'),
    requires: z.array(z.enum(['reason', 'instructions', 'feedback'])).describe('Fields it needs'),
  })
  .describe('One answer the gate offers');

export const decisionWireSchema = z
  .object({
    option: z.string().describe('The option chosen (`timeout` when the deadline decided)'),
    outcome: z
      .enum(['approved', 'rejected', 'steered', 'resolved', 'expired', 'cancelled'])
      .describe('Where the gate ended'),
    decidedBy: z.string().describe('Person id, or system:timeout'),
    reason: z.string().optional().describe('Why'),
    feedback: z.string().optional().describe('Feedback for the agent'),
    instructions: z
      .string()
      .optional()
      .describe('Steer instructions: the agent’s next instruction, verbatim'),
    affectedArtifacts: z.array(z.string()).describe('Workspace paths the steer is about'),
    signature: z.string().optional().describe('Ed25519 signature of the decision, base64'),
    payloadHash: z.string().optional().describe('SHA-256 of the action the decision binds to'),
    decidedAt: z.number().describe('Epoch ms'),
  })
  .describe('The answer that ended the gate');

const actionWireSchema = z
  .object({
    tool: z.string().optional().describe('Tool name'),
    operation: z.string().optional().describe('Operation text'),
    args: z.record(z.string(), z.unknown()).describe('Arguments, exactly as requested'),
  })
  .describe('The tool call or operation the gate is about');

/** A gate on the wire: the same fields as core's Gate. */
export const gateWireSchema = z
  .object({
    id: z.string().describe('Gate id'),
    type: z.string().describe('Gate type from the catalog'),
    status: gateStatusSchema.describe('pending, or where it ended'),
    threshold: gateThresholdSchema.describe('mandatory, advisory or conditional'),
    risk: riskLevelSchema.describe('Risk level'),
    runId: z.string().nullable().describe('Run it belongs to'),
    agentId: z.string().nullable().describe('Agent that asked'),
    title: z
      .string()
      .describe('One line: what the agent wants to do (hidden characters shown as ⟨U+…⟩ markers)'),
    action: actionWireSchema.nullable(),
    payloadHash: z.string().nullable().describe('SHA-256 of the action; approvals bind to it'),
    context: z
      .record(z.string(), z.unknown())
      .describe('Context from the agent (hidden characters shown as ⟨U+…⟩ markers)'),
    artifacts: z.array(z.string()).describe('Workspace paths the action touches'),
    options: z.array(optionSchema).describe('The answers this gate offers'),
    confidence: z.number().nullable().describe('Agent confidence, 0–1'),
    createdAt: z.number().describe('Epoch ms'),
    timeoutAt: z.number().nullable().describe('Deadline, epoch ms; null waits indefinitely'),
    timeoutAction: timeoutActionSchema.describe('What happens at the deadline'),
    escalationChain: z.array(roleSchema).describe('Roles an escalating timeout moves through'),
    minRole: roleSchema.describe('Least role that may decide'),
    requiredApprovals: z.number().describe('Distinct approvals needed (N of M)'),
    approvals: z
      .array(z.object({ by: z.string(), at: z.number(), reason: z.string().optional() }))
      .describe('Approvals so far'),
    separationOfDuties: z.boolean().describe('The requester may not decide'),
    requestedBy: z.string().nullable().describe('Who opened it'),
    assignees: z.array(z.string()).describe('People it is assigned to; empty = anyone with the role'),
    signatureRequired: z.boolean().describe('Decisions must be signed'),
    steerable: z.boolean().describe('Steer is a real option (else recorded as approve with feedback)'),
    policyRuleId: z.string().nullable().describe('Policy rule that opened it'),
    decision: decisionWireSchema.nullable(),
  })
  .describe('A gate: one human decision');

export const interventionNoticeSchema = z
  .object({
    kind: z.string().describe('pause, resume, stop or steer'),
    instruction: z.string().nullable().describe('Steer instruction, verbatim'),
    at: z.number().describe('Epoch ms'),
  })
  .describe('An intervention the agent has not seen yet');

export const rememberedRuleWireSchema = z
  .object({
    id: z.string().describe('Rule id'),
    scope: z.enum(['run', 'agent', 'global']).describe('Where it applies'),
    runId: z.string().nullable().describe('Run, for run scope'),
    agentId: z.string().nullable().describe('Agent, for agent scope'),
    tool: z.string().describe('The tool it allows'),
    argsHash: z.string().nullable().describe('Bound to these exact arguments; null = any'),
    createdBy: z.string().describe('Who approved always'),
    createdAt: z.number().describe('Epoch ms'),
    expiresAt: z.number().nullable().describe('Epoch ms; null = until revoked'),
    revokedAt: z.number().nullable().describe('Epoch ms when revoked'),
    revokedBy: z.string().nullable().describe('Who revoked it'),
    sourceGateId: z.string().nullable().describe('The gate whose "approve always" created it'),
  })
  .describe('A remembered "approve always" rule');

/** Bounded free text from people: reasons, feedback, instructions. */
export const humanText = (max: number) => z.string().max(max);
