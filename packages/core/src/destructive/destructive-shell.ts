import quoteWords from 'shell-quote/quote.js';
import { inspectCode, type ScriptLanguage } from './destructive-code.js';
import { checkShellAccess, pipelineJoinsShellToNetwork } from './destructive-remote.js';
import { COMMAND_RULES, checkRedirects } from './destructive-rules.js';
import { inspectSql } from './destructive-sql.js';
import type { DestructiveCategory, DestructiveFinding, Invocation } from './destructive-types.js';
import { checkProtectedWrites, isSender, readsSecret, sentSecrets } from './destructive-writes.js';
import {
  hasFlag,
  parseArgs,
  parseShellScript,
  programName,
  type ShellCommand,
  type ShellScript,
} from './shell-command.js';
import { decodedOutput } from './shell-decode.js';
import { downloadedFiles, fetchesRemote, isDownloader, MAX_DEPTH, normalPath } from './shell-downloads.js';
import { type UnwrappedCommand, unwrapCommand } from './shell-invocation.js';
import { placeholdersIn } from './shell-scan.js';

const MAX_LENGTH = 100_000;
/** Simple commands inspected per line at most, so no line can make inspection slow. */
const MAX_COMMANDS = 1_000;

/** What a command line does that needs a person: destructive findings, and system package installs. */
export interface ShellInspection {
  findings: DestructiveFinding[];
  installs: string[];
}

interface Walk extends ShellInspection {
  /** Files a downloader wrote earlier in the line: running one runs downloaded code. */
  downloaded: Set<string>;
  /** Variables set earlier in the line (`x=rm; $x -rf /`), so a program named by one is still inspected. */
  variables: Map<string, string>;
  /** Simple commands inspected so far, against MAX_COMMANDS. */
  commands: number;
}

/** One simple command in its place: the script it belongs to and what its pipeline feeds it. */
interface Step {
  command: ShellCommand;
  unwrapped: UnwrappedCommand;
  script: ShellScript;
  stdin: string[];
  upstreamDownloads: boolean;
  /** An earlier command of the pipeline reads a secret file, so sending its output sends the secret. */
  upstreamReadsSecret: boolean;
  /** An earlier command of the pipeline writes output nobody can read here (`cat script | sh`). */
  upstreamUnknown: boolean;
  /** The whole pipeline as a reviewer reads it, for findings that span it (`curl … | sh`). */
  pipelineText: string;
  depth: number;
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'fish', 'source', '.', 'eval']);
const SQL_CLIENTS = new Set(['psql', 'mysql', 'mariadb', 'sqlite3', 'duckdb', 'clickhouse-client', 'sqlcmd']);
const INTERPRETERS: Readonly<Record<string, { language: ScriptLanguage; code: string[]; valued: string[] }>> =
  {
    python: { language: 'python', code: ['-c'], valued: ['-W', '-X', '-m'] },
    node: {
      language: 'node',
      code: ['-e', '--eval', '-p', '--print'],
      valued: ['-r', '--require', '--import', '--loader'],
    },
    perl: { language: 'perl', code: ['-e', '-E'], valued: ['-I', '-M', '-m'] },
    ruby: { language: 'ruby', code: ['-e'], valued: ['-I', '-r'] },
    php: { language: 'php', code: ['-r'], valued: ['-d', '-c'] },
  };

function report(walk: Walk, category: DestructiveCategory, reason: string, source: string): void {
  if (walk.findings.some((f) => f.category === category && f.reason === reason && f.source === source))
    return;
  walk.findings.push({ category, reason, source });
}

/** The words as a reviewer would read them, substitutions written back as `$(…)` or `<(…)`. */
function display(words: readonly string[], script: ShellScript): string {
  return words.join(' ').replace(/\uE000(\d+)\uE001/g, (_, i: string) => {
    const substitution = script.substitutions[Number(i)];
    return `${substitution?.kind === 'process' ? '<' : '$'}(${substitution?.body ?? ''})`;
  });
}

/** Text the next command in a pipeline reads: what echo, printf, a heredoc-fed cat or a decoder writes. */
function writtenText(step: Step): string | null {
  // xargs adds the words it reads, so what it writes cannot be known here.
  if (step.unwrapped.bulk) return null;
  const [program, ...args] = step.unwrapped.argv;
  const name = programName(program);
  if (name === 'echo') return args.filter((arg) => !/^-[neE]+$/.test(arg)).join(' ');
  if (name === 'printf') return args.join(' ');
  if (name === 'cat' && args.length === 0) return step.stdin.join('\n');
  return decodedOutput(name, args, step.stdin);
}

