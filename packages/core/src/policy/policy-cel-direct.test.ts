import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CompiledCondition, createConditionContext, createConditionEnvironment } from './policy-cel.js';
import type { PolicyRequest } from './policy-schema.js';

const CONDITIONS = [
  'hasHiddenCharacters()',
  ...[
    'delete_files',
    'drop_tables',
    'production_config',
    'system_packages',
    'destructive_shell',
    'secret_files',
    'no_such_category',
  ].map((category) => `"${category}" in alwaysGatedCategories()`),
];

const requests: fc.Arbitrary<PolicyRequest> = fc.record({
  event: fc.constant('tool_call'),
  tool: fc.constantFrom('shell', 'bash', 'delete_file', 'write_file', 'read_file', 'execute_sql', 'ls\u200b'),
  args: fc.record(
    {
      command: fc.constantFrom(
        'rm -rf build',
        'ls -la',
        'DROP TABLE users',
        'apt-get install curl',
        'cat .env',
        'echo \u202eevil',
      ),
      path: fc.constantFrom('src/a.ts', '.env', 'config/production.yaml', 'secrets.json', 'a\u2066b.ts'),
      sql: fc.constantFrom('select 1', 'drop table accounts'),
    },
    { requiredKeys: [] },
  ),
  agent: fc.constant({ id: 'agent_1' }),
}) as fc.Arbitrary<PolicyRequest>;

function compiled(env: ReturnType<typeof createConditionEnvironment>, source: string): CompiledCondition {
  const result = env.compile(source);
  if (!result.ok) throw new Error(result.message);
  return result.condition;
}

describe('conditions answered without the CEL evaluator', () => {
  it.each(CONDITIONS)('%s holds exactly when CEL says it does', (source) => {
    const env = createConditionEnvironment();
    const direct = compiled(env, source);
    // Not a shape answered directly, so CEL evaluates it.
    const evaluated = compiled(env, `(${source}) == true`);
    fc.assert(
      fc.property(requests, (request) => {
        const viaCel = env.run(evaluated, createConditionContext(request));
        expect(env.run(direct, createConditionContext(request))).toBe(viaCel);
      }),
      { numRuns: 300 },
    );
  });

  it('finds both answers among the requests tried', () => {
    const env = createConditionEnvironment();
    const seen = new Set<boolean>();
    const condition = compiled(env, '"destructive_shell" in alwaysGatedCategories()');
    for (const command of ['rm -rf build', 'ls -la']) {
      const request = { event: 'tool_call', tool: 'shell', args: { command }, agent: { id: 'a' } };
      seen.add(env.run(condition, createConditionContext(request as PolicyRequest)));
    }
    expect([...seen].sort()).toEqual([false, true]);
  });
});
