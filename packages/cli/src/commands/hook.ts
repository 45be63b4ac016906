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
} from '../hook/claude-code-settings.js';
import {
  type GatehouseHook,
  type InstallResult,
  installClaudeCodeHook,
  settingsPathFor,
} from '../hook/install.js';
import {
  BUDGET_MARGIN_MS,
  blocksOnFailure,
  claudeCodeVersion,
  commandHandler,
  guardedCommand,
  httpHandler,
  ON_FAILURE_SINCE,
  type Transport,
} from '../hook/install-transport.js';
import { printJson } from '../output.js';

const CLIENTS = ['claude-code'] as const;
const SCOPES = ['project', 'user'] as const;
const TRANSPORTS = ['http', 'command'] as const;
const MODES = ['wait', 'ask', 'defer'] as const;
const ON_FAILURE = ['auto', 'block', 'none'] as const;
/** The hook timeout `install` writes; the hook's default budget is 5 s under it. */
const DEFAULT_TIMEOUT_SECONDS = 30;

function onPath(name: string, env: Env): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, name)));
}

function handlerLines(hook: GatehouseHook): string[] {
  if (hook.type === 'command') {
    return ['  transport command', `  command  ${hook.command}`, `  timeout  ${hook.timeout} s`];
  }
  return [
    '  transport http',
    `  url      ${hook.url}`,
    `  headers  ${Object.entries(hook.headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join(', ')}`,
    `  timeout  ${hook.timeout} s`,
    `  onFailure ${hook.onFailure ?? '(not written)'}`,
  ];
}

function describe(result: InstallResult): string {
  const { entry, previous } = result;
  const hook = entry.hooks[0] as GatehouseHook;
  const fields = [`  matcher  ${entry.matcher}`, ...handlerLines(hook)];
  switch (result.change) {
    case 'unchanged':
      return `The Gatehouse PreToolUse hook is already in ${result.path}; nothing changed.\n`;
    case 'added': {
      const where = result.created ? `Created ${result.path} with` : `Added to ${result.path}`;
      return `${where} the Gatehouse PreToolUse hook:\n${fields.join('\n')}\n`;
    }
    case 'updated': {
      const before = previous
        ? `  was      matcher ${previous.matcher}, ${previous.transport} ${previous.target}, timeout ${previous.timeout ?? 'none'}`
        : '';
      return `Updated the Gatehouse PreToolUse hook in ${result.path}:\n${fields.join('\n')}\n${before}\n`;
    }
  }
}

interface TransportChoice {
  transport: Transport;
  serverUrl: string;
  onFailureBlock: boolean;
  /** Why the command hook was chosen although a server address is known. */
  note: string | null;
}

