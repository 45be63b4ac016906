import { broadGlobRefusal, globToRegExp, WHITELIST_MS } from 'gatehouse-hitl-core';
import { invalidInput } from '../gates/gate-input.js';
import type { WhitelistChoice } from '../types.js';

const DAY_MS = 86_400_000;

/** The entry a Whitelist decision creates, as the person chose it. */
export interface ChosenScope {
  path: string;
  agentId: string | null;
  expiresInMs: number;
}

/**
 * The scope of a Whitelist decision's entry from the person's choice in the decision, never from the
 * gate's context: the finding's file unless they typed a glob that matches it and is not too broad
 * (core's `broadGlobRefusal`), the gate's agent unless they chose every agent, 90 days unless they
 * chose fewer.
 */
export function chosenScope(
  choice: WhitelistChoice | undefined,
  finding: { file: string; agentId: string | null },
): ChosenScope {
  const path = choice?.path?.trim() || finding.file;
  if (path !== finding.file) {
    const tooBroad = broadGlobRefusal(path);
    if (tooBroad !== null) throw invalidInput('whitelist.path', tooBroad);
    if (!globToRegExp(path).test(finding.file))
      throw invalidInput('whitelist.path', `${path} does not match the finding's file ${finding.file}`);
  }
  const days = choice?.expiresInDays;
  return {
    path,
    agentId: choice?.agents === 'every' ? null : finding.agentId,
    expiresInMs: days === undefined ? WHITELIST_MS : days * DAY_MS,
  };
}
