import { defineGateType, ending, reject } from './define.js';

/** The gate type of a question an agent asks a person (human-as-tool); the answer is free text. */
export const QUESTION_GATE_TYPE = 'question';

/** The agent asks a person a question and waits for the answer. */
export const question = defineGateType({
  definition: {
    type: QUESTION_GATE_TYPE,
    title: 'Question for a person',
    trigger: 'the agent asks a person a question and waits for the answer',
    threshold: 'mandatory',
    defaultRisk: 'low',
    defaultTimeoutAction: 'deny',
    options: [
      ending('answer', 'Answer', '1', 'Answer the question; the agent receives your text', 'resolved', [
        'answer',
      ]),
      reject('r', 'Decline to answer; the agent is told why'),
    ],
    steerable: false,
    minRole: 'developer',
    signature: 'never',
    retentionDays: 365,
  },
  batchable: true,
  withdrawable: true,
  openedBy: 'agent',
  policyEvent: 'question',
});
