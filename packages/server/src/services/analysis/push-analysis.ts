import { isGatehouseError } from 'gatehouse-hitl-core';
import type { ReviewFile } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../../context.js';
import { changedFiles, mergeBase, readFile } from '../../workspace/git-ops.js';
import { repoPathOf, reposDirOf } from '../../workspace/repos.js';
import { commit } from '../commit.js';
import type { PushedRef } from '../workspace/git-hosting.js';
import type { AnalysisService, AnalyzeInput } from './analysis-service.js';

/** The largest file a push's analysis reads; bigger files are left out of it. */
export const PUSH_FILE_MAX_BYTES = 1024 * 1024;
/** The branch a phase branch's review merges into; every push is judged against it. */
const BASE_BRANCH = 'main';

type PushedFile = NonNullable<AnalyzeInput['files']>[number];

/** Analyses, after each agent push of a phase branch, the branch's whole change against main, in the background. */
export interface PushAnalysis {
  /** Queues the analysis of `refs` pushed by the run's agent; returns at once and never throws. */
  afterAgentPush(runId: string, agentId: string, refs: readonly PushedRef[]): void;
  /** Resolves once every queued analysis has finished. */
  idle(): Promise<void>;
}

/** Whole text of `path` at `commit`; null when absent, binary or over the size limit. */
async function textAt(repo: string, commit: string, path: string): Promise<string | null> {
  try {
    const file = await readFile(repo, commit, path, { maxBytes: PUSH_FILE_MAX_BYTES });
    return file === null || file.binary ? null : file.text;
  } catch (error) {
    if (isGatehouseError(error) && error.code === 'PAYLOAD_TOO_LARGE') return null;
    throw error;
  }
}

async function fileChange(repo: string, from: string, to: string, file: ReviewFile) {
  const oldPath = file.oldPath ?? file.path;
  const before = file.status === 'added' ? null : await textAt(repo, from, oldPath);
  const after = file.status === 'deleted' ? null : await textAt(repo, to, file.path);
  // A side that could not be read as text (binary, too large) would pass for an added or deleted file.
  if ((before === null && file.status !== 'added') || (after === null && file.status !== 'deleted'))
    return null;
  if (before === null && after === null) return null;
  return { path: file.path, oldPath: file.oldPath ?? undefined, before, after } satisfies PushedFile;
}

/** The text files the branch changed since it left main, whole before and after. */
export async function pushedFiles(
  repo: string,
  ref: PushedRef,
): Promise<{ from: string; files: PushedFile[] }> {
  // Judged from main, not from the previous push: a change split over pushes is seen whole.
  const base = await mergeBase(repo, BASE_BRANCH, ref.new);
  const listed = await changedFiles(repo, base, ref.new);
  const files: PushedFile[] = [];
  for (const file of listed) {
    if (file.binary) continue;
    const change = await fileChange(repo, base, ref.new, file);
    if (change !== null) files.push(change);
  }
  return { from: base, files };
}

/** Creates the push analysis: each phase branch an agent pushes goes through `analysis` as that agent. */
export function createPushAnalysis(
  ctx: AppContext,
  deps: { analysis: Pick<AnalysisService, 'analyze'> },
): PushAnalysis {
  const reposDir = reposDirOf(ctx.config);
  const running = new Set<Promise<void>>();

  async function analyzeRef(runId: string, agentId: string, ref: PushedRef): Promise<void> {
    const repo = repoPathOf(reposDir, runId);
    const { from, files } = await pushedFiles(repo, ref);
    if (files.length === 0) return;
    await deps.analysis.analyze(
      { kind: 'agent', id: agentId },
      { runId, files, action: { tool: 'git_push', args: { branch: ref.branch, from, to: ref.new } } },
      { pushed: true },
    );
  }

  async function failed(runId: string, agentId: string, ref: PushedRef, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    // ANALYSIS_TIMEOUT and RATE_LIMITED say the change went unanalysed for want of time, not for a fault.
    const code = isGatehouseError(error) ? error.code : null;
    ctx.log.warn({ runId, branch: ref.branch, err: error }, 'could not analyse a pushed branch');
    try {
      await commit(ctx, (tools) =>
        tools.audit({
          kind: 'analysis.push_failed',
          actor: `agent:${agentId}`,
          subject: runId,
          data: { runId, branch: ref.branch, old: ref.old, new: ref.new, error: message, code },
        }),
      );
    } catch (auditError) {
      ctx.log.warn({ runId, err: auditError }, 'could not audit a failed push analysis');
    }
  }

  async function analyzePush(runId: string, agentId: string, refs: readonly PushedRef[]): Promise<void> {
    for (const ref of refs) {
      if (!ref.branch.startsWith('phase-') || ref.ref !== `refs/heads/${ref.branch}`) continue;
      await analyzeRef(runId, agentId, ref).catch((error: unknown) => failed(runId, agentId, ref, error));
    }
  }

  return {
    afterAgentPush(runId, agentId, refs) {
      // Deferred past the current tick so git's answer goes out before any parsing starts.
      const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => analyzePush(runId, agentId, refs))
        .catch((error: unknown) => ctx.log.warn({ runId, err: error }, 'push analysis failed'))
        .finally(() => running.delete(task));
      running.add(task);
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
