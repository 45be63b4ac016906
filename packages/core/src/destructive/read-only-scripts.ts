import { isSecretPath, isWorkspacePath } from './protected-paths.js';

/**
 * sed and awk programs proven to do nothing but print: the program text is read command by command
 * and any command that writes a file, reads another file or runs a program leaves the class.
 */

const insideWorkspace = (files: readonly string[]) =>
  files.every((file) => file === '-' || (isWorkspacePath(file) && !isSecretPath(file)));

/** Index of the `]` that closes the bracket expression opening at `open` (`[^]a-z[:digit:]]`); -1 when none. */
function bracketEnd(script: string, open: number): number {
  let j = open + 1;
  if (script[j] === '^') j++;
  if (script[j] === ']') j++;
  while (j < script.length) {
    const class_ = script[j] === '[' ? /^[:.=]/.exec(script.slice(j + 1)) : null;
    if (class_ !== null) {
      const close = script.indexOf(`${class_[0]}]`, j + 2);
      if (close === -1) return -1;
      j = close + 2;
    } else if (script[j] === ']') return j;
    else j++;
  }
  return -1;
}

/**
 * Index just past the text that `delimiter` closes, from `start`; -1 when it is not closed, or when a
 * bracket expression holds the delimiter or a backslash, where sed implementations disagree about
 * where the expression ends.
 */
function closedAt(script: string, start: number, delimiter: string): number {
  for (let i = start; i < script.length; i++) {
    const ch = script[i];
    if (ch === '\\') i++;
    else if (ch === '\n') return -1;
    else if (ch === '[') {
      const end = bracketEnd(script, i);
      const inside = script.slice(i + 1, end);
      if (end === -1 || /[\\\n]/.test(inside) || inside.includes(delimiter)) return -1;
      i = end;
    } else if (ch === delimiter) return i + 1;
  }
  return -1;
}

/** Index just past one sed address (`12`, `$`, `/re/I`, `+3`, `~2`, `0~4`) at `i`, or `i` when there is none. */
function skipAddress(script: string, i: number): number {
  const number = /^(\d+(~\d+)?|\$|[+~]\d+)/.exec(script.slice(i));
  if (number !== null) return i + number[0].length;
  if (script[i] !== '/') return i;
  const end = closedAt(script, i + 1, '/');
  if (end === -1) return -1;
  let j = end;
  while (script[j] === 'I' || script[j] === 'M') j++;
  return j;
}

/** Commands that print, delete from the output, branch nothing and touch no file. */
const PRINT_COMMANDS = new Set(['p', 'P', 'd', 'D', '=', 'l', 'n', 'N', 'g', 'G', 'h', 'H', 'x', 'q', 'Q']);
/** `s` flags that neither write (`w`) nor run the pattern space (`e`). */
const S_FLAGS = /^[gpiImM0-9]*/;

/** Index just past `s/re/text/flags` or `y/abc/xyz/` at `i`; -1 when it is anything else. */
function skipSubstitution(script: string, i: number): number {
  const delimiter = script[i + 1];
  if (delimiter === undefined || /[\s\\]/.test(delimiter)) return -1;
  const middle = closedAt(script, i + 2, delimiter);
  const end = middle === -1 ? -1 : closedAt(script, middle, delimiter);
  if (end === -1) return -1;
  if (script[i] === 'y') return end;
  return end + (S_FLAGS.exec(script.slice(end))?.[0].length ?? 0);
}

/** True when every command of a sed script only prints, substitutes or deletes lines of its output. */
export function isPrintingSedScript(script: string): boolean {
  let i = 0;
  while (i < script.length) {
    if (/[\s;{}]/.test(script[i] as string)) {
      i++;
      continue;
    }
    i = skipAddress(script, i);
    if (i !== -1 && script[i] === ',') i = skipAddress(script, i + 1);
    if (i === -1) return false;
    while (script[i] === ' ' || script[i] === '!') i++;
    const command = script[i] ?? '';
    if (command === '{') continue;
    if (command === 's' || command === 'y') i = skipSubstitution(script, i);
    else if (PRINT_COMMANDS.has(command))
      i = command === 'q' || command === 'Q' ? skipDigits(script, i + 1) : i + 1;
    else return false;
    if (i === -1 || !/^\s*([;}\n]|$)/.test(script.slice(i))) return false;
  }
  return true;
}

function skipDigits(script: string, i: number): number {
  while (/[\d ]/.test(script[i] ?? '')) i++;
  return i;
}

const SED_FLAGS =
  /^-[nErsuz]+$|^--(quiet|silent|regexp-extended|separate|unbuffered|null-data|posix|debug|sandbox)$/;

/** `sed` without `-i` or `-f`, whose scripts only print and whose files stay inside the workspace. */
export function sedPrintsOnly(args: readonly string[]): boolean {
  const scripts: string[] = [];
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') operands.push(...args.slice(i + 1));
    if (arg === '--') break;
    if (arg === '-e' || arg === '--expression') scripts.push(args[++i] ?? ';w');
    else if (arg.startsWith('--expression=')) scripts.push(arg.slice('--expression='.length));
    else if (arg.startsWith('-') && arg !== '-') {
      if (!SED_FLAGS.test(arg)) return false;
    } else operands.push(arg);
  }
  if (scripts.length === 0) scripts.push(operands.shift() ?? ';w');
  return scripts.every(isPrintingSedScript) && insideWorkspace(operands);
}

/**
 * What lets an awk program write (`>`, `|`), run (`system`, `|`, gawk's `@`), read other files
 * (`getline`, a changed `ARGV`) or see the environment.
 */
const AWK_UNSAFE = /[>|@`]|system|getline|ARGV|ARGC|ENVIRON|PROCINFO|close|fflush|extension/;

/** `awk 'program' files…` with `-F` and `-v` only, a program that only prints, files inside the workspace. */
export function awkPrintsOnly(args: readonly string[]): boolean {
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') operands.push(...args.slice(i + 1));
    if (arg === '--') break;
    if (arg === '-F' || arg === '-v') i++;
    else if (/^-[Fv]./.test(arg) || /^--(field-separator|assign)=/.test(arg)) continue;
    else if (arg.startsWith('-') && arg !== '-') return false;
    else operands.push(arg);
  }
  const [program, ...files] = operands;
  if (program === undefined || AWK_UNSAFE.test(program)) return false;
  // An operand `name=value` sets a variable; every other operand is a file to read.
  return insideWorkspace(files.filter((file) => !/^[A-Za-z_]\w*=/.test(file)));
}
