import { describe, expect, it } from 'vitest';
import { makeGate } from '../testing/gates.js';
import { buildBriefing } from './briefing.js';

describe('the intent gate briefing', () => {
  it('lists the plan’s tasks, not only how many there are', () => {
    const gate = makeGate('intent_approval', {
      context: {
        epic: 'Add user login',
        tasks: [
          { title: 'Add the sessions table', hours: 2 },
          { title: 'Write the login form' },
          'Document it',
        ],
      },
    });
    const briefing = buildBriefing(gate);
    const tasks = briefing.sections.find((section) => section.title === 'Tasks');
    expect(tasks?.fields.map((field) => field.value)).toEqual([
      'Add the sessions table',
      'Write the login form',
      'Document it',
    ]);
    expect(briefing.details).toContain('Write the login form');
  });
});
