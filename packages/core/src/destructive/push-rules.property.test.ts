import fc from 'fast-check';
import { runStatusSchema } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import { phaseBranchName } from '../runs/autonomy.js';
import {
  isPhaseBranch,
  judgePush,
  type PushContext,
  pushRefusalOf,
  type RefUpdate,
  ZERO_OBJECT_ID,
} from './push-rules.js';

const BRANCHES = [
  'phase-1-strategic',
  'phase-2-tactical',
  'phase-2-tactical-rev-2',
  'main',
  'feature/x',
  'phase-0-strategic',
];
const REFS = [...BRANCHES.map((branch) => `refs/heads/${branch}`), 'refs/tags/v1', 'refs/notes/commits'];
const OBJECT_ID = fc.constantFrom(ZERO_OBJECT_ID, 'a'.repeat(40), 'b'.repeat(40));

const update: fc.Arbitrary<RefUpdate> = fc.record({
  ref: fc.constantFrom(...REFS),
  old: OBJECT_ID,
  new: OBJECT_ID,
});
const context: fc.Arbitrary<PushContext> = fc.record({
  pusher: fc.constantFrom('agent' as const, 'person' as const),
  runStatus: fc.constantFrom(...runStatusSchema.options),
  openBranch: fc.option(fc.constantFrom(...BRANCHES), { nil: null }),
  frozenBranch: fc.option(fc.constantFrom(...BRANCHES), { nil: null }),
});
const ENDED = new Set(['stopped', 'completed', 'failed']);

describe('push rules, for any push', () => {
  it('lands all of a push or none of it, each refused ref with its own reason', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(update, { selector: (u) => u.ref, minLength: 1, maxLength: 4 }),
        context,
        (updates, ctx) => {
          const refused = judgePush(updates, ctx);
          const reasons = updates.map((u) => pushRefusalOf(u, ctx));
          if (reasons.every((reason) => reason === null)) {
            expect(refused).toBeNull();
            return;
          }
          expect(refused).not.toBeNull();
          expect([...(refused?.keys() ?? [])].sort()).toEqual(updates.map((u) => u.ref).sort());
          updates.forEach((u, i) => {
            if (reasons[i] !== null) expect(refused?.get(u.ref)).toBe(reasons[i]);
            else expect(refused?.get(u.ref)).toMatch(/^not pushed: .+ was refused$/);
          });
        },
      ),
    );
  });

  it('never lets a deletion through, nor anything into a run that has ended', () => {
    fc.assert(
      fc.property(update, context, (u, ctx) => {
        if (u.new === ZERO_OBJECT_ID || ENDED.has(ctx.runStatus))
          expect(pushRefusalOf(u, ctx)).not.toBeNull();
      }),
    );
  });

  it('lets an agent push only phase branches other than the one under review, and people only that one', () => {
    fc.assert(
      fc.property(update, context, (u, ctx) => {
        if (pushRefusalOf(u, ctx) !== null) return;
        if (ctx.pusher === 'agent') {
          expect(isPhaseBranch(u.ref)).toBe(true);
          expect(u.ref).not.toBe(`refs/heads/${ctx.frozenBranch}`);
        } else {
          expect(u.ref).toBe(`refs/heads/${ctx.openBranch}`);
        }
      }),
    );
  });

  it('takes every branch name core gives a phase as a phase branch', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999 }),
        fc.constantFrom('strategic' as const, 'tactical' as const),
        fc.integer({ min: 1, max: 9_999 }),
        (phase, type, revision) => {
          expect(isPhaseBranch(`refs/heads/${phaseBranchName(phase, type, revision)}`)).toBe(true);
        },
      ),
    );
  });
});
