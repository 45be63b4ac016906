/**
 * Every `event:` name the server sends on run and inbox streams (`GET /v1/runs/{id}/events`,
 * `GET /v1/inbox/events`); docs/events.md lists the same names, and a test keeps them equal.
 */
export const STREAM_EVENT_NAMES = [
  'gate.opened',
  'gate.vote',
  'gate.decided',
  'gate.expired',
  'gate.escalated',
  'gate.extended',
  'gate.assigned',
  'gate.cancelled',
  'gate.consumed',
  'gate.steer_failed',
  'run.status',
  'run.phase',
  'intervention',
  'request.allowed',
  'request.denied',
  'workspace.pushed',
  'review.updated',
  'analysis.false_positive_rate',
  'analysis.recorded',
] as const;

/** The name of one stream event, e.g. `gate.decided`. */
export type StreamEventName = (typeof STREAM_EVENT_NAMES)[number];

/** True when `name` is an event the server sends on its streams. */
export function isStreamEventName(name: string): name is StreamEventName {
  return (STREAM_EVENT_NAMES as readonly string[]).includes(name);
}
