import type { Rule } from './destructive-types.js';
import { nonOptions } from './shell-command.js';

const prisma: Rule = (run) => {
  const [group, sub] = nonOptions(run.args);
  if (group === 'migrate' && sub === 'reset')
    run.report('database_wipe', 'prisma migrate reset drops the database and recreates it empty');
  if (group === 'db' && sub === 'push' && run.args.includes('--force-reset'))
    run.report('database_wipe', 'prisma db push --force-reset drops every table before pushing');
};

/** Django's manage.py and django-admin. */
const django: Rule = (run) => {
  const sub = nonOptions(run.args)[0];
  if (sub === 'flush' || sub === 'reset_db')
    run.report('database_wipe', `${run.name} ${sub} deletes every row of every table`);
};

/** Rails and rake tasks: what each wipes, deletes or writes. */
const RAILS_TASKS: readonly [RegExp, 'database_wipe' | 'file_delete' | 'secret_write', string][] = [
  [
    /^db:(drop|reset|purge|migrate:reset|schema:load|seed:replant|truncate_all)(:|$)/,
    'database_wipe',
    'drops or empties the database',
  ],
  [/:(clear|clobber)$/, 'file_delete', 'deletes files of the application'],
  [/^credentials:edit$|^secrets:edit$/, 'secret_write', "rewrites the application's encrypted credentials"],
];

const rails: Rule = (run) => {
  const [first] = nonOptions(run.args);
  if (first === 'destroy' || first === 'd')
    run.report('file_delete', `${run.name} destroy deletes the files a generator made`);
  for (const arg of run.args) {
    const task = arg.replace(/\[.*$/, '');
    const hit = RAILS_TASKS.find(([pattern]) => pattern.test(task));
    if (hit !== undefined) run.report(hit[1], `${run.name} ${task} ${hit[2]}`);
    // Migrating down to version 0 runs every migration's down step: nothing is left.
    if (task === 'db:migrate' && run.args.some((other) => /^VERSION=0+$/.test(other)))
      run.report('database_wipe', `${run.name} db:migrate VERSION=0 reverts every migration`);
  }
};

const supabase: Rule = (run) => {
  const [group, sub] = nonOptions(run.args);
  if (group === 'db' && sub === 'reset')
    run.report('database_wipe', 'supabase db reset empties the database');
};

/** Laravel's artisan: dropping every table, rolling every migration back. */
const artisan: Rule = (run) => {
  const command = nonOptions(run.args).find((word) => /^(migrate:(fresh|reset|refresh)|db:wipe)$/.test(word));
  if (command !== undefined) run.report('database_wipe', `artisan ${command} drops or empties the database`);
};

/** Elixir's mix with Ecto: `ecto.drop`, `ecto.reset`. */
const mix: Rule = (run) => {
  const task = nonOptions(run.args).find((word) => /^ecto\.(drop|reset|rollback)$/.test(word));
  if (task === 'ecto.rollback' && !run.args.includes('--all')) return;
  if (task !== undefined) run.report('database_wipe', `mix ${task} drops or empties the database`);
};

/** Node migration tools: `sequelize db:drop`, `typeorm schema:drop`, `knex migrate:rollback --all`. */
const nodeMigrations: Rule = (run) => {
  const command = nonOptions(run.args).find((word) =>
    /^(db:drop|schema:drop|db:migrate:undo:all)$/.test(word),
  );
  const rollbackAll = nonOptions(run.args).includes('migrate:rollback') && run.args.includes('--all');
  if (command !== undefined || rollbackAll)
    run.report(
      'database_wipe',
      `${run.name} ${command ?? 'migrate:rollback --all'} drops or empties the database`,
    );
};

/** Alembic (and Flask-Migrate): downgrading to `base` reverts every migration. */
const alembic: Rule = (run) => {
  const [first, second, third] = nonOptions(run.args);
  const target =
    first === 'downgrade' ? second : first === 'db' && second === 'downgrade' ? third : undefined;
  if (target === 'base') run.report('database_wipe', `${run.name} downgrade base reverts every migration`);
};

/** Framework and migration tools whose tasks drop databases, delete the application's files or rewrite its secrets. */
export const FRAMEWORK_RULES: Readonly<Record<string, Rule>> = {
  prisma,
  'manage.py': django,
  'django-admin': django,
  rails,
  rake: rails,
  supabase,
  artisan,
  mix,
  sequelize: nodeMigrations,
  'sequelize-cli': nodeMigrations,
  typeorm: nodeMigrations,
  knex: nodeMigrations,
  alembic,
  flask: alembic,
};
