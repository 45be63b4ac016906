import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../sanitize.js';
import type { Gate } from '../schemas.js';
import { makeGate, RECOVERY_OPTIONS } from '../testing/gates.js';
import { formatDuration, formatGateDisplay, formatOptionsPrompt, optionForKey } from './display.js';

const NOW = Date.UTC(2026, 1, 3, 10, 45, 30);

/** Seed 001's recovery escalation example. */
const seedGate = makeGate('recovery_escalation', {
  id: 'GATE-AP-RECOVERY',
  options: RECOVERY_OPTIONS,
  timeoutAt: Date.UTC(2026, 1, 3, 11, 0),
  timeoutAction: 'escalate',
  escalationChain: ['tech_lead', 'admin'],
  context: {
    task_description: 'Implement JWT authentication',
    pattern_type: 'hardcoded_test_bypass',
    severity: 'CRITICAL',
    recovery_attempts: 3,
    agent: 'Software Implementer',
    files: ['src/auth/login.ts'],
    original_error: "jwt.verify() throws 'invalid signature'",
    detection_time: '2026-02-03T10:30:00Z',
    recovery_history: [
      'Removed bypass, added NODE_ENV check',
      'Removed NODE_ENV, added JWT_SECRET check',
      'Fixed token format, hit algorithm error',
    ],
    current_state: { tests: 'Failing - "invalid algorithm"', coverage: 85, coverage_maintained: true },
    confidence: 0.5,
  },
});

const OTHER_GATES: Gate[] = [
  makeGate('tool_call', {
    action: { tool: 'Bash', args: { command: 'rm -rf build' } },
    context: { reason: 'shell' },
  }),
  makeGate('intent_approval', {
    artifacts: ['.workitems/P01/design.md'],
    context: { epic: '用户登录 🔐', stories: 3, tasks: 8 },
  }),
  makeGate('destructive_action', { context: { action_type: 'feature_removal', features_removed: 2 } }),
  makeGate('phase_review', { context: { phase: 1, phase_type: 'strategic', retrospective: 'a\n\tb\n' } }),
  makeGate('some_custom_gate', { context: { note: 'ｆｕｌｌｗｉｄｔｈ テキスト and 👨‍👩‍👧 families' } }),
];

/** The lines of a display with the box and padding taken off. */
function contentLines(display: string): string[] {
  return display.split('\n').map((line) => line.replace(/^[│╭├╰]\s?|\s?[│╮┤╯]$/g, '').trimEnd());
}

function expectAligned(display: string, width: number): void {
  const lines = display.split('\n');
  for (const line of lines) {
    expect(displayWidth(line), line).toBe(width);
    expect(line).toMatch(/^[│╭├╰].*[│╮┤╯]$/);
  }
  expect(lines[0]).toMatch(/^╭─+╮$/);
  expect(lines.at(-1)).toMatch(/^╰─+╯$/);
}

