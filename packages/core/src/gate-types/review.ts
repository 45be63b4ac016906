import { reviewBriefing } from '../briefing/briefing-builders.js';
import type { GateTypeDefinition } from '../schemas.js';
import {
  approve,
  defineGateType,
  type GateTypeBehaviour,
  type GateTypeSpec,
  reject,
  steer,
} from './define.js';

/** What the review gates of the guardrails seed share; `definition` overrides the defaults. */
export function reviewGateType(
  review: Pick<GateTypeDefinition, 'type' | 'title' | 'trigger'> & {
    definition?: Partial<GateTypeDefinition>;
  } & Partial<GateTypeBehaviour>,
): GateTypeSpec {
  const { type, title, trigger, definition, ...behaviour } = review;
  return defineGateType({
    definition: {
      type,
      title,
      trigger,
      threshold: 'mandatory',
      defaultRisk: 'medium',
      defaultTimeoutAction: 'deny',
      options: [approve('a'), reject('r'), steer('s')],
      steerable: true,
      minRole: 'developer',
      signature: 'never',
      retentionDays: 365,
      ...definition,
    },
    briefing: reviewBriefing(title),
    batchable: true,
    withdrawable: false,
    openedBy: 'agent',
    ...behaviour,
  });
}
