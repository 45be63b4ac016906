import { analyzeChange } from 'gatehouse-hitl-analysis';
import { isGatehouseError } from 'gatehouse-hitl-core';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { slowChange, smallChanges } from '../../testing/analysis-changes.js';
import { type AnalysisPool, createAnalysisPool } from './analysis-pool.js';

const log = pino({ level: 'silent' });

async function errorOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isGatehouseError(error)) return error;
    throw error;
  }
  throw new Error('expected the analysis to fail');
}

const withoutTime = ({ durationMs: _durationMs, ...rest }: { durationMs: number }) => rest;

describe('the analysis worker pool', () => {
  let pool: AnalysisPool | null = null;
  afterEach(async () => {
    await pool?.close();
    pool = null;
  });

  it('answers exactly what the analysis gives on this thread', async () => {
    pool = createAnalysisPool({ log });
    for (const files of smallChanges()) {
      const inWorker = await pool.analyzeChange({ files });
      const inProcess = await analyzeChange({ files });
      expect(inWorker.findings.length).toBeGreaterThan(0);
      expect(withoutTime(inWorker)).toEqual(withoutTime(inProcess));
    }
  }, 60_000);

  it('stops an analysis over its budget, then runs the next one on a fresh worker', async () => {
    pool = createAnalysisPool({ log, timeoutMs: 1500 });
    // The first job starts the worker, whose start-up is not part of any job's budget.
    await pool.analyzeChange({ files: smallChanges()[0] ?? [] });
    const error = await errorOf(pool.analyzeChange({ files: slowChange({ heavy: true }) }));
    expect(error.code).toBe('ANALYSIS_TIMEOUT');
    expect(error.status).toBe(503);
    expect(error.details).toEqual({ limit: 'timeMs', timeoutMs: 1500 });
    expect(error.message).toContain('1500 ms');
    const next = await pool.analyzeChange({ files: smallChanges()[2] ?? [] });
    expect(next.findings.map((finding) => finding.file)).toContain('src/cart.ts');
  }, 60_000);

  it('refuses an analysis when the queue is full, naming the wait', async () => {
    pool = createAnalysisPool({ log, workers: 1, maxQueued: 1, timeoutMs: 60_000 });
    // Slots are taken as the calls are made: one runs, one waits, the third finds the queue full.
    const running = pool.analyzeChange({ files: smallChanges()[0] ?? [] });
    const queued = pool.analyzeChange({ files: smallChanges()[2] ?? [] });
    const refused = await errorOf(pool.analyzeChange({ files: smallChanges()[1] ?? [] }));
    expect(refused.code).toBe('RATE_LIMITED');
    expect(refused.details).toMatchObject({ retryAfterSeconds: 60, queued: 1, workers: 1 });
    await expect(running).resolves.toMatchObject({ facts: { testsRemoved: 1 } });
    await expect(queued).resolves.toMatchObject({ facts: { lazinessFindings: 1 } });
  }, 60_000);

  it('fails analyses still waiting when it closes', async () => {
    pool = createAnalysisPool({ log, timeoutMs: 20_000 });
    await pool.analyzeChange({ files: smallChanges()[0] ?? [] });
    const running = errorOf(pool.analyzeChange({ files: slowChange() }));
    const waiting = errorOf(pool.analyzeChange({ files: smallChanges()[1] ?? [] }));
    await pool.close();
    for (const stopped of [await running, await waiting]) {
      expect(stopped.code).toBe('SERVICE_UNAVAILABLE');
      expect(stopped.message).toContain('shutting down');
    }
    await expect(errorOf(pool.analyzeChange({ files: smallChanges()[0] ?? [] }))).resolves.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
  }, 60_000);
});
