#!/usr/bin/env node
// Type-checks every ```ts / ```typescript block of the READMEs and docs against the built workspace
// packages, so a renamed export or a changed option breaks `npm run typecheck`, not a reader's copy.
// A block marked ```ts nocheck is skipped; names a snippet leaves to the reader are declared in
// scripts/readme-snippets/context.d.ts.
// It also checks the commands the docs tell people to run against a fresh `npm start`: no
// `agents create` of the name the demo agent already has, no two examples sharing an agent name,
// and the README's install from packed tarballs naming every package .ci/pack-check packs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, '.snippets');
const FENCE = /^(`{3,})(ts|typescript)\b(.*)$/;

function markdownFiles() {
  const inFolder = (folder, pick) =>
    existsSync(join(root, folder))
      ? readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => pick(folder, entry))
      : [];
  const readme = (folder, entry) => {
    const file = join(folder, entry.name, 'README.md');
    return entry.isDirectory() && existsSync(join(root, file)) ? [file] : [];
  };
  const doc = (folder, entry) =>
    entry.isFile() && entry.name.endsWith('.md') ? [join(folder, entry.name)] : [];
  return [
    'README.md',
    ...inFolder('packages', readme),
    ...inFolder('examples', readme),
    ...inFolder('docs', doc),
  ];
}

/** The TypeScript blocks of one markdown file, each with the line its code starts on. */
export function extractSnippets(markdown) {
  const snippets = [];
  let open = null;
  markdown.split('\n').forEach((line, index) => {
    if (open === null) {
      const fence = FENCE.exec(line);
      if (fence) open = { fence: fence[1], check: !/\bnocheck\b/.test(fence[3]), line: index + 2, code: [] };
    } else if (line.startsWith(open.fence) && line.slice(open.fence.length).trim() === '') {
      if (open.check) snippets.push({ line: open.line, code: open.code.join('\n') });
      open = null;
    } else {
      open.code.push(line);
    }
  });
  return snippets;
}

function writeSnippets() {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir);
  const origins = new Map();
  for (const file of markdownFiles()) {
    for (const snippet of extractSnippets(readFileSync(join(root, file), 'utf8'))) {
      const name = `${file.replaceAll('/', '__').replace(/\.md$/, '')}.L${snippet.line}.ts`;
      // `export {}` keeps a snippet without imports a module, with its own scope and top-level await.
      writeFileSync(join(outDir, name), `${snippet.code}\nexport {};\n`);
      origins.set(name, { file, line: snippet.line });
    }
  }
  const tsconfig = {
    extends: '../tsconfig.base.json',
    compilerOptions: {
      noEmit: true,
      composite: false,
      declaration: false,
      declarationMap: false,
      types: ['node'],
    },
    include: ['*.ts', '../scripts/readme-snippets/context.d.ts'],
  };
  writeFileSync(join(outDir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  return origins;
}

/** Rewrites `.snippets/<name>(line,col)` in tsc's output to the markdown file and line it came from. */
function toMarkdownLocations(output, origins) {
  return output.replace(
    /^(?:\.snippets\/)?([^\s(]+\.L\d+\.ts)\((\d+),(\d+)\)/gm,
    (whole, name, line, column) => {
      const origin = origins.get(name);
      return origin ? `${origin.file}:${origin.line + Number(line) - 1}:${column}` : whole;
    },
  );
}

const read = (file) => readFileSync(join(root, file), 'utf8');

/** The agent names a markdown file registers: `agents create <name>`, or `{"name":…}` sent to /v1/agents. */
export function registeredAgentNames(markdown) {
  const names = [];
  markdown.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/\bagents create ([\w.-]+)/g))
      names.push({ name: match[1], line: index + 1 });
    // A curl that creates an agent sends its name on the line after the one naming /v1/agents.
    const previous = markdown.split('\n')[index - 1] ?? '';
    if (/\/v1\/agents\b/.test(`${previous}${line}`)) {
      for (const match of line.matchAll(/"name"\s*:\s*"([\w.-]+)"/g))
        names.push({ name: match[1], line: index + 1 });
    }
  });
  return names;
}

/** Commands in the docs that fail on the server `npm start` runs (`serve --demo`), or on each other. */
function agentNameProblems(files) {
  const demo = /DEMO_AGENT_NAME = '([^']+)'/.exec(read('packages/cli/src/commands/serve-demo.ts'))?.[1];
  if (!demo) return ['packages/cli/src/commands/serve-demo.ts: DEMO_AGENT_NAME not found'];
  const problems = [];
  const byExample = new Map();
  for (const file of files) {
    for (const { name, line } of registeredAgentNames(read(file))) {
      if (name === demo) {
        problems.push(
          `${file}:${line}: registers the agent "${demo}", which \`npm start\` (serve --demo) already created for its demo agent; use another name`,
        );
      }
      if (!file.startsWith('examples/')) continue;
      const other = byExample.get(name);
      if (other && other !== file)
        problems.push(
          `${file}:${line}: the agent "${name}" is also registered by ${other}; give each example its own`,
        );
      if (!other) byExample.set(name, file);
    }
  }
  return problems;
}

/** The README says how to install the packed tarballs while nothing is published: one `-w` per package .ci/pack-check packs. */
function packProblems() {
  const listed = /^PACKAGES=\(([^)]*)\)/m.exec(read('.ci/pack-check'))?.[1];
  if (!listed) return ['.ci/pack-check: PACKAGES=(…) not found'];
  const packLine = read('README.md')
    .split('\n')
    .find((line) => /^npm pack\b/.test(line));
  if (!packLine) return ['README.md: no `npm pack …` line saying how to install from the packed tarballs'];
  return listed
    .split(/\s+/)
    .filter((name) => name !== '' && !packLine.split(/\s+/).includes(name))
    .map(
      (name) =>
        `README.md: the \`npm pack\` line does not pack ${name} (-w ${name}), which .ci/pack-check packs`,
    );
}

function main() {
  const problems = [...agentNameProblems(markdownFiles()), ...packProblems()];
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    console.error(`README commands: ${problems.length} would fail as written`);
    process.exit(1);
  }
  const origins = writeSnippets();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', relative(root, outDir), '--pretty', 'false'], {
    cwd: root,
    encoding: 'utf8',
  });
  const output = toMarkdownLocations(`${result.stdout}${result.stderr}`, origins).trim();
  if (result.status !== 0) {
    console.error(output || `tsc exited with ${result.status}`);
    console.error(
      `README snippets: ${origins.size} checked, some do not compile (mark a partial one \`\`\`ts nocheck)`,
    );
    process.exit(1);
  }
  console.log(`README snippets: ${origins.size} type-checked`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
