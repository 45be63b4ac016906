#!/usr/bin/env node
// Committed launcher: npm links `gatehouse` at install time, before `tsc -b` has built dist/.
// `gatehouse hook claude-code` runs before every tool call: it takes a fast path that loads the hook only,
// from its single-file bundle when the build made one, with Node's compile cache where Node has it.
import module from 'node:module';

const [command, subcommand, ...rest] = process.argv.slice(2);
const hook =
  command === 'hook' && subcommand === 'claude-code' && !rest.some((a) => a === '--help' || a === '-h');
const entry = hook ? '../dist/hook/claude-code-entry.js' : '../dist/main.js';

async function load() {
  if (!hook) return import(entry);
  module.enableCompileCache?.();
  try {
    return await import('../dist/hook/claude-code-hook.bundle.js');
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return import(entry);
  }
}

try {
  const loaded = await load();
  if (hook) await loaded.runHookCommandLine(rest);
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(entry.slice(3))) {
    process.stderr.write('error: gatehouse is not built yet; run `npm run build` (tsc -b) first\n');
    // For the hook, exit code 2 blocks the tool call instead of letting it run.
    process.exitCode = hook ? 2 : 1;
  } else if (hook) {
    process.stderr.write(`gatehouse hook: ${error?.message ?? error}; the tool call is blocked\n`);
    process.exitCode = 2;
  } else {
    throw error;
  }
}
