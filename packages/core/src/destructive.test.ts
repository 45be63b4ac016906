import { describe, expect, it } from 'vitest';
import { classifyAlwaysGated, isAlwaysGated, isDestructiveCommand } from './destructive.js';

describe('isDestructiveCommand', () => {
  it.each([
    ['rm -rf build', true],
    ['DROP TABLE users;', true],
    ['psql -c "delete from jobs"', true],
    ['truncate -s 0 log.txt', true],
    ['git reset --hard HEAD~3', true],
    ['git push --force origin main', true],
    ['ls -la', false],
    ['npm test', false],
    ['git status', false],
  ])('%s → %s', (command, expected) => {
    expect(isDestructiveCommand(command)).toBe(expected);
  });
});

describe('classifyAlwaysGated', () => {
  it.each([
    [{ tool: 'delete_file', args: { path: 'src/a.ts' } }, ['delete_files']],
    [{ tool: 'shell_execute', args: { command: 'rm -rf dist' } }, ['delete_files', 'destructive_shell']],
    [{ tool: 'sql', args: { sql: 'DROP TABLE accounts' } }, ['drop_tables']],
    [{ tool: 'shell_execute', args: { command: 'sudo apt-get install nginx' } }, ['system_packages']],
    [{ tool: 'write_file', args: { path: '.env' } }, ['secret_files']],
    [{ tool: 'edit_file', args: { path: 'config/production.yaml' } }, ['production_config']],
    [{ tool: 'read_file', args: { path: '.env' } }, []],
    [{ tool: 'write_file', args: { path: 'src/app.ts' } }, []],
  ])('%j → %j', (action, expected) => {
    expect(classifyAlwaysGated(action)).toEqual(expected);
    expect(isAlwaysGated(action)).toBe(expected.length > 0);
  });

  it('inspects a bare operation string when no tool is named', () => {
    expect(classifyAlwaysGated({ operation: 'rm -rf /tmp/cache', args: {} })).toContain('destructive_shell');
  });
});
