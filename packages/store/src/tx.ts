import { GatehouseError } from '@gatehouse/core';
import type { TxContext } from './db/schema.js';
import * as audit from './repos/audit.js';
import * as gates from './repos/gates.js';
import * as people from './repos/people.js';
import * as reports from './repos/reports.js';
import * as rules from './repos/rules.js';
import * as runs from './repos/runs.js';
import * as stream from './repos/stream.js';
import type { StoreTx } from './types.js';

type Writes = Pick<
  StoreTx,
  | 'insertAgent'
  | 'insertUser'
  | 'updateUser'
  | 'insertToken'
  | 'revokeToken'
  | 'revokeTokensOf'
  | 'insertSigningKey'
  | 'insertRun'
  | 'updateRun'
  | 'insertGate'
  | 'updateGate'
  | 'claimDueGates'
  | 'putIdempotency'
  | 'insertRememberedRule'
  | 'revokeRememberedRule'
  | 'insertConfidenceReport'
  | 'insertIntervention'
  | 'insertPolicyVersion'
  | 'appendAudit'
  | 'appendStreamEvent'
>;

function writes(ctx: TxContext): Writes {
  return {
    insertAgent: (agent) => people.insertAgent(ctx, agent),
    insertUser: (user) => people.insertUser(ctx, user),
    updateUser: (user) => people.updateUser(ctx, user),
    insertToken: (token) => people.insertToken(ctx, token),
    revokeToken: (hash, at) => people.revokeToken(ctx, hash, at),
    revokeTokensOf: (subjectId, kind, at) => people.revokeTokensOf(ctx, subjectId, kind, at),
    insertSigningKey: (key) => people.insertSigningKey(ctx, key),
    insertRun: (run) => runs.insertRun(ctx, run),
    updateRun: (run, version) => runs.updateRun(ctx, run, version),
    insertGate: (gate) => gates.insertGate(ctx, gate),
    updateGate: (gate, version, options) => gates.updateGate(ctx, gate, version, options),
    claimDueGates: (limit) => gates.claimDueGates(ctx, limit),
    putIdempotency: (record) => rules.putIdempotency(ctx, record),
    insertRememberedRule: (rule) => rules.insertRememberedRule(ctx, rule),
    revokeRememberedRule: (id, by, at) => rules.revokeRememberedRule(ctx, id, by, at),
    insertConfidenceReport: (report) => reports.insertConfidenceReport(ctx, report),
    insertIntervention: (intervention) => reports.insertIntervention(ctx, intervention),
    insertPolicyVersion: (policy) => rules.insertPolicyVersion(ctx, policy),
    appendAudit: (event) => audit.appendAudit(ctx, event),
    appendStreamEvent: (event) => stream.appendStreamEvent(ctx, event),
  };
}

/** Every write throws: a read must never commit anything outside group commit. */
function createRefusedWrites(): Writes {
  const refuse = (name: string) => () =>
    Promise.reject(
      new GatehouseError(
        'INTERNAL',
        `${name} is a write: call it inside store.transaction(), not store.read()`,
      ),
    );
  const names = Object.keys(writes({} as TxContext)) as (keyof Writes)[];
  return Object.fromEntries(names.map((name) => [name, refuse(name)])) as unknown as Writes;
}

const refusedWrites = createRefusedWrites();

/** The StoreTx for one unit of work (or one read). */
export function createStoreTx(ctx: TxContext, options: { readOnly: boolean }): StoreTx {
  return {
    now: ctx.now,
    getAgent: (id) => people.getAgent(ctx, id),
    listAgents: () => people.listAgents(ctx),
    getUser: (id) => people.getUser(ctx, id),
    getUserByName: (name) => people.getUserByName(ctx, name),
    listUsers: () => people.listUsers(ctx),
    getToken: (hash) => people.getToken(ctx, hash),
    listSigningKeys: (userId) => people.listSigningKeys(ctx, userId),
    getRun: (id) => runs.getRun(ctx, id),
    listRuns: (filter) => runs.listRuns(ctx, filter),
    getGate: (id) => gates.getGate(ctx, id),
    listGates: (filter) => gates.listGates(ctx, filter),
    countGates: (filter) => gates.countGates(ctx, filter),
    getIdempotency: (scope, key) => rules.getIdempotency(ctx, scope, key),
    getRememberedRule: (id) => rules.getRememberedRule(ctx, id),
    listRememberedRules: (opts) => rules.listRememberedRules(ctx, opts),
    listConfidenceReports: (runId) => reports.listConfidenceReports(ctx, runId),
    listInterventions: (runId, after) => reports.listInterventions(ctx, runId, after),
    getActivePolicy: () => rules.getActivePolicy(ctx),
    getPolicyVersion: (version) => rules.getPolicyVersion(ctx, version),
    listPolicyVersions: () => rules.listPolicyVersions(ctx),
    ...(options.readOnly ? refusedWrites : writes(ctx)),
  };
}
