import { describe, expect, it } from 'vitest';
import { makeGate } from '../testing/gates.js';
import { buildBriefing } from './briefing.js';
import { formatGateDisplay } from './display.js';

const HUNK = "@@ -4,3 +4,0 @@\n-it('is zero for an empty cart', () => {\n-  expect(total([])).toBe(0);\n-});";

function finding(n: number) {
  return {
    kind: 'test_removed',
    pattern: 'test.removed',
    file: `src/cart${n}.test.ts`,
    line: 4 + n,
    message: `Test "case ${n}" was removed.`,
    hunk: HUNK,
  };
}

function destructive(context: Record<string, unknown>) {
  return makeGate('destructive_action', {
    title: 'Destructive change: tests removed',
    context: { actionType: 'test_deletion', testsRemoved: 1, coverageDelta: 0, ...context },
  });
}

describe('findings in the Summary of Action', () => {
  it('says no coverage was sent rather than 0% when the change came without coverage', () => {
    const briefing = buildBriefing(destructive({ coverageReported: false, findings: [finding(1)] }));
    expect(briefing.summary).toContain('no coverage sent');
    expect(briefing.summary).not.toMatch(/coverage [+-]?0%/);
    const fields = briefing.sections.flatMap((section) => section.fields);
    expect(fields).toContainEqual({ label: 'Coverage Delta', value: 'no coverage sent' });
  });

  it('still shows a measured delta when coverage was sent', () => {
    const briefing = buildBriefing(destructive({ coverageReported: true, coverageDelta: -3 }));
    expect(briefing.summary).toContain('coverage -3%');
  });

  it('lists each finding of a destructive gate with file:line, the first five then how many more', () => {
    const findings = Array.from({ length: 7 }, (_, n) => finding(n + 1));
    const briefing = buildBriefing(destructive({ coverageReported: false, findings }));
    const section = briefing.sections.find((candidate) => candidate.title === 'Findings');
    expect(section?.fields.map((field) => field.value)).toEqual([
      'src/cart1.test.ts:5 test.removed: Test "case 1" was removed.',
      'src/cart2.test.ts:6 test.removed: Test "case 2" was removed.',
      'src/cart3.test.ts:7 test.removed: Test "case 3" was removed.',
      'src/cart4.test.ts:8 test.removed: Test "case 4" was removed.',
      'src/cart5.test.ts:9 test.removed: Test "case 5" was removed.',
      'and 2 more',
    ]);
  });

  it('names the one finding of a recovery gate in the terminal box', () => {
    const gate = makeGate('recovery_escalation', {
      title: 'Recovery escalation',
      context: {
        pattern: 'lazy.placeholder_body',
        files: ['src/cart.ts'],
        line: 2,
        message: 'total now throws "not implemented"',
        hunk: HUNK,
        recoveryAttempts: 3,
      },
    });
    const box = formatGateDisplay(gate, { width: 120 });
    expect(box).toContain('Findings:');
    expect(box).toContain('src/cart.ts:2 lazy.placeholder_body: total now throws "not implemented"');
  });

  it('lists the finding a false-positive gate is about', () => {
    const gate = makeGate('false_positive_override', {
      title: 'Possible false positive',
      context: { pattern: 'lazy.error_swallowed', files: ['src/save.ts'], line: 9 },
    });
    const section = buildBriefing(gate).sections.find((candidate) => candidate.title === 'Findings');
    expect(section?.fields.map((field) => field.value)).toEqual(['src/save.ts:9 lazy.error_swallowed']);
  });
});
