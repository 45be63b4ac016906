import type { LightMyRequestResponse } from 'fastify';
import type { Clock } from 'gatehouse-hitl-core';
import { ensureRepo, reposDirOf } from '../workspace/repos.js';
import { cloneRepo, type TestClone } from './review-git.js';
import { approveTestPlan, createRunViaApi, type TestRun } from './runs.js';
import { bearer, type TestApp } from './test-app.js';

export type TestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request as `token`, with `payload` as its JSON body when given. */
export function callAs<C extends Clock>(
  test: TestApp<C>,
  method: TestMethod,
  url: string,
  token: string,
  payload?: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  const headers = bearer(token);
  return payload === undefined
    ? test.app.inject({ method, url, headers })
    : test.app.inject({ method, url, headers, payload });
}

/** The agent the review tests commit as. */
export const REVIEW_AGENT = { name: 'alpha', email: 'alpha@agents.invalid' };

/**
 * A run at `dependent` whose agent pushed `files` on `phase-1-strategic` and checkpointed, so its
 * phase review is open. The clone stays for further pushes; the caller removes it.
 */
export async function openPhaseReview<C extends Clock>(
  test: TestApp<C>,
  options: { title: string; files: Record<string, string> },
): Promise<{
  run: TestRun;
  repo: string;
  clone: TestClone;
  // biome-ignore lint/suspicious/noExplicitAny: test-only view of response bodies
  review: any;
  // biome-ignore lint/suspicious/noExplicitAny: test-only view of response bodies
  gate: any;
}> {
  const run = await createRunViaApi(test, { autonomy: 'dependent', title: options.title });
  await approveTestPlan(test, run.id);
  const repo = await ensureRepo(reposDirOf(test.config), run.id);
  const clone = cloneRepo(repo, { author: REVIEW_AGENT, branch: 'phase-1-strategic' });
  clone.commit(options.files, 'plan');
  clone.push('phase-1-strategic');
  const answer = await callAs(test, 'POST', `/v1/runs/${run.id}/checkpoint`, test.tokens.agent, {
    phase: 1,
    type: 'strategic',
    branch: 'phase-1-strategic',
  });
  return { run, repo, clone, review: answer.json().review, gate: answer.json().gate };
}
