import { describe, expect, it } from 'vitest';
import { blocksOnFailure, guardedCommand, httpHandler } from './install-transport.js';

describe('blocksOnFailure', () => {
  it.each([
    [[2, 1, 295], true],
    [[2, 1, 300], true],
    [[2, 2, 0], true],
    [[3, 0, 0], true],
    [[2, 1, 294], false],
    [[2, 0, 999], false],
    [[1, 9, 9], false],
  ])('Claude Code %j → %s', (version, expected) => {
    expect(blocksOnFailure(version)).toBe(expected);
  });

  it('does not assume a Claude Code it could not ask', () => {
    expect(blocksOnFailure(null)).toBe(false);
  });
});

describe('what install writes', () => {
  it('guards the command hook so a missing gatehouse or a crash exits 2', () => {
    expect(guardedCommand(25_000, 25_000)).toMatch(
      /^command -v gatehouse >\/dev\/null 2>&1 \|\| \{ echo ".+" >&2; exit 2; \}; gatehouse hook claude-code \|\| exit 2$/,
    );
    expect(guardedCommand(55_000, 25_000)).toContain(
      'gatehouse hook claude-code --budget-ms 55000 || exit 2',
    );
  });

  it('keeps the token out of the http hook and waits five seconds under its timeout', () => {
    const hook = httpHandler({
      serverUrl: 'https://gatehouse.example',
      event: 'pre-tool-use',
      mode: 'wait',
      timeoutSeconds: 60,
      onFailureBlock: false,
    });
    expect(hook.url).toBe(
      'https://gatehouse.example/v1/hooks/claude-code/pre-tool-use?mode=wait&waitMs=55000',
    );
    expect(hook.headers.Authorization).toBe(`Bearer \${GATEHOUSE_TOKEN}`);
    expect(hook.allowedEnvVars).toEqual(['GATEHOUSE_TOKEN', 'GATEHOUSE_RUN_ID']);
    expect(hook).not.toHaveProperty('onFailure');
  });
});
