import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const demo = fileURLToPath(new URL('./demo.mjs', import.meta.url));

describe('policy demo', () => {
  it('allows reads, gates writes and always-gated commands, and draws each gate', () => {
    const output = execFileSync(process.execPath, [demo, '--width', '60'], { encoding: 'utf8' });
    expect(output).toMatch(/Read a source file: ALLOW/);
    expect(output).toMatch(/Remove the build folder: GATE \(rule always-gate-/);
    expect(output).toMatch(/Planning done: approve the intent: GATE \(rule hitl-gate-intent-approval\)/);
    expect(output).toContain('Recovery Escalation Gate');
    const boxLines = output.split('\n').filter((line) => line.startsWith('│'));
    expect(boxLines.length).toBeGreaterThan(20);
    for (const line of boxLines) expect([...line].length).toBe(60);
  });

  it('refuses a width it cannot draw', () => {
    expect(() => execFileSync(process.execPath, [demo, '--width', '5'], { stdio: 'pipe' })).toThrow(
      /--width/,
    );
  });
});
