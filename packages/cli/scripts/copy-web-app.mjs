#!/usr/bin/env node
// Copies the built web app (packages/ui/dist) into this package's web/, which its tarball ships.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const from = fileURLToPath(new URL('../../ui/dist', import.meta.url));
const to = fileURLToPath(new URL('../web', import.meta.url));
if (!existsSync(`${from}/index.html`)) {
  process.stderr.write(
    `copy-web-app: ${from}/index.html is missing; build the web app first (npm run build -w gatehouse-hitl-ui)\n`,
  );
  process.exit(1);
}
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
process.stdout.write(`copied the web app into ${to}\n`);