/** A function that pipes itself into itself (`:(){ :|:& };:`) multiplies until the machine runs out of processes. */
function checkForkBomb(script: ShellScript, walk: Walk): void {
  for (const name of script.functions) {
    const selfPiped = script.pipelines.some(
      (pipeline) => pipeline.commands.filter((c) => unwrapCommand(c.words).argv[0] === name).length > 1,
    );
    if (selfPiped)
      report(
        walk,
        'fork_bomb',
        `the function ${name} pipes into itself until no process is left`,
        `${name}()`,
      );
  }
}

function walkScript(source: string, walk: Walk, depth: number): void {
  if (walk.commands > MAX_COMMANDS) return;
  if (depth > MAX_DEPTH || source.length > MAX_LENGTH) {
    report(
      walk,
      'uninspectable',
      'the command is nested too deeply or too long to inspect',
      source.slice(0, 200),
    );
    return;
  }
  const script = parseShellScript(source);
  if (script.error !== null)
    report(walk, 'uninspectable', `the command cannot be parsed (${script.error})`, source.slice(0, 200));
  checkForkBomb(script, walk);
  for (const pipeline of script.pipelines) {
    let upstreamDownloads = false;
    let upstreamReadsSecret = false;
    let upstreamUnknown = false;
    let written: string | null = null;
    const pipelineText = pipeline.commands.map((command) => display(command.words, script)).join(' | ');
    const programs = pipeline.commands.map((command) => programName(unwrapCommand(command.words).argv[0]));
    if (pipelineJoinsShellToNetwork(programs))
      report(walk, 'remote_shell', 'the pipeline joins a shell to a network connection', pipelineText);
    for (const command of pipeline.commands) {
      const unwrapped = unwrapCommand(command.words);
      const stdin = written === null ? command.input : [...command.input, written];
      const step: Step = {
        command,
        unwrapped,
        script,
        stdin,
        upstreamDownloads,
        upstreamReadsSecret,
        upstreamUnknown,
        pipelineText,
        depth,
      };
      walkStep(step, walk);
      upstreamDownloads ||= isDownloader(programName(unwrapped.argv[0]));
      upstreamReadsSecret ||= readsSecret({ args: unwrapped.argv.slice(1), redirects: command.redirects });
      written = writtenText(step);
      upstreamUnknown = written === null;
    }
  }
}

function invocationOf(step: Step, walk: Walk): Invocation {
  const [program, ...args] = step.unwrapped.argv;
  const source = display(step.unwrapped.argv, step.script);
  return {
    name: programName(program),
    args,
    redirects: step.command.redirects,
    bulk: step.unwrapped.bulk,
    elevated: step.unwrapped.elevated,
    report: (category, reason) => report(walk, category, reason, source),
    reportInstall: (reason) => walk.installs.push(reason),
    runSql: (sql) => {
      for (const finding of inspectSql(sql)) report(walk, 'sql_data_loss', finding.reason, finding.statement);
    },
    runBulk: (words) => {
      const unwrapped = { ...unwrapCommand(words), bulk: true };
      walkStep(
        { ...step, command: { words, redirects: [], input: [] }, unwrapped, depth: step.depth + 1 },
        walk,
      );
    },
    runCommand: (words) => {
      const unwrapped = unwrapCommand(words);
      walkStep(
        { ...step, command: { words, redirects: [], input: [] }, unwrapped, depth: step.depth + 1 },
        walk,
      );
    },
    runScript: (text) => walkScript(text, walk, step.depth + 1),
  };
}

/** Secrets sent to another machine: by the program itself, or read earlier in its pipeline. */
function checkExfiltration(step: Step, run: Invocation, walk: Walk): void {
  const sent = sentSecrets(run);
  if (sent.length > 0)
    run.report('credential_exfiltration', `${run.name} sends ${sent.join(', ')} to another machine`);
  else if (step.upstreamReadsSecret && isSender(run.name))
    report(
      walk,
      'credential_exfiltration',
      `${run.name} sends a secret file read earlier in the pipeline to another machine`,
      step.pipelineText,
    );
}

