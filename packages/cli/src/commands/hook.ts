import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { choiceOption, intOption, stringOption } from '../args.js';
import type { Action, ActionContext, Command, Env } from '../command.js';
import { UsageError } from '../errors.js';
import { runClaudeCodeHook } from '../hook/claude-code.js';
import {
  DEFAULT_BUDGET_MS,
  HOOK_DEFAULT_URL,
  type HookOptionValues,
  HookSettingsError,
  hookSettings,
} from '../hook/claude-code-entry.js';
import { type InstallResult, installClaudeCodeHook, settingsPathFor } from '../hook/install.js';
import { printJson } from '../output.js';

const CLIENTS = ['claude-code'] as const;
const SCOPES = ['project', 'user'] as const;
/** The hook timeout `install` writes; the hook's default budget is 5 s under it. */
const DEFAULT_TIMEOUT_SECONDS = 30;
const BUDGET_MARGIN_MS = 5_000;

function defaultCommand(timeoutSeconds: number): string {
  const budget = timeoutSeconds * 1000 - BUDGET_MARGIN_MS;
  return budget === DEFAULT_BUDGET_MS
    ? 'gatehouse hook claude-code'
    : `gatehouse hook claude-code --budget-ms ${budget}`;
}

function onPath(name: string, env: Env): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, name)));
}

function describe(result: InstallResult): string {
  const { entry, previous } = result;
  const hook = entry.hooks[0];
  const fields = [
    `  matcher  ${entry.matcher}`,
    `  command  ${hook?.command}`,
    `  timeout  ${hook?.timeout} s`,
  ];
  switch (result.change) {
    case 'unchanged':
      return `The Gatehouse PreToolUse hook is already in ${result.path}; nothing changed.\n`;
    case 'added': {
      const where = result.created ? `Created ${result.path} with` : `Added to ${result.path}`;
      return `${where} the Gatehouse PreToolUse hook:\n${fields.join('\n')}\n`;
    }
    case 'updated': {
      const before = previous
        ? `  was      matcher ${previous.matcher}, command ${previous.command}, timeout ${previous.timeout ?? 'none'}`
        : '';
      return `Updated the Gatehouse PreToolUse hook in ${result.path}:\n${fields.join('\n')}\n${before}\n`;
    }
  }
}

async function install(context: ActionContext): Promise<number> {
  const { values, command, io } = context;
  const client = context.positionals[0];
  if (!(CLIENTS as readonly (string | undefined)[]).includes(client)) {
    throw new UsageError(`unknown client '${client}'; hooks exist for ${CLIENTS.join(', ')}`, command);
  }
  const scope = choiceOption(values, 'scope', SCOPES, command) ?? 'project';
  const given = stringOption(values, 'settings');
  const settingsPath = given
    ? resolve(given)
    : settingsPathFor(scope, process.cwd(), io.env.HOME || homedir());
  const timeoutSeconds =
    intOption(values, 'timeout', { min: 10, max: 3600, command }) ?? DEFAULT_TIMEOUT_SECONDS;
  const matcher = stringOption(values, 'matcher') ?? '*';
  if (matcher.trim() === '')
    throw new UsageError('--matcher needs a tool name pattern, e.g. "Bash|Write"', command);
  const hookCommand = stringOption(values, 'command') ?? defaultCommand(timeoutSeconds);
  const result = installClaudeCodeHook({ settingsPath, command: hookCommand, matcher, timeoutSeconds });
  if (context.json) printJson(io, result);
  else io.stdout.write(describe(result));
  if (stringOption(values, 'command') === undefined && !onPath('gatehouse', io.env)) {
    const launcher = fileURLToPath(new URL('../../bin/gatehouse.js', import.meta.url));
    io.stderr.write(
      'note: `gatehouse` is not on PATH here, and Claude Code runs the hook through a shell. Install the CLI\n' +
        `globally, or run this again with --command "node ${launcher} hook claude-code".\n`,
    );
  }
  return 0;
}

