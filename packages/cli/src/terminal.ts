import type { Io, Output } from './command.js';
import { CliError } from './errors.js';

/** A key as the terminal sent it: a printable character, or a name such as `enter`, `up`, `ctrl-c`. */
export type Key = string;

const ESCAPES: Record<string, Key> = {
  '\x1b[A': 'up',
  '\x1b[B': 'down',
  '\x1b[C': 'right',
  '\x1b[D': 'left',
  '\x1bOA': 'up',
  '\x1bOB': 'down',
  '\x1bOC': 'right',
  '\x1bOD': 'left',
  '\x1b[Z': 'shift-tab',
};

const CONTROLS: Record<string, Key> = {
  '\r': 'enter',
  '\n': 'enter',
  '\x7f': 'backspace',
  '\b': 'backspace',
  '\x03': 'ctrl-c',
  '\x04': 'ctrl-d',
  '\t': 'tab',
  '\x15': 'ctrl-u',
};

/** Splits raw terminal input (which may hold several keys, e.g. a paste) into keys. */
export function splitKeys(chunk: string): Key[] {
  const keys: Key[] = [];
  let i = 0;
  while (i < chunk.length) {
    if (chunk[i] === '\x1b') {
      const sequence = /^\x1b(\[[0-9;]*[A-Za-z~]|O[A-Za-z])/.exec(chunk.slice(i));
      if (sequence) {
        keys.push(ESCAPES[sequence[0]] ?? 'unknown');
        i += sequence[0].length;
        continue;
      }
      keys.push('escape');
      i += 1;
      continue;
    }
    const char = String.fromCodePoint(chunk.codePointAt(i) ?? 0);
    keys.push(CONTROLS[char] ?? (char < ' ' ? 'unknown' : char));
    i += char.length;
  }
  return keys;
}

/** The one reader of a TTY's keys in raw mode: single keys for menus, edited lines for prompts. */
export class TerminalInput {
  readonly #stdin: NodeJS.ReadStream;
  readonly #queue: Key[] = [];
  #waiter: ((key: Key) => void) | null = null;
  readonly #onData = (chunk: string | Buffer) => {
    for (const key of splitKeys(String(chunk))) {
      const waiter = this.#waiter;
      if (waiter) {
        this.#waiter = null;
        waiter(key);
      } else this.#queue.push(key);
    }
  };

  constructor(stdin: NodeJS.ReadStream) {
    this.#stdin = stdin;
    stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    stdin.on('data', this.#onData);
    stdin.resume();
  }

  /** The next key pressed. */
  readKey(): Promise<Key> {
    const queued = this.#queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  /** Drops the keys pressed but not read yet. */
  discardTyped(): void {
    this.#queue.length = 0;
  }

  /** Reads one line after `prompt`, echoing it unless `secret`; null when cancelled with Escape or Ctrl-C. */
  async readLine(out: Output, prompt: string, options: { secret?: boolean } = {}): Promise<string | null> {
    out.write(prompt);
    let line = '';
    for (;;) {
      const key = await this.readKey();
      if (key === 'enter') break;
      if (key === 'ctrl-c' || key === 'escape') {
        out.write('\n');
        return null;
      }
      if (key === 'backspace') {
        if (line.length > 0 && !options.secret) out.write('\b \b');
        line = [...line].slice(0, -1).join('');
      } else if (key === 'ctrl-u') {
        if (!options.secret) out.write('\b \b'.repeat([...line].length));
        line = '';
      } else if ([...key].length === 1) {
        line += key;
        if (!options.secret) out.write(key);
      }
    }
    out.write('\n');
    return line;
  }

  /** Lends the terminal to another program (an editor) until `resume`. */
  suspend(): void {
    this.close();
  }

  /** Takes the terminal back after `suspend`. */
  resume(): void {
    if (this.#stdin.isTTY) this.#stdin.setRawMode(true);
    this.#stdin.on('data', this.#onData);
    this.#stdin.resume();
  }

  /** Gives the terminal back: cooked mode, no listener, stdin paused. */
  close(): void {
    this.#stdin.off('data', this.#onData);
    if (this.#stdin.isTTY) this.#stdin.setRawMode(false);
    this.#stdin.pause();
  }
}

/** The first line of a piped (non-TTY) stdin; empty when stdin is empty. */
export function readPipedLine(stdin: NodeJS.ReadStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = (line: string) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onError);
      stdin.pause();
      resolve(line.replace(/\r$/, ''));
    };
    const onData = (chunk: string | Buffer) => {
      text += String(chunk);
      const end = text.indexOf('\n');
      if (end !== -1) finish(text.slice(0, end));
    };
    const onEnd = () => finish(text);
    const onError = (error: Error) => reject(error);
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.once('error', onError);
  });
}

/** Asks for a secret without echo on a TTY, or reads the first line of piped stdin. */
export async function promptSecret(io: Io, prompt: string): Promise<string> {
  if (!io.stdin.isTTY) return readPipedLine(io.stdin);
  const input = new TerminalInput(io.stdin);
  try {
    const line = await input.readLine(io.stderr, prompt, { secret: true });
    if (line === null) throw new CliError('cancelled');
    return line;
  } finally {
    input.close();
  }
}

/** Escape sequences for the full-screen views: the alternate screen, the cursor and clearing. */
export const SCREEN = {
  enter: '\x1b[?1049h\x1b[?25l',
  leave: '\x1b[?25h\x1b[?1049l',
  home: '\x1b[H',
  clearLine: '\x1b[K',
  clearBelow: '\x1b[J',
  showCursor: '\x1b[?25h',
  hideCursor: '\x1b[?25l',
};
