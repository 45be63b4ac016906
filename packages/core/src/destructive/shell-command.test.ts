import { describe, expect, it } from 'vitest';
import { readAction } from './command-reader.js';
import { parseShellScript } from './shell-command.js';

describe('parseShellScript', () => {
  it('parses a line once however many checks read it', () => {
    const line = 'git status && ls -la src | wc -l';
    const first = parseShellScript(line);
    readAction({ tool: 'bash', args: { command: line } });
    expect(parseShellScript(line)).toBe(first);
  });

  it('gives each line its own parse, also after many other lines', () => {
    const line = 'rm -rf build';
    const before = parseShellScript(line);
    for (let i = 0; i < 200; i++) parseShellScript(`echo ${i}`);
    const after = parseShellScript(line);
    expect(after).toEqual(before);
    expect(after.pipelines[0]?.commands[0]?.words).toEqual(['rm', '-rf', 'build']);
    expect(parseShellScript('ls').pipelines[0]?.commands[0]?.words).toEqual(['ls']);
  });
});
