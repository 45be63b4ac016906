// Module hooks that let a worker thread run the TypeScript sources, as vitest does for the main thread.
// Transpiled files are cached by path and modification time, so later workers start without TypeScript.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CACHE = join(tmpdir(), 'gatehouse-ts-worker-cache');
let typescript = null;

export function initialize() {
  mkdirSync(CACHE, { recursive: true });
}

/** A workspace package's `src/index.ts`, found through its node_modules link, as vitest's aliases map it. */
function workspaceSource(specifier, parentURL) {
  if (!specifier.startsWith('gatehouse-hitl') || specifier.includes('/') || !parentURL?.startsWith('file:')) {
    return undefined;
  }
  for (let dir = dirname(fileURLToPath(parentURL)); ; dir = dirname(dir)) {
    const link = join(dir, 'node_modules', specifier);
    if (existsSync(link)) {
      const source = join(realpathSync(link), 'src', 'index.ts');
      return existsSync(source) ? pathToFileURL(source).href : undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

export async function resolve(specifier, context, next) {
  const parent = context.parentURL;
  const workspace = workspaceSource(specifier, parent);
  if (workspace !== undefined) return { url: workspace, shortCircuit: true };
  if (specifier.startsWith('.') && specifier.endsWith('.js') && parent?.endsWith('.ts')) {
    const source = new URL(specifier.replace(/\.js$/, '.ts'), parent);
    if (existsSync(fileURLToPath(source))) return { url: source.href, shortCircuit: true };
  }
  return next(specifier, context);
}

async function transpile(file) {
  typescript ??= (await import('typescript')).default;
  const { outputText } = typescript.transpileModule(readFileSync(file, 'utf8'), {
    fileName: file,
    compilerOptions: {
      module: typescript.ModuleKind.ESNext,
      target: typescript.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
    },
  });
  return outputText;
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const file = fileURLToPath(url);
  const { mtimeMs, size } = statSync(file);
  const key = createHash('sha256').update(`${file}\n${mtimeMs}\n${size}`).digest('hex');
  const cached = join(CACHE, `${key}.js`);
  if (existsSync(cached))
    return { format: 'module', source: readFileSync(cached, 'utf8'), shortCircuit: true };
  const source = await transpile(file);
  // Write under a unique name first: workers of parallel test files may fill the cache at once.
  const partial = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(partial, source);
  renameSync(partial, cached);
  return { format: 'module', source, shortCircuit: true };
}
