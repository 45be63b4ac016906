import { runClaudeCodeHook } from './claude-code.js';
import { HookSettingsError, hookSettings, parseHookArgs } from './claude-code-settings.js';
import { fdIo } from './process-io.js';

const io = fdIo();

function finish(code: number): void {
  // Exit once the output has left, whatever sockets or timers are still open.
  io.flush(() => process.exit(code));
}

/**
 * The launcher's fast path for `gatehouse hook claude-code`: it runs before every tool call, so it
 * loads only the hook, never the rest of the command line, the server or the policy engine.
 */
export async function runHookCommandLine(argv: readonly string[]): Promise<void> {
  try {
    const values = parseHookArgs(argv);
    if (values !== null) {
      try {
        finish(await runClaudeCodeHook(hookSettings(values, process.env), io));
        return;
      } catch (error) {
        if (!(error instanceof HookSettingsError)) throw error;
      }
    }
    // Wrong usage: the full command line says what is wrong, with exit code 2.
    await import('../main.js');
  } catch (error) {
    // Exit code 2 blocks the tool call; any other failure would let Claude Code run it.
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`gatehouse hook: ${message}; the tool call is blocked\n`);
    finish(2);
  }
}
