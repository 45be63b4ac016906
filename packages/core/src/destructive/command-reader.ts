import type { Action } from '../schemas.js';
import { isReadOnlyCommandLine } from './command-read-only.js';
import { type ActionPayloads, isShellLikeTool, payloadsOf, toolWords } from './command-shapes.js';
import { inspectCode, type ScriptLanguage } from './destructive-code.js';
import { inspectShell } from './destructive-shell.js';
import { inspectSql } from './destructive-sql.js';
import type { DestructiveCategory, DestructiveFinding } from './destructive-types.js';
import { isSecretPath, isWorkspacePath, protectedKindOf } from './protected-paths.js';

/** The confidence seed's always-gated operations: these wait for a person whatever the confidence. */
export const ALWAYS_GATED_CATEGORIES = [
  'delete_files',
  'drop_tables',
  'production_config',
  'system_packages',
  'destructive_shell',
  'secret_files',
] as const;
export type AlwaysGatedCategory = (typeof ALWAYS_GATED_CATEGORIES)[number];

/** What a file tool does, from the words of its name (and an `action`/`mode` argument). */
export type FileEffect = 'delete' | 'write' | 'read';

/** Everything the command reader found in one action. */
export interface ActionReading {
  payloads: ActionPayloads;
  /** What the action destroys or changes that a person must see, with reasons. */
  findings: DestructiveFinding[];
  /** System package installs it makes. */
  installs: string[];
  /** The paths it names, and what its tool does to them. */
  paths: string[];
  fileEffect: FileEffect | null;
  /** The seed's always-gated categories it falls under (unreadable input counts as the tool's highest). */
  categories: AlwaysGatedCategory[];
  /** False when some of it could not be read: the action then fails closed. */
  readable: boolean;
  /** Proven read-only: it lists, reads or searches inside the workspace, without network. */
  readOnly: boolean;
}

const DELETE_VERBS = new Set([
  'delete',
  'remove',
  'rm',
  'unlink',
  'erase',
  'destroy',
  'purge',
  'wipe',
  'rmdir',
  'trash',
  'del',
  'shred',
  'drop',
  'truncate',
]);
const WRITE_VERBS = new Set([
  'write',
  'edit',
  'multiedit',
  'create',
  'update',
  'save',
  'put',
  'append',
  'patch',
  'replace',
  'move',
  'rename',
  'mv',
  'copy',
  'cp',
  'upload',
  'modify',
  'insert',
  'apply',
  'overwrite',
  'set',
  'chmod',
  'chown',
  'mkdir',
  'touch',
]);
const READ_VERBS = new Set([
  'read',
  'get',
  'list',
  'ls',
  'search',
  'find',
  'grep',
  'glob',
  'view',
  'cat',
  'show',
  'stat',
  'head',
  'tail',
  'tree',
  'open',
]);
const FILE_NOUNS = new Set([
  'file',
  'files',
  'dir',
  'directory',
  'directories',
  'folder',
  'path',
  'paths',
  'fs',
  'filesystem',
  'notebook',
  'document',
]);
const DATA_NOUNS = new Set([
  'table',
  'tables',
  'database',
  'databases',
  'db',
  'collection',
  'schema',
  'index',
  'keyspace',
  'bucket',
]);
const PATH_KEYS = [
  'path',
  'paths',
  'file',
  'files',
  'file_path',
  'filePath',
  'file_paths',
  'filename',
  'filepath',
  'notebook_path',
  'target',
  'destination',
  'dest',
  'source',
  'src',
  'dir',
  'directory',
  'folder',
  'old_path',
  'new_path',
];
const ACTION_KEYS = ['action', 'mode', 'op', 'operation', 'method'];

function fileEffectOf(action: Action): FileEffect | null {
  const words = [...toolWords(action.tool ?? '')];
  for (const key of ACTION_KEYS) {
    const value = action.args[key];
    if (typeof value === 'string' && action.tool !== undefined) words.push(...toolWords(value));
  }
  if (words.some((word) => DELETE_VERBS.has(word))) return 'delete';
  if (words.some((word) => WRITE_VERBS.has(word))) return 'write';
  if (words.some((word) => READ_VERBS.has(word))) return 'read';
  return null;
}

