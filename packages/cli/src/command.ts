import type { ApiClient } from './http.js';

export type Env = Record<string, string | undefined>;

/** Where a command writes: process.stdout / process.stderr, or a capture in tests. */
export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Everything a command may touch of the outside world; main.ts passes the real process's. */
export interface Io {
  stdout: Output;
  stderr: Output;
  stdin: NodeJS.ReadStream;
  env: Env;
  now(): number;
}

/** One command-line option of an action, as `util.parseArgs` takes it plus its help text. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** Placeholder shown in help, e.g. `<text>`. */
  value?: string;
  description: string;
}

export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/** What an action receives: its parsed arguments and a lazily signed-in API client. */
export interface ActionContext {
  io: Io;
  values: OptionValues;
  positionals: string[];
  /** `--json`: print the API's JSON instead of text. */
  json: boolean;
  /** The full command name, e.g. `gates decide`, for messages. */
  command: string;
  /** A client with the stored or environment credentials; throws when nobody signed in. */
  client(): ApiClient;
}

/** One runnable thing: a subcommand such as `gates list`, or a command without subcommands (`serve`). */
export interface Action {
  /** Subcommand name; empty for a command that has no subcommands. */
  name: string;
  summary: string;
  /** Positional arguments as shown in help, e.g. `<id>` or `<file>`. */
  args?: string;
  /** How many positional arguments are accepted. @default { min: 0, max: 0 } */
  positionals?: { min: number; max: number };
  /** The values the first positional argument takes, offered by shell completion. */
  choices?: readonly string[];
  options?: Record<string, OptionSpec>;
  /** Extra paragraphs for `--help`. */
  details?: string;
  examples?: string[];
  /** Whether `--json` applies. @default true */
  json?: boolean;
  /** Returns the exit code; nothing means 0. */
  run(context: ActionContext): Promise<number | undefined>;
}

/** A top-level command: one action, or several subcommands. */
export interface Command {
  name: string;
  summary: string;
  actions: Action[];
}
