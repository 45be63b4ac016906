import { describe, expect, it } from 'vitest';
import { personLabel, rememberPersonName } from './person-names.js';

describe('who decided, in words', () => {
  it('names people, the deadline and the agent that withdrew its own request', () => {
    rememberPersonName('user_dana', 'Dana');
    expect(personLabel('user:user_dana')).toBe('Dana');
    expect(personLabel('user_dana')).toBe('Dana');
    expect(personLabel('user_unknown')).toBe('user_unknown');
    expect(personLabel('system:timeout')).toBe('the deadline');
    expect(personLabel('agent:agent_alpha')).toBe('the agent that asked');
  });
});