function walkStep(step: Step, walk: Walk): void {
  const { command, unwrapped, script, depth } = step;
  if (++walk.commands > MAX_COMMANDS) {
    report(walk, 'uninspectable', `the line runs more than ${MAX_COMMANDS} commands to inspect`, '');
    return;
  }
  // Every substitution runs, whatever the command then does with its output.
  const words = [...command.words, ...command.redirects.map((r) => r.target)];
  for (const i of words.flatMap(placeholdersIn))
    walkScript(script.substitutions[i]?.body ?? '', walk, depth + 1);
  for (const text of unwrapped.scripts) walkScript(text, walk, depth + 1);
  recordAssignments(command.words, step, walk);
  if (unwrapped.elevated)
    report(
      walk,
      'root_command',
      'the command runs as root (sudo, doas or su)',
      display(command.words, script),
    );
  const program = unwrapped.argv[0];
  if (program === undefined) return;
  if (COMPUTED.test(program) && program !== '[' && program !== '[[') {
    runComputed(program, step, walk);
    return;
  }
  const run = invocationOf(step, walk);
  if (DECLARATIONS.has(run.name))
    recordAssignments(
      run.args.filter((arg) => !arg.startsWith('-')),
      step,
      walk,
    );
  checkRedirects(run);
  checkProtectedWrites(run);
  checkExfiltration(step, run, walk);
  checkShellAccess(run);
  COMMAND_RULES[run.name]?.(run);
  if (SQL_CLIENTS.has(run.name)) for (const sql of step.stdin) run.runSql(sql);
  if (SHELLS.has(run.name)) runShell(step, run, walk);
  else if (run.name in INTERPRETERS) runInterpreter(step, run, walk);
  else if (isDownloader(run.name))
    for (const file of downloadedFiles(run.name, run.args, step.command.redirects)) walk.downloaded.add(file);
  else if (walk.downloaded.has(normalPath(unwrapped.argv[0] as string)))
    run.report('download_execute', `${unwrapped.argv[0]} was just downloaded and is now run`);
}

