import { describe, expect, it } from 'vitest';
import { newAuditEventId } from './hash.js';

describe('newAuditEventId', () => {
  it('makes unique ids of 20 hex digits that sort in the order they were made', () => {
    const start = Date.UTC(2026, 10, 29);
    // Many per millisecond, then later milliseconds: each id sorts after the one before.
    const times = Array.from({ length: 30_000 }, (_, i) => start + Math.floor(i / 1000));
    const ids = times.map((now) => newAuditEventId(now));
    for (const id of ids) expect(id).toMatch(/^evt_[0-9a-f]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const outOfOrder = ids.filter((id, i) => i > 0 && id <= (ids[i - 1] as string) && !wrapped(ids, i));
    expect(outOfOrder).toEqual([]);
  });

  it('leads with the time, so a later millisecond sorts later', () => {
    const early = newAuditEventId(Date.UTC(2026, 0, 1));
    const late = newAuditEventId(Date.UTC(2026, 0, 1) + 1);
    expect(early.slice(4, 15)).toBe(Date.UTC(2026, 0, 1).toString(16).padStart(11, '0'));
    expect(late > early).toBe(true);
  });
});

/** The counter came round to 0 between id i-1 and id i (once in 2^36 ids). */
function wrapped(ids: string[], i: number): boolean {
  return (ids[i] as string).endsWith('000000000');
}
