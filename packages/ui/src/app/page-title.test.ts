import { describe, expect, it } from 'vitest';
import { documentTitle, screenName } from './page-title.js';

describe('page titles', () => {
  it.each([
    ['/inbox', 'Inbox'],
    ['/gates/gate_1', 'Gate'],
    ['/runs/run_1', 'Run'],
    ['/admin/agents', 'Agents'],
    ['/audit', 'Audit'],
    ['/nowhere', 'Not found'],
  ])('names %s %s', (path, name) => {
    expect(screenName(path)).toBe(name);
  });

  it('leads with the pending count and leaves it out at zero', () => {
    expect(documentTitle('Inbox', 3)).toBe('(3) Inbox — Gatehouse');
    expect(documentTitle('Audit', 0)).toBe('Audit — Gatehouse');
    expect(documentTitle('Audit', null)).toBe('Audit — Gatehouse');
  });
});
