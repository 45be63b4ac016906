import type { AuditEvent } from 'gatehouse-hitl-core';
import { WEBHOOK_EVENT_TYPES } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import { outboxEventOf, webhookEventTypeOf } from './events.js';

function audited(kind: string): AuditEvent {
  return {
    seq: 7,
    id: 'evt_0123456789abcdef0123',
    at: 1_700_000_000_000,
    kind,
    actor: 'system:timeout',
    subject: 'gate_1',
    data: { status: 'approved', note: 'Zürich 🚀' },
    prevHash: 'a'.repeat(64),
    hash: 'b'.repeat(64),
  };
}

describe('webhook events', () => {
  it.each(WEBHOOK_EVENT_TYPES.map((type) => [type]))(
    'announces the audit kind %s under its own name',
    (type) => {
      expect(webhookEventTypeOf(type)).toBe(type);
    },
  );

  it('announces an approval by timeout as a decision, the way the event streams do', () => {
    expect(webhookEventTypeOf('gate.auto_approved')).toBe('gate.decided');
  });

  it.each([['webhook.created'], ['gate.vote'], ['request.allowed'], ['user.created'], ['session.started']])(
    'keeps %s to the audit trail',
    (kind) => {
      expect(webhookEventTypeOf(kind)).toBeNull();
      expect(outboxEventOf(audited(kind))).toBeNull();
    },
  );

  it('carries the audit event id as the stable event id, and its facts as the body', () => {
    const event = outboxEventOf(audited('gate.auto_approved'));
    expect(event).toMatchObject({
      id: 'evt_0123456789abcdef0123',
      type: 'gate.decided',
      createdAt: 1_700_000_000_000,
    });
    expect(JSON.parse(event?.payload ?? '')).toEqual({
      id: 'evt_0123456789abcdef0123',
      type: 'gate.decided',
      createdAt: 1_700_000_000_000,
      actor: 'system:timeout',
      subject: 'gate_1',
      data: { status: 'approved', note: 'Zürich 🚀' },
    });
  });
});

describe('webhook events with hidden characters', () => {
  const withData = (data: Record<string, unknown>): AuditEvent => ({ ...audited('gate.decided'), data });

  it.each([
    ['a raw override in a reason', { reason: 'looks \u202ewrong' }],
    ['a marker left where one was', { instructions: 'use ⟨U+200B⟩ care' }],
    ['a tag character in a title', { title: 'ok\u{e0041}' }],
  ])('flags %s and leaves the data as it is', (_name, data) => {
    const body = JSON.parse(outboxEventOf(withData(data))?.payload ?? '{}');
    expect(body.hiddenCharacters).toBe(true);
    expect(body.data).toEqual(data);
  });

  it('does not flag ids or codes, nor text without hidden characters', () => {
    const body = JSON.parse(
      outboxEventOf(withData({ gateId: 'g\u200b1', reason: 'fine\nby me', option: 'approve' }))?.payload ??
        '{}',
    );
    expect(body).not.toHaveProperty('hiddenCharacters');
  });
});
