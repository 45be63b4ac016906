import { spawn } from 'node:child_process';

/**
 * What Claude Code does with a tool call given its settings' PreToolUse hooks, following its hooks
 * reference: tests use it to check that the configuration `gatehouse hook install` writes blocks
 * calls when Gatehouse is unreachable. `proceeds` means the call runs (a non-blocking hook error).
 */
export type DriverOutcome = 'allow' | 'deny' | 'ask' | 'defer' | 'no-decision' | 'blocked' | 'proceeds';

export interface DriverResult {
  outcome: DriverOutcome;
  transport: 'command' | 'http';
  /** The command's stderr (shown to the model on exit 2) or the http failure. */
  detail: string;
}

type Json = Record<string, unknown>;

function decisionOf(text: string): DriverOutcome {
  if (text.trim() === '') return 'no-decision';
  const output = JSON.parse(text) as { hookSpecificOutput?: { permissionDecision?: DriverOutcome } };
  return output.hookSpecificOutput?.permissionDecision ?? 'no-decision';
}

function matches(matcher: unknown, tool: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  return new RegExp(`^(?:${String(matcher)})$`).test(tool);
}

/**
 * Runs a command hook through the shell: exit 2 blocks, 0 is the JSON answer; any other exit or a
 * timeout lets the call run, unless the hook says `onFailure: "block"`.
 */
function runCommand(hook: Json, input: string, env: Json): Promise<DriverResult> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', String(hook.command)], { env: env as NodeJS.ProcessEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        child.kill('SIGKILL');
      },
      Number(hook.timeout ?? 60) * 1000,
    );
    child.on('close', (code) => {
      clearTimeout(timer);
      const failed = hook.onFailure === 'block' ? 'blocked' : 'proceeds';
      const outcome = timedOut ? failed : code === 2 ? 'blocked' : code === 0 ? decisionOf(stdout) : failed;
      resolve({ outcome, transport: 'command', detail: stderr });
    });
    // A hook may exit without reading its input (the PATH guard does): the pipe then closes under us.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** `$VAR` and `${VAR}` become the variable's value only when it is listed in allowedEnvVars. */
function interpolate(value: string, allowed: readonly string[], env: Json): string {
  return value.replace(
    /\$\{(\w+)\}|\$(\w+)/g,
    (_all, braced: string | undefined, bare: string | undefined) => {
      const name = (braced ?? bare) as string;
      return allowed.includes(name) && typeof env[name] === 'string' ? (env[name] as string) : '';
    },
  );
}

/** POSTs the input: a 2xx body is the answer; an error status, a failed connection or a timeout lets the call run unless onFailure is block. */
async function runHttp(hook: Json, input: string, env: Json): Promise<DriverResult> {
  const allowed = Array.isArray(hook.allowedEnvVars) ? (hook.allowedEnvVars as string[]) : [];
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [name, value] of Object.entries((hook.headers ?? {}) as Record<string, string>)) {
    headers[name] = interpolate(value, allowed, env);
  }
  const failure = (detail: string): DriverResult => ({
    outcome: hook.onFailure === 'block' ? 'blocked' : 'proceeds',
    transport: 'http',
    detail,
  });
  try {
    const response = await fetch(String(hook.url), {
      method: 'POST',
      headers,
      body: input,
      signal: AbortSignal.timeout(Number(hook.timeout ?? 30) * 1000),
    });
    const text = await response.text();
    if (!response.ok) return failure(`HTTP ${response.status}`);
    return { outcome: decisionOf(text), transport: 'http', detail: '' };
  } catch (error) {
    return failure(error instanceof Error ? error.message : String(error));
  }
}

/** The outcome of the first matching Gatehouse-relevant PreToolUse handler in `settings` for `input`. */
export async function driveClaudeCode(
  settings: Json,
  input: { tool_name: string } & Json,
  env: Json,
): Promise<DriverResult[]> {
  const groups = ((settings.hooks as Json | undefined)?.PreToolUse ?? []) as Json[];
  const text = JSON.stringify(input);
  const results: DriverResult[] = [];
  for (const group of groups) {
    if (!matches(group.matcher, input.tool_name)) continue;
    for (const hook of (group.hooks ?? []) as Json[]) {
      results.push(hook.type === 'http' ? await runHttp(hook, text, env) : await runCommand(hook, text, env));
    }
  }
  return results;
}
