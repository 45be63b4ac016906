/**
 * Counts what keeps the wire contract and the module graph from being changed with confidence:
 * `/v1/` path literals and unchecked response generics in clients, wire shapes the web app
 * declares again, import cycles, server imports of the MCP package, hand-written diff parsers and
 * routes the server registers outside the protocol's route table. `contract-counts.json` holds the
 * ceiling each may not rise above; the goal of every count is 0 (1 for diff parsers).
 *
 *     node scripts/contract-counts.mjs [--json]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Source files (no tests, no test kits) under `dir`, relative to the repository. */
/** @param {string} dir @returns {string[]} */
function sources(dir) {
  const found = [];
  /** @param {string} current */
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'dist', 'testing', 'e2e'].includes(entry.name)) walk(path);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$|\.d\.ts$/.test(entry.name)) {
        found.push(relative(root, path));
      }
    }
  };
  walk(join(root, dir));
  return found.sort();
}

/** @param {string} file */
const read = (file) => readFileSync(join(root, file), 'utf8');
/** @param {string} text @param {RegExp} pattern */
const count = (text, pattern) => text.match(pattern)?.length ?? 0;

const CLIENTS = ['packages/cli/src', 'packages/ui/src', 'packages/mcp/src', 'packages/sdk/src'];

/** `'/v1/…'`, `"/v1/…"` and `` `/v1/…` `` in client code: paths the route table should hold. */
/** @param {string[]} files */
function pathLiterals(files) {
  return files.reduce((sum, file) => sum + count(read(file), /['"`]\/v1\//g), 0);
}

/** `client.get<T>(`, `api<T>(`, `sendJson<T>(`, `json<T>(`: answers typed by hand, not by a route. */
/** @param {string[]} files */
function uncheckedGenerics(files) {
  const pattern = /(?<!function )\b(?:get|post|put|patch|request|api|sendJson|json)<[A-Za-z{][^()]*?>\(/g;
  return files.reduce((sum, file) => sum + count(read(file), pattern), 0);
}

/** Object shapes the web app's API modules declare instead of importing them from the protocol. */
function webAppWireShapes() {
  return sources('packages/ui/src/api').reduce(
    (sum, file) => sum + count(read(file), /^export (?:interface \w+|type \w+(?:<[^>]*>)? = \{)/gm),
    0,
  );
}

/** Web app files that type wire gates with core's domain `Gate` instead of the protocol's document. */
function webAppDomainGates() {
  return sources('packages/ui/src').filter((file) =>
    /import (?:type )?\{[^}]*\bGate\b[^}]*\} from 'gatehouse-hitl-core'|export type \{[^}]*\bGate\b[^}]*\} from 'gatehouse-hitl-core'/s.test(
      read(file),
    ),
  ).length;
}

/** Relative value imports (type-only imports excepted) of every package's source files. */
/** @returns {Map<string, string[]>} */
function importGraph() {
  const graph = new Map();
  const files = readdirSync(join(root, 'packages')).flatMap((pkg) => {
    try {
      return sources(`packages/${pkg}/src`);
    } catch {
      return [];
    }
  });
  const known = new Set(files);
  for (const file of files) {
    const targets = [];
    const text = read(file);
    for (const match of text.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'(\.[^']+)'/gms)) {
      const target = relative(root, resolve(root, dirname(file), match[1].replace(/\.js$/, '.ts')));
      const withTsx = target.replace(/\.ts$/, '.tsx');
      if (known.has(target)) targets.push(target);
      else if (known.has(withTsx)) targets.push(withTsx);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected groups of more than one file (Tarjan), i.e. the import cycles. */
/** @param {Map<string, string[]>} graph @returns {string[][]} */
function importCycles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  /** @param {string} node */
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group = [];
      let member;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}

function serverImportsOfMcp() {
  const manifest = JSON.parse(read('packages/server/package.json'));
  const declared = ['dependencies', 'devDependencies', 'peerDependencies'].filter(
    (field) => manifest[field]?.['gatehouse-hitl-mcp'] !== undefined,
  ).length;
  return (
    declared +
    sources('packages/server/src').reduce(
      (sum, file) => sum + count(read(file), /from 'gatehouse-hitl-mcp'/g),
      0,
    )
  );
}

/** Files that match a hunk header themselves: each is a unified-diff parser of its own. */
function diffParsers() {
  const files = readdirSync(join(root, 'packages')).flatMap((pkg) => {
    try {
      return sources(`packages/${pkg}/src`);
    } catch {
      return [];
    }
  });
  return files.filter((file) => /\^?@@ ?\\?s?\*?-\(?\\d/.test(read(file)) || /'@@ -'|"@@ -"/.test(read(file)))
    .length;
}

function routesOutsideTable() {
  return sources('packages/server/src/routes').reduce(
    (sum, file) => sum + count(read(file), /\bapp\.(?:get|post|put|patch|delete|route)\(/g),
    0,
  );
}

/** Every count, and the cycles themselves. */
export function contractCounts() {
  const clientFiles = CLIENTS.flatMap((dir) => sources(dir));
  const cycles = importCycles(importGraph());
  return {
    pathLiterals: pathLiterals(clientFiles),
    uncheckedResponseGenerics: uncheckedGenerics(clientFiles),
    webAppWireShapes: webAppWireShapes(),
    webAppDomainGates: webAppDomainGates(),
    importCycles: cycles.length,
    serverImportsOfMcp: serverImportsOfMcp(),
    diffParsers: diffParsers(),
    routesOutsideTable: routesOutsideTable(),
    cycles,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { cycles, ...counts } = contractCounts();
  if (process.argv.includes('--json')) console.log(JSON.stringify({ ...counts, cycles }, null, 2));
  else {
    for (const [name, value] of Object.entries(counts)) console.log(`${name.padEnd(28)} ${value}`);
    for (const cycle of cycles) console.log(`cycle (${cycle.length} files): ${cycle.join(' ')}`);
  }
}
