import type { FileChange } from 'gatehouse-hitl-analysis';
import {
  broadGlobRefusal,
  type Gate,
  GatehouseError,
  isWhitelistActive,
  partitionFindings,
  type Suppressed,
  WHITELIST_MS,
} from 'gatehouse-hitl-core';
import type { CreateWhitelistBody, RenewWhitelistBody, WhitelistEntry } from 'gatehouse-hitl-protocol';
import type { DetectionRecord, WhitelistRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import type { KeyedFinding } from '../analysis/findings.js';
import { type CommitTools, commit, type WorkTx } from '../commit.js';
import { invalidInput } from '../gates/gate-input.js';
import { retryLostUpdates } from '../lost-update.js';
import type { GateService } from '../types.js';
import { learnedConfidence, snippetOf } from './learning.js';
import { checkPatternRate, learnedExamples, type PatternStats, patternStats } from './pattern-rates.js';
import { checkPatternId, recordWhitelistDecision } from './whitelist-decisions.js';
import { closeReview, renewed, reviewExpired } from './whitelist-review.js';

type User = Extract<Principal, { kind: 'user' }>;

/** What an analysis hands over: its findings, the change, and whose agent it is. */
export interface FilterInput<F extends KeyedFinding> {
  findings: readonly F[];
  files: readonly FileChange[];
  agentId: string | null;
}

/** Findings that stay (confidence possibly lowered) and those an entry suppressed. */
export interface Screened<F> {
  kept: F[];
  suppressed: Suppressed<F>[];
}

/** Whitelist entries, their expiry reviews, the per-pattern rates and the learning from false positives. */
export interface WhitelistService {
  list(user: User): Promise<WhitelistEntry[]>;
  create(user: User, body: CreateWhitelistBody): Promise<WhitelistEntry>;
  remove(user: User, id: string): Promise<WhitelistEntry>;
  renew(user: User, id: string, body: RenewWhitelistBody): Promise<WhitelistEntry>;
  patterns(): Promise<PatternStats[]>;
  /** Drops findings an active entry covers and lowers the confidence of findings like confirmed false positives. */
  screen<F extends KeyedFinding>(input: FilterInput<F>): Promise<Screened<F>>;
  /**
   * In the run's commit: records every detection (suppressed ones with their entry), counts each
   * entry's suppressions, checks the patterns' false-positive rates and opens due re-review gates.
   */
  recordInCommit<F extends KeyedFinding>(
    tools: CommitTools,
    input: FilterInput<F> & { runId: string },
    screened: Screened<F>,
  ): Promise<void>;
  /** Opens a re-review gate for each expired entry without one. */
  reviewExpired(): Promise<Gate[]>;
  /** The gate-decision hook: whitelist decisions, re-reviews and the false-positive rate. */
  recordDecision(tools: CommitTools, gate: Gate): Promise<void>;
}

export function whitelistDocument(entry: WhitelistRecord, now: number): WhitelistEntry {
  return { ...entry, status: isWhitelistActive(entry, now) ? 'active' : 'expired' };
}

async function loadEntry(tx: WorkTx, id: string): Promise<WhitelistRecord> {
  const entry = await tx.getWhitelist(id);
  if (entry === null) throw new GatehouseError('NOT_FOUND', `whitelist entry ${id} not found`, { id });
  return entry;
}

async function learn<F extends KeyedFinding>(tx: WorkTx, input: FilterInput<F>, kept: F[]): Promise<F[]> {
  const examples = new Map<string, string[]>();
  const out: F[] = [];
  for (const finding of kept) {
    if (!examples.has(finding.pattern))
      examples.set(finding.pattern, await learnedExamples(tx, finding.pattern));
    const confidence = learnedConfidence(
      finding.confidence,
      snippetOf(input.files, finding),
      examples.get(finding.pattern) ?? [],
    );
    out.push(confidence === finding.confidence ? finding : { ...finding, confidence });
  }
  return out;
}

async function recordDetections<F extends KeyedFinding>(
  ctx: AppContext,
  tools: CommitTools,
  runId: string,
  input: FilterInput<F>,
  result: Screened<F>,
): Promise<void> {
  const { tx } = tools;
  const detection = (finding: F, suppressedBy: string | null): DetectionRecord => ({
    id: ctx.ids.next('det'),
    pattern: finding.pattern,
    runId,
    findingKey: finding.key,
    file: finding.file,
    snippet: snippetOf(input.files, finding),
    confidence: finding.confidence,
    suppressedBy,
    createdAt: tx.now,
  });
  await tx.insertDetections([
    ...result.kept.map((finding) => detection(finding, null)),
    ...result.suppressed.map(({ finding, entryId }) => detection(finding, entryId)),
  ]);
  const perEntry = new Map<string, number>();
  for (const { entryId } of result.suppressed) perEntry.set(entryId, (perEntry.get(entryId) ?? 0) + 1);
  for (const [entryId, count] of perEntry) await tx.addWhitelistSuppressed(entryId, count);
  for (const pattern of new Set(input.findings.map((finding) => finding.pattern)))
    await checkPatternRate(tools, pattern);
}

/** Creates the whitelist service; gates open the re-review of expired entries. */
export function createWhitelistService(ctx: AppContext, deps: { gates: GateService }): WhitelistService {
  async function filterWith<F extends KeyedFinding>(tx: WorkTx, input: FilterInput<F>): Promise<Screened<F>> {
    const split = partitionFindings(await tx.listWhitelists(), input.findings, {
      agentId: input.agentId,
      now: tx.now,
    });
    return { kept: await learn(tx, input, split.kept), suppressed: split.suppressed };
  }

  return {
    async list() {
      const entries = await retryLostUpdates(() =>
        commit(ctx, async (tools) => {
          await reviewExpired(deps.gates, tools);
          return tools.tx.listWhitelists();
        }),
      );
      const now = ctx.clock.now();
      return entries.map((entry) => whitelistDocument(entry, now));
    },
    create(user, body) {
      const pattern = checkPatternId(body.pattern);
      const tooBroad = body.path === undefined ? null : broadGlobRefusal(body.path);
      if (tooBroad !== null) throw invalidInput('path', tooBroad);
      return commit(ctx, async ({ tx, audit }) => {
        const entry: WhitelistRecord = {
          id: ctx.ids.next('wl'),
          pattern,
          scope: body.scope,
          path: body.path ?? null,
          agentId: body.agentId ?? null,
          justification: body.justification,
          createdBy: `user:${user.id}`,
          createdAt: tx.now,
          expiresAt: tx.now + WHITELIST_MS,
          reviewedAt: null,
          reviewGateId: null,
          sourceGateId: null,
          suppressed: 0,
        };
        await tx.insertWhitelist(entry);
        const { justification: _j, ...data } = entry;
        await audit({
          kind: 'whitelist.created',
          actor: entry.createdBy,
          subject: entry.id,
          data: { ...data, justification: body.justification },
        });
        return whitelistDocument(entry, tx.now);
      });
    },
    remove(user, id) {
      return commit(ctx, async (tools) => {
        const { tx, audit } = tools;
        const entry = await loadEntry(tx, id);
        await closeReview(tools, entry, `user:${user.id}`, 'the whitelist entry was removed');
        await tx.deleteWhitelist(id);
        await audit({
          kind: 'whitelist.deleted',
          actor: `user:${user.id}`,
          subject: id,
          data: { pattern: entry.pattern },
        });
        return whitelistDocument(entry, tx.now);
      });
    },
    renew(user, id, body) {
      return commit(ctx, async (tools) => {
        const { tx, audit } = tools;
        const entry = await loadEntry(tx, id);
        await closeReview(tools, entry, `user:${user.id}`, 'the whitelist entry was renewed');
        const next = renewed(entry, tx.now, body.justification);
        await tx.updateWhitelist(next);
        await audit({
          kind: 'whitelist.renewed',
          actor: `user:${user.id}`,
          subject: id,
          data: { expiresAt: next.expiresAt },
        });
        return whitelistDocument(next, tx.now);
      });
    },
    patterns() {
      return ctx.store.read((tx) => patternStats(tx));
    },
    screen(input) {
      return ctx.store.read((tx) => filterWith(tx, input));
    },
    async recordInCommit(tools, input, screened) {
      await reviewExpired(deps.gates, tools);
      await recordDetections(ctx, tools, input.runId, input, screened);
    },
    reviewExpired() {
      return retryLostUpdates(() => commit(ctx, (tools) => reviewExpired(deps.gates, tools)));
    },
    recordDecision(tools, gate) {
      return recordWhitelistDecision(tools, ctx.ids, gate);
    },
  };
}
