/** A SQL statement that loses data; `dropsTable` when it drops a table, database or schema. */
export interface SqlFinding {
  reason: string;
  statement: string;
  dropsTable: boolean;
}

const DROPPABLE = new Set([
  'TABLE',
  'DATABASE',
  'SCHEMA',
  'VIEW',
  'MATERIALIZED',
  'INDEX',
  'SEQUENCE',
  'TYPE',
  'FUNCTION',
  'PROCEDURE',
  'TRIGGER',
  'USER',
  'ROLE',
  'TABLESPACE',
  'EXTENSION',
  'OWNED',
  'COLLECTION',
  'KEYSPACE',
]);
const TABLE_LIKE = new Set(['TABLE', 'DATABASE', 'SCHEMA', 'COLLECTION', 'KEYSPACE']);
const NOT_A_COLUMN = new Set([
  'CONSTRAINT',
  'INDEX',
  'KEY',
  'PRIMARY',
  'FOREIGN',
  'DEFAULT',
  'CHECK',
  'NOT',
  'IDENTITY',
  'EXPRESSION',
]);

/** The text with comments removed and every string literal emptied, so only SQL keywords remain. */
function stripLiterals(sql: string): string {
  return sql
    .replace(/\$(\w*)\$[\s\S]*?\$\1\$/g, "''")
    .replace(/\/\*[\s\S]*?(\*\/|$)/g, ' ')
    .replace(/--[^\n]*/g, ' ')
    .replace(/'(?:[^']|'')*'?/g, "''")
    .replace(/"(?:[^"]|"")*"?/g, 'q')
    .replace(/`[^`]*`?/g, 'q');
}

function tokensOf(statement: string): string[] {
  return (statement.match(/[A-Za-z_][\w$]*|\d+|''|\S/g) ?? []).map((token) => token.toUpperCase());
}

/** Tokens outside parentheses from `from` on: the clauses of this statement, not of its subqueries. */
function topLevel(tokens: readonly string[], from: number): string[] {
  const top: string[] = [];
  let depth = 0;
  for (const token of tokens.slice(from)) {
    if (token === '(') depth++;
    else if (token === ')') depth--;
    else if (depth === 0) top.push(token);
  }
  return top;
}

function alwaysTrue(condition: readonly string[]): boolean {
  if (condition.length === 1) return condition[0] === 'TRUE';
  return condition.length === 3 && condition[1] === '=' && condition[0] === condition[2];
}

function dropFinding(tokens: readonly string[]): Omit<SqlFinding, 'statement'> | null {
  const object = tokens[1] === 'TEMPORARY' || tokens[1] === 'TEMP' ? tokens[2] : tokens[1];
  if (object === undefined || !DROPPABLE.has(object)) return null;
  const name = object === 'MATERIALIZED' ? 'MATERIALIZED VIEW' : object;
  return {
    reason: `DROP ${name} removes the ${name.toLowerCase()} and everything in it`,
    dropsTable: TABLE_LIKE.has(object),
  };
}

function deleteFinding(tokens: readonly string[]): Omit<SqlFinding, 'statement'> | null {
  const at = tokens.findIndex((token, i) => token === 'DELETE' && tokens[i + 1] === 'FROM');
  if (at === -1 || (at > 0 && tokens[0] !== 'WITH')) return null;
  const clauses = topLevel(tokens, at);
  const where = clauses.indexOf('WHERE');
  if (where === -1)
    return { reason: 'DELETE without WHERE deletes every row of the table', dropsTable: false };
  const condition = clauses.slice(where + 1).filter((token) => !['RETURNING', ';'].includes(token));
  if (alwaysTrue(condition))
    return { reason: 'DELETE with an always-true WHERE deletes every row of the table', dropsTable: false };
  return null;
}

/** Every clause of an ALTER TABLE is read: `DROP CONSTRAINT c, DROP COLUMN x` drops a column. */
function alterFinding(tokens: readonly string[]): Omit<SqlFinding, 'statement'> | null {
  if (tokens[1] !== 'TABLE') return null;
  const clauses = topLevel(tokens, 0);
  for (let drop = clauses.indexOf('DROP'); drop !== -1; drop = clauses.indexOf('DROP', drop + 1)) {
    const what = clauses[drop + 1];
    if (what === undefined || NOT_A_COLUMN.has(what)) continue;
    const part = what === 'PARTITION' ? 'partition' : 'column';
    return {
      reason: `ALTER TABLE … DROP ${part.toUpperCase()} deletes the ${part} and its data`,
      dropsTable: false,
    };
  }
  return null;
}

function updateFinding(tokens: readonly string[]): Omit<SqlFinding, 'statement'> | null {
  const clauses = topLevel(tokens, 0);
  if (!clauses.includes('SET')) return null;
  const where = clauses.indexOf('WHERE');
  if (where === -1)
    return { reason: 'UPDATE without WHERE overwrites every row of the table', dropsTable: false };
  return alwaysTrue(clauses.slice(where + 1).filter((token) => token !== ';'))
    ? { reason: 'UPDATE with an always-true WHERE overwrites every row of the table', dropsTable: false }
    : null;
}

function findingOf(tokens: readonly string[]): Omit<SqlFinding, 'statement'> | null {
  switch (tokens[0]) {
    case 'DROP':
      return dropFinding(tokens);
    case 'TRUNCATE':
      return { reason: 'TRUNCATE deletes every row of the table', dropsTable: false };
    case 'ALTER':
      return alterFinding(tokens);
    case 'UPDATE':
      return updateFinding(tokens);
    default:
      return deleteFinding(tokens);
  }
}

/** The statements of `sql` that drop objects, truncate tables, or delete without a WHERE. */
export function inspectSql(sql: string): SqlFinding[] {
  const findings: SqlFinding[] = [];
  for (const statement of stripLiterals(sql).split(';')) {
    const finding = findingOf(tokensOf(statement));
    if (finding !== null) findings.push({ ...finding, statement: statement.trim().replace(/\s+/g, ' ') });
  }
  return findings;
}
