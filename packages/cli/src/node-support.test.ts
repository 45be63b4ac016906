import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeSupportWarning } from './node-support.js';
import { CLI_MAIN, cleanEnv } from './testing/cli-process.js';

const ENGINES = '^22.15.0 || ^24.0.0 || ^26.0.0';

describe('nodeSupportWarning', () => {
  it.each([
    ['20.19.0', ENGINES],
    ['18.20.4', ENGINES],
    ['22.14.0', ENGINES],
    ['16.0.0', '>=18'],
  ])('warns on Node %s against %s', (version, engines) => {
    const warning = nodeSupportWarning(version, engines);
    expect(warning).toContain(`Node.js ${version}`);
    expect(warning).toContain(engines);
    expect(warning?.split('\n')).toHaveLength(1);
  });

  it.each([
    ['22.15.0', ENGINES],
    ['24.3.1', ENGINES],
    ['26.0.0', ENGINES],
    ['27.0.0', ENGINES],
    ['20.19.0', '>=18'],
  ])('says nothing on Node %s against %s', (version, engines) => {
    expect(nodeSupportWarning(version, engines)).toBeNull();
  });

  it('says nothing when the range cannot be read', () => {
    expect(nodeSupportWarning('20.19.0', 'lts/*')).toBeNull();
  });
});

/** Runs the built CLI as if on Node `version`, with the environment a user has (no opt-out). */
function runOnNode(version: string, args: string[]) {
  const env = cleanEnv();
  delete env.GATEHOUSE_NODE_CHECK;
  const pretend = `data:text/javascript,Object.defineProperty(process.versions,"node",{value:"${version}"})`;
  return spawnSync(process.execPath, ['--import', pretend, CLI_MAIN, ...args], { env, encoding: 'utf8' });
}

describe('gatehouse on an unsupported Node', () => {
  const engines = (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      engines: { node: string };
    }
  ).engines.node;

  it('prints one warning line on stderr naming the range from package.json, and keeps stdout clean', () => {
    const result = runOnNode('20.19.0', ['version', '--json']);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveProperty('version');
    const lines = result.stderr.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warning: Node\.js 20\.19\.0 is not supported/);
    expect(lines[0]).toContain(engines);
  });

  it('prints nothing on a supported Node', () => {
    const result = runOnNode('22.15.0', ['--version']);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
  });
});