async function runHook(context: ActionContext): Promise<number> {
  const { io, values } = context;
  let settings: ReturnType<typeof hookSettings>;
  try {
    settings = hookSettings(values as HookOptionValues, io.env);
  } catch (error) {
    if (error instanceof HookSettingsError) throw new UsageError(error.message, context.command);
    throw error;
  }
  try {
    return await runClaudeCodeHook(settings, io);
  } catch (error) {
    // Exit code 2 blocks the tool call; exit code 1 would let Claude Code run it.
    io.stderr.write(
      `gatehouse hook: ${error instanceof Error ? error.message : String(error)}; the tool call is blocked\n`,
    );
    return 2;
  }
}

/** `gatehouse hook claude-code`: Claude Code's PreToolUse hook, asking Gatehouse before every tool call. */
const claudeCodeHookAction: Action = {
  name: 'claude-code',
  summary:
    "Claude Code's PreToolUse hook: ask Gatehouse before each tool call (reads the hook JSON on stdin)",
  json: false,
  options: {
    url: {
      type: 'string',
      value: '<url>',
      description: `Gatehouse server (default GATEHOUSE_URL, else ${HOOK_DEFAULT_URL})`,
    },
    token: {
      type: 'string',
      value: '<agent-token>',
      description: 'Agent token (default GATEHOUSE_TOKEN; the variable keeps it out of process lists)',
    },
    'run-id': {
      type: 'string',
      value: '<run-id>',
      description: 'Run the calls belong to (default GATEHOUSE_RUN_ID)',
    },
    'budget-ms': {
      type: 'string',
      value: '<ms>',
      description: `Answer within this many ms of starting, under the hook timeout (default ${DEFAULT_BUDGET_MS})`,
    },
    'state-dir': {
      type: 'string',
      value: '<dir>',
      description: 'Where pending calls are remembered (default $XDG_STATE_HOME/gatehouse/claude-code)',
    },
  },
  details:
    'Claude Code runs it before every tool call (`gatehouse hook install claude-code` sets that up).\n' +
    'It asks Gatehouse and prints allow or deny as hook JSON. A call that waits for a person is denied\n' +
    'with the gate id; the same call retried later gets the decision. A steer is a denial carrying the\n' +
    "person's instructions. Without an answer in time, or without a server, the call is denied\n" +
    '(fail closed). Other hook events are ignored. Details: docs/claude-code.md.',
  examples: [
    'export GATEHOUSE_TOKEN=gha_… GATEHOUSE_RUN_ID=run_…',
    `echo '{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Read","tool_input":{"file_path":"/tmp/a"}}' | gatehouse hook claude-code`,
  ],
  run: runHook,
};

/** `gatehouse hook`: the hook Claude Code runs before each tool call, and its installer. */
export const hookCommand: Command = {
  name: 'hook',
  summary: 'Gate Claude Code tool calls: the PreToolUse hook and its installer',
  actions: [
    claudeCodeHookAction,
    {
      name: 'install',
      summary: "Add the Gatehouse PreToolUse hook to Claude Code's settings (merges; safe to run again)",
      args: '<client>',
      positionals: { min: 1, max: 1 },
      options: {
        scope: {
          type: 'string',
          value: '<scope>',
          description: 'project: ./.claude/settings.json (default); user: ~/.claude/settings.json',
        },
        settings: {
          type: 'string',
          value: '<path>',
          description: 'This settings file instead (wins over --scope)',
        },
        matcher: { type: 'string', value: '<pattern>', description: 'Tools to gate (default *: every tool)' },
        timeout: {
          type: 'string',
          value: '<seconds>',
          description: `Hook timeout, 10-3600 (default ${DEFAULT_TIMEOUT_SECONDS}); the hook answers 5 s before it`,
        },
        command: {
          type: 'string',
          value: '<command>',
          description: 'The command Claude Code runs (default gatehouse hook claude-code)',
        },
      },
      details:
        'Only the Gatehouse entry is added or updated; every other hook and setting stays as it was.\n' +
        'The token is never written to the file: give Claude Code GATEHOUSE_URL, GATEHOUSE_TOKEN (an agent\n' +
        'token) and GATEHOUSE_RUN_ID in its environment.',
      examples: [
        'gatehouse hook install claude-code',
        'gatehouse hook install claude-code --scope user --matcher "Bash|Write|Edit" --timeout 60',
      ],
      run: install,
    },
  ],
};