/** The paths an action names, from the usual argument names; a non-text path is unreadable. */
function pathsOf(action: Action, unreadable: string[]): string[] {
  const paths: string[] = [];
  for (const key of PATH_KEYS) {
    const value = action.args[key];
    if (value === undefined || value === null) continue;
    if (typeof value === 'string') paths.push(value);
    else if (Array.isArray(value) && value.every((item) => typeof item === 'string')) paths.push(...value);
    else if (key !== 'source' && key !== 'target')
      unreadable.push(`args.${key} is neither a path nor a list of paths`);
  }
  return paths;
}

function inspectCodeAnyLanguage(language: ScriptLanguage | null, text: string): DestructiveFinding[] {
  const languages: ScriptLanguage[] =
    language === null ? ['python', 'node', 'perl', 'ruby', 'php'] : [language];
  const findings: DestructiveFinding[] = [];
  for (const each of languages) {
    const inspection = inspectCode(each, text);
    for (const call of inspection.deletes)
      findings.push({ category: 'file_delete', reason: `the code deletes files with ${call}`, source: call });
    if (inspection.downloadsAndRuns)
      findings.push({
        category: 'download_execute',
        reason: 'the code runs code it downloads',
        source: text.slice(0, 200),
      });
    for (const command of [...inspection.shellCommands, ...inspection.decodedCode])
      findings.push(...inspectShell(command).findings);
    if (inspection.computedShell.length > 0 || inspection.evaluatesUnknown)
      findings.push({
        category: 'uninspectable',
        reason: 'the code runs commands or code built at run time',
        source: text.slice(0, 200),
      });
  }
  return findings;
}

/** Findings of SQL read on its own (a `sql` argument, a command that is SQL text). */
const SQL_FINDINGS = new WeakSet<DestructiveFinding>();

const CATEGORY_OF_FINDING: Partial<Record<DestructiveCategory, AlwaysGatedCategory>> = {
  file_delete: 'delete_files',
  sql_data_loss: 'drop_tables',
  database_wipe: 'drop_tables',
  secret_write: 'secret_files',
  production_config_write: 'production_config',
};

/** The highest always-gated category of a tool, for input the reader cannot read. */
function highestCategoryOf(
  action: Action,
  payloads: ActionPayloads,
  effect: FileEffect | null,
): AlwaysGatedCategory {
  const words = toolWords(action.tool ?? '');
  if (payloads.shell.length > 0 || isShellLikeTool(action.tool ?? '')) return 'destructive_shell';
  if (payloads.sql.length > 0 || words.some((word) => DATA_NOUNS.has(word) || word === 'sql'))
    return 'drop_tables';
  if (effect !== null || words.some((word) => FILE_NOUNS.has(word))) return 'delete_files';
  return 'destructive_shell';
}

function categoriesOf(
  action: Action,
  reading: Omit<ActionReading, 'categories' | 'readable' | 'readOnly'>,
  unreadable: boolean,
): AlwaysGatedCategory[] {
  const found = new Set<AlwaysGatedCategory>();
  const words = toolWords(action.tool ?? '');
  const { fileEffect, paths, payloads } = reading;
  for (const finding of reading.findings) {
    // SQL on its own drops tables; run from a shell it is a destructive shell command as well.
    if (!SQL_FINDINGS.has(finding)) found.add('destructive_shell');
    const category = CATEGORY_OF_FINDING[finding.category];
    if (category !== undefined) found.add(category);
  }
  if (reading.installs.length > 0) found.add('system_packages');
  if (fileEffect === 'delete') {
    if (words.some((word) => DATA_NOUNS.has(word)) && !words.some((word) => FILE_NOUNS.has(word)))
      found.add('drop_tables');
    else if (paths.length > 0 || words.some((word) => FILE_NOUNS.has(word))) found.add('delete_files');
  }
  const changes = fileEffect === 'delete' || fileEffect === 'write' || payloads.shell.length > 0;
  for (const path of changes ? paths : []) {
    const kind = protectedKindOf(path);
    if (kind === 'secret') found.add('secret_files');
    else if (kind !== null) found.add('production_config');
  }
  if (unreadable) found.add(highestCategoryOf(action, payloads, fileEffect));
  return ALWAYS_GATED_CATEGORIES.filter((category) => found.has(category));
}

