import type { Readable } from 'node:stream';
import {
  GatehouseError,
  hasRole,
  judgePush,
  pushRunRefusal,
  type RefUpdate,
  ZERO_OBJECT_ID,
} from 'gatehouse-hitl-core';
import type { AppContext } from '../../context.js';
import { actorOf, type Principal } from '../../http/principal.js';
import { gitText } from '../../workspace/git.js';
import { type BackendPath, type BackendResponse, runHttpBackend } from '../../workspace/http-backend.js';
import {
  canReport,
  type PushCommands,
  parsePushCommands,
  refusalReport,
} from '../../workspace/push-policy.js';
import { ensureRepo, reposDirOf } from '../../workspace/repos.js';
import { commit } from '../commit.js';
import { assertCanReadRun, loadRun, type RunDocument } from '../runs/run-records.js';
import { type ByteMeter, collect, decodedBody, drain, metered, prepend, readHead } from './git-streams.js';

/** One smart-HTTP request, as the route hands it over. */
export interface GitRequest {
  principal: Principal;
  runId: string;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  gitProtocol: string | undefined;
  remoteAddr: string;
  body: Readable | null;
}

/** What to send back: git's own answer, or a refusal git prints as `! [remote rejected]`. */
export interface GitAnswer {
  status: number;
  headers: Record<string, string>;
  body: Readable | Buffer;
}

/** A ref a push moved: `old` is null for a new branch. */
export interface PushedRef {
  ref: string;
  branch: string;
  old: string | null;
  new: string;
}

export interface GitHosting {
  /** `GET …/workspace.git/info/refs?service=`. */
  advertise(request: GitRequest, service: 'git-upload-pack' | 'git-receive-pack'): Promise<GitAnswer>;
  /** `POST …/workspace.git/git-upload-pack`: clone and fetch. */
  uploadPack(request: GitRequest): Promise<GitAnswer>;
  /** `POST …/workspace.git/git-receive-pack`: push, under the push rules. */
  receivePack(request: GitRequest): Promise<GitAnswer>;
}

export interface GitHostingDeps {
  /** The branch of the run's open review, which people may push to; null when none is open. */
  openBranch(runId: string): Promise<string | null>;
  /** The branch of the run's review waiting for people's decision, which its agent may not change. */
  frozenBranch(runId: string): Promise<string | null>;
  /** Told of the refs the run's agent moved once its push has landed; must return at once. */
  afterAgentPush?(runId: string, agentId: string, refs: PushedRef[]): void;
}

/** Fetch negotiations are small; a body past this is not a git client's. */
const UPLOAD_REQUEST_LIMIT = 64 * 1024 * 1024;
const REPORT_LIMIT = 16 * 1024 * 1024;
/** How much of an oversized push is still read (and dropped) so git can print why; past it the connection closes. */
const DRAIN_LIMIT = 256 * 1024 * 1024;
const RESULT_TYPE = 'application/x-git-receive-pack-result';

function pusherOf(principal: Principal, run: RunDocument): 'agent' | 'person' {
  assertCanReadRun(principal, run);
  if (principal.kind === 'agent') return 'agent';
  if (principal.kind === 'user' && hasRole(principal.role, 'developer')) return 'person';
  const role = principal.kind === 'user' ? principal.role : 'none';
  throw new GatehouseError('ROLE_TOO_LOW', `pushing needs role developer or higher (you are ${role})`, {
    required: 'developer',
    role,
  });
}

function assertTakesPushes(run: RunDocument): void {
  const refusal = pushRunRefusal(run.status);
  if (refusal === null) return;
  const code = run.status === 'stopped' ? 'RUN_STOPPED' : 'RUN_NOT_ACTIVE';
  throw new GatehouseError(code, refusal, { runId: run.id, status: run.status });
}

function report(body: Buffer): GitAnswer {
  return { status: 200, headers: { 'content-type': RESULT_TYPE, 'cache-control': 'no-cache' }, body };
}

