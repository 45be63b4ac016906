import { optionsOf } from './args.js';
import type { Action, Command, OptionSpec } from './command.js';

function columns(rows: [string, string][], indent = 2): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `${' '.repeat(indent)}${left.padEnd(width)}  ${right}`);
}

function optionLabel(name: string, spec: OptionSpec): string {
  const flag = spec.short ? `-${spec.short}, --${name}` : `    --${name}`;
  return spec.type === 'string' ? `${flag} ${spec.value ?? '<value>'}` : flag;
}

/** `gatehouse --help`: every command with one line each. */
export function formatTopHelp(commands: readonly Command[]): string {
  const lines = [
    'gatehouse: the Gatehouse command line (human-in-the-loop control plane for AI agents)',
    '',
    'Usage: gatehouse <command> [subcommand] [options]',
    '',
    'Commands:',
    ...columns(commands.map((command) => [command.name, command.summary])),
    '',
    'Options:',
    ...columns([
      ['-h, --help', 'Show help (also on every command and subcommand)'],
      ['-V, --version', 'Show the version'],
    ]),
    '',
    'Environment:',
    ...columns([
      ['GATEHOUSE_URL', 'Server address (default: the one you signed in to, else http://127.0.0.1:7300)'],
      ['GATEHOUSE_TOKEN', 'Session or agent token, instead of `gatehouse login`'],
      ['XDG_CONFIG_HOME', 'Credentials live in $XDG_CONFIG_HOME/gatehouse (default ~/.config/gatehouse)'],
      ['GATEHOUSE_NODE_CHECK', 'off: no warning on a Node.js older than package.json engines allows'],
    ]),
    '',
    'Run `gatehouse help <command>` or `gatehouse <command> --help` for details.',
    'Exit codes: 0 done, 1 refused or failed (the server says why), 2 wrong usage.',
  ];
  return `${lines.join('\n')}\n`;
}

function usageLine(command: Command, action: Action): string {
  const name = action.name === '' ? command.name : `${command.name} ${action.name}`;
  const args = action.args ? ` ${action.args}` : '';
  return `gatehouse ${name}${args} [options]`;
}

/** `gatehouse gates --help`: the subcommands of a command (or the action's help when it has none). */
export function formatCommandHelp(command: Command): string {
  const unnamed = command.actions.find((action) => action.name === '');
  if (unnamed) return formatActionHelp(command, unnamed);
  const lines = [
    `Usage: gatehouse ${command.name} <subcommand> [options]`,
    '',
    `${command.summary}.`,
    '',
    'Subcommands:',
    ...columns(
      command.actions.map((action) => [
        `${action.name}${action.args ? ` ${action.args}` : ''}`,
        action.summary,
      ]),
    ),
    '',
    `Run \`gatehouse ${command.name} <subcommand> --help\` for its options.`,
  ];
  return `${lines.join('\n')}\n`;
}

/** `gatehouse gates decide --help`: usage, description, options and examples of one action. */
export function formatActionHelp(command: Command, action: Action): string {
  const options = Object.entries(optionsOf(action));
  const lines = [`Usage: ${usageLine(command, action)}`, '', `${action.summary}.`];
  if (action.details) lines.push('', action.details);
  const subcommands = action.name === '' ? command.actions.filter((other) => other.name !== '') : [];
  if (subcommands.length > 0) {
    lines.push(
      '',
      'Subcommands:',
      ...columns(subcommands.map((other) => [other.name, other.summary])),
      `Run \`gatehouse ${command.name} <subcommand> --help\` for their options.`,
    );
  }
  lines.push(
    '',
    'Options:',
    ...columns(options.map(([name, spec]) => [optionLabel(name, spec), spec.description])),
  );
  if (action.examples && action.examples.length > 0) {
    lines.push('', 'Examples:', ...action.examples.map((example) => `  ${example}`));
  }
  return `${lines.join('\n')}\n`;
}
