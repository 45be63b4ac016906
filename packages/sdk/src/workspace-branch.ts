import type { PhaseType } from 'gatehouse-hitl-protocol';

/** Which phase branch: `phase-{phase}-{type}`, or `…-rev-{revision}` after a request for changes. */
export interface PhaseBranchSpec {
  /** The phase, from 1. */
  phase: number;
  type: PhaseType;
  /**
   * 1 for the first push of a phase, 2, 3… for the answers to a review that asked for changes.
   * @default 1
   */
  revision?: number | undefined;
}

/** A phase branch's parts, as read back from its name. */
export interface PhaseBranch {
  name: string;
  phase: number;
  type: PhaseType;
  revision: number;
}

const PHASE_BRANCH = /^phase-([1-9][0-9]{0,4})-(strategic|tactical)(?:-rev-([1-9][0-9]{0,3}))?$/;

function wholeNumber(field: string, value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw new RangeError(`${field} must be a whole number from 1 to ${max} (got ${String(value)})`);
  }
  return value;
}

/**
 * The branch name the server expects for a phase, checked the way the server checks it.
 *
 * @example
 * phaseBranchName({ phase: 1, type: 'strategic', revision: 2 }); // 'phase-1-strategic-rev-2'
 */
export function phaseBranchName(spec: PhaseBranchSpec): string {
  const phase = wholeNumber('phase', spec.phase, 99_999);
  if (spec.type !== 'strategic' && spec.type !== 'tactical') {
    throw new TypeError(`type must be strategic or tactical (got ${String(spec.type)})`);
  }
  const revision = wholeNumber('revision', spec.revision ?? 1, 9_999);
  return revision === 1 ? `phase-${phase}-${spec.type}` : `phase-${phase}-${spec.type}-rev-${revision}`;
}

/**
 * Reads a phase branch's name; null for any other branch (`main`, a typo).
 *
 * @example
 * parsePhaseBranch('phase-2-tactical-rev-3'); // { name, phase: 2, type: 'tactical', revision: 3 }
 */
export function parsePhaseBranch(name: string): PhaseBranch | null {
  const match = PHASE_BRANCH.exec(name);
  if (match === null) return null;
  return {
    name,
    phase: Number(match[1]),
    type: match[2] as PhaseType,
    revision: match[3] === undefined ? 1 : Number(match[3]),
  };
}

/** The branch a revision answers: the one before it (`-rev-2` answers the first push). */
export function previousRevision(spec: PhaseBranchSpec): string | null {
  const revision = spec.revision ?? 1;
  return revision <= 1 ? null : phaseBranchName({ ...spec, revision: revision - 1 });
}
