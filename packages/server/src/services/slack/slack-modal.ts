import type { Gate } from 'gatehouse-hitl-core';
import { GatehouseError } from 'gatehouse-hitl-core';
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
// Slack's plain_text_input holds at most 3000 characters.
const SLACK_INPUT_MAX = 3000;

function textInput(
  blockId: string,
  label: string,
  options: { initial?: string; optional?: boolean },
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
      max_length: SLACK_INPUT_MAX,
      ...(options.initial === undefined ? {} : { initial_value: options.initial }),
    },
  };
}

function fieldsOf(gate: Gate, option: string): TextField[] {
  const found = gate.options.find((item) => item.id === option);
  if (found === undefined) {
    throw new GatehouseError('INVALID_OPTION', `gate ${gate.id} has no option ${option}`, {
      field: 'option',
      option,
    });
  }
  return found.requires.filter((field): field is TextField => field in FIELD_LABELS);
}

/** The modal for an option that needs text, or for approving edited arguments. */
export function decisionModal(gate: Gate, metadata: ModalMetadata): Record<string, unknown> {
  const label = gate.options.find((item) => item.id === metadata.option)?.label ?? metadata.option;
  const blocks: Record<string, unknown>[] = [
    { type: 'section', text: { type: 'plain_text', text: plainAgentText(gate.title, 2900), emoji: false } },
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
    blocks.push(textInput('reason', 'Reason (optional)', { optional: true }));
  } else {
    for (const field of fieldsOf(gate, metadata.option))
      blocks.push(textInput(field, FIELD_LABELS[field], {}));
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

/** The block ids of the submitted modal that take text, for placing errors. */
export function submittedBlocks(view: ViewSubmission['view']): string[] {
  return Object.keys(view.state.values);
}
