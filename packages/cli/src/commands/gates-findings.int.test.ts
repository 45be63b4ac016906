import { describe, expect, it } from 'vitest';
import { useCliServer } from '../testing/cli-server.js';

const TESTS = Array.from(
  { length: 7 },
  (_, n) => `it('case ${n + 1}', () => {\n  expect(total([${n + 1}])).toBe(${n + 1});\n});\n`,
);

describe('gatehouse gates show on a change-analysis gate, against a running server', () => {
  const { gatehouse, asAgent } = useCliServer();

  it('lists the findings in the box with file:line, the first five then how many more, and no coverage sent', async () => {
    const { run } = await asAgent<{ run: { id: string } }>('POST', '/v1/runs', { title: 'Cart' });
    const before = `import { total } from './cart';\n${TESTS.join('')}`;
    const answer = await asAgent<{ gates: { id: string; type: string }[] }>('POST', '/v1/analyze', {
      runId: run.id,
      files: [{ path: 'src/cart.test.ts', before, after: "import { total } from './cart';\n" }],
    });
    const gate = answer.gates.find((one) => one.type === 'destructive_action');
    expect(gate).toBeDefined();
    const shown = await gatehouse(['gates', 'show', gate?.id as string]);
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Findings:');
    const places = [...shown.stdout.matchAll(/src\/cart\.test\.ts:(\d+) test\.removed/g)].map((m) => m[1]);
    expect(places).toEqual(['2', '5', '8', '11', '14']);
    expect(shown.stdout).toContain('and 2 more');
    expect(shown.stdout).toContain('no coverage sent');
    expect(shown.stdout).not.toMatch(/coverage [+-]?0%/);
  });
});
