import { z } from 'zod';
import {
  gateStatusSchema,
  gateThresholdSchema,
  optionOutcomeSchema,
  riskLevelSchema,
  roleSchema,
  timeoutActionSchema,
} from '../enums.js';

const optionSchema = z
  .object({
    id: z.string().describe('Option id, sent as `option` when deciding'),
    label: z.string().describe('Button label'),
    key: z.string().describe('Single-key shortcut in the terminal inbox'),
    description: z.string().describe('What choosing it does'),
    ends: z.boolean().describe('False for options that only show more (view, diff, history)'),
    outcome: optionOutcomeSchema.optional().describe('Where it ends the gate'),
    requires: z
      .array(z.enum(['reason', 'instructions', 'feedback', 'answer', 'delegateTo', 'newLimit']))
      .describe('Fields it needs'),
  })
  .describe('One answer the gate offers');

export const decisionDocumentSchema = z
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
    payloadHash: z
      .string()
      .optional()
      .describe('SHA-256 of the action the decision binds to (the edited action when edited)'),
    editedArgs: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('The arguments a person changed the action to before approving; present only when edited'),
    originalPayloadHash: z
      .string()
      .optional()
      .describe('SHA-256 of the action the agent proposed; present only when edited'),
    answer: z.string().optional().describe('The answer to a question gate'),
    delegateTo: z.string().optional().describe('The agent a delegate decision handed the task to'),
    newLimit: z.number().optional().describe('The limit an expand-constraint decision set'),
    whitelist: z
      .object({
        path: z.string().nullable().describe('null: the finding’s file'),
        agents: z.enum(['this', 'every']),
        expiresInDays: z.number(),
      })
      .optional()
      .describe('A Whitelist decision’s signed scope'),
    decidedAt: z.number().describe('Epoch ms'),
  })
  .describe('The answer that ended the gate');

const actionDocumentSchema = z
  .object({
    tool: z.string().optional().describe('Tool name'),
    operation: z.string().optional().describe('Operation text'),
    args: z.record(z.string(), z.unknown()).describe('Arguments, exactly as requested'),
  })
  .describe('The tool call or operation the gate is about');

/** A gate on the wire: the same fields as core's Gate. */
export const gateDocumentSchema = z
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
    action: actionDocumentSchema.nullable(),
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
    editable: z
      .boolean()
      .describe(
        'A person may approve with edited arguments (false without arguments, with N-of-M approvals or when the policy forbids it)',
      ),
    policyRuleId: z.string().nullable().describe('Policy rule that opened it'),
    decision: decisionDocumentSchema.nullable(),
  })
  .describe('A gate: one human decision');

export const interventionNoticeSchema = z
  .object({
    kind: z.string().describe('pause, resume, stop or steer'),
    instruction: z.string().nullable().describe('Steer instruction, verbatim'),
    at: z.number().describe('Epoch ms'),
  })
  .describe('An intervention the agent has not seen yet');

/** A gate as every route returns it. */
export type GateDocument = z.infer<typeof gateDocumentSchema>;
/** The answer that ended a gate. */
export type DecisionDocument = z.infer<typeof decisionDocumentSchema>;
/** One answer a gate offers. */
export type GateOptionDocument = z.infer<typeof optionSchema>;
/** An intervention or steering the agent has not seen yet. */
export type InterventionNotice = z.infer<typeof interventionNoticeSchema>;