/** Hosts each run's repository over git's smart HTTP with `git http-backend`. */
export function createGitHosting(ctx: AppContext, deps: GitHostingDeps): GitHosting {
  const reposDir = reposDirOf(ctx.config);
  const pushLimit = ctx.config.gitPushLimitBytes;

  async function openRun(request: GitRequest): Promise<{ run: RunDocument; repo: string }> {
    const run = await ctx.store.read((tx) => loadRun(tx, request.runId));
    assertCanReadRun(request.principal, run);
    return { run, repo: await ensureRepo(reposDir, run.id) };
  }

  function backend(request: GitRequest, path: BackendPath, query: string, body: Readable | null) {
    return runHttpBackend({
      reposDir,
      repo: `${request.runId}.git`,
      path,
      method: body === null ? 'GET' : 'POST',
      query,
      contentType: request.contentType,
      gitProtocol: request.gitProtocol,
      remoteUser: actorOf(request.principal),
      remoteAddr: request.remoteAddr,
      body,
      config: { 'receive.maxInputSize': String(pushLimit) },
    });
  }

  function answer(response: BackendResponse, body: Readable | Buffer = response.body): GitAnswer {
    return { status: response.status, headers: response.headers, body };
  }

  async function recordPush(request: GitRequest, run: RunDocument, refs: PushedRef[]): Promise<void> {
    await commit(ctx, async (tools) => {
      await tools.audit({
        kind: 'workspace.pushed',
        actor: actorOf(request.principal),
        subject: run.id,
        data: { refs },
      });
      await tools.emit({
        type: 'workspace.pushed',
        runId: run.id,
        agentId: run.agentId,
        gateId: null,
        data: { refs },
      });
    });
  }

  async function movedRefs(repo: string, updates: RefUpdate[]): Promise<PushedRef[]> {
    const listed = await gitText(repo, ['for-each-ref', '--format=%(objectname) %(refname)']);
    const heads = new Map(listed.split('\n').map((line) => [line.slice(41), line.slice(0, 40)] as const));
    return updates
      .filter((update) => heads.get(update.ref) === update.new)
      .map((update) => ({
        ref: update.ref,
        branch: update.ref.replace(/^refs\/heads\//, ''),
        old: update.old === ZERO_OBJECT_ID ? null : update.old,
        new: update.new,
      }));
  }

  async function refuse(
    commands: PushCommands,
    reasons: Map<string, string>,
    message?: string,
  ): Promise<GitAnswer> {
    if (!canReport(commands)) {
      throw new GatehouseError('FORBIDDEN', [...reasons.values()][0] ?? 'push refused');
    }
    return report(refusalReport(commands, reasons, message === undefined ? {} : { message }));
  }

  /** Runs receive-pack on an accepted push; its short report is held until git is done and the push recorded. */
  async function land(
    request: GitRequest,
    target: { run: RunDocument; repo: string },
    push: { commands: PushCommands; head: Buffer; body: ByteMeter; pusher: 'agent' | 'person' },
  ): Promise<GitAnswer> {
    const { commands, body } = push;
    const response = await backend(request, 'git-receive-pack', '', prepend(push.head, body));
    const output = await collect(response.body, REPORT_LIMIT);
    const { code, stderr } = await response.exited;
    if (body.exceeded) {
      await drain(body);
      const reason = `push is larger than the ${pushLimit} bytes limit`;
      const reasons = new Map(commands.updates.map((update) => [update.ref, reason] as const));
      return refuse(commands, reasons, `${reason} (GATEHOUSE_GIT_PUSH_LIMIT_BYTES); nothing was kept`);
    }
    if (code !== 0) ctx.log.warn({ runId: target.run.id, code, stderr }, 'git receive-pack failed');
    const refs = await movedRefs(target.repo, commands.updates);
    if (refs.length > 0) await recordPush(request, target.run, refs);
    if (refs.length > 0 && push.pusher === 'agent')
      deps.afterAgentPush?.(target.run.id, target.run.agentId, refs);
    return answer(response, output);
  }

  return {
    async advertise(request, service) {
      const { run } = await openRun(request);
      if (service === 'git-receive-pack') {
        pusherOf(request.principal, run);
        assertTakesPushes(run);
      }
      return answer(await backend(request, 'info/refs', `service=${service}`, null));
    },

    async uploadPack(request) {
      await openRun(request);
      const body = metered(requestBody(request), UPLOAD_REQUEST_LIMIT, 0);
      return answer(await backend(request, 'git-upload-pack', '', body));
    },

    async receivePack(request) {
      const target = await openRun(request);
      const pusher = pusherOf(request.principal, target.run);
      const body = metered(requestBody(request), pushLimit, DRAIN_LIMIT);
      const { commands, head } = await readCommands(body);
      const refused = judgePush(commands.updates, {
        pusher,
        runStatus: target.run.status,
        openBranch: pusher === 'person' ? await deps.openBranch(target.run.id) : null,
        frozenBranch: pusher === 'agent' ? await deps.frozenBranch(target.run.id) : null,
      });
      if (refused === null) return land(request, target, { commands, head, body, pusher });
      await drain(body);
      return refuse(commands, refused);
    },
  };
}

function requestBody(request: GitRequest): Readable {
  if (request.body === null)
    throw new GatehouseError('VALIDATION_FAILED', 'body: required', { field: 'body' });
  return decodedBody(request.body, request.contentEncoding);
}

/** The ref updates a push starts with, read before git sees any of it; bad input is drained and refused. */
async function readCommands(body: ByteMeter): Promise<{ commands: PushCommands; head: Buffer }> {
  const { parsed, head } = await readHead(body, parsePushCommands);
  if (parsed !== null && !('error' in parsed)) return { commands: parsed.commands, head };
  await drain(body);
  const message = parsed === null ? 'the push ended before its commands' : parsed.error;
  throw new GatehouseError('VALIDATION_FAILED', `body: ${message}`, { field: 'body' });
}
