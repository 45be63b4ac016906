import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));
const testing = (pkg: string) =>
  fileURLToPath(new URL(`./packages/${pkg}/src/testing/index.ts`, import.meta.url));

/** Test files that must have the machine to themselves. */
const alone = [
  'packages/server/src/cluster/**/*.test.ts',
  'packages/server/src/reliability/**/*.test.ts',
  'packages/server/src/security/faults.int.test.ts',
  // Times the health check while a dry run burns a core in its worker.
  'packages/server/src/routes/policy-budget-process.int.test.ts',
];

export default defineConfig({
  resolve: {
    alias: {
      'gatehouse-hitl-protocol/rules': fileURLToPath(
        new URL('./packages/protocol/src/rules.ts', import.meta.url),
      ),
      // Subpaths before their package: an alias also matches the keys that start with it.
      'gatehouse-hitl-core/testing': testing('core'),
      'gatehouse-hitl-store/testing': testing('store'),
      'gatehouse-hitl-server/testing': testing('server'),
      'gatehouse-hitl-sdk/testing': testing('sdk'),
      'gatehouse-hitl-protocol': src('protocol'),
      'gatehouse-hitl-core': src('core'),
      'gatehouse-hitl-analysis': src('analysis'),
      'gatehouse-hitl-server': src('server'),
      'gatehouse-hitl-store': src('store'),
      'gatehouse-hitl-sdk': src('sdk'),
      'gatehouse-hitl-mcp': src('mcp'),
      'gatehouse-hitl-testing': src('testing'),
      'gatehouse-hitl/demo': fileURLToPath(new URL('./packages/cli/src/demo/index.ts', import.meta.url)),
    },
  },
  test: {
    testTimeout: 20_000,
    projects: [
      {
        // Most files wait on databases, child processes and HTTP: two at a time keep both cores busy.
        extends: true,
        test: {
          name: 'packages',
          include: [
            'packages/*/src/**/*.test.ts',
            'packages/sdk-python/*.test.ts',
            'examples/**/*.test.ts',
            'bench/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, ...alone],
          maxWorkers: 2,
          // Files share a worker's loaded modules instead of importing the server anew for each file
          // (a quarter of the project's time); each file sets up and tears down its own state.
          isolate: false,
        },
      },
      {
        // Clusters of server processes, crashes, races and database outages measure time under load:
        // one file at a time, after the others, so no other file shares the cores with them.
        extends: true,
        test: {
          name: 'alone',
          include: alone,
          maxWorkers: 1,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          // They measure time on a shared machine: a second try tells a slow moment from a fault.
          retry: 1,
        },
      },
      {
        // Each end-to-end file drives a real server and a real Chromium: one file at a time, after
        // the other tests, so two cores are never shared by several browsers.
        extends: true,
        test: {
          name: 'e2e',
          include: ['packages/ui/e2e/**/*.test.ts'],
          maxWorkers: 1,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
    coverage: {
      provider: 'v8',
      include: ['packages/*/src/**/*.ts'],
      exclude: ['**/*.test.ts', '**/index.ts', '**/testing/**', '**/contract/**', 'packages/ui/**'],
      reporter: ['text-summary', 'json-summary'],
      thresholds: { 'packages/core/src/**': { lines: 90 } },
    },
  },
});
