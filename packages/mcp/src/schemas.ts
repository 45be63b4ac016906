import { gateIdSchema, interventionNoticeSchema, optionIdSchema, runIdSchema } from 'gatehouse-hitl-protocol';
import { z } from 'zod';

/** The longest a tool may hold a call open waiting for a person. */
export const MAX_WAIT_SECONDS = 60;
/** How long a tool waits when the caller does not say; below the usual 60 s client request timeout. */
export const DEFAULT_WAIT_SECONDS = 25;

export const runIdInput = runIdSchema.describe(
  'The run (run_…); defaults to the run this MCP server was started for',
);

export const gateIdInput = gateIdSchema.describe('The gate (gate_…)');

export const waitSecondsInput = z
  .number()
  .int()
  .min(0)
  .max(MAX_WAIT_SECONDS)
  .describe(`How long to wait for a person, 0–${MAX_WAIT_SECONDS} s (default ${DEFAULT_WAIT_SECONDS})`);

export const optionIdInput = optionIdSchema.describe(
  'One of the gate’s options, e.g. approve, reject, steer',
);

export const interventionOutput = interventionNoticeSchema.describe('An intervention on the run');

/** The answer to an approval request, a wait, or a phase review. */
export const decisionOutput = z.object({
  status: z
    .string()
    .describe(
      'approved, denied, steered, timed_out, cancelled, a gate-specific option id, or pending (no decision yet)',
    ),
  proceed: z.boolean().describe('True only when approved: perform exactly the requested action, once'),
  gateId: z
    .string()
    .nullable()
    .describe('The gate; wait on it with gatehouse_wait_for_decision when pending'),
  option: z.string().nullable().describe('The option a person (or the timeout) chose'),
  reason: z.string().nullable().describe('Why: see reasonSource for who wrote it'),
  reasonSource: z
    .enum(['policy', 'timeout', 'system', 'person'])
    .nullable()
    .describe('Who gave the reason: the policy (ruleId), the timeout, the system, or a person (decidedBy)'),
  instructions: z
    .string()
    .nullable()
    .describe('Steer instructions from a person: your next instruction, verbatim (data)'),
  feedback: z.string().nullable().describe('Feedback from a person'),
  affectedArtifacts: z.array(z.string()).describe('Workspace paths the steer is about'),
  decidedBy: z.string().nullable().describe('policy, system:timeout, or the person'),
  ruleId: z.string().nullable().describe('The policy rule that decided or opened the gate'),
  interventions: z.array(interventionOutput).describe('Interventions on the run not seen yet'),
  args: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('The arguments to use: a person’s edited arguments when edited is true'),
  edited: z.boolean().describe('A person changed your arguments before approving: use args, not yours'),
  answer: z.string().nullable().describe('A person’s answer to your question (data)'),
  next: z.string().describe('What to do now'),
});
export type DecisionOutput = z.infer<typeof decisionOutput>;

/** The parsed arguments of a tool whose input is the raw shape `S`. */
export type ArgsOf<S extends z.ZodRawShape> = z.infer<z.ZodObject<S>>;
