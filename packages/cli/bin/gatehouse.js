#!/usr/bin/env node
// Committed launcher: npm links `gatehouse` at install time, before `tsc -b` has built dist/.
// `gatehouse hook claude-code` runs before every tool call: it takes a fast path that loads the hook only.
const [command, subcommand, ...rest] = process.argv.slice(2);
const hook =
  command === 'hook' && subcommand === 'claude-code' && !rest.some((a) => a === '--help' || a === '-h');
const entry = hook ? '../dist/hook/claude-code-entry.js' : '../dist/main.js';
try {
  const module = await import(entry);
  if (hook) await module.runHookCommandLine(rest);
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
