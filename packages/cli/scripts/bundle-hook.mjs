// Bundles `gatehouse hook claude-code` into one CommonJS file beside its entry (dist/hook/claude-code-hook.bundle.cjs):
// it starts before every tool call, and one CommonJS file spares Node resolving and reading a dozen modules
// and starting its ES module loader.
// Usage errors still load the full command line (../main.js) from the same place.
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const hookDir = fileURLToPath(new URL('../dist/hook/', import.meta.url));

await build({
  input: `${hookDir}claude-code-entry.js`,
  platform: 'node',
  external: [/^node:/, /\.\.\/main\.js$/],
  logLevel: 'warn',
  output: {
    file: `${hookDir}claude-code-hook.bundle.cjs`,
    format: 'cjs',
    codeSplitting: false,
  },
});
