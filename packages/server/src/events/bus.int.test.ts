import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from 'gatehouse-hitl-store';
import { startTestPostgres } from 'gatehouse-hitl-store/testing';
import { type BusNode, type NodeSettings, runEventBusContract } from './bus.contract.js';
import { createInProcessBus } from './bus.js';
import { createPostgresBus, type PostgresBus } from './postgres-bus.js';

const clock = { now: () => Date.now() };

runEventBusContract(
  'in-process (SQLite)',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bus-'));
    const store = await createSqliteStore({ file: join(dir, 'gatehouse.db'), clock });
    const bus = createInProcessBus();
    return {
      node: { store, bus },
      async cleanup() {
        await bus.close();
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  { multiNode: false },
);

runEventBusContract(
  'Postgres LISTEN/NOTIFY',
  async () => {
    const postgres = await startTestPostgres();
    const buses: PostgresBus[] = [];
    const openNode = async (settings: NodeSettings = {}): Promise<BusNode> => {
      const store = buses.length === 0 ? postgres.store : await postgres.openStore();
      const bus = await createPostgresBus({
        connectionString: postgres.connectionString,
        schema: postgres.schema,
        store,
        // Unique per node and per test, so a test drops exactly its own node's listener.
        applicationName: `gatehouse-listener node${buses.length}.${postgres.schema}`,
        ...settings,
      });
      buses.push(bus);
      return { store, bus };
    };
    const node = await openNode();
    return {
      node,
      openNode,
      async dropListener(target) {
        const { applicationName } = target.bus as PostgresBus;
        const dropped = await postgres.terminateConnections(applicationName);
        if (dropped !== 1) throw new Error(`expected to end one listener connection, ended ${dropped}`);
      },
      async cleanup() {
        await Promise.all(buses.map((bus) => bus.close()));
        await postgres.stop();
      },
    };
  },
  { multiNode: true },
);
