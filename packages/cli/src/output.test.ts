import fc from 'fast-check';
import { revealText } from 'gatehouse-hitl-core';
import { describe, expect, it } from 'vitest';
import { printTable, relativeTime, terminalSafe } from './output.js';

describe('terminalSafe', () => {
  it('shows control, bidi, zero-width and tag characters as markers so text cannot drive the terminal', () => {
    expect(terminalSafe('ok\x1b[31m red\u202e\u200b\u{e0041}')).toBe(
      'ok⟨U+001B⟩[31m red⟨U+202E⟩⟨U+200B⟩⟨U+E0041⟩',
    );
  });

  // A zero-width joiner is marked even inside an emoji here: stricter than core, never looser.
  it('leaves nothing that core would call hidden, with the same markers core writes', () => {
    const piece = fc.constantFrom(
      ...['a', ' ', 'ü', '😀', '\n', '\t', '\r', '\x1b', '\x85', '\u00ad', '\u061c', '\u200b'],
      ...['\u202e', '\u2028', '\u2066', '\u2069', '\ufeff', '\u{e0001}', '\u{e007f}', '\u{e0100}', '\ud800'],
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const line = pieces.join('').replace(/\r?\n/g, ' ').replace(/\t/g, ' ');
        expect(terminalSafe(line)).toBe(revealText(line));
      }),
    );
  });

  it('keeps one line and ordinary Unicode', () => {
    expect(terminalSafe('line 1\nline 2\ttab — ü 😀')).toBe('line 1 ⏎ line 2 tab — ü 😀');
    expect(terminalSafe(null)).toBe('');
  });
});

describe('printTable', () => {
  function capture(isTTY = false, columns = 0) {
    let text = '';
    return { out: { isTTY, columns, write: (chunk: string) => (text += chunk) }, text: () => text };
  }

  it('aligns columns', () => {
    const { out, text } = capture();
    printTable(
      out,
      ['ID', 'TITLE'],
      [
        ['gate_1', 'first'],
        ['gate_22', 'second'],
      ],
    );
    expect(text()).toBe('ID       TITLE\ngate_1   first\ngate_22  second\n');
  });

  it('cuts the last column to a terminal’s width', () => {
    const { out, text } = capture(true, 30);
    printTable(out, ['ID', 'TITLE'], [['gate_1', 'x'.repeat(50)]]);
    expect(text().split('\n')[1]).toBe(`gate_1  ${'x'.repeat(21)}…`);
  });

  it('says when there is nothing', () => {
    const { out, text } = capture();
    printTable(out, ['ID'], [], 'no gates');
    expect(text()).toBe('no gates\n');
  });
});

describe('relativeTime', () => {
  it.each([
    [65_000, 'in 1m'],
    [-30_000, '30s ago'],
    [3 * 3600_000, 'in 3h'],
    [-2 * 86_400_000, '2d ago'],
  ])('%d ms → %s', (delta, text) => {
    expect(relativeTime(1_000_000_000 + delta, 1_000_000_000)).toBe(text);
  });
});