describe('formatGateDisplay', () => {
  const cases = [seedGate, ...OTHER_GATES].flatMap((gate) =>
    [40, 80, 120].map((w) => [gate.type, w, gate] as const),
  );

  it.each(cases)('draws a %s gate with every line %i columns wide', (_type, width, gate) => {
    expectAligned(formatGateDisplay(gate, { width, now: NOW }), width);
  });

  it('shows the sections and options of seed 001', () => {
    const lines = contentLines(formatGateDisplay(seedGate, { width: 80, now: NOW }));
    const expected = [
      'HUMAN INTERVENTION REQUIRED',
      'Recovery Escalation Gate: GATE-AP-RECOVERY',
      'Context:',
      '  • Task: Implement JWT authentication',
      '  • Pattern: hardcoded_test_bypass (CRITICAL)',
      '  • Recovery Attempts: 3 / 3',
      '  • Agent: Software Implementer',
      'Detection Details:',
      '  • File(s): src/auth/login.ts',
      "  • Original Error: jwt.verify() throws 'invalid signature'",
      '  • Detection Time: 2026-02-03T10:30:00Z',
      'Recovery History:',
      '  Iteration 1: Removed bypass, added NODE_ENV check',
      '  Iteration 2: Removed NODE_ENV, added JWT_SECRET check',
      '  Iteration 3: Fixed token format, hit algorithm error',
      'Current State:',
      '  • Tests: Failing - "invalid algorithm"',
      '  • Coverage: 85% (maintained)',
      '  • Confidence: 0.50 (medium)',
      'Timeout:',
      '  • Time left: 14m 30s',
      '  • Then: it escalates to a tech lead',
      'Options:',
      '  [a] Approve - Override and allow agent to continue',
      '  [r] Reject - Require manual fix from human',
      '  [1] Retry - Reset counter, give agent another chance',
      '  [2] View - Show detailed recovery attempt logs',
      '  [3] Delegate - Assign to different agent',
      '  [4] Abort - Stop task entirely',
    ];
    const found = expected.map((line) => lines.indexOf(line));
    expect(found).not.toContain(-1);
    expect(found).toEqual([...found].sort((a, b) => a - b));
  });

  it('shows escapes and bidi overrides from agents as markers under a warning, never as themselves', () => {
    const gate = makeGate('recovery_escalation', {
      id: 'g\x1b[2J1',
      context: {
        task: 'fix \x1b[31mred\x1b[0m \u202eevil\u202c text',
        agent: '\x1b]8;;https://evil.example\x07Agent\x1b]8;;\x07',
        original_error: 'line1\r\nline2\x07',
      },
    });
    const display = formatGateDisplay(gate);
    expect(display).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(display).toContain('fix ⟨U+001B⟩[31mred⟨U+001B⟩[0m ⟨U+202E⟩evil⟨U+202C⟩ text');
    expect(display).toContain('Agent: ⟨U+001B⟩]8;;https://evil.example⟨U+0007⟩Agent');
    expect(display).toContain('Hidden Characters:');
    expect(display).toContain('This action contains hidden characters');
    expect(display).toContain('Recovery Escalation Gate: g1');
  });

  it('wraps a 5,000-character value onto many lines without losing any of it', () => {
    const long = 'abcdefghij'.repeat(500);
    const gate = makeGate('constraint_exception', {
      context: { constraint: long, task: `${'word '.repeat(300)}end` },
    });
    const display = formatGateDisplay(gate, { width: 64 });
    expectAligned(display, 64);
    expect(display.split('\n').length).toBeGreaterThan(100);
    expect(contentLines(display).join('').replace(/\s/g, '')).toContain(long);
  });

  it('raises narrow widths to 40 and defaults to 80', () => {
    expectAligned(formatGateDisplay(seedGate, { width: 10 }), 40);
    expectAligned(formatGateDisplay(seedGate), 80);
    expectAligned(formatGateDisplay(seedGate, { width: Number.NaN }), 80);
    expectAligned(formatGateDisplay(seedGate, { width: 100.7 }), 100);
  });

  it('keeps a line aligned when its text ends in a prepended sign, which joins what follows', () => {
    for (const text of ['𑤿', '\u0600', `${'x'.repeat(36)}𑤿`, `${'x'.repeat(35)}𑤿`]) {
      const gate = makeGate('recovery_escalation', {
        id: '',
        context: { task: text, original_error: '', recovery_history: [text, ''] },
      });
      expectAligned(formatGateDisplay(gate, { width: 40 }), 40);
    }
  });

  it('keeps every line aligned whatever the agent sends', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.string({ unit: 'grapheme', maxLength: 300 }),
        fc.integer({ min: 40, max: 160 }),
        (a, b, width) => {
          const gate = makeGate('recovery_escalation', {
            id: b,
            context: { task: a, original_error: b, recovery_history: [a, b] },
          });
          const display = formatGateDisplay(gate, { width });
          expectAligned(display, width);
          expect(display).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
        },
      ),
      { numRuns: 200 },
    );
  });

  it.each([
    ['deny', [], 'Then: the request is denied'],
    ['proceed', [], 'Then: the agent proceeds on its own'],
    ['escalate', ['admin'], 'Then: it escalates to an admin'],
    ['escalate', [], 'Then: it escalates to a higher role'],
  ] as const)('says what a %s timeout does', (timeoutAction, escalationChain, expected) => {
    const gate = makeGate('code_review', {
      timeoutAt: NOW + 90_000,
      timeoutAction,
      escalationChain: [...escalationChain],
    });
    const display = formatGateDisplay(gate, { now: NOW });
    expect(display).toContain('Time left: 1m 30s');
    expect(display).toContain(expected);
  });

  it('shows the deadline when no time is given, and when it passed', () => {
    const gate = makeGate('code_review', { timeoutAt: NOW });
    expect(formatGateDisplay(gate)).toContain('Deadline: 2026-02-03T10:45:30.000Z');
    expect(formatGateDisplay(gate, { now: NOW + 120_000 })).toContain(
      'Time left: none, the deadline passed 2m ago',
    );
  });

  it('shows the status instead of a timeout once the gate has ended', () => {
    const display = formatGateDisplay(
      makeGate('code_review', { status: 'approved', timeoutAt: NOW + 1000 }),
      { now: NOW },
    );
    expect(display).toContain('Status: approved');
    expect(display).not.toContain('Timeout:');
  });

  it('lists artifacts, titled for review on an intent approval', () => {
    expect(formatGateDisplay(OTHER_GATES[1]!)).toContain('Artifacts for review:');
    expect(formatGateDisplay(makeGate('code_review', { artifacts: ['src/a.ts'] }))).toContain('Artifacts:');
  });

  it('says so when a gate offers no options', () => {
    expect(formatGateDisplay(makeGate('code_review', { options: [] }))).toContain(
      '(this gate offers no options)',
    );
  });
});

