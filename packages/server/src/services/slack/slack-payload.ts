import { z } from 'zod';

const actionSchema = z.object({
  action_id: z.string().max(255),
  value: z.string().max(2000).optional(),
});

const blockActionsSchema = z.object({
  type: z.literal('block_actions'),
  user: z.object({ id: z.string().max(64) }),
  trigger_id: z.string().max(255).optional(),
  response_url: z.string().max(2000).optional(),
  actions: z.array(actionSchema).min(1),
});

const stateValueSchema = z.object({ value: z.string().nullable().optional() }).passthrough();

const viewSubmissionSchema = z.object({
  type: z.literal('view_submission'),
  user: z.object({ id: z.string().max(64) }),
  view: z.object({
    callback_id: z.string().max(255),
    private_metadata: z.string().max(3000),
    state: z.object({ values: z.record(z.string(), z.record(z.string(), stateValueSchema)) }),
  }),
});

/** The interactions Gatehouse answers; other types (view_closed, shortcuts) are acknowledged and ignored. */
export const slackInteractionSchema = z.discriminatedUnion('type', [
  blockActionsSchema,
  viewSubmissionSchema,
]);

export type BlockActions = z.infer<typeof blockActionsSchema>;
export type ViewSubmission = z.infer<typeof viewSubmissionSchema>;

/** What a decision button carries: a gate and one of its options. */
export const buttonValueSchema = z.object({
  gateId: z.string().min(1).max(100),
  option: z.string().min(1).max(100),
});

/** What the modal keeps between opening and submission. */
export const modalMetadataSchema = z.object({
  gateId: z.string().min(1).max(100),
  option: z.string().min(1).max(100),
  edit: z.boolean(),
});

export type ModalMetadata = z.infer<typeof modalMetadataSchema>;

/** Parses JSON and checks it against a schema; null when either fails. */
export function parseJsonAs<T>(schema: z.ZodType<T>, text: string | undefined): T | null {
  if (text === undefined) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
