import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The change-analysis corpus (docs/analysis-accuracy.md): labels.json is the source, changes/ is built
// from it by scripts/build-analysis-corpus.mjs.
const CORPUS = new URL('./corpus/', import.meta.url);
const CHANGES = new URL('./corpus/changes/', import.meta.url);
const KINDS = [
  'test_removed',
  'skip_added',
  'assertion_removed',
  'assertion_weakened',
  'export_removed',
  'laziness',
];
const SETS = [undefined, 'holdout', 'holdout-2', 'holdout-3', 'holdout-4'];
const MIN_CHANGES = 945;
const MIN_REPOSITORIES = 42;
const MIN_LANGUAGES = 5;
const MAX_CHANGE_BYTES = 200 * 1024;
const LANGUAGES: Record<string, string> = {
  ts: 'TypeScript/JavaScript',
  tsx: 'TypeScript/JavaScript',
  js: 'TypeScript/JavaScript',
  mjs: 'TypeScript/JavaScript',
  py: 'Python',
  go: 'Go',
  java: 'Java',
  rs: 'Rust',
};

interface Label {
  set?: string;
  id: string;
  repository: string;
  commit: string;
  label: { cutsCorners: boolean; kinds: string[] };
  why: string;
}

interface Change extends Label {
  parent: string;
  files: { path: string; oldPath?: string; before: string | null; after: string | null }[];
}

const labels = JSON.parse(readFileSync(new URL('labels.json', CORPUS), 'utf8')) as Label[];
const names = readdirSync(CHANGES)
  .filter((name) => name.endsWith('.json'))
  .sort();
const changes = names.map(
  (name) => JSON.parse(readFileSync(new URL(name, CHANGES), 'utf8')) as Change & { name: string },
);
const labelById = new Map(labels.map((label) => [label.id, label]));

describe('change-analysis corpus', () => {
  it('labels each commit once, with its provenance, known kinds and a reason', () => {
    expect(new Set(labels.map((label) => label.id)).size).toBe(labels.length);
    for (const label of labels) {
      expect(label.id, label.id).toMatch(/^[\w.-]+-[0-9a-f]{12}$/);
      expect(label.repository, label.id).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(label.commit, label.id).toMatch(/^[0-9a-f]{40}$/);
      expect(label.id.endsWith(label.commit.slice(0, 12)), label.id).toBe(true);
      expect(SETS, label.id).toContain(label.set);
      for (const kind of label.label.kinds) expect(KINDS, label.id).toContain(kind);
      expect(label.label.cutsCorners, label.id).toBe(label.label.kinds.length > 0);
      expect(label.why.length, label.id).toBeGreaterThan(20);
    }
  });

  it('builds every change from its label, within the size limit', () => {
    for (const [index, change] of changes.entries()) {
      const label = labelById.get(change.id);
      expect(label, names[index]).toBeDefined();
      expect(`${change.id}.json`).toBe(names[index]);
      const { set, repository, commit, label: labelled, why } = change;
      expect({ set, repository, commit, label: labelled, why }, change.id).toEqual({
        set: label?.set,
        repository: label?.repository,
        commit: label?.commit,
        label: label?.label,
        why: label?.why,
      });
      expect(change.parent, change.id).toMatch(/^[0-9a-f]{40}$/);
      expect(change.files.length, change.id).toBeGreaterThan(0);
      const text = change.files.reduce(
        (sum, file) => sum + (file.before?.length ?? 0) + (file.after?.length ?? 0),
        0,
      );
      expect(text, change.id).toBeLessThanOrEqual(MAX_CHANGE_BYTES);
    }
  });

  it('holds enough changes from enough repositories and languages', () => {
    expect(changes.length).toBeGreaterThanOrEqual(MIN_CHANGES);
    expect(new Set(changes.map((change) => change.repository)).size).toBeGreaterThanOrEqual(MIN_REPOSITORIES);
    const languages = new Set(
      changes.flatMap((change) =>
        change.files.map((file) => LANGUAGES[file.path.split('.').pop() ?? '']).filter(Boolean),
      ),
    );
    expect(languages.size).toBeGreaterThanOrEqual(MIN_LANGUAGES);
    const cutting = changes.filter((change) => change.label.cutsCorners).length;
    expect(cutting).toBeGreaterThan(changes.length / 3);
    expect(changes.length - cutting).toBeGreaterThan(changes.length / 3);
  });

  it('splits by repository: no repository has changes in two sets', () => {
    const setsOf = new Map<string, Set<string>>();
    for (const label of labels) {
      const sets = setsOf.get(label.repository) ?? new Set<string>();
      sets.add(label.set ?? 'development');
      setsOf.set(label.repository, sets);
    }
    const mixed = [...setsOf].filter(([, sets]) => sets.size > 1).map(([repository]) => repository);
    expect(mixed).toEqual([]);
  });

  it.each([
    ['third', 'holdout-3'],
    ['fourth', 'holdout-4'],
  ])(
    'holds a %s held-out set (%s) from repositories in no other set, in four languages or more',
    (_, set) => {
      const held = changes.filter((change) => change.set === set);
      expect(held.length).toBeGreaterThanOrEqual(120);
      const repositories = new Set(held.map((change) => change.repository));
      expect(repositories.size).toBeGreaterThanOrEqual(6);
      const elsewhere = labels.filter((label) => label.set !== set && repositories.has(label.repository));
      expect(elsewhere.map((label) => label.id)).toEqual([]);
      const languages = new Set(
        held.flatMap((change) =>
          change.files.map((file) => LANGUAGES[file.path.split('.').pop() ?? '']).filter(Boolean),
        ),
      );
      expect(languages.size).toBeGreaterThanOrEqual(4);
      const cutting = held.filter((change) => change.label.cutsCorners).length;
      expect(cutting).toBeGreaterThan(held.length / 3);
      expect(held.length - cutting).toBeGreaterThan(held.length / 3);
    },
  );

  it('keeps the corpus under its size budget', () => {
    const bytes = names.reduce((sum, name) => sum + statSync(new URL(name, CHANGES)).size, 0);
    expect(bytes).toBeLessThan(51 * 1024 * 1024);
  });
});
