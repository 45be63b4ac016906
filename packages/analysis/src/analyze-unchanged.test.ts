import { describe, expect, it } from 'vitest';
import { analyzeChange } from './analyze.js';

/** The laziness findings of a one-file change, as `pattern@line`. */
async function lazinessOf(path: string, before: string, after: string): Promise<string[]> {
  const { findings } = await analyzeChange({ files: [{ path, before, after }] });
  return findings.filter((item) => item.kind === 'laziness').map((item) => `${item.pattern}@${item.line}`);
}

/** Lines that push everything below them down, as an unrelated edit near the top of a file does. */
const INSERTED =
  'import { trace } from "./trace";\n\nexport function traced(name) {\n  return trace(name);\n}\n\n';

function handlers(count: number): string {
  return Array.from(
    { length: count },
    (_, i) =>
      `export function drain${i}(items) {\n  items.forEach((item) => {\n    try {\n      item.close();\n    } catch {}\n  });\n}\n`,
  ).join('\n');
}

describe('analyzeChange reports only what the change adds', () => {
  it('does not report empty catches that were there before, in callbacks whose lines moved', async () => {
    const before = `import { log } from "./log";\n\n${handlers(5)}`;
    const after = `import { log } from "./log";\n${INSERTED}${handlers(5)}`;
    expect(await lazinessOf('src/drain.ts', before, after)).toEqual([]);
  });

  it('still reports the one empty catch the change adds among those that were there', async () => {
    const before = `import { log } from "./log";\n\n${handlers(5)}`;
    const added = 'export function save(file) {\n  try {\n    file.write();\n  } catch {}\n}\n';
    const after = `import { log } from "./log";\n${INSERTED}${handlers(5)}\n${added}`;
    const line = after.split('\n').lastIndexOf('  } catch {}') + 1;
    expect(await lazinessOf('src/drain.ts', before, after)).toEqual([`lazy.error_swallowed@${line}`]);
  });

  it('does not read an untouched block comment as test code commented out', async () => {
    const doc =
      "/*\nUsage, as the tests write it:\n\nit('parses', () => {\n  expect(parse('1')).toBe(1);\n});\n*/\n";
    const tests =
      "it('parses', () => {\n  expect(parse('1')).toBe(1);\n});\n\nit('parses twice', () => {\n  expect(parse('1')).toBe(1);\n  expect(parse('2')).toBe(2);\n});\n";
    const before = `import { parse } from './parse';\n\n${doc}\n${tests}`;
    const after = before
      .replace("it('parses twice', () => {", "it('parses two numbers', () => {")
      .replace(
        "  expect(parse('1')).toBe(1);\n  expect(parse('2')).toBe(2);",
        "  expect(parse('2')).toBe(2);",
      );
    expect(await lazinessOf('src/parse.test.ts', before, after)).toEqual([]);
  });

  it('does not call an unchanged empty callback emptied when the lines around it moved', async () => {
    const body =
      "  stream.end(() => {});\n  server.on('request', (request) => {\n    handle(request);\n  });\n  server.on('close', () => {\n    stop();\n  });\n";
    const before = `export function start(server, stream) {\n${body}}\n`;
    const after = `export function start(server, stream) {\n  stream.write('start');\n${body}}\n`;
    expect(await lazinessOf('src/start.ts', before, after)).toEqual([]);
  });

  it('still reports a callback whose real body was emptied', async () => {
    const before =
      "export function start(server) {\n  server.on('request', (request) => {\n    handle(request);\n  });\n}\n";
    const after = "export function start(server) {\n  server.on('request', (request) => {});\n}\n";
    expect(await lazinessOf('src/start.ts', before, after)).toEqual(['lazy.placeholder_body@2']);
  });
});
