/**
 * The tiny project the demo agent works on, shipped as data: a blog whose posts get URLs from their
 * titles. `SAMPLE_PROJECT` is main before the agent starts; the rest is what the agent writes.
 */

export const SAMPLE_PROJECT: Readonly<Record<string, string>> = {
  'package.json': `${JSON.stringify({ name: 'demo-project', private: true, type: 'module', scripts: { test: 'node --test' } }, null, 2)}\n`,
  'README.md': `# demo-project

A tiny blog: posts with a title and a body, each served at its own URL.

Task: add a \`slugify(title)\` helper with tests, so post URLs read \`/posts/hello-world\`.
`,
  'src/posts.js': `/** A post and the URL it is served at. */
export function post(title, body) {
  return { title, body, path: '/posts/' + encodeURIComponent(title) };
}
`,
  'test/posts.test.js': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { post } from '../src/posts.js';

test('a post keeps its title and body', () => {
  assert.deepEqual(post('Hi', 'there').body, 'there');
});
`,
  'build/bundle.js': '// stale build output\n',
};

/** One task of the plan, as the intent gate's context lists it. */
export interface PlanTask {
  title: string;
  hours: number;
}

export const PLAN_EPIC = 'Readable post URLs: a slugify helper';

export const PLAN_DESIGN =
  'slugify(title) in src/slugify.js: NFKD-normalize, drop accents, lowercase, join runs of other characters with one dash; a pure function with no dependencies';

export const PLAN_TASKS: readonly PlanTask[] = [
  { title: 'Write src/slugify.js', hours: 1 },
  { title: 'Write test/slugify.test.js', hours: 0.5 },
  { title: 'Run the tests with npm test', hours: 0.25 },
  { title: 'Remove the stale build/ output', hours: 0.25 },
];

/** PLAN.md, the phase 1 artifact: goal, design, tasks and risks; `revisions` are answers to people. */
export function planMarkdown(revisions: readonly string[] = []): string {
  const lines = [
    '# Plan: readable post URLs',
    '',
    'Goal: posts are served at `/posts/hello-world` instead of `/posts/Hello%2C%20World!`.',
    '',
    '## Design',
    '',
    `${PLAN_DESIGN}.`,
    '',
    '## Tasks',
    '',
    ...PLAN_TASKS.map((task, index) => `${index + 1}. ${task.title} (${task.hours} h)`),
    '',
    '## Risks',
    '',
    '- Titles in non-Latin scripts slugify to an empty string; a later phase may transliterate them.',
    '',
  ];
  if (revisions.length > 0) {
    lines.push('## Revised after review', '', ...revisions.map((text) => `- ${text}`), '');
  }
  return lines.join('\n');
}

/** README.md once the plan is in: the planned helper documented next to the task. */
export const README_WITH_PLAN = `${SAMPLE_PROJECT['README.md']}
## Post URLs

\`slugify('Hello, Wörld!')\` gives \`hello-world\`; \`post(title, body).path\` will use it.
See PLAN.md for the design and the tasks.
`;

export const PHASE_1_RETROSPECTIVE = `Phase 1 (strategic): the plan for readable post URLs

Wrote PLAN.md (design, four tasks, one risk) and documented the planned helper in README.md.`;

export const PHASE_2_RETROSPECTIVE = `Phase 2 (tactical): slugify and its test

Added src/slugify.js and its test as approved, ran the tests and removed the stale build output.`;

export const SLUGIFY = `/** Lowercase, ASCII-only, words joined by dashes. */
export function slugify(title) {
  return title
    .normalize('NFKD')
    .replace(/[\\u0300-\\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
`;

export const SLUGIFY_TEST = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slugify } from '../src/slugify.js';

test('slugify joins words with dashes', () => {
  assert.equal(slugify('Hello, Wörld!'), 'hello-world');
});
`;
