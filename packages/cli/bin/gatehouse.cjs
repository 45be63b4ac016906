#!/usr/bin/env node
// Committed launcher: npm links `gatehouse` at install time, before `tsc -b` has built dist/.
// `gatehouse hook claude-code` runs before every tool call: it takes a fast path that loads the hook only,
// from its single-file CommonJS bundle when the build made one (CommonJS spares Node starting its ES
// module loader), with Node's compile cache where Node has it. Everything else loads the full command line.
'use strict';

const [command, subcommand, ...rest] = process.argv.slice(2);
const hook =
  command === 'hook' && subcommand === 'claude-code' && !rest.some((a) => a === '--help' || a === '-h');
const entry = hook ? '../dist/hook/claude-code-entry.js' : '../dist/main.js';

function loadHook() {
  require('node:module').enableCompileCache?.();
  try {
    return require('../dist/hook/claude-code-hook.bundle.cjs');
  } catch (error) {
    if (error?.code !== 'MODULE_NOT_FOUND' || !String(error.message).includes('claude-code-hook.bundle')) {
      throw error;
    }
    return import(entry);
  }
}

function failed(error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(entry.slice(3))) {
    process.stderr.write('error: gatehouse is not built yet; run `npm run build` (tsc -b) first\n');
    // For the hook, exit code 2 blocks the tool call instead of letting it run.
    process.exitCode = hook ? 2 : 1;
  } else if (hook) {
    process.stderr.write(`gatehouse hook: ${error?.message ?? error}; the tool call is blocked\n`);
    process.exitCode = 2;
  } else {
    // Unexpected: rethrown, so Node prints it and exits 1 as for any uncaught error.
    throw error;
  }
}

if (hook) {
  // A synchronous throw (a broken bundle) blocks the call the same way as a rejection.
  new Promise((resolve) => resolve(loadHook()))
    .then((loaded) => loaded.runHookCommandLine(rest))
    .catch(failed);
} else {
  import(entry).catch(failed);
}
