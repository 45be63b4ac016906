import { describe, expect, it } from 'vitest';
import { checkStreamEventData, parseStreamEvent, streamEventDataSchemas } from './stream-event-schemas.js';
import { STREAM_EVENT_NAMES } from './stream-events.js';

const envelope = { seq: 7, runId: 'run_1', agentId: 'agent_1', gateId: 'gate_1', at: 1_700_000_000_000 };

describe('stream event schemas', () => {
  it('has a data schema for every event name the server sends, and no other', () => {
    expect(Object.keys(streamEventDataSchemas).sort()).toEqual([...STREAM_EVENT_NAMES].sort());
  });

  it('reads an event by its type, keeping fields added later', () => {
    const event = parseStreamEvent({
      ...envelope,
      type: 'gate.decided',
      data: {
        status: 'approved',
        type: 'destructive_action',
        outcome: 'approved',
        decidedBy: 'user:u1',
        later: 1,
      },
    });
    expect(event.type).toBe('gate.decided');
    expect(event.data).toMatchObject({ outcome: 'approved', later: 1 });
  });

  it('refuses an event whose data lacks a field its type promises', () => {
    expect(() =>
      parseStreamEvent({ ...envelope, type: 'intervention', data: { kind: 'stop', at: 1, by: 'user:u1' } }),
    ).toThrow(/instruction|interventionId/);
    expect(() => parseStreamEvent({ ...envelope, type: 'gate.nope', data: {} })).toThrow();
  });

  it('names the event and the field when data does not match', () => {
    expect(() =>
      checkStreamEventData('gate.opened', { status: 'pending', type: 'x', title: 'T', risk: 'huge' }),
    ).toThrow('stream event gate.opened: data.risk');
    expect(() =>
      checkStreamEventData('run.status', { status: 'running', previous: null, reason: 'resume' }),
    ).not.toThrow();
  });
});
