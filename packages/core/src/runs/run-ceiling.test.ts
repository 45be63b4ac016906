import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatehouseError } from '../errors.js';
import { AUTONOMY_LEVELS, type AutonomyLevel } from '../schemas.js';
import { isAtLeastAsStrict, resolveRunSettings } from './run-ceiling.js';

function refusal(run: () => unknown): GatehouseError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatehouseError);
    return error as GatehouseError;
  }
  throw new Error('expected ABOVE_CEILING');
}

const agentAt = (autonomy: AutonomyLevel) => ({ profile: null, autonomy });

// Each level beside the one just looser than it (full < review < partial < guided < dependent).
const ONE_STEP_LOOSER: [AutonomyLevel, AutonomyLevel][] = [
  ['review', 'full'],
  ['partial', 'review'],
  ['guided', 'partial'],
  ['dependent', 'guided'],
];

describe('a run’s autonomy against the agent’s ceiling', () => {
  it.each(ONE_STEP_LOOSER)('refuses an agent at %s a run one step looser, at %s', (ceiling, looser) => {
    const error = refusal(() => resolveRunSettings(agentAt(ceiling), { autonomy: looser }, false));
    expect(error.code).toBe('ABOVE_CEILING');
    expect(error.details).toMatchObject({ field: 'autonomy', ceiling, requested: looser });
    expect(error.message).toContain('tech_lead');
  });

  it.each(ONE_STEP_LOOSER)(
    'lets a person allowed to loosen start the %s agent’s run at %s',
    (ceiling, looser) => {
      expect(resolveRunSettings(agentAt(ceiling), { autonomy: looser }, true).autonomy).toBe(looser);
    },
  );

  it('refuses the profile’s ceiling one step looser too (a validator reviews, so full is refused)', () => {
    const error = refusal(() =>
      resolveRunSettings({ profile: 'validator', autonomy: null }, { autonomy: 'full' }, false),
    );
    expect(error.details).toMatchObject({ ceiling: 'review', requested: 'full' });
  });

  it('accepts the agent’s own level and anything stricter; refuses anything looser', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...AUTONOMY_LEVELS),
        fc.constantFrom(...AUTONOMY_LEVELS),
        (ceiling, asked) => {
          const stricter = AUTONOMY_LEVELS.indexOf(asked) >= AUTONOMY_LEVELS.indexOf(ceiling);
          expect(isAtLeastAsStrict(asked, ceiling)).toBe(stricter);
          if (stricter) {
            expect(resolveRunSettings(agentAt(ceiling), { autonomy: asked }, false).autonomy).toBe(asked);
          } else {
            const error = refusal(() => resolveRunSettings(agentAt(ceiling), { autonomy: asked }, false));
            expect(error.code).toBe('ABOVE_CEILING');
          }
        },
      ),
    );
  });

  it('takes the agent’s level when the run names none', () => {
    expect(resolveRunSettings(agentAt('guided'), {}, false).autonomy).toBe('guided');
  });
});
