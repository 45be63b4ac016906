// Every JavaScript runtime has these; protocol's own lib stays free of DOM and Node types.
declare const TextEncoder: new () => { encode(input: string): Uint8Array };
declare const TextDecoder: new (
  label?: string,
  options?: { fatal?: boolean; ignoreBOM?: boolean },
) => { decode(input: Uint8Array): string };

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
const SIDE_PREFIX = /^[abciwo]\//;
const encoder = new TextEncoder();
const lossy = new TextDecoder('utf-8', { ignoreBOM: true });
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bytes as UTF-8 text, invalid sequences replaced; a byte-order mark stays in the text. */
export function decodeUtf8(bytes: Uint8Array): string {
  return lossy.decode(bytes);
}

/** Bytes as UTF-8 text, or null when they are not valid UTF-8. */
export function decodeStrictUtf8(bytes: Uint8Array): string | null {
  try {
    return strict.decode(bytes);
  } catch {
    return null;
  }
}

/** Git's C-style quoting: `"…"` with backslash escapes and octal bytes; returns the value and how much was read. */
export function unquoteGitPath(quoted: string): { value: string; length: number } {
  const bytes: number[] = [];
  let index = 1;
  while (index < quoted.length && quoted[index] !== '"') {
    const char = quoted[index] as string;
    if (char !== '\\') {
      const code = char.codePointAt(0) ?? 0;
      if (code < 0x80) bytes.push(code);
      else bytes.push(...encoder.encode(String.fromCodePoint(code)));
      index += char.length;
      continue;
    }
    const next = quoted[index + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(Number.parseInt(quoted.slice(index + 1, index + 4), 8));
      index += 4;
    } else {
      bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
      index += 2;
    }
  }
  return { value: decodeUtf8(Uint8Array.from(bytes)), length: index + 1 };
}

/** `a/src/x.ts` → `src/x.ts`: git's side prefixes, mnemonic ones (`i/`, `w/`, `c/`, `o/`) included. */
export function stripSidePrefix(value: string): string {
  return SIDE_PREFIX.test(value) ? value.slice(2) : value;
}

/** A path on a `rename`/`copy` line: C-quoted when unusual, tab-terminated when it holds a space. */
export function headerPath(raw: string): string {
  if (raw.startsWith('"')) return unquoteGitPath(raw).value;
  return raw.endsWith('\t') ? raw.slice(0, -1) : raw;
}

/** The name on a `---` or `+++` line, without its side prefix or a tab-separated timestamp; null for `/dev/null`. */
export function sidePath(raw: string): string | null {
  const value = raw.startsWith('"') ? unquoteGitPath(raw).value : (raw.split('\t')[0] ?? raw);
  return value === '/dev/null' ? null : stripSidePrefix(value);
}

/** The two names of `diff --git a/X b/Y`: quoted names are exact; unquoted, equal halves are assumed. */
export function gitLineNames(line: string): [string, string] | null {
  const rest = line.slice('diff --git '.length);
  if (rest.startsWith('"')) {
    const first = unquoteGitPath(rest);
    const second = rest.slice(first.length + 1);
    const other = second.startsWith('"') ? unquoteGitPath(second).value : second;
    return [stripSidePrefix(first.value), stripSidePrefix(other)];
  }
  const quoted = rest.indexOf(' "');
  if (quoted >= 0)
    return [
      stripSidePrefix(rest.slice(0, quoted)),
      stripSidePrefix(unquoteGitPath(rest.slice(quoted + 1)).value),
    ];
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === ' ') {
    const a = rest.slice(0, half);
    const b = rest.slice(half + 1);
    if (a.slice(2) === b.slice(2)) return [stripSidePrefix(a), stripSidePrefix(b)];
  }
  const split = rest.indexOf(' b/');
  return split < 0 ? null : [stripSidePrefix(rest.slice(0, split)), stripSidePrefix(rest.slice(split + 1))];
}
