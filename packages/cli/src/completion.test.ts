import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './cli.js';
import { runCliInProcess } from './testing/cli-in-process.js';
import { CLI_MAIN, cleanEnv } from './testing/cli-process.js';

/** Sources `gatehouse completion bash` in a real bash, then runs `then` there; returns its stdout. */
function inBash(then: string): string {
  const script = `source <("${process.execPath}" "${CLI_MAIN}" completion bash) || exit 9\n${then}`;
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', script], {
    encoding: 'utf8',
    env: cleanEnv(),
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

/** What the bash completion offers for the words typed so far (the last one being completed). */
function complete(...words: string[]): string[] {
  const quoted = words.map((word) => `'${word}'`).join(' ');
  const out = inBash(
    `COMP_WORDS=(gatehouse ${quoted}); COMP_CWORD=${words.length}; _gatehouse; printf '%s\\n' "\${COMPREPLY[@]}"`,
  );
  return out.split('\n').filter((line) => line !== '');
}

describe('gatehouse completion bash', () => {
  it('registers a completion for gatehouse in bash', () => {
    expect(inBash('complete -p gatehouse')).toMatch(/^complete .*-F _gatehouse gatehouse$/m);
  });

  it('completes every command of the command table, completion and version included', () => {
    const offered = complete('');
    for (const command of COMMANDS) expect(offered).toContain(command.name);
    expect(offered).toEqual(expect.arrayContaining(['completion', 'version', 'help']));
  });

  it('completes subcommands and then their options', () => {
    expect(complete('gates', '')).toEqual(expect.arrayContaining(['list', 'show', 'decide']));
    expect(complete('gates', 'decide', 'gate_1', '--ed')).toEqual(['--edit', '--edit-file']);
    expect(complete('serve', '--po')).toEqual(['--port']);
    expect(complete('completion', '').sort()).toEqual(['bash', 'fish', 'zsh']);
  });
});

const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;

/** Runs `script` in `shell` after loading `gatehouse completion <shell>` from a file. */
function inShell(shell: 'zsh' | 'fish', before: string, after: string): string {
  const load = `"${process.execPath}" "${CLI_MAIN}" completion ${shell}`;
  const args = shell === 'zsh' ? ['-f', '-c'] : ['--no-config', '-c'];
  const script = `${before}\n${load} | source${shell === 'zsh' ? ' /dev/stdin' : ''}\n${after}`;
  const result = spawnSync(shell, [...args, script], { encoding: 'utf8', env: cleanEnv() });
  expect(result.stderr).toBe('');
  return result.stdout;
}

// CI installs both shells (.ci/run), so there a missing one fails instead of passing unseen.
describe.skipIf(!has('fish') && !process.env.CI)('gatehouse completion fish, in fish', () => {
  it('completes subcommands and options', () => {
    const out = inShell(
      'fish',
      '',
      'complete -C "gatehouse gates dec"; complete -C "gatehouse gates decide g --edi"',
    );
    expect(out).toMatch(/^decide\tAnswer a pending gate/m);
    expect(out).toMatch(/^--edit-file\t/m);
  });
});

describe.skipIf(!has('zsh') && !process.env.CI)('gatehouse completion zsh, in zsh', () => {
  it('offers subcommands and options through _describe', () => {
    // _describe and _files stand in for the completion system: they print what they would offer.
    const stubs = `compdef() { :; }; _describe() { print -rl -- "\${(@P)\${@[-1]}}"; }; _files() { print FILES; }`;
    const out = inShell(
      'zsh',
      stubs,
      'words=(gatehouse gates ""); CURRENT=3; PREFIX=""; _gatehouse\n' +
        'words=(gatehouse gates decide g --ed); CURRENT=5; PREFIX=--ed; _gatehouse',
    );
    expect(out).toMatch(/^decide:Answer a pending gate/m);
    expect(out).toMatch(/^--edit-file:Approve with edits/m);
  });
});

describe('gatehouse completion zsh and fish', () => {
  it.each([
    ['zsh', "'--edit-file:"],
    ['fish', '-l edit-file -r'],
  ])('prints a %s script naming every command and option', async (shell, option) => {
    const result = await runCliInProcess(['completion', shell]);
    expect(result.code).toBe(0);
    for (const command of COMMANDS) expect(result.stdout).toContain(command.name);
    expect(result.stdout).toContain(option);
  });

  it('refuses another shell naming the choices', async () => {
    const result = await runCliInProcess(['completion', 'powershell']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the shell must be one of bash, zsh, fish (got "powershell")');
  });
});

describe('gatehouse version', () => {
  it('prints the same version as --version', async () => {
    const [word, flag] = await Promise.all([runCliInProcess(['version']), runCliInProcess(['--version'])]);
    expect(word.code).toBe(0);
    expect(word.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(word.stdout).toBe(flag.stdout);
    const json = await runCliInProcess(['version', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ version: word.stdout.trim() });
  });
});
