import { RE2JS, RE2JSException, RE2JSSyntaxException } from 're2js';

/** A pattern compiled for the linear-time engine, or why it cannot be. */
export type LinearPatternResult =
  | { ok: true; regex: RE2JS; programSize: number }
  | { ok: false; reason: string };

/** Syntax a backtracking engine supports and a linear-time one cannot, with why. */
const UNSUPPORTED: readonly { find: RegExp; what: string }[] = [
  { find: /^\\[1-9]/, what: 'a backreference' },
  { find: /^\\k</, what: 'a named backreference' },
  { find: /^\(\?<?[=!]/, what: 'a lookaround' },
];

/** Length of the character class starting at `start` (`[`), through its closing `]`. */
function classLength(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i += 1;
  if (pattern[i] === ']') i += 1;
  while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
  return i + 1 - start;
}

/** The first backreference or lookaround outside a character class, with why it is refused; or null. */
function unsupportedSyntax(pattern: string): string | null {
  for (let i = 0; i < pattern.length; ) {
    const rest = pattern.slice(i, i + 4);
    for (const { find, what } of UNSUPPORTED) {
      const token = find.exec(rest)?.[0];
      if (token !== undefined) {
        return `${what} (\`${token}\` at position ${i + 1}) cannot run in linear time; rewrite the pattern without it`;
      }
    }
    const c = pattern[i];
    i += c === '\\' ? 2 : c === '[' ? classLength(pattern, i) : 1;
  }
  return null;
}

/**
 * Compiles a regular expression for RE2's linear-time engine: matching takes time proportional to
 * the input's length times the program size, whatever the pattern. Backreferences and lookaround
 * have no linear-time implementation and are refused with the reason.
 * @example compileLinearPattern('^(a|aa)+$') // { ok: true, regex, programSize: 11 }
 */
export function compileLinearPattern(pattern: string): LinearPatternResult {
  const unsupported = unsupportedSyntax(pattern);
  if (unsupported !== null) return { ok: false, reason: unsupported };
  try {
    const regex = RE2JS.compile(pattern);
    return { ok: true, regex, programSize: regex.programSize() };
  } catch (error) {
    if (error instanceof RE2JSSyntaxException) {
      const where = error.getPattern() === null ? '' : ` at \`${error.getPattern()}\``;
      return { ok: false, reason: `not a valid RE2 pattern: ${error.getDescription()}${where}` };
    }
    if (error instanceof RE2JSException)
      return { ok: false, reason: `not a valid RE2 pattern: ${error.message}` };
    throw error;
  }
}

/** Patterns compiled once and reused; every `matches()` of a condition environment runs through one. */
export interface LinearMatcher {
  /** Compiles `pattern`, or returns it from the ones compiled before. */
  compile(pattern: string): LinearPatternResult;
  /** True when `pattern` matches anywhere in `text`; throws naming the reason when it cannot run. */
  matches(text: string, pattern: string): boolean;
}

/** Creates a matcher that keeps each pattern it compiled, for as long as the matcher lives. */
export function createLinearMatcher(): LinearMatcher {
  const compiled = new Map<string, LinearPatternResult>();
  const compile = (pattern: string): LinearPatternResult => {
    let result = compiled.get(pattern);
    if (result === undefined) {
      result = compileLinearPattern(pattern);
      compiled.set(pattern, result);
    }
    return result;
  };
  return {
    compile,
    matches(text, pattern) {
      const result = compile(pattern);
      if (!result.ok) throw new Error(`matches: pattern "${pattern}" cannot be used: ${result.reason}`);
      return result.regex.test(text);
    },
  };
}
