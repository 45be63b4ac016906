import { parseActionArgs } from './args.js';
import type { Action, Command, Io } from './command.js';
import { adminCommand } from './commands/admin.js';
import { agentsCommand } from './commands/agents.js';
import { auditCommand } from './commands/audit.js';
import { checkCommand } from './commands/check.js';
import { createCompletionCommand } from './commands/completion.js';
import { gatesCommand } from './commands/gates.js';
import { hookCommand } from './commands/hook.js';
import { inboxCommand } from './commands/inbox.js';
import { loginCommand } from './commands/login.js';
import { mcpCommand } from './commands/mcp.js';
import { migrateCommand } from './commands/migrate.js';
import { notificationsCommand } from './commands/notifications.js';
import { policyCommand } from './commands/policy.js';
import { reviewCommand } from './commands/review.js';
import { rulesCommand } from './commands/rules.js';
import { runsCommand } from './commands/runs.js';
import { serveCommand } from './commands/serve.js';
import { trustCommand } from './commands/trust.js';
import { usersCommand } from './commands/users.js';
import { versionCommand } from './commands/version.js';
import { webhooksCommand } from './commands/webhooks.js';
import { whitelistCommand } from './commands/whitelist.js';
import { forbiddenHint } from './credential-hint.js';
import { resolveCredentials } from './credentials.js';
import { ApiError, CliError, isApiError, UsageError } from './errors.js';
import { formatActionHelp, formatCommandHelp, formatTopHelp } from './help.js';
import { type ApiClient, createApiClient } from './http.js';
import { terminalSafe } from './output.js';
import { cliVersion } from './version.js';

/** Every command of the `gatehouse` binary, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [
  serveCommand,
  migrateCommand,
  loginCommand,
  inboxCommand,
  gatesCommand,
  runsCommand,
  reviewCommand,
  policyCommand,
  rulesCommand,
  trustCommand,
  auditCommand,
  agentsCommand,
  usersCommand,
  adminCommand,
  webhooksCommand,
  notificationsCommand,
  hookCommand,
  checkCommand,
  whitelistCommand,
  mcpCommand,
  createCompletionCommand(() => COMMANDS),
  versionCommand,
];

/** Exit codes: 0 done, 1 refused or failed, 2 wrong usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

function findCommand(name: string): Command {
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    throw new UsageError(
      `unknown command '${name}'; the commands are ${COMMANDS.map((c) => c.name).join(', ')}`,
    );
  }
  return command;
}

function findAction(command: Command, name: string): Action {
  const action = command.actions.find((candidate) => candidate.name === name);
  if (!action) {
    const names = command.actions.map((a) => a.name).join(', ');
    throw new UsageError(
      `unknown subcommand '${name}' for gatehouse ${command.name}; choose one of ${names}`,
      command.name,
    );
  }
  return action;
}

function lazyClient(io: Io): () => ApiClient {
  let client: ApiClient | null = null;
  return () => {
    if (client) return client;
    const { url, token } = resolveCredentials(io.env);
    if (!token) {
      throw new CliError(
        `not signed in to ${url}; run \`gatehouse login --url ${url}\` or set GATEHOUSE_TOKEN`,
        'NOT_SIGNED_IN',
      );
    }
    client = createApiClient({ url, token });
    return client;
  };
}

/** `gatehouse help [command [subcommand]]`. */
function printHelp(io: Io, words: string[]): number {
  const [commandName, actionName] = words;
  if (commandName === undefined) {
    io.stdout.write(formatTopHelp(COMMANDS));
    return EXIT.ok;
  }
  const command = findCommand(commandName);
  if (actionName === undefined) io.stdout.write(formatCommandHelp(command));
  else io.stdout.write(formatActionHelp(command, findAction(command, actionName)));
  return EXIT.ok;
}

/** What the error report needs to know of the command line once it is parsed. */
interface Invocation {
  json: boolean;
  command: string | null;
}

