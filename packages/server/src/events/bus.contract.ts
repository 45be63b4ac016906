import type { Store, StreamEvent } from 'gatehouse-hitl-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventBus } from './bus.js';

/** One node: its store and its bus on it. */
export interface BusNode {
  store: Store;
  bus: EventBus;
}

/** Settings a test may ask for; an implementation ignores what it does not have. */
export interface NodeSettings {
  /** How often the bus reads the store without a hint. */
  pollIntervalMs?: number;
  /** Listener reconnect delays. */
  backoff?: { minMs: number; maxMs: number };
}

/** What one implementation gives the suite; a fresh database per test. */
export interface BusHarness {
  /** The first node; `openNode` adds more where the implementation spans nodes. */
  node: BusNode;
  /** Multi-node buses: another node (store and bus) on the same database. */
  openNode?(settings?: NodeSettings): Promise<BusNode>;
  /** Buses with a listener connection: ends it from the database side, as a crash or cut would. */
  dropListener?(node: BusNode): Promise<void>;
  cleanup(): Promise<void>;
}

type Draft = Omit<StreamEvent, 'seq' | 'at'>;

function draft(n: number, runId = 'run_contract'): Draft {
  return { type: 'gate.opened', runId, agentId: 'agent_a', gateId: `gate_${n}`, data: { n } };
}

/** Commits the drafts in one transaction, then publishes them as services/commit.ts does. */
async function commitOn(node: BusNode, drafts: Draft[]): Promise<StreamEvent[]> {
  const events = await node.store.transaction(async (tx) => {
    const appended: StreamEvent[] = [];
    for (const each of drafts) appended.push(await tx.appendStreamEvent(each));
    return appended;
  });
  for (const event of events) node.bus.publish(event);
  return events;
}

function record(bus: EventBus, options?: { localOnly: boolean }): StreamEvent[] {
  const seen: StreamEvent[] = [];
  bus.subscribe((event) => seen.push(event), options);
  return seen;
}

async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const seqsOf = (events: StreamEvent[]) => events.map((event) => event.seq);

function expectInOrderOnce(seen: StreamEvent[], expected: number[]): void {
  expect(seqsOf(seen)).toEqual([...expected].sort((a, b) => a - b));
}

/**
 * The suite every event bus passes. `multiNode` adds the part for buses that span nodes through a
 * listener connection (the harness then has `openNode` and `dropListener`).
 */
export function runEventBusContract(
  name: string,
  makeHarness: () => Promise<BusHarness>,
  features: { multiNode: boolean },
): void {
  describe(`EventBus contract: ${name}`, () => {
    let harness: BusHarness;
    // The first harness may boot the in-process Postgres, which takes a while on a busy machine.
    beforeEach(async () => {
      harness = await makeHarness();
    }, 60_000);
    afterEach(async () => {
      await harness?.cleanup();
    });

    it('is ready once started', () => {
      expect(harness.node.bus.isReady()).toBe(true);
    });

    it("delivers this node's events to every subscriber before publish returns", async () => {
      const { node } = harness;
      const first = record(node.bus);
      const second = record(node.bus);
      const local = record(node.bus, { localOnly: true });
      const events = await node.store.transaction(async (tx) => [
        await tx.appendStreamEvent(draft(1)),
        await tx.appendStreamEvent(draft(2)),
      ]);
      for (const event of events) node.bus.publish(event);
      expect(first).toEqual(events);
      expect(second).toEqual(events);
      expect(local).toEqual(events);
    });

    it('delivers each event once, in seq order, when a publish is repeated', async () => {
      const { node } = harness;
      const seen = record(node.bus);
      const events = await node.store.transaction(async (tx) => [
        await tx.appendStreamEvent(draft(1)),
        await tx.appendStreamEvent(draft(2)),
        await tx.appendStreamEvent(draft(3)),
      ]);
      const [a, b, c] = events as [StreamEvent, StreamEvent, StreamEvent];
      for (const event of [a, b, b, a, c, c]) node.bus.publish(event);
      await until(() => seen.length >= 3, 'three events arrived');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seen).toEqual(events);
    });

    it('delivers an event that follows a rolled-back one', async () => {
      const { node } = harness;
      const seen = record(node.bus);
      const [before] = await commitOn(node, [draft(1)]);
      await expect(
        node.store.transaction(async (tx) => {
          await tx.appendStreamEvent(draft(2));
          throw new Error('the unit of work fails');
        }),
      ).rejects.toThrow('the unit of work fails');
      const [after] = await commitOn(node, [draft(3)]);
      await until(() => seen.length === 2, 'the event after the rollback arrived', 2000);
      expect(seen).toEqual([before, after]);
    });

    it('stops delivering to a listener after it unsubscribes, and keeps going past one that throws', async () => {
      const { node } = harness;
      const kept: StreamEvent[] = [];
      const dropped: StreamEvent[] = [];
      node.bus.subscribe(() => {
        throw new Error('a broken listener');
      });
      const unsubscribe = node.bus.subscribe((event) => dropped.push(event));
      node.bus.subscribe((event) => kept.push(event));
      const [first] = await commitOn(node, [draft(1)]);
      unsubscribe();
      await commitOn(node, [draft(2)]);
      await until(() => kept.length === 2, 'both events arrived');
      expect(dropped).toEqual([first]);
    });

    it('delivers nothing after close, and close can be called twice', async () => {
      const { node } = harness;
      const seen = record(node.bus);
      await node.bus.close();
      await node.bus.close();
      await commitOn(node, [draft(1)]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seen).toEqual([]);
    });

    if (features.multiNode) describeMultiNode(() => harness);
  });
}

