import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  factsWithout,
  globToRegExp,
  partitionFindings,
  type SuppressibleFacts,
  type WhitelistScope,
  whitelistCovers,
} from './whitelist-match.js';

const PATTERNS = ['lazy.error_swallowed', 'lazy.stub', 'test.removed'];
const AGENTS = ['agent_a', 'agent_b'];
const SEGMENTS = ['src', 'lib', 'a.ts', 'b.test.ts', 'legacy', 'x.py'];
const GLOBS = ['src/**', '**/*.test.ts', 'src/*.ts', 'lib/a?ts', '**', 'legacy/**/x.py'];
const KINDS = [
  'test_removed',
  'assertion_removed',
  'assertion_weakened',
  'skip_added',
  'export_removed',
  'laziness',
  'coverage_dropped',
];
const FACT_OF_KIND: Record<string, keyof SuppressibleFacts | undefined> = {
  test_removed: 'testsRemoved',
  assertion_removed: 'assertionsRemoved',
  assertion_weakened: 'assertionsWeakened',
  skip_added: 'skipPatternsAdded',
  export_removed: 'featuresRemoved',
  laziness: 'lazinessFindings',
};

const path = fc
  .array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join('/'));
const finding = fc.record({ pattern: fc.constantFrom(...PATTERNS), file: path });
const context = fc.record({
  agentId: fc.constantFrom(null, ...AGENTS),
  now: fc.integer({ min: 0, max: 100 }),
});
const entry: fc.Arbitrary<WhitelistScope> = fc
  .record({
    id: fc.string({ minLength: 1, maxLength: 6 }),
    pattern: fc.constantFrom(...PATTERNS),
    global: fc.boolean(),
    glob: fc.constantFrom(...GLOBS),
    agentId: fc.constantFrom(null, ...AGENTS),
    expiresAt: fc.integer({ min: 0, max: 100 }),
  })
  .map(({ global, glob, ...rest }) => ({
    ...rest,
    scope: global ? ('global' as const) : ('file' as const),
    path: global ? null : glob,
  }));
const count = fc.nat({ max: 5 });
const facts = fc.record({
  testsRemoved: count,
  assertionsRemoved: count,
  assertionsWeakened: count,
  skipPatternsAdded: count,
  featuresRemoved: count,
  lazinessFindings: count,
  testsAdded: count,
  coverageDelta: fc.option(fc.integer({ min: -20, max: 20 })),
});

describe('whitelist matching, for any entries and findings', () => {
  it('keeps or suppresses each finding exactly once, in order, and names an entry that covers it', () => {
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 5 }),
        fc.array(finding, { maxLength: 8 }),
        context,
        (entries, findings, ctx) => {
          const { kept, suppressed } = partitionFindings(entries, findings, ctx);
          expect(kept.length + suppressed.length).toBe(findings.length);
          expect(kept).toEqual(findings.filter((f) => !entries.some((e) => whitelistCovers(e, f, ctx))));
          for (const { finding: f, entryId } of suppressed) {
            expect(entries.some((e) => e.id === entryId && whitelistCovers(e, f, ctx))).toBe(true);
          }
        },
      ),
    );
  });

  it('prefers a file entry over a global one when both cover a finding', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 5 }), finding, context, (entries, f, ctx) => {
        const { suppressed } = partitionFindings(entries, [f], ctx);
        const covering = entries.filter((e) => whitelistCovers(e, f, ctx));
        if (covering.some((e) => e.scope === 'file')) {
          const named = entries.find((e) => e.id === suppressed[0]?.entryId && whitelistCovers(e, f, ctx));
          expect(named?.scope).toBe('file');
        }
      }),
    );
  });

  it('never lets an expired entry or another agent’s entry cover anything', () => {
    fc.assert(
      fc.property(entry, finding, context, (e, f, ctx) => {
        if (ctx.now >= e.expiresAt) expect(whitelistCovers(e, f, ctx)).toBe(false);
        if (e.agentId !== null && e.agentId !== ctx.agentId) expect(whitelistCovers(e, f, ctx)).toBe(false);
      }),
    );
  });

  it('reads a glob without wildcards as the literal path, special characters included', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', '.', '/', '(', ')', '+', '$', '^', '[', ']', '\\', '|') }),
        fc.string({ unit: fc.constantFrom('a', '.', '/', 'b') }),
        (glob, other) => {
          expect(globToRegExp(glob).test(glob)).toBe(true);
          expect(globToRegExp(glob).test(other)).toBe(other === glob);
        },
      ),
    );
  });

  it('takes one from the matching count per suppressed finding, never below zero, and leaves the rest', () => {
    fc.assert(
      fc.property(
        facts,
        fc.array(
          fc.constantFrom(...KINDS).map((kind) => ({ kind })),
          { maxLength: 10 },
        ),
        (before, suppressed) => {
          const after = factsWithout(before, suppressed);
          expect(after.testsAdded).toBe(before.testsAdded);
          expect(after.coverageDelta).toBe(before.coverageDelta);
          for (const field of Object.values(FACT_OF_KIND)) {
            if (field === undefined) continue;
            const taken = suppressed.filter(({ kind }) => FACT_OF_KIND[kind] === field).length;
            expect(after[field]).toBe(Math.max(0, before[field] - taken));
          }
        },
      ),
    );
  });
});