async function dispatch(argv: string[], io: Io, invocation: Invocation): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h') return printHelp(io, []);
  if (first === 'help') return printHelp(io, rest);
  if (first === '--version' || first === '-V') {
    io.stdout.write(`${cliVersion()}\n`);
    return EXIT.ok;
  }
  if (first.startsWith('-')) throw new UsageError(`unknown option '${first}'; put options after the command`);
  const command = findCommand(first);
  // A command's unnamed action runs unless the first word names one of its subcommands (`mcp proxy`).
  const unnamed = command.actions.find((candidate) => candidate.name === '');
  const named = command.actions.some((candidate) => candidate.name !== '' && candidate.name === rest[0]);
  const single = unnamed !== undefined && !named;
  let action: Action;
  let args: string[];
  if (single) {
    action = unnamed;
    args = rest;
  } else {
    const [sub, ...subArgs] = rest;
    if (sub === undefined || sub === '--help' || sub === '-h') {
      io.stdout.write(formatCommandHelp(command));
      return EXIT.ok;
    }
    action = findAction(command, sub);
    args = subArgs;
  }
  const name = single ? command.name : `${command.name} ${action.name}`;
  invocation.command = name;
  // Before parsing, so a usage error of a --json call is JSON too.
  invocation.json = action.json !== false && args.includes('--json');
  const { values, positionals } = parseActionArgs(action, args, name);
  invocation.json = values.json === true;
  if (values.help) {
    io.stdout.write(formatActionHelp(command, action));
    return EXIT.ok;
  }
  const code = await action.run({
    io,
    values,
    positionals,
    json: values.json === true,
    command: name,
    client: lazyClient(io),
  });
  return code ?? EXIT.ok;
}

function detailLines(error: ApiError): string[] {
  const lines: string[] = [];
  const fields = error.details.fields;
  if (Array.isArray(fields) && fields.length > 1) {
    for (const field of fields as { field?: unknown; message?: unknown }[]) {
      lines.push(`  ${terminalSafe(field.field)}: ${terminalSafe(field.message)}`);
    }
  }
  const issues = error.details.issues ?? error.details.errors;
  if (Array.isArray(issues)) {
    for (const issue of issues as {
      ruleId?: unknown;
      ruleIndex?: unknown;
      path?: unknown;
      message?: unknown;
    }[]) {
      const rule =
        typeof issue.ruleId === 'string'
          ? `rule ${issue.ruleId}`
          : typeof issue.ruleIndex === 'number'
            ? `rule #${issue.ruleIndex + 1}`
            : 'policy';
      const where = issue.path ? ` (${terminalSafe(issue.path)})` : '';
      lines.push(`  ${terminalSafe(rule)}${where}: ${terminalSafe(issue.message)}`);
    }
  }
  return lines;
}

/** `{ "error": { code, message, … } }` on stderr, the wire error's shape, for `--json` calls. */
function reportJsonError(io: Io, error: unknown, hint: string | null): number {
  const withHint = hint === null ? {} : { hint };
  let body: Record<string, unknown>;
  let exit: number = EXIT.failed;
  if (error instanceof UsageError) {
    const help = error.command ? `gatehouse ${error.command} --help` : 'gatehouse --help';
    body = { code: 'USAGE_ERROR', message: error.message, help };
    exit = EXIT.usage;
  } else if (error instanceof ApiError) {
    body = { code: error.code, message: error.message, details: error.details, ...withHint };
  } else if (error instanceof CliError) {
    body = { code: error.code, message: error.message };
  } else {
    body = { code: 'CLI_ERROR', message: error instanceof Error ? error.message : String(error) };
  }
  io.stderr.write(`${JSON.stringify({ error: body })}\n`);
  return exit;
}

/** Prints an error the way every command does (as JSON for `--json`) and returns its exit code. */
export function reportError(
  io: Io,
  error: unknown,
  options: { json?: boolean; hint?: string | null } = {},
): number {
  const hint = options.hint ?? null;
  if (options.json === true) return reportJsonError(io, error, hint);
  if (error instanceof UsageError) {
    const help = error.command ? `gatehouse ${error.command} --help` : 'gatehouse --help';
    io.stderr.write(`error: ${error.message}\nRun \`${help}\` for usage.\n`);
    return EXIT.usage;
  }
  if (error instanceof ApiError) {
    const lines = [`error ${error.code}: ${terminalSafe(error.message)}`, ...detailLines(error)];
    if (hint !== null) lines.push(hint);
    io.stderr.write(`${lines.join('\n')}\n`);
    return EXIT.failed;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`error: ${message}\n`);
  return EXIT.failed;
}

/**
 * Runs the command line `argv` (without `node` and the script) and returns the exit code.
 * @example process.exitCode = await runCli(process.argv.slice(2), io)
 */
export async function runCli(argv: string[], io: Io): Promise<number> {
  const invocation: Invocation = { json: false, command: null };
  try {
    return await dispatch(argv, io, invocation);
  } catch (error) {
    const hint = isApiError(error, 'FORBIDDEN') ? await forbiddenHint(io.env, invocation.command) : null;
    return reportError(io, error, { json: invocation.json, hint });
  }
}
