/** The inbox's navigation keys and the labels of the fields a decision may ask for. */
export const NEXT_KEYS = new Set(['n', 'right', 'down', 'tab', 'j']);
export const PREVIOUS_KEYS = new Set(['p', 'left', 'up', 'shift-tab', 'k']);
export const QUIT_KEYS = new Set(['q', 'ctrl-c', 'ctrl-d']);
export const HELP_KEY = '?';
export const EDIT_KEY = 'e';
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  instructions: 'Instructions for the agent',
  reason: 'Reason',
  feedback: 'Feedback',
  answer: 'Answer for the agent',
  delegateTo: 'Agent id to hand the task to',
  newLimit: 'New limit',
};