function isReadOnly(
  reading: Omit<ActionReading, 'categories' | 'readable' | 'readOnly'>,
  action: Action,
): boolean {
  const { payloads, paths } = reading;
  if (payloads.sql.length > 0 || payloads.code.length > 0 || payloads.unreadable.length > 0) return false;
  if (reading.findings.length > 0 || reading.installs.length > 0) return false;
  if (!paths.every((path) => isWorkspacePath(path) && !isSecretPath(path))) return false;
  if (reading.fileEffect === 'write' || reading.fileEffect === 'delete') return false;
  if (payloads.shell.length > 0) return payloads.shell.every(isReadOnlyCommandLine);
  const words = toolWords(action.tool ?? '');
  return reading.fileEffect === 'read' && paths.length > 0 && words.some((word) => FILE_NOUNS.has(word));
}

function readUncached(action: Action): ActionReading {
  const payloads = payloadsOf(action);
  const unreadable = [...payloads.unreadable];
  const paths = pathsOf(action, unreadable);
  const findings: DestructiveFinding[] = [];
  const installs: string[] = [];
  for (const line of payloads.shell) {
    const shell = inspectShell(line);
    findings.push(...shell.findings);
    installs.push(...shell.installs);
  }
  // A command may be SQL itself ("DROP TABLE users"), so command lines are read as SQL too.
  for (const text of [...payloads.sql, ...payloads.shell.filter(looksLikeSql)])
    for (const finding of inspectSql(text)) {
      const sqlFinding: DestructiveFinding = {
        category: 'sql_data_loss',
        reason: finding.reason,
        source: finding.statement,
      };
      SQL_FINDINGS.add(sqlFinding);
      findings.push(sqlFinding);
    }
  for (const { language, text } of payloads.code) findings.push(...inspectCodeAnyLanguage(language, text));
  const fileEffect = fileEffectOf(action);
  const partial = { payloads: { ...payloads, unreadable }, findings, installs, paths, fileEffect };
  const readable = unreadable.length === 0 && !findings.some((f) => f.category === 'uninspectable');
  return {
    ...partial,
    categories: categoriesOf(action, partial, unreadable.length > 0),
    readable,
    readOnly: readable && isReadOnly(partial, action),
  };
}

/** A command line that is SQL itself ("DROP TABLE users"), not a program that shares a SQL verb (`truncate -s`). */
function looksLikeSql(line: string): boolean {
  return /^\s*(drop|truncate|delete|alter|update|with)\s/i.test(line) && !/\s-{1,2}[A-Za-z]/.test(line);
}

interface Cached {
  tool: string | undefined;
  operation: string | undefined;
  reading: ActionReading;
}

// The policy's conditions and the server's checks read the same request: keyed by its arguments object.
const readings = new WeakMap<object, Cached>();

/**
 * Reads what an action will do, whatever shape its arguments take: command strings and argv
 * arrays, wrappers, pipelines into shells and interpreters, decoded payloads, SQL, file tools
 * by what they do. What it cannot read counts as the highest always-gated category of the tool.
 * @example readAction({ tool: 'bash', args: { command: ['rm', '-rf', '/'] } }).categories // ['delete_files', 'destructive_shell']
 */
export function readAction(action: Action): ActionReading {
  const cached = readings.get(action.args);
  if (cached !== undefined && cached.tool === action.tool && cached.operation === action.operation)
    return cached.reading;
  const reading = readUncached(action);
  readings.set(action.args, { tool: action.tool, operation: action.operation, reading });
  return reading;
}
