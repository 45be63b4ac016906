import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const DIR = new URL('./corpus/commands/', import.meta.url);
const LABELS = ['must_gate', 'benign'];
const CATEGORIES = [
  'delete_files',
  'drop_tables',
  'production_config',
  'system_packages',
  'destructive_shell',
  'secret_files',
];
const MIN_ITEMS = 500;
const MIN_MUST_GATE = 150;
const MIN_BENIGN = 300;
const MIN_HELD_OUT_MUST_GATE = 150;
const MIN_SOURCES = 6;

interface Item {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  label: string;
  category?: string;
  why?: string;
}

interface SourceFile {
  source: { repo: string; commit: string; paths: string[]; url: string };
  license: string;
  extraction: string;
  items: Item[];
}

const split = JSON.parse(readFileSync(new URL('split.json', DIR), 'utf8')) as {
  tuning: string[];
  held_out: string[];
};
const files = readdirSync(DIR)
  .filter((name) => name.endsWith('.json') && name !== 'split.json')
  .sort();
const sources = new Map<string, SourceFile>(
  files.map((name) => [name, JSON.parse(readFileSync(new URL(name, DIR), 'utf8')) as SourceFile]),
);
const allItems = [...sources.values()].flatMap((file) => file.items);
const mustGateIn = (names: string[]) =>
  names.flatMap((name) => sources.get(name)?.items ?? []).filter((item) => item.label === 'must_gate').length;

describe('command corpus', () => {
  it.each(files)('%s names its source repository, commit, paths and licence', (name) => {
    const { source, license, extraction } = sources.get(name) as SourceFile;
    expect(source.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
    expect(source.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(source.paths.length).toBeGreaterThan(0);
    expect(source.url).toMatch(/^https:\/\//);
    expect(license.length).toBeGreaterThan(0);
    expect(extraction.length).toBeGreaterThan(0);
  });

  it.each(files)('%s holds well-formed items with valid labels', (name) => {
    const { items } = sources.get(name) as SourceFile;
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(item.id, JSON.stringify(item)).toMatch(/^[\w-]+$/);
      expect(typeof item.tool).toBe('string');
      expect(item.args).toBeTypeOf('object');
      expect(Array.isArray(item.args)).toBe(false);
      expect(LABELS).toContain(item.label);
      if (item.label === 'must_gate') expect(CATEGORIES, item.id).toContain(item.category);
      else expect(item.category, item.id).toBeUndefined();
    }
  });

  it('gives every item a unique id', () => {
    const ids = allItems.map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('holds enough items of each label from enough sources', () => {
    expect(allItems.length).toBeGreaterThanOrEqual(MIN_ITEMS);
    expect(allItems.filter((item) => item.label === 'must_gate').length).toBeGreaterThanOrEqual(
      MIN_MUST_GATE,
    );
    expect(allItems.filter((item) => item.label === 'benign').length).toBeGreaterThanOrEqual(MIN_BENIGN);
    expect(new Set([...sources.values()].map((file) => file.source.repo)).size).toBeGreaterThanOrEqual(
      MIN_SOURCES,
    );
  });

  it('splits by source file: every file in exactly one set, no other names', () => {
    const named = [...split.tuning, ...split.held_out];
    expect(new Set(named).size).toBe(named.length);
    expect([...named].sort()).toEqual(files);
  });

  it('holds out enough must-gate items and some benign sources', () => {
    expect(mustGateIn(split.held_out)).toBeGreaterThanOrEqual(MIN_HELD_OUT_MUST_GATE);
    const benignOnlyHeldOut = split.held_out.filter((name) =>
      (sources.get(name)?.items ?? []).some((item) => item.label === 'benign'),
    );
    expect(benignOnlyHeldOut.length).toBeGreaterThanOrEqual(3);
  });

  it('never lets the same call sit in both sets', () => {
    const key = (item: Item) => JSON.stringify([item.tool, item.args]);
    const tuning = new Set(split.tuning.flatMap((name) => sources.get(name)?.items.map(key) ?? []));
    const leaked = split.held_out
      .flatMap((name) => sources.get(name)?.items ?? [])
      .filter((item) => tuning.has(key(item)))
      .map((item) => item.id);
    expect(leaked).toEqual([]);
  });
});