describe('formatOptionsPrompt', () => {
  it('marks each key of the one key map inside its label, or before it', () => {
    expect(formatOptionsPrompt(seedGate)).toBe(
      '[a]pprove [r]eject [1] retry [2] view [3] delegate [4] abort',
    );
  });

  it('leaves Always out of the prompt where the server would refuse it', () => {
    const options = [
      { id: 'approve', label: 'Approve', key: 'y', description: '', ends: true, requires: [] },
      { id: 'approve_always', label: 'Always', key: 'a', description: '', ends: true, requires: [] },
    ];
    const gate = (command: string) =>
      makeGate('tool_call', { options, action: { tool: 'shell', args: { command } } });
    expect(formatOptionsPrompt(gate('make'))).toBe('[a]pprove al[w]ays');
    expect(formatOptionsPrompt(gate('rm -rf build'))).toBe('[a]pprove');
    expect(formatGateDisplay(gate('rm -rf build'))).not.toContain('Always');
  });

  it('handles missing options', () => {
    expect(formatOptionsPrompt({ ...seedGate, options: undefined } as unknown as Gate)).toBe('');
  });
});

describe('optionForKey', () => {
  it.each([
    ['a', 'approve'],
    ['1', 'retry'],
    [' 1 ', 'retry'],
    ['4', 'abort'],
    ['t', null],
    ['q', null],
    ['d', null],
    ['A', null],
    ['?', null],
    ['x', null],
    ['', null],
  ])('maps %j to %s', (key, id) => {
    expect(optionForKey(seedGate, key)?.id ?? null).toBe(id);
  });

  it('follows the one key map, not the keys stored with an older gate', () => {
    const options = [
      { id: 'approve', label: 'Approve', key: 'y', description: '', ends: true, requires: [] },
      { id: 'reject', label: 'Reject', key: 'n', description: '', ends: true, requires: [] },
    ];
    const gate = makeGate('tool_call', { options });
    expect(optionForKey(gate, 'a')?.id).toBe('approve');
    expect(optionForKey(gate, 'r')?.id).toBe('reject');
    expect(optionForKey(gate, 'y')).toBeNull();
    expect(optionForKey(gate, 'n')).toBeNull();
  });
});

describe('formatDuration', () => {
  it.each([
    [500, '<1s'],
    [45_000, '45s'],
    [899_000, '14m 59s'],
    [3_900_000, '1h 5m'],
    [7_200_000, '2h'],
    [183_600_000, '2d 3h'],
  ])('formats %i ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('formatGateDisplay headline and binding', () => {
  const planGate = (id: string) =>
    makeGate('tool_call', {
      id,
      title: 'plan',
      action: { tool: 'write_file', args: {} },
      payloadHash: 'a'.repeat(64),
    });

  it('leads with the headline lists show, the agent’s own title beside it', () => {
    const lines = contentLines(
      formatGateDisplay(planGate('gate_1'), { headline: 'coder-1 wants to run write_file' }),
    );
    expect(lines.slice(4, 6)).toEqual(['coder-1 wants to run write_file', "Agent's title: plan"]);
  });

  it('shows a binding that differs between two gates with the same action', () => {
    const binding = (id: string) =>
      contentLines(formatGateDisplay(planGate(id))).find((line) => line.includes('SHA-256'));
    expect(binding('gate_1')).toMatch(
      /^ {2}• SHA-256 [0-9a-f]{16}… \(of the gate id and the action's hash\)$/,
    );
    expect(binding('gate_1')).toBe(binding('gate_1'));
    expect(binding('gate_1')).not.toBe(binding('gate_2'));
  });
});
