import { describe, expect, it } from 'vitest';
import { makeGate } from '../testing/gates.js';
import { type Briefing, briefingConfidenceBand, buildBriefing, gateConfidence } from './briefing.js';

describe('briefing confidence', () => {
  it.each([
    [1, 'high'],
    [0.8, 'high'],
    [0.79, 'medium'],
    [0.5, 'medium'],
    [0.49, 'low'],
    [0.2, 'low'],
    [0.19, 'zero'],
    [0, 'zero'],
  ])('puts %d in the %s band', (value, band) => {
    expect(briefingConfidenceBand(value)).toBe(band);
  });

  it.each([
    ['the gate', { confidence: 0.456 }, { score: 46, value: 0.456, band: 'low' }],
    ['a 0-100 score', { context: { score: 85 } }, { score: 85, value: 0.85, band: 'high' }],
    ['a 0-1 confidence', { context: { confidence: 0.6 } }, { score: 60, value: 0.6, band: 'medium' }],
    ['a 0-100 confidence', { context: { confidence: 15 } }, { score: 15, value: 0.15, band: 'zero' }],
    ['an out-of-range score', { context: { score: 250 } }, { score: 100, value: 1, band: 'high' }],
  ] as const)('reads confidence from %s', (_name, overrides, expected) => {
    expect(buildBriefing(makeGate('code_review', overrides)).confidence).toEqual(expected);
    // Lists read it on its own, the same as the briefing.
    expect(gateConfidence(makeGate('code_review', overrides))).toEqual(expected);
  });

  it('has no confidence when none was given', () => {
    expect(buildBriefing(makeGate('code_review')).confidence).toBeNull();
  });
});

describe('zero-band confidence briefing', () => {
  const diagnosticsOf = (b: Briefing) => b.sections.find((s) => s.title === 'Diagnostics') ?? null;

  it('presents diagnostics: the band action and the lines the confidence report left', () => {
    const gate = makeGate('confidence_threshold', {
      confidence: 0.1,
      context: {
        score: 10,
        threshold: 90,
        reasons: ['cannot reproduce the failure'],
        diagnostics: ['Subtask task-7 aborted: …', 'Earlier reports on this run: 45 (task-7), 30.'],
      },
    });
    const briefing = buildBriefing(gate);
    expect(briefing.summary).toContain('the subtask is aborted');
    expect(diagnosticsOf(briefing)).toEqual({
      title: 'Diagnostics',
      fields: [
        { label: 'Action', value: 'Abort the subtask, present diagnostics and wait for a human decision.' },
      ],
      lines: ['Subtask task-7 aborted: …', 'Earlier reports on this run: 45 (task-7), 30.'],
    });
  });

  it('says why on its own when the gate came from a task completion without a report', () => {
    const briefing = buildBriefing(makeGate('confidence_threshold', { confidence: 0.05 }));
    expect(diagnosticsOf(briefing)?.lines).toEqual([
      'Subtask aborted: confidence 5 / 100 is in the zero band (below 20).',
    ]);
  });

  it('presents no diagnostics in the low band', () => {
    const briefing = buildBriefing(makeGate('confidence_threshold', { confidence: 0.3 }));
    expect(diagnosticsOf(briefing)).toBeNull();
    expect(briefing.summary).not.toContain('aborted');
  });
});