const ASSIGNMENT = /^([A-Za-z_]\w*)=(.*)$/s;
const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);
/** A program name the shell works out as it runs: a variable, a substitution, a glob or a brace list. */
const COMPUTED = /[$\uE000*?[]|^\{.*,.*\}$/;

/** Records `NAME=value` words up to the first word that is not one. */
function recordAssignments(words: readonly string[], step: Step, walk: Walk): void {
  for (const word of words) {
    const [, name, value] = word.match(ASSIGNMENT) ?? [];
    if (name === undefined || value === undefined) return;
    if (name === 'IFS') {
      const source = display(step.command.words, step.script);
      report(
        walk,
        'uninspectable',
        'the line changes IFS, so its words split differently when it runs',
        source,
      );
    }
    walk.variables.set(name, value);
  }
}

/** Runs a computed program name where it can be worked out (`$x` set earlier, `{rm,-rf,/}`); reports it otherwise. */
function runComputed(program: string, step: Step, walk: Walk): void {
  const rest = step.unwrapped.argv.slice(1);
  const variable = program.match(/^\$\{?([A-Za-z_]\w*)\}?$/)?.[1];
  const value = variable === undefined ? undefined : walk.variables.get(variable);
  const braces = program.match(/^\{([^{}]*)\}$/)?.[1];
  // An unquoted variable splits into words when it runs, so its value is read as words too.
  if (value !== undefined) walkScript(`${value} ${quoteWords(rest)}`, walk, step.depth + 1);
  else if (braces !== undefined)
    walkScript(quoteWords([...braces.split(','), ...rest]), walk, step.depth + 1);
  else {
    const source = display(step.unwrapped.argv, step.script);
    report(
      walk,
      'uninspectable',
      `the program to run is worked out only when the line runs (${display([program], step.script)})`,
      source,
    );
  }
}

/** A script file about to be run: straight from a download (`<(curl …)`), or a file downloaded earlier. */
function checkScriptFile(file: string, step: Step, run: Invocation, walk: Walk): void {
  if (fetchesRemote(file, step.script, step.depth + 1))
    run.report('download_execute', `${run.name} runs a script straight from a download`);
  else if (walk.downloaded.has(normalPath(file)))
    run.report('download_execute', `${run.name} runs ${file}, which was just downloaded`);
}

/** A program that runs what it reads on standard input. */
function checkStdin(step: Step, run: Invocation, walk: Walk, inspect: (text: string) => void): void {
  const fed = step.stdin.some((text) => fetchesRemote(text, step.script, step.depth + 1));
  if (step.upstreamDownloads || fed)
    report(walk, 'download_execute', `${run.name} runs what a download pipes into it`, step.pipelineText);
  else if (step.upstreamUnknown)
    report(
      walk,
      'uninspectable',
      `${run.name} runs code piped in from a command whose output cannot be read here`,
      step.pipelineText,
    );
  for (const text of step.stdin) inspect(text);
}

function runShell(step: Step, run: Invocation, walk: Walk): void {
  const deeper = (text: string) => walkScript(text, walk, step.depth + 1);
  if (run.name === 'eval') {
    if (run.args.some((arg) => fetchesRemote(arg, step.script, step.depth + 1)))
      run.report('download_execute', 'eval runs code downloaded from the network');
    deeper(run.args.join(' '));
    return;
  }
  if (run.name === 'source' || run.name === '.') {
    checkScriptFile(run.args[0] ?? '', step, run, walk);
    return;
  }
  const parsed = parseArgs(run.args, new Set(['-o', '-O', '--rcfile', '--init-file']));
  if (hasFlag(parsed, '-c')) {
    const text = parsed.operands[0] ?? '';
    if (fetchesRemote(text, step.script, step.depth + 1))
      run.report('download_execute', `${run.name} -c runs code downloaded from the network`);
    deeper(text);
    return;
  }
  const file = hasFlag(parsed, '-s') ? undefined : parsed.operands[0];
  if (file === undefined || file === '-') checkStdin(step, run, walk, deeper);
  else checkScriptFile(file, step, run, walk);
}

function runCode(language: ScriptLanguage, code: string, step: Step, run: Invocation, walk: Walk): void {
  const inspection = inspectCode(language, code);
  for (const call of inspection.deletes)
    run.report('file_delete', `${run.name} code deletes files with ${call}`);
  if (inspection.downloadsAndRuns || fetchesRemote(code, step.script, step.depth + 1))
    run.report('download_execute', `${run.name} code runs code it downloads`);
  for (const command of inspection.shellCommands) walkScript(command, walk, step.depth + 1);
  for (const call of inspection.computedShell)
    run.report('uninspectable', `${run.name} code runs a shell command built at run time with ${call}`);
  if (inspection.evaluatesUnknown)
    run.report(
      'uninspectable',
      `${run.name} code runs code it builds at run time, which cannot be read here`,
    );
  if (step.depth > MAX_DEPTH) return;
  for (const decoded of inspection.decodedCode) {
    runCode(language, decoded, { ...step, depth: step.depth + 1 }, run, walk);
    walkScript(decoded, walk, step.depth + 1);
  }
}

function runInterpreter(step: Step, run: Invocation, walk: Walk): void {
  const spec = INTERPRETERS[run.name];
  if (spec === undefined) return;
  const parsed = parseArgs(run.args, new Set([...spec.code, ...spec.valued]));
  const module = parsed.values.get('-m')?.[0];
  if (run.name === 'python' && module !== undefined) {
    if (module === 'pip')
      COMMAND_RULES.pip?.({ ...run, name: 'pip', args: run.args.slice(run.args.indexOf('pip') + 1) });
    return;
  }
  const code = spec.code.flatMap((option) => parsed.values.get(option) ?? []);
  const file = parsed.operands[0];
  if (code.length > 0) runCode(spec.language, code.join('\n'), step, run, walk);
  else if (file === undefined || file === '-')
    checkStdin(step, run, walk, (text) => runCode(spec.language, text, step, run, walk));
  else {
    checkScriptFile(file, step, run, walk);
    // A project script with a rule of its own: `python manage.py flush`.
    COMMAND_RULES[programName(file)]?.({ ...run, name: programName(file), args: parsed.operands.slice(1) });
  }
}

/** Walks every simple command of a shell command line, its substitutions and the code it runs. */
export function inspectShell(command: string): ShellInspection {
  const walk: Walk = { findings: [], installs: [], downloaded: new Set(), variables: new Map(), commands: 0 };
  walkScript(command, walk, 0);
  return { findings: walk.findings, installs: walk.installs };
}
