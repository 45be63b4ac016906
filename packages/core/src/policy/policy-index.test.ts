import { describe, expect, it } from 'vitest';
import { candidatesFor, matchesKeys } from './policy-index.js';
import { compilePolicy } from './policy-load.js';
import type { PolicyRequest } from './policy-schema.js';

const compiled = compilePolicy({
  name: 'indexed',
  rules: [
    { id: 'any-low', priority: 1, action: 'gate', reason: 'r' },
    {
      id: 'shell',
      priority: 50,
      match: { tools: ['shell_execute', 'bash'], events: ['tool_call'] },
      action: 'gate',
      reason: 'r',
    },
    { id: 'shell-deny', priority: 50, match: { tools: ['shell_execute'] }, action: 'deny', reason: 'r' },
    {
      id: 'calls',
      priority: 70,
      match: { events: ['tool_call', 'operation'] },
      action: 'allow',
      reason: 'r',
    },
    {
      id: 'reviews',
      priority: 20,
      match: { gateTypes: ['code_review'], events: ['phase_boundary'] },
      action: 'gate',
      reason: 'r',
    },
    {
      id: 'off',
      priority: 99,
      match: { tools: ['shell_execute'] },
      action: 'allow',
      enabled: false,
      reason: 'r',
    },
  ],
});
const request = (extra: Partial<PolicyRequest>): PolicyRequest => ({
  event: 'tool_call',
  args: {},
  agent: { id: 'a' },
  ...extra,
});
const ids = (req: PolicyRequest) => candidatesFor(compiled.index, req).map((r) => r.id);

describe('policy index', () => {
  it('files each enabled rule under its most selective key only', () => {
    const { byTool, byGateType, byEvent, wildcard, ordered } = compiled.index;
    expect([...byTool.keys()]).toEqual(['shell_execute', 'bash']);
    expect(byTool.get('shell_execute')?.map((r) => r.id)).toEqual(['shell-deny', 'shell']);
    expect([...byGateType.keys()]).toEqual(['code_review']);
    expect([...byEvent.keys()]).toEqual(['tool_call', 'operation']);
    expect(wildcard.map((r) => r.id)).toEqual(['any-low']);
    expect(ordered.map((r) => r.id)).toEqual(['calls', 'shell-deny', 'shell', 'reviews', 'any-low']);
    expect(ordered.map((r) => r.rank)).toEqual([0, 1, 2, 3, 4]);
  });

  it('keeps the document order in compiled.rules, with ranks filled in', () => {
    expect(compiled.rules.map((r) => [r.id, r.rank])).toEqual([
      ['any-low', 4],
      ['shell', 2],
      ['shell-deny', 1],
      ['calls', 0],
      ['reviews', 3],
      ['off', -1],
    ]);
  });

  it.each([
    [{ tool: 'shell_execute' }, ['calls', 'shell-deny', 'shell', 'any-low']],
    [{ tool: 'bash', event: 'operation' }, ['calls', 'shell', 'any-low']],
    [{ tool: 'read_file' }, ['calls', 'any-low']],
    [{ event: 'phase_boundary', gateType: 'code_review' }, ['reviews', 'any-low']],
    [{ event: 'custom' }, ['any-low']],
  ])('gives the candidates for %j in evaluation order', (extra, expected) => {
    expect(ids(request(extra))).toEqual(expected);
  });

  it('gives no candidates when nothing is filed for the request', () => {
    const empty = compilePolicy({ name: 'empty' });
    expect(candidatesFor(empty.index, request({ tool: 'x' }))).toEqual([]);
  });

  it('checks the match keys a bucket does not cover', () => {
    const shell = compiled.rules[1]!;
    expect(matchesKeys(shell, request({ tool: 'bash' }))).toBe(true);
    expect(matchesKeys(shell, request({ tool: 'bash', event: 'operation' }))).toBe(false);
    const reviews = compiled.rules[4]!;
    expect(matchesKeys(reviews, request({ event: 'phase_boundary' }))).toBe(false);
    expect(matchesKeys(reviews, request({ event: 'phase_boundary', gateType: 'code_review' }))).toBe(true);
  });
});
