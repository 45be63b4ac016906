#!/usr/bin/env node
// Committed launcher: npm links `gatehouse` at install time, before `tsc -b` has built dist/.
try {
  await import('../dist/main.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/main.js')) {
    process.stderr.write('error: gatehouse is not built yet; run `npm run build` (tsc -b) first\n');
    process.exitCode = 1;
  } else {
    throw error;
  }
}
