import { z } from 'zod';
import {
  approvalModeSchema,
  autonomyLevelSchema,
  interventionKindSchema,
  phaseTypeSchema,
  runStatusSchema,
} from '../enums.js';
import { reviewFeedbackSchema } from './reviews.js';

/** A run on the wire. */
export const runDocumentSchema = z
  .object({
    id: z.string().describe('Run id'),
    agentId: z.string().describe('The agent the run belongs to'),
    status: runStatusSchema.describe(
      'running, paused, waiting (a gate is pending), stopped, completed or failed',
    ),
    autonomy: autonomyLevelSchema.describe('Autonomy level: which phase boundaries freeze for review'),
    approvalMode: approvalModeSchema.describe('auto, manual or confidence_threshold'),
    confidenceThreshold: z.number().describe('0–1: steps below it wait in confidence_threshold mode'),
    phaseNumber: z.number().describe('The phase the agent last reported, from 1'),
    phaseType: phaseTypeSchema.describe('strategic or tactical'),
    instructions: z
      .array(z.string())
      .describe('Steering instructions received, oldest first (user-instruction memory)'),
    title: z.string().nullable().describe('What the run is about (hidden characters shown as ⟨U+…⟩ markers)'),
    createdAt: z.number().describe('Epoch ms'),
    updatedAt: z.number().describe('Epoch ms'),
  })
  .describe('A run: one job of an agent');

/** Where the agent resumes after its last decided phase review. */
export const resumeDocumentSchema = z
  .object({
    gateId: z.string().describe('The phase review gate'),
    status: z
      .string()
      .describe('How the review ended: approved, resolved (changes requested), rejected, expired…'),
    option: z.string().nullable().describe('The option chosen'),
    feedback: z.string().nullable().describe('The reviewer’s feedback, verbatim'),
    plan: z
      .object({
        context: z
          .enum(['initial_strategic', 'later_strategic', 'tactical', 'job_complete'])
          .describe('What kind of freeze it was'),
        next: z
          .enum(['tactical', 'strategic', 'feedback_strategic', 'completed'])
          .describe('What the agent does next'),
        phaseNumber: z.number().describe('The phase to work on next'),
        phaseType: phaseTypeSchema.describe('Its type'),
        withFeedback: z.boolean().describe('True when the next phase starts from the feedback'),
      })
      .nullable()
      .describe('Null when the review neither approved nor requested changes'),
    review: reviewFeedbackSchema
      .nullable()
      .optional()
      .describe('When the phase was reviewed on its branch: the comments to answer and where to push'),
  })
  .describe('The resume step of the last decided phase review');

export const interventionDocumentSchema = z
  .object({
    id: z.string().describe('Intervention id'),
    runId: z.string().describe('Run id'),
    kind: interventionKindSchema.describe('pause, resume, stop or steer'),
    instruction: z
      .string()
      .nullable()
      .describe('The steer instruction (hidden characters shown as ⟨U+…⟩ markers), delivered as stored'),
    by: z.string().describe('Who intervened: user:<id>'),
    createdAt: z.number().describe('Epoch ms'),
  })
  .describe('A person acting on a run');

/** A run as every route returns it. */
export type RunDocument = z.infer<typeof runDocumentSchema>;
/** The resume step of a run's last decided phase review. */
export type ResumeDocument = z.infer<typeof resumeDocumentSchema>;
/** A person acting on a run. */
export type InterventionDocument = z.infer<typeof interventionDocumentSchema>;