function requireNodes(harness: BusHarness) {
  const { openNode, dropListener } = harness;
  if (openNode === undefined || dropListener === undefined) {
    throw new Error('a multi-node harness needs openNode and dropListener');
  }
  return { openNode, dropListener };
}

/** Commits `count` events on `node`, a few per transaction, as fast as the database allows. */
async function writeMany(node: BusNode, count: number, label: string): Promise<number[]> {
  const seqs: number[] = [];
  for (let i = 0; i < count; i += 3) {
    const drafts = [i, i + 1, i + 2].filter((n) => n < count).map((n) => draft(n, `run_${label}`));
    seqs.push(...seqsOf(await commitOn(node, drafts)));
  }
  return seqs;
}

// A poll this slow never fires within a test: what arrives came by notification or catch-up.
const NO_POLL = 600_000;

function describeMultiNode(current: () => BusHarness): void {
  it("delivers every node's events to every node, each once and in seq order, without waiting for the poll", async () => {
    const { openNode } = requireNodes(current());
    const a = await openNode({ pollIntervalMs: NO_POLL });
    const b = await openNode({ pollIntervalMs: NO_POLL });
    const seenOnA = record(a.bus);
    const seenOnB = record(b.bus);
    const localOnB = record(b.bus, { localOnly: true });
    const [fromA, fromB] = await Promise.all([writeMany(a, 60, 'a'), writeMany(b, 60, 'b')]);
    const all = [...fromA, ...fromB];
    await until(() => seenOnA.length >= all.length && seenOnB.length >= all.length, 'both nodes saw all');
    expectInOrderOnce(seenOnA, all);
    expectInOrderOnce(seenOnB, all);
    expect(seqsOf(localOnB)).toEqual(fromB);
  });

  it('finds an event nobody announced by its poll', async () => {
    const { openNode } = requireNodes(current());
    const node = await openNode({ pollIntervalMs: 100 });
    const seen = record(node.bus);
    // A writer that committed and then died before it could publish.
    const silent = await current().node.store.transaction((tx) => tx.appendStreamEvent(draft(1)));
    await until(() => seen.length === 1, 'the poll found the event', 3000);
    expect(seen).toEqual([silent]);
  });

  it('loses nothing when its listener connection is killed mid-run, and is not ready until it is back', async () => {
    const { openNode, dropListener } = requireNodes(current());
    const writer = await openNode({ pollIntervalMs: NO_POLL });
    const reader = await openNode({ pollIntervalMs: NO_POLL, backoff: { minMs: 400, maxMs: 400 } });
    const seen = record(reader.bus);
    let writing = true;
    const written: number[] = [];
    const background = (async () => {
      while (writing) {
        written.push(...(await writeMany(writer, 3, 'steady')));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await until(() => seen.length >= 30, 'the reader is receiving');
    await dropListener(reader);
    await until(() => !reader.bus.isReady(), 'the reader noticed the drop');
    writing = false;
    await background;
    // Nothing is written after these, so only the catch-up on reconnect can bring them.
    const duringOutage = await writeMany(writer, 30, 'outage');
    await until(() => reader.bus.isReady(), 'the reader reconnected');
    const all = [...written, ...duringOutage];
    await until(() => seen.length >= all.length, 'the reader saw everything');
    expectInOrderOnce(seen, all);
  });
}
