import { describe, expect, it } from 'vitest';
import { toRunEvent } from './events.js';

const message = (event: string, data: unknown, id: string | null = '5') => ({
  event,
  data: JSON.stringify(data),
  id,
});

describe('toRunEvent', () => {
  it('reads an intervention event with its instruction', () => {
    const event = toRunEvent(
      message('intervention', { kind: 'steer', instruction: 'use pnpm', at: 10 }),
      false,
    );
    expect(event).toEqual({ kind: 'steer', instruction: 'use pnpm', at: 10, eventId: '5' });
  });

  it('reads the stored event shape ({ type, data, at }) sent as a plain message', () => {
    const stored = {
      seq: 5,
      type: 'intervention',
      runId: 'run_1',
      gateId: null,
      data: { kind: 'pause' },
      at: 20,
    };
    expect(toRunEvent(message('message', stored), false)).toEqual({
      kind: 'pause',
      instruction: null,
      at: 20,
      eventId: '5',
    });
  });

  it('yields gate decisions only when asked', () => {
    const decided = message('gate.decided', {
      gateId: 'gate_1',
      outcome: 'steered',
      decision: { instructions: 'smaller diff' },
      at: 30,
    });
    expect(toRunEvent(decided, false)).toBeNull();
    expect(toRunEvent(decided, true)).toEqual({
      kind: 'decision',
      gateId: 'gate_1',
      outcome: 'steered',
      instruction: 'smaller diff',
      at: 30,
      eventId: '5',
    });
  });

  it('ignores other events and bodies that are not JSON', () => {
    expect(toRunEvent(message('gate.opened', { gateId: 'gate_1' }), true)).toBeNull();
    expect(toRunEvent({ event: 'intervention', data: 'not json', id: null }, false)).toBeNull();
  });
});
