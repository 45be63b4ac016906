#!/usr/bin/env node
import { nodeSupportWarning } from './node-support.js';
import { supportedNode } from './version.js';

// Before the rest loads, so the warning shows even when a later import fails on an old Node.
const engines = process.env.GATEHOUSE_NODE_CHECK === 'off' ? null : supportedNode();
const warning = engines === null ? null : nodeSupportWarning(process.versions.node, engines);
if (warning !== null) process.stderr.write(`${warning}\n`);

const { runCli } = await import('./cli.js');
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  now: () => Date.now(),
});
