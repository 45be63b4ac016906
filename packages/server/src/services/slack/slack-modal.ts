import type { Gate } from 'gatehouse-hitl-core';
import { GatehouseError } from 'gatehouse-hitl-core';
import { DECISION_TEXT_MAX } from 'gatehouse-hitl-protocol/rules';
import type { ModalMetadata, ViewSubmission } from './slack-payload.js';
import { plainAgentText } from './slack-text.js';

/** The modal's callback id: its submission decides. */
export const DECIDE_MODAL = 'gatehouse_decide';

/** The text fields an option may need, with their labels; also the modal's block ids. */
const FIELD_LABELS = {
  instructions: 'Instructions for the agent (delivered verbatim)',
  reason: 'Reason',
  feedback: 'Feedback for the agent',
  answer: 'Your answer',
} as const;

type TextField = keyof typeof FIELD_LABELS;
export const EDITED_ARGS_BLOCK = 'editedArgs';
/** Blocks of the gate-specific inputs: the agent a delegation hands over to, an expansion's new limit. */
export const DELEGATE_BLOCK = 'delegateTo';
export const NEW_LIMIT_BLOCK = 'newLimit';
// Slack's static_select lists at most 100 options of at most 75 characters.
const SLACK_SELECT_MAX = 100;

/** An agent a person may hand a task to. */
export interface DelegateChoice {
  id: string;
  name: string;
}
// Slack's plain_text_input holds at most 3000 characters.
const SLACK_INPUT_MAX = 3000;

function textInput(
  blockId: string,
  label: string,
  options: { initial?: string; optional?: boolean; maxLength?: number },
): Record<string, unknown> {
  return {
    type: 'input',
    block_id: blockId,
    optional: options.optional === true,
    label: { type: 'plain_text', text: label },
    element: {
      type: 'plain_text_input',
      action_id: 'value',
      multiline: true,
      max_length: Math.min(SLACK_INPUT_MAX, options.maxLength ?? SLACK_INPUT_MAX),
      ...(options.initial === undefined ? {} : { initial_value: options.initial }),
    },
  };
}

function agentSelect(choices: readonly DelegateChoice[]): Record<string, unknown> {
  return {
    type: 'input',
    block_id: DELEGATE_BLOCK,
    label: { type: 'plain_text', text: 'Agent to hand the task to' },
    element: {
      type: 'static_select',
      action_id: 'value',
      placeholder: { type: 'plain_text', text: 'Choose an agent' },
      options: choices.slice(0, SLACK_SELECT_MAX).map((choice) => ({
        text: { type: 'plain_text', text: plainAgentText(choice.name, 75), emoji: false },
        value: choice.id,
      })),
    },
  };
}

function limitInput(): Record<string, unknown> {
  return {
    type: 'input',
    block_id: NEW_LIMIT_BLOCK,
    label: { type: 'plain_text', text: 'New limit' },
    element: { type: 'number_input', action_id: 'value', is_decimal_allowed: true },
  };
}

/** What an option needs, in order: its text fields and its gate-specific inputs. */
export function requiredOf(gate: Gate, option: string): readonly string[] {
  const found = gate.options.find((item) => item.id === option);
  if (found === undefined) {
    throw new GatehouseError('INVALID_OPTION', `gate ${gate.id} has no option ${option}`, {
      field: 'option',
      option,
    });
  }
  return found.requires;
}

/**
 * The modal for an option that needs text or a gate-specific input (`agents`: whom a delegation may
 * name), or for approving edited arguments. It leads with the gate's `headline`, as its page does.
 */
export function decisionModal(
  { gate, headline }: { gate: Gate; headline: string },
  metadata: ModalMetadata,
  agents: readonly DelegateChoice[] = [],
): Record<string, unknown> {
  const label = gate.options.find((item) => item.id === metadata.option)?.label ?? metadata.option;
  const blocks: Record<string, unknown>[] = [
    { type: 'section', text: { type: 'plain_text', text: plainAgentText(headline, 2900), emoji: false } },
  ];
  if (metadata.edit) {
    const args = JSON.stringify(gate.action?.args ?? {}, null, 2);
    if (args.length > SLACK_INPUT_MAX) {
      throw new GatehouseError(
        'VALIDATION_FAILED',
        'the arguments are too long to edit in Slack; edit them in the web app',
        {
          field: 'editedArgs',
        },
      );
    }
    blocks.push(
      textInput(EDITED_ARGS_BLOCK, 'Arguments to approve instead (JSON object)', { initial: args }),
    );
    blocks.push(
      textInput('reason', 'Reason (optional)', { optional: true, maxLength: DECISION_TEXT_MAX.reason }),
    );
  } else {
    const required = requiredOf(gate, metadata.option);
    if (required.includes(DELEGATE_BLOCK)) blocks.push(agentSelect(agents));
    if (required.includes(NEW_LIMIT_BLOCK)) blocks.push(limitInput());
    for (const field of required.filter((name): name is TextField => name in FIELD_LABELS))
      blocks.push(textInput(field, FIELD_LABELS[field], { maxLength: DECISION_TEXT_MAX[field] }));
  }
  return {
    type: 'modal',
    callback_id: DECIDE_MODAL,
    private_metadata: JSON.stringify(metadata),
    title: { type: 'plain_text', text: 'Gatehouse' },
    submit: { type: 'plain_text', text: plainAgentText(metadata.edit ? 'Approve edited' : label, 24) },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks,
  };
}

/** The submitted text of one block, trimmed; undefined when empty or absent. */
export function submittedText(view: ViewSubmission['view'], blockId: string): string | undefined {
  const value = view.state.values[blockId]?.value?.value;
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The value picked in a select block; undefined when nothing was picked. */
export function submittedChoice(view: ViewSubmission['view'], blockId: string): string | undefined {
  const picked = view.state.values[blockId]?.value?.selected_option;
  const value = (picked as { value?: unknown } | null | undefined)?.value;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The block ids of the submitted modal that take text, for placing errors. */
export function submittedBlocks(view: ViewSubmission['view']): string[] {
  return Object.keys(view.state.values);
}
