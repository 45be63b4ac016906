import { stringOption } from '../args.js';
import type { ActionContext, Command } from '../command.js';
import { UsageError } from '../errors.js';
import { printJson, printLines } from '../output.js';

interface MigrateTarget {
  dialect: 'sqlite' | 'postgres';
  /** What to print: the SQLite file, or the Postgres host, database and schema (never the password). */
  where: string;
  options: { file: string } | { connectionString: string; schema?: string };
}

function postgresWhere(url: string, schema: string | null): string {
  const parsed = new URL(url);
  const database = parsed.pathname.replace(/^\//, '') || '(default database)';
  return `${parsed.host}/${database}${schema === null ? '' : ` schema ${schema}`}`;
}

async function targetOf(context: ActionContext): Promise<MigrateTarget> {
  const { values, command, io } = context;
  const database = stringOption(values, 'database');
  if (database !== undefined && !/^postgres(ql)?:\/\//.test(database)) {
    throw new UsageError('--database takes a Postgres URL: postgres://user:password@host:5432/db', command);
  }
  const schema = stringOption(values, 'schema');
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new UsageError(
      `--schema takes a lowercase name of letters, digits and _ (got '${schema}')`,
      command,
    );
  }
  const dataDir = stringOption(values, 'data-dir');
  // The same settings `gatehouse serve` reads, so both always reach the same database.
  const { loadConfig } = await import('gatehouse-hitl-server');
  const { join, resolve } = await import('node:path');
  const env = schema === undefined ? io.env : { ...io.env, GATEHOUSE_DATABASE_SCHEMA: schema };
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env, {
      ...(database === undefined ? {} : { databaseUrl: database }),
      ...(dataDir === undefined ? {} : { dataDir: resolve(dataDir) }),
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), command);
  }
  if (config.databaseUrl !== null) {
    const { databaseUrl, databaseSchema } = config;
    return {
      dialect: 'postgres',
      where: postgresWhere(databaseUrl, databaseSchema),
      options: {
        connectionString: databaseUrl,
        ...(databaseSchema === null ? {} : { schema: databaseSchema }),
      },
    };
  }
  if (schema !== undefined)
    throw new UsageError('--schema applies to Postgres only; add --database', command);
  const { mkdirSync } = await import('node:fs');
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const file = join(config.dataDir, 'gatehouse.db');
  return { dialect: 'sqlite', where: file, options: { file } };
}

async function migrate(context: ActionContext): Promise<number> {
  const target = await targetOf(context);
  const { migrateToLatest } = await import('gatehouse-hitl-store');
  const result = await migrateToLatest(target.options);
  if (context.json) {
    printJson(context.io, { dialect: result.dialect, database: target.where, applied: result.applied });
    return 0;
  }
  const engine = result.dialect === 'postgres' ? 'Postgres' : 'SQLite';
  if (result.applied.length === 0) {
    printLines(context.io, `${engine} ${target.where} is up to date; nothing to apply`);
    return 0;
  }
  const count = result.applied.length === 1 ? '1 migration' : `${result.applied.length} migrations`;
  printLines(
    context.io,
    `Applied ${count} to ${engine} ${target.where}:`,
    ...result.applied.map((n) => `  ${n}`),
  );
  return 0;
}

/** `gatehouse migrate`: bring the database to the latest schema, then exit. */
export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'Bring the database (Postgres or the SQLite data dir) to the latest schema and exit',
  actions: [
    {
      name: '',
      summary: 'Apply every pending migration to the database `gatehouse serve` would use, then exit',
      options: {
        database: {
          type: 'string',
          value: '<postgres-url>',
          description: 'Migrate this Postgres database (same as GATEHOUSE_DATABASE_URL)',
        },
        schema: {
          type: 'string',
          value: '<name>',
          description: 'Postgres schema to keep the tables in (same as GATEHOUSE_DATABASE_SCHEMA)',
        },
        'data-dir': {
          type: 'string',
          value: '<dir>',
          description: 'Without a database: the SQLite data dir (default ./.gatehouse)',
        },
      },
      details:
        'Run it once before rolling out a new version to several nodes. It is safe to run from\n' +
        'several places at once: on Postgres the migrations take an advisory lock, so one run\n' +
        'applies them and the others find the schema current. `gatehouse serve` also migrates on start.\n' +
        'Environment: GATEHOUSE_DATABASE_URL, GATEHOUSE_DATABASE_SCHEMA, GATEHOUSE_DATA_DIR; options win.',
      examples: [
        'gatehouse migrate --database postgres://gatehouse@db.internal/gatehouse',
        'GATEHOUSE_DATABASE_URL=postgres://gatehouse@db.internal/gatehouse gatehouse migrate --json',
        'gatehouse migrate --data-dir ./.gatehouse',
      ],
      run: migrate,
    },
  ],
};