function chooseTransport(context: ActionContext): TransportChoice {
  const { values, command, io } = context;
  const given = choiceOption(values, 'transport', TRANSPORTS, command);
  const customCommand = stringOption(values, 'command');
  if (given === 'http' && customCommand !== undefined) {
    throw new UsageError('--command is the command hook; it cannot go with --transport http', command);
  }
  const knownUrl = stringOption(values, 'url') ?? (io.env.GATEHOUSE_URL?.trim() || undefined);
  let serverUrl: string;
  try {
    serverUrl = hookSettings({ ...(knownUrl === undefined ? {} : { url: knownUrl }) }, {}).url;
  } catch (error) {
    if (error instanceof HookSettingsError)
      throw new UsageError(error.message.replace('"', '--url "'), command);
    throw error;
  }
  const onFailure = choiceOption(values, 'on-failure', ON_FAILURE, command) ?? 'auto';
  const version = onFailure === 'auto' ? claudeCodeVersion(io.env) : null;
  const onFailureBlock = onFailure === 'block' || (onFailure === 'auto' && blocksOnFailure(version));
  if (given !== undefined) return { transport: given, serverUrl, onFailureBlock, note: null };
  if (customCommand !== undefined || knownUrl === undefined) {
    return { transport: 'command', serverUrl, onFailureBlock, note: null };
  }
  if (onFailureBlock) return { transport: 'http', serverUrl, onFailureBlock, note: null };
  const seen =
    version === null ? 'no `claude --version` answered here' : `Claude Code ${version.join('.')} is older`;
  return {
    transport: 'command',
    serverUrl,
    onFailureBlock,
    note:
      `note: wrote the command hook, not the http hook: ${seen}, and Claude Code runs a call when an http hook\n` +
      `fails unless it blocks on failure (onFailure, ${ON_FAILURE_SINCE.join('.')} and later). Use --transport http\n` +
      '(with --on-failure block on such a version) for one local HTTP request per call instead of a process.\n',
  };
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
  const choice = chooseTransport(context);
  const mode = choiceOption(values, 'mode', MODES, command);
  if (mode !== undefined && choice.transport !== 'http') {
    throw new UsageError('--mode is for the http hook (--transport http); the command hook waits', command);
  }
  const budgetMs = timeoutSeconds * 1000 - BUDGET_MARGIN_MS;
  const http = (event: 'pre-tool-use' | 'permission-request') =>
    httpHandler({
      serverUrl: choice.serverUrl,
      event,
      mode: mode ?? 'wait',
      timeoutSeconds,
      onFailureBlock: choice.onFailureBlock,
    });
  const handler =
    choice.transport === 'http'
      ? http('pre-tool-use')
      : commandHandler(
          stringOption(values, 'command') ?? guardedCommand(budgetMs, DEFAULT_BUDGET_MS),
          timeoutSeconds,
          choice.onFailureBlock,
        );
  const permissionRequest = choice.transport === 'http' && mode === 'ask' ? http('permission-request') : null;
  const result = installClaudeCodeHook({ settingsPath, handler, matcher, permissionRequest });
  if (context.json) printJson(io, result);
  else io.stdout.write(describe(result));
  if (choice.note !== null) io.stderr.write(choice.note);
  if (choice.transport === 'http' && !choice.onFailureBlock) {
    io.stderr.write(
      'warning: without onFailure "block", Claude Code runs tool calls while the Gatehouse server is down or slow\n' +
        '(http hook failures do not block). Keep the server running, or use --transport command.\n',
    );
  }
  if (
    choice.transport === 'command' &&
    stringOption(values, 'command') === undefined &&
    !onPath('gatehouse', io.env)
  ) {
    const launcher = fileURLToPath(new URL('../../bin/gatehouse.cjs', import.meta.url));
    io.stderr.write(
      'note: `gatehouse` is not on PATH here, so the hook blocks every tool call. Install the CLI globally,\n' +
        `or run this again with --command "node ${launcher} hook claude-code".\n`,
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
        transport: {
          type: 'string',
          value: '<transport>',
          description:
            'http: Claude Code POSTs each call to the server; command: runs gatehouse hook claude-code (default: http when the server address is known and Claude Code blocks on hook failure, else command)',
        },
        url: {
          type: 'string',
          value: '<url>',
          description: `Gatehouse server for the http hook (default GATEHOUSE_URL, else ${HOOK_DEFAULT_URL})`,
        },
        mode: {
          type: 'string',
          value: '<mode>',
          description:
            "http hook, when a gate opens: wait (default) for the decision, ask (Claude Code's own prompt; the gate stays open), defer (headless claude -p)",
        },
        'on-failure': {
          type: 'string',
          value: '<auto|block|none>',
          description: `Write onFailure "block" on the http hook: auto (default) when claude --version is ${ON_FAILURE_SINCE.join('.')} or later`,
        },
        command: {
          type: 'string',
          value: '<command>',
          description:
            'The command Claude Code runs (default: gatehouse hook claude-code behind a PATH guard)',
        },
      },
      details:
        'Only the Gatehouse entry is added or updated; every other hook and setting stays as it was.\n' +
        'The token is never written to the file: the http hook sends Authorization: Bearer $GATEHOUSE_TOKEN\n' +
        '(allowedEnvVars), so give Claude Code GATEHOUSE_TOKEN (an agent token), GATEHOUSE_RUN_ID and, for the\n' +
        'command hook, GATEHOUSE_URL in its environment. The command hook blocks calls when gatehouse is not\n' +
        'on PATH. Claude Code runs a call when an http hook fails unless onFailure "block" is written.',
      examples: [
        'gatehouse hook install claude-code',
        'gatehouse hook install claude-code --transport http --url http://127.0.0.1:7300 --mode ask',
        'gatehouse hook install claude-code --scope user --matcher "Bash|Write|Edit" --timeout 60',
      ],
      run: install,
    },
  ],
};
