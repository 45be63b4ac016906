import { describe, expect, it } from 'vitest';
import { makeGate } from '../testing/gates.js';
import { buildBriefing } from './briefing.js';

describe('recovery history', () => {
  it('numbers plain entries and reads iteration objects', () => {
    const b = buildBriefing(
      makeGate('recovery_escalation', {
        context: { history: ['first fix', { attempt: 2, summary: 'second fix' }, { note: 'third' }, null] },
      }),
    );
    expect(b.recoveryHistory).toEqual([
      'Iteration 1: first fix',
      'Iteration 2: second fix',
      'Iteration 3: note: third',
    ]);
  });
});

describe('recovery history on analysis gates', () => {
  const history = ['Attempt 1: a placeholder body (line 3)', 'Attempt 2: a placeholder body (line 4)'];

  it('keeps the attempt numbers the server gave', () => {
    const b = buildBriefing(makeGate('recovery_escalation', { context: { recoveryHistory: history } }));
    expect(b.recoveryHistory).toEqual(history);
  });

  it.each(['destructive_action', 'false_positive_override'])('shows it on a %s gate', (type) => {
    const b = buildBriefing(makeGate(type, { context: { recoveryHistory: history } }));
    expect(b.sections.find((section) => section.title === 'Recovery History')?.lines).toEqual(history);
    expect(b.details).toContain('Attempt 2: a placeholder body (line 4)');
  });
});
