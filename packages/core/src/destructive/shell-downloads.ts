import {
  hasFlag,
  parseArgs,
  parseShellScript,
  programName,
  type ShellRedirect,
  type ShellScript,
} from './shell-command.js';
import { unwrapCommand } from './shell-invocation.js';
import { placeholdersIn } from './shell-scan.js';

/** Deeper than this (a `bash -c` in a `$(…)` in an `eval`…) a command is reported rather than inspected. */
export const MAX_DEPTH = 8;

const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh']);

const CURL_VALUED = new Set([
  '-o',
  '--output',
  '-H',
  '--header',
  '-d',
  '--data',
  '-X',
  '--request',
  '-u',
  '--user',
  '-A',
  '-e',
  '-T',
  '-F',
  '--form',
  '-w',
  '-x',
  '-m',
  '-b',
  '-c',
  '-r',
  '--retry',
  '--url',
  '--max-time',
]);
const WGET_VALUED = new Set(['-O', '--output-document', '-P', '-o', '-U', '--header', '-t', '-T']);

export function isDownloader(name: string): boolean {
  return DOWNLOADERS.has(name);
}

export function normalPath(path: string): string {
  return path.replace(/^\.\//, '');
}

/** True when any command in `source`, at any depth, downloads something. */
function downloadsIn(source: string, depth: number): boolean {
  if (depth > MAX_DEPTH) return true;
  const script = parseShellScript(source);
  return script.pipelines.some((pipeline) =>
    pipeline.commands.some((command) => {
      const { argv } = unwrapCommand(command.words);
      if (DOWNLOADERS.has(programName(argv[0]))) return true;
      return argv.some((word) => fetchesRemote(word, script, depth + 1));
    }),
  );
}

/** True when `word` carries a substitution (`$(curl …)`, `<(wget …)`) that downloads. */
export function fetchesRemote(word: string, script: ShellScript, depth: number): boolean {
  return placeholdersIn(word).some((i) => downloadsIn(script.substitutions[i]?.body ?? '', depth));
}

/** Files a curl or wget command writes, so running one later in the line counts as running a download. */
export function downloadedFiles(name: string, args: string[], redirects: readonly ShellRedirect[]): string[] {
  const redirected = redirects.filter((r) => r.op === '>' || r.op === '>>').map((r) => r.target);
  const parsed = parseArgs(args, name === 'wget' ? WGET_VALUED : CURL_VALUED);
  const outputs = name === 'wget' ? ['-O', '--output-document'] : ['-o', '--output'];
  const named = outputs.flatMap((option) => parsed.values.get(option) ?? []);
  // wget saves under the URL's file name unless told otherwise; curl only with -O.
  const remoteName = name === 'wget' ? named.length === 0 : hasFlag(parsed, '-O', '--remote-name');
  const fromUrls = remoteName
    ? parsed.operands.map((url) => url.replace(/[?#].*$/, '').replace(/^.*\//, ''))
    : [];
  return [...redirected, ...named, ...fromUrls].filter((file) => file !== '-' && file !== '').map(normalPath);
}
