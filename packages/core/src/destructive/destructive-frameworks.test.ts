import { describe, expect, it } from 'vitest';
import { classifyAlwaysGated } from './destructive.js';

const categoriesOf = (command: string) => classifyAlwaysGated({ tool: 'bash', args: { command } });

describe('framework and migration tasks', () => {
  it.each([
    ['bin/rails db:seed:replant', 'drop_tables'],
    ['bin/rails db:migrate VERSION=0', 'drop_tables'],
    ['bundle exec rake db:truncate_all', 'drop_tables'],
    ['bin/rails destroy model Article', 'delete_files'],
    ['bin/rails tmp:clear', 'delete_files'],
    ['bin/rails tmp:cache:clear', 'delete_files'],
    ['bin/rails log:clear', 'delete_files'],
    ['bin/rails db:schema:cache:clear', 'delete_files'],
    ['bin/rails assets:clobber', 'delete_files'],
    ['bin/rails credentials:edit', 'secret_files'],
    ['php artisan migrate:fresh --seed', 'drop_tables'],
    ['php artisan db:wipe', 'drop_tables'],
    ['mix ecto.reset', 'drop_tables'],
    ['mix ecto.rollback --all', 'drop_tables'],
    ['npx sequelize-cli db:drop', 'drop_tables'],
    ['npx typeorm schema:drop', 'drop_tables'],
    ['npx knex migrate:rollback --all', 'drop_tables'],
    ['alembic downgrade base', 'drop_tables'],
    ['flask db downgrade base', 'drop_tables'],
  ])('%s is always gated as %s', (command, category) => {
    expect(categoriesOf(command)).toContain(category);
  });

  it.each([
    'bin/rails db:migrate',
    'bin/rails db:migrate VERSION=20240101000000',
    'bin/rails generate model Article title:string',
    'bin/rails routes',
    'bin/rails credentials:show',
    'php artisan migrate',
    'mix ecto.migrate',
    'mix ecto.rollback',
    'npx knex migrate:latest',
    'alembic upgrade head',
    'alembic downgrade -1',
  ])('%s wipes nothing', (command) => {
    expect(categoriesOf(command)).toEqual([]);
  });
});
