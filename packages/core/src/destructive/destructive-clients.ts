import { PACKAGE_RULES } from './destructive-packages.js';
import type { Rule } from './destructive-types.js';
import { parseArgs } from './shell-command.js';

/** SQL clients: where each takes statements on its command line. */
function sqlClient(valued: string[], sqlOptions: string[]): Rule {
  const valuedSet = new Set([...valued, ...sqlOptions]);
  return (run) => {
    const args = parseArgs(run.args, valuedSet);
    for (const option of sqlOptions) for (const sql of args.values.get(option) ?? []) run.runSql(sql);
  };
}

/** sqlite3 and duckdb take single-dash long options; `-cmd` and `-c` carry SQL, the first operand is the file. */
const sqliteLike: Rule = (run) => {
  const valued = new Set([
    '-cmd',
    '-c',
    '-separator',
    '-nullvalue',
    '-newline',
    '-init',
    '-vfs',
    '-maxsize',
    '-mmap',
  ]);
  const operands: string[] = [];
  for (let i = 0; i < run.args.length; i++) {
    const arg = run.args[i] as string;
    if (!arg.startsWith('-') || arg === '-') operands.push(arg);
    else if (valued.has(arg)) {
      const value = run.args[++i] ?? '';
      if (arg === '-cmd' || arg === '-c') run.runSql(value);
    }
  }
  for (const sql of operands.slice(1)) run.runSql(sql);
};

/** Rules for database clients (the SQL they run) and package managers (what they install). */
export const CLIENT_RULES: Readonly<Record<string, Rule>> = {
  psql: sqlClient(
    [
      '-c',
      '--command',
      '-d',
      '--dbname',
      '-f',
      '--file',
      '-h',
      '--host',
      '-p',
      '--port',
      '-U',
      '--username',
      '-v',
      '--set',
      '-o',
      '--output',
    ],
    ['-c', '--command'],
  ),
  mysql: sqlClient(
    ['-e', '--execute', '-u', '--user', '-h', '--host', '-P', '--port', '-D', '--database', '-S', '--socket'],
    ['-e', '--execute'],
  ),
  mariadb: sqlClient(
    ['-e', '--execute', '-u', '--user', '-h', '--host', '-P', '--port', '-D', '--database', '-S', '--socket'],
    ['-e', '--execute'],
  ),
  'clickhouse-client': sqlClient(
    ['-q', '--query', '-h', '--host', '-u', '--user', '-d', '--database'],
    ['-q', '--query'],
  ),
  sqlcmd: sqlClient(['-Q', '-q', '-S', '-U', '-P', '-d', '-i'], ['-Q', '-q']),
  sqlite3: sqliteLike,
  duckdb: sqliteLike,
  ...PACKAGE_RULES,
};
