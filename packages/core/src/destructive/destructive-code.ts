import quoteWords from 'shell-quote/quote.js';
import { decodeBase64 } from './shell-decode.js';

/** Interpreters whose one-liners (`python -c`, `node -e`, …) are inspected. */
export type ScriptLanguage = 'python' | 'node' | 'perl' | 'ruby' | 'php';

/** What a one-liner does: files it deletes, downloaded code it runs, and shell commands it starts. */
export interface CodeInspection {
  deletes: string[];
  downloadsAndRuns: boolean;
  shellCommands: string[];
  /** Shell calls whose command is built at run time (`os.system(cmd)`), so it cannot be read here. */
  computedShell: string[];
  /** Code it decodes from literals and runs (`exec(b64decode('…'))`), to be read as code in turn. */
  decodedCode: string[];
  /** It runs code it builds at run time from something that is not a decodable literal. */
  evaluatesUnknown: boolean;
}

interface LanguageRules {
  /** Calls that delete files or directories. */
  deletes: RegExp;
  /** Calls whose first argument is a shell command (a string, or a list of words). */
  shell: RegExp;
  /** Code that runs text as code, and code that fetches text over the network. */
  evaluates: RegExp;
  fetches: RegExp;
  backticks: boolean;
}

const RULES: Record<ScriptLanguage, LanguageRules> = {
  python: {
    deletes:
      /\b(?:shutil\s*\.\s*)?rmtree\s*\(|\bos\s*\.\s*(?:remove|unlink|removedirs|truncate)\s*\(|\.\s*unlink\s*\(/g,
    shell:
      /(?:\bos|__import__\s*\(\s*['"]os['"]\s*\))\s*\.\s*(?:system|popen)\s*\(|(?:\bsubprocess|__import__\s*\(\s*['"]subprocess['"]\s*\))\s*\.\s*(?:run|call|Popen|check_call|check_output|getoutput|getstatusoutput)\s*\(/g,
    evaluates: /\b(?:exec|eval)\s*\(/,
    fetches: /\b(?:urlopen|urlretrieve|urllib|requests\s*\.\s*get|httpx)\b/,
    backticks: false,
  },
  node: {
    deletes: /\b(?:rmSync|rmdirSync|unlinkSync|truncateSync)\s*\(|\.\s*(?:rm|rmdir|unlink|truncate)\s*\(/g,
    shell: /\b(?:execSync|exec|execFileSync|execFile|spawnSync|spawn)\s*\(/g,
    evaluates: /\beval\b|\bFunction\s*\(|\brunIn(?:This|New)Context\b/,
    fetches: /\b(?:fetch|https?\s*\.\s*get|axios|request)\s*\(/,
    backticks: false,
  },
  perl: {
    deletes: /\b(?:unlink|rmtree|remove_tree)\b/g,
    shell: /\b(?:system|exec|qx)\b\s*\(?/g,
    evaluates: /\beval\b/,
    fetches: /\b(?:LWP|HTTP::Tiny|getstore|getprint)\b|\bget\s*\(/,
    backticks: true,
  },
  ruby: {
    deletes:
      /\bFileUtils\s*\.\s*(?:rm_rf|rm_r|rm_f|rm|remove_dir|remove_entry|remove_entry_secure|remove_file|rmtree)\b|\bFile\s*\.\s*(?:delete|unlink)\b|\.\s*rmtree\b/g,
    shell: /\b(?:system|exec|spawn)\b\s*\(?|%x\(/g,
    evaluates: /\beval\b/,
    fetches: /\bopen-uri\b|\bURI\s*\.\s*open\b|\bNet::HTTP\b|\bopen\s*\(\s*['"]https?:/,
    backticks: true,
  },
  php: {
    deletes: /\b(?:unlink|rmdir)\s*\(/g,
    shell: /\b(?:system|exec|shell_exec|passthru|popen|proc_open)\s*\(/g,
    evaluates: /\beval\s*\(/,
    fetches: /\bfile_get_contents\s*\(\s*['"]https?:|\bcurl_exec\b/,
    backticks: true,
  },
};

/** Line and tab escapes: in a shell command they separate commands, so `"a\nrm x"` is two commands. */
const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t' };

/** Reads the string literal at `start` (quotes, Python prefixes and triple quotes allowed). */
function readString(code: string, start: number): { value: string; end: number } | null {
  let i = start;
  while (/[rRbBuUfF]/.test(code[i] ?? '') && i - start < 2) i++;
  const raw = /[rR]/.test(code.slice(start, i));
  const quote = code[i];
  if (quote !== "'" && quote !== '"' && quote !== '`') return null;
  const delimiter = code.startsWith(quote.repeat(3), i) ? quote.repeat(3) : quote;
  let value = '';
  let j = i + delimiter.length;
  while (j < code.length && !code.startsWith(delimiter, j)) {
    if (code[j] === '\\' && j + 1 < code.length) {
      j++;
      value += (raw ? undefined : ESCAPES[code[j] ?? '']) ?? code[j];
    } else value += code[j];
    j++;
  }
  return { value, end: j + delimiter.length };
}

/** The shell command an argument stands for: a string, or a list of string words. */
function commandArgument(code: string, start: number): string | null {
  let i = start;
  while (/\s/.test(code[i] ?? '')) i++;
  if (code[i] !== '[') {
    const first = readString(code, i);
    if (first === null) return null;
    // spawn('rm', ['-rf', dir]) names the program first and its arguments after.
    const rest = code.slice(first.end).match(/^\s*,\s*\[/);
    if (rest === null) return first.value;
    const more = commandArgument(code, first.end + rest[0].length - 1);
    return `${quoteWords([first.value])} ${more ?? ''}`;
  }
  const words: string[] = [];
  let j = i + 1;
  for (;;) {
    while (/[\s,]/.test(code[j] ?? '')) j++;
    const word = readString(code, j);
    if (word === null) break;
    words.push(word.value);
    j = word.end;
  }
  return quoteWords(words);
}

/** Base64 literals handed to a decoder: `b64decode('…')`, `atob("…")`, `Buffer.from('…', 'base64')`, `decode_base64('…')`. */
const ENCODED_LITERAL =
  /(?:b64decode|atob|decode_base64|base64_decode|decode64|unpack1?)\s*\(\s*[bB]?(['"])([A-Za-z0-9+/=\s_-]+)\1|Buffer\s*\.\s*from\s*\(\s*(['"])([A-Za-z0-9+/=\s]+)\3\s*,\s*['"]base64['"]/g;

function decodedLiterals(code: string): string[] {
  const decoded: string[] = [];
  for (const match of code.matchAll(ENCODED_LITERAL)) {
    const text = decodeBase64(match[2] ?? match[4] ?? '');
    if (text !== null) decoded.push(text);
  }
  return decoded;
}

/** What a one-liner in `language` deletes, whether it runs downloaded code, and which shell commands it runs. */
export function inspectCode(language: ScriptLanguage, code: string): CodeInspection {
  const rules = RULES[language];
  const deletes = [...code.matchAll(rules.deletes)].map((match) => match[0].replace(/[\s(]+$/, ''));
  const shellCommands: string[] = [];
  const computedShell: string[] = [];
  for (const match of code.matchAll(rules.shell)) {
    const command = commandArgument(code, (match.index ?? 0) + match[0].length);
    const call = match[0].replace(/[\s(]+$/, '');
    if (command !== null) shellCommands.push(command);
    // In JavaScript a bare `exec(` is as often RegExp#exec as child_process.exec.
    else if (!(language === 'node' && call === 'exec')) computedShell.push(call);
  }
  if (rules.backticks) {
    for (const match of code.matchAll(/`([^`]*)`/g)) shellCommands.push(match[1] as string);
  }
  const evaluates = rules.evaluates.test(code);
  const downloadsAndRuns = evaluates && rules.fetches.test(code);
  const decodedCode = decodedLiterals(code);
  // Code that runs code it builds can only be read when what it builds is a literal here.
  const evaluatesUnknown = evaluates && !downloadsAndRuns && decodedCode.length === 0;
  return { deletes, downloadsAndRuns, shellCommands, computedShell, decodedCode, evaluatesUnknown };
}
