import type { ClientCapabilities, ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';

/** The first protocol version with elicitation (form only, `enumNames`, no `mode`). */
export const ELICITATION_SINCE = '2025-06-18';
/** The first with URL mode, `mode`, titled enums (`oneOf`) and defaults on every primitive. */
export const URL_ELICITATION_SINCE = '2025-11-25';

/** Which elicitation modes a session may use: its protocol version and its declared capability. */
export function elicitationModes(
  version: string | null,
  capabilities: ClientCapabilities | undefined,
): { form: boolean; url: boolean } {
  const declared = capabilities?.elicitation;
  // Versions are dates: they order as strings.
  if (version === null || version < ELICITATION_SINCE || !declared) return { form: false, url: false };
  if (version < URL_ELICITATION_SINCE) return { form: true, url: false };
  // The SDK reads an empty `elicitation: {}` as form only, as the specification says.
  return { form: declared.form !== undefined, url: declared.url !== undefined };
}

/** One choice of the decision field. */
export interface Choice {
  id: string;
  label: string;
}

type FormSchema = ElicitRequestFormParams['requestedSchema'];

/**
 * The decision field in the negotiated version's shape: 2025-06-18 knows only `enum` with display
 * names in `enumNames`; later versions take titled choices as `oneOf`. No default, in any version:
 * a person always picks the decision.
 */
function choiceField(
  title: string,
  choices: readonly Choice[],
  version: string,
): FormSchema['properties'][string] {
  const base = { type: 'string' as const, title };
  if (version < URL_ELICITATION_SINCE) {
    return {
      ...base,
      enum: choices.map((choice) => choice.id),
      enumNames: choices.map((choice) => choice.label),
    };
  }
  return { ...base, oneOf: choices.map((choice) => ({ const: choice.id, title: choice.label })) };
}

/** Inputs only some options take: the agents a Delegate may name, and whether Expand constraint is offered. */
export interface OptionInputs {
  delegates: readonly Choice[] | null;
  newLimit: boolean;
}

/**
 * The form asking a person to decide: the decision plus the free-text fields every version takes,
 * and the agent of a delegation or the new limit of an expansion where the gate offers them.
 */
export function decisionFormParams(
  message: string,
  choices: readonly Choice[],
  version: string,
  inputs: OptionInputs = { delegates: null, newLimit: false },
): ElicitRequestFormParams {
  const extra: FormSchema['properties'] = {};
  if (inputs.delegates !== null && inputs.delegates.length > 0)
    extra.delegateTo = choiceField('Agent to hand the task to (for Delegate)', inputs.delegates, version);
  if (inputs.newLimit)
    extra.newLimit = {
      type: 'number',
      title: 'New limit',
      description: 'For Expand constraint: the new limit',
    };
  const requestedSchema: FormSchema = {
    type: 'object',
    properties: {
      option: choiceField('Decision', choices, version),
      ...extra,
      reason: { type: 'string', title: 'Reason', description: 'Why; shown to the agent', maxLength: 2000 },
      instructions: {
        type: 'string',
        title: 'Steer instructions',
        description: 'For steer: the agent’s next instruction',
        maxLength: 10_000,
      },
      feedback: {
        type: 'string',
        title: 'Feedback',
        description: 'Feedback for the agent',
        maxLength: 10_000,
      },
    },
    required: ['option'],
  };
  // 2025-06-18 has no `mode`: a client of that version may refuse a field it does not know.
  return version < URL_ELICITATION_SINCE
    ? { message, requestedSchema }
    : { mode: 'form', message, requestedSchema };
}
