import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      '@gatehouse/core': src('core'),
      '@gatehouse/server': src('server'),
      '@gatehouse/store': src('store'),
      '@gatehouse/sdk': src('sdk'),
      '@gatehouse/mcp': src('mcp'),
    },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'examples/**/*.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 20_000,
    coverage: {
      provider: 'v8',
      include: ['packages/*/src/**/*.ts'],
      exclude: ['**/*.test.ts', '**/index.ts', '**/testing/**', '**/test-gates.ts', '**/contract/**'],
      reporter: ['text-summary', 'json-summary'],
      thresholds: { 'packages/core/src/**': { lines: 90 } },
    },
  },
});
