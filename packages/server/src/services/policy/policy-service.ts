import {
  type CompiledPolicy,
  createFailClosedPolicy,
  DEFAULT_POLICY_YAML,
  type GateCatalog,
  GatehouseError,
  isGatehouseError,
  loadPolicy,
  type PolicyFormat,
} from 'gatehouse-hitl-core';
import type { PolicyVersion } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { commit } from '../commit.js';
import { autoProceedDelayOf } from '../gates/gate-evaluate.js';
import { type DryRunInput, type DryRunResult, dryRunPolicy } from './policy-dry-run.js';
import { createPolicyEvaluator } from './policy-evaluator.js';

/** The active policy as the API shows it. */
export interface PolicyView extends PolicyVersion {
  name: string;
  /** Why the stored policy could not be loaded (every request is gated meanwhile); null when it loaded. */
  failure: string | null;
}

/** A version in the history, without its text. */
export type PolicyVersionSummary = Omit<PolicyVersion, 'source'>;

/** Holds the active, compiled policy; changes are validated, versioned and audited. */
export interface PolicyService {
  /** Loads the active version, storing the default policy as version 1 on a fresh database. */
  start(): Promise<void>;
  /** The compiled policy every request is evaluated against. */
  current(): CompiledPolicy;
  /** Validates `source`; throws POLICY_INVALID naming each faulty rule. */
  compile(source: string, format: PolicyFormat): CompiledPolicy;
  get(): Promise<PolicyView>;
  replace(
    userId: string,
    input: { source: string; format: PolicyFormat },
  ): Promise<PolicyView & { previousVersion: number | null }>;
  versions(): Promise<PolicyVersionSummary[]>;
  version(n: number): Promise<PolicyVersion>;
  /** What a request would meet under the active policy, or under `source` when given. */
  dryRun(input: DryRunInput): Promise<DryRunResult>;
  /** Stops the dry-run workers. */
  close(): Promise<void>;
}

function withErrorList(error: unknown): unknown {
  if (!isGatehouseError(error) || error.code !== 'POLICY_INVALID') return error;
  // docs/errors.md promises `details.errors`; core names them `issues`.
  return new GatehouseError(
    'POLICY_INVALID',
    error.message,
    { ...error.details, errors: error.details.issues ?? [] },
    error.cause,
  );
}

function summary({ source: _source, ...rest }: PolicyVersion): PolicyVersionSummary {
  return rest;
}

/** Creates the policy service; call `start()` before the first request. */
export function createPolicyService(ctx: AppContext, catalog: GateCatalog): PolicyService {
  const gateTypes = () => catalog.list().map((definition) => definition.type);
  let compiled: CompiledPolicy = createFailClosedPolicy('the policy has not been loaded yet');
  let activeVersion = 0;
  const evaluator = createPolicyEvaluator({
    log: ctx.log,
    timeoutMs: ctx.config.dryRunTimeoutMs,
    maxMemoryMb: ctx.config.dryRunMemoryMb,
  });

  function compile(source: string, format: PolicyFormat): CompiledPolicy {
    try {
      return loadPolicy(source, format, { gateTypes: gateTypes() });
    } catch (error) {
      throw withErrorList(error);
    }
  }

  function activate(stored: PolicyVersion): void {
    if (stored.version < activeVersion) return;
    activeVersion = stored.version;
    try {
      compiled = compile(stored.source, stored.format);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      ctx.log.error(
        { err: error, version: stored.version },
        'stored policy does not load; gating every request',
      );
      compiled = createFailClosedPolicy(message);
    }
  }

  async function storeDefault(): Promise<PolicyVersion> {
    return commit(ctx, async ({ tx, audit }) => {
      const existing = await tx.getActivePolicy();
      if (existing !== null) return existing;
      const stored = await tx.insertPolicyVersion({
        source: DEFAULT_POLICY_YAML,
        format: 'yaml',
        createdBy: 'system',
        createdAt: tx.now,
      });
      await audit({
        kind: 'policy.replaced',
        actor: 'system',
        subject: 'policy',
        data: { version: stored.version, previousVersion: null, name: 'default' },
      });
      return stored;
    });
  }

  function view(stored: PolicyVersion): PolicyView {
    const loaded = stored.version === activeVersion ? compiled : null;
    return { ...stored, name: loaded?.name ?? 'unknown', failure: loaded?.failure ?? null };
  }

  async function readActive(): Promise<PolicyVersion> {
    const stored = await ctx.store.read((tx) => tx.getActivePolicy());
    if (stored === null) throw new GatehouseError('NOT_FOUND', 'no policy is stored yet');
    return stored;
  }

  let refresher: ReturnType<typeof setInterval> | null = null;

  /** Takes up a version another node stored; a failed read keeps the policy this node has. */
  async function refresh(): Promise<void> {
    try {
      const stored = await ctx.store.read((tx) => tx.getActivePolicy());
      if (stored !== null && stored.version > activeVersion) activate(stored);
    } catch (error) {
      ctx.log.warn({ err: error }, 'the active policy could not be read; keeping the one in use');
    }
  }

  return {
    async start() {
      const stored = (await ctx.store.read((tx) => tx.getActivePolicy())) ?? (await storeDefault());
      activate(stored);
      // A policy stored through another node takes effect here within one poll interval.
      refresher = setInterval(() => void refresh(), ctx.config.eventsPollIntervalMs);
      refresher.unref();
    },

    current: () => compiled,
    compile,

    async get() {
      const stored = await readActive();
      // Another node may have stored a newer version.
      if (stored.version > activeVersion) activate(stored);
      return view(stored);
    },

    async replace(userId, input) {
      const next = compile(input.source, input.format);
      const actor = `user:${userId}`;
      const { stored, previousVersion } = await commit(ctx, async ({ tx, audit }) => {
        const previous = await tx.getActivePolicy();
        const inserted = await tx.insertPolicyVersion({
          source: input.source,
          format: input.format,
          createdBy: actor,
          createdAt: tx.now,
        });
        await audit({
          kind: 'policy.replaced',
          actor,
          subject: 'policy',
          data: { version: inserted.version, previousVersion: previous?.version ?? null, name: next.name },
        });
        return { stored: inserted, previousVersion: previous?.version ?? null };
      });
      if (stored.version >= activeVersion) {
        activeVersion = stored.version;
        compiled = next;
      }
      return { ...view(stored), name: next.name, previousVersion };
    },

    async versions() {
      const all = await ctx.store.read((tx) => tx.listPolicyVersions());
      return all.map(summary);
    },

    async version(n) {
      const stored = await ctx.store.read((tx) => tx.getPolicyVersion(n));
      if (stored === null) throw new GatehouseError('NOT_FOUND', `no policy version ${n}`, { version: n });
      return stored;
    },

    async dryRun(input) {
      const policy = input.source === undefined ? compiled : compile(input.source, input.format ?? 'yaml');
      return dryRunPolicy(ctx, {
        catalog,
        policy,
        policyVersion: input.source === undefined ? activeVersion : null,
        input: input.request,
        autoProceedDelayMs: autoProceedDelayOf(ctx.config.confidenceEnv),
        evaluator,
      });
    },

    close: () => {
      if (refresher !== null) clearInterval(refresher);
      return evaluator.close();
    },
  };
}
