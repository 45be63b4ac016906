/** One open group of a pattern being read: the deepest repetition inside it so far. */
interface Group {
  inner: number;
}

/** Length of the character class starting at `start` (`[`), through its closing `]`. */
function classLength(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i += 1;
  if (pattern[i] === ']') i += 1;
  while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
  return i + 1 - start;
}

/** Whether the quantifier at `i` repeats (`*`, `+`, `{n,}`, `{n,m}` with m > n and m > 1), and its length. */
function quantifierAt(pattern: string, i: number): { repeats: boolean; length: number } | null {
  const c = pattern[i];
  if (c === '*' || c === '+') return { repeats: true, length: 1 };
  if (c === '?') return { repeats: false, length: 1 };
  if (c !== '{') return null;
  const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
  if (match === null) return null;
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
  // An exact count ({3}) leaves the engine no choice to backtrack over.
  return { repeats: max > 1 && max > min, length: match[0].length };
}

/**
 * How deeply repetitions nest in a regular expression: `a+` is 1, `(a+)+` and `(\w+\s?)*` are 2.
 * Nested repetition is what lets a backtracking engine take exponential time on a short input.
 */
export function repetitionNesting(pattern: string): number {
  const stack: Group[] = [{ inner: 0 }];
  let atom = 0;
  let deepest = 0;
  for (let i = 0; i < pattern.length; ) {
    const top = stack[stack.length - 1] as Group;
    const quantifier = quantifierAt(pattern, i);
    if (quantifier !== null) {
      const height = quantifier.repeats ? atom + 1 : atom;
      top.inner = Math.max(top.inner, height);
      deepest = Math.max(deepest, height);
      atom = 0;
      i += quantifier.length;
      if (pattern[i] === '?') i += 1;
      continue;
    }
    const c = pattern[i] as string;
    if (c === '(') {
      stack.push({ inner: 0 });
      atom = 0;
      i += 1;
    } else if (c === ')' && stack.length > 1) {
      const closed = stack.pop() as Group;
      atom = closed.inner;
      const parent = stack[stack.length - 1] as Group;
      parent.inner = Math.max(parent.inner, closed.inner);
      i += 1;
    } else {
      atom = 0;
      i += c === '\\' ? 2 : c === '[' ? classLength(pattern, i) : 1;
    }
  }
  return deepest;
}
