import { globToRegExp, WHITELIST_MS } from 'gatehouse-hitl-core';
import { invalidInput } from '../gates/gate-input.js';
import type { WhitelistChoice } from '../types.js';

const DAY_MS = 86_400_000;

/** Paths far apart from each other: a glob that matches them all covers every file. */
const SPREAD = ['a', 'README.md', '.env', 'src/index.ts', 'deep/er/nested/x.py', 'test/a.test.js'];

/** True when a glob matches every one of `SPREAD` (`**`, `**\/*`, `*\/**`): it whitelists everywhere. */
export function coversEverything(glob: string): boolean {
  const matcher = globToRegExp(glob.replace(/^\.?\//, ''));
  return SPREAD.every((path) => matcher.test(path));
}

/** The entry a Whitelist decision creates, as the person chose it. */
export interface ChosenScope {
  path: string;
  agentId: string | null;
  expiresInMs: number;
}

/**
 * The scope of a Whitelist decision's entry from the person's choice in the decision, never from the
 * gate's context: the finding's file unless they typed a glob that matches it and not every file,
 * the gate's agent unless they chose every agent, 90 days unless they chose fewer.
 */
export function chosenScope(
  choice: WhitelistChoice | undefined,
  finding: { file: string; agentId: string | null },
): ChosenScope {
  const path = choice?.path?.trim() || finding.file;
  if (path !== finding.file) {
    if (coversEverything(path))
      throw invalidInput(
        'whitelist.path',
        `${path} matches every file; type a glob for the folder or files the pattern is fine in, or add a global entry on the whitelists page`,
      );
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
