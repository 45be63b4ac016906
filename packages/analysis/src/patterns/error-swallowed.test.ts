import { describe, expect, it } from 'vitest';
import { findingsOf } from '../testing/patterns.js';
import type { LanguageId } from '../types.js';

const detect = (language: LanguageId, path: string, before: string | null, after: string) =>
  findingsOf('lazy.error_swallowed', { language, path, before, after });

const GO_SAVE =
  'package a\nfunc Save(p string) error {\n\terr := write(p)\n\tif err != nil {\n\t\treturn fmt.Errorf("save: %w", err)\n\t}\n\treturn nil\n}\n';

describe('lazy.error_swallowed', () => {
  it.each([
    [
      'typescript',
      'a.ts',
      'function f() {\n  save();\n}\n',
      'function f() {\n  try {\n    save();\n  } catch {}\n}\n',
      'empty catch',
      'high',
    ],
    [
      'typescript',
      'a.ts',
      'function f() {\n  try { save(); } catch (e) { log(e); throw e; }\n}\n',
      'function f() {\n  try { save(); } catch (e) {}\n}\n',
      'empty catch',
      'high',
    ],
    [
      'javascript',
      'a.js',
      'save().then(done);\n',
      'save().then(done).catch(() => {});\n',
      '.catch(() => {})',
      'high',
    ],
    [
      'typescript',
      'a.ts',
      'await save();\n',
      'await save().catch(() => undefined);\n',
      '.catch(() => undefined)',
      'high',
    ],
    [
      'python',
      'a.py',
      'def f():\n    save()\n',
      'def f():\n    try:\n        save()\n    except Exception:\n        pass\n',
      'except Exception: pass',
      'high',
    ],
    [
      'python',
      'a.py',
      'def f():\n    save()\n',
      'def f():\n    try:\n        save()\n    except:\n        pass\n',
      'except: pass',
      'high',
    ],
    [
      'go',
      'a.go',
      GO_SAVE,
      GO_SAVE.replace('return fmt.Errorf("save: %w", err)', 'return nil'),
      'dropping the error',
      'medium',
    ],
    [
      'go',
      'a.go',
      'package a\nfunc F() error {\n\treturn g()\n}\n',
      'package a\nfunc F() error {\n\terr := g()\n\t_ = err\n\treturn nil\n}\n',
      '_ = err',
      'medium',
    ],
    [
      'java',
      'A.java',
      'class A { void f() throws IOException { save(); } }',
      'class A { void f() { try { save(); } catch (Exception e) {} } }',
      'empty catch',
      'high',
    ],
    [
      'rust',
      'a.rs',
      'fn f() -> io::Result<()> {\n    save()?;\n    Ok(())\n}\n',
      'fn f() -> io::Result<()> {\n    let _ = save();\n    Ok(())\n}\n',
      'let _ =',
      'medium',
    ],
    [
      'rust',
      'a.rs',
      'fn f() -> io::Result<()> {\n    save()?;\n    Ok(())\n}\n',
      'fn f() -> io::Result<()> {\n    save().ok();\n    Ok(())\n}\n',
      '.ok();',
      'medium',
    ],
    [
      'rust',
      'a.rs',
      'fn f() -> Result<u32, E> {\n    let n = read()?;\n    Ok(n)\n}\n',
      'fn f() -> Result<u32, E> {\n    let n = read().unwrap_or_default();\n    Ok(n)\n}\n',
      'unwrap_or_default',
      'medium',
    ],
  ] as const)('flags %s %s: %s', async (language, path, before, after, what, severity) => {
    const findings = await detect(language, path, before, after);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: 'laziness', severity });
    expect(findings[0]?.confidence).toBeGreaterThanOrEqual(0.7);
    expect(findings[0]?.message).toContain(what);
  });

  it.each([
    ['a narrow handler', 'a.py', 'except KeyError:\n        pass'],
    ['a handler that says why', 'a.py', 'except Exception:\n        # optional cache\n        pass'],
    ['a handler in a test file', 'test_a.py', 'except Exception:\n        pass'],
  ])('reports %s at medium, below the catch-all in production code', async (_, path, handler) => {
    const after = `def f():\n    try:\n        save()\n    ${handler}\n`;
    const findings = await detect('python', path, 'def f():\n    save()\n', after);
    expect(findings.map((f) => f.severity)).toEqual(['medium']);
  });

  it.each([
    ['await server.close().catch(() => undefined);\n'],
    ['try {\n  await rm(dir, { recursive: true });\n} catch {}\n'],
  ])('gives an error dropped while tearing down a confidence a person should check: %s', async (after) => {
    const findings = await detect('typescript', 'a.ts', 'export {};\n', `export {};\n${after}`);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.confidence).toBeLessThan(0.7);
  });

  it.each([
    ['python', 'a.py', 'try:\n    import ujson as json\nexcept ImportError:\n    pass\n'],
    ['python', 'a.py', 'try:\n    next(it)\nexcept (StopIteration, KeyError) as e:\n    pass\n'],
    [
      'java',
      'A.java',
      'class A { void f() { try { n = Integer.parseInt(s); } catch (final NumberFormatException e) {} } }',
    ],
  ] as const)(
    'gives a handler for one named exception a confidence a person should check (%s)',
    async (language, path, after) => {
      const findings = await detect(language, path, null, after);
      expect(findings).toHaveLength(1);
      expect(findings[0]?.confidence).toBeLessThan(0.7);
    },
  );

  it('gives a catch with only an explaining comment a confidence a person should check', async () => {
    const findings = await detect(
      'typescript',
      'a.ts',
      'rmSync(p);\n',
      'try {\n  rmSync(p);\n} catch {\n  // already gone\n}\n',
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]?.confidence).toBeLessThan(0.7);
  });

  it.each([
    [
      'a catch that logs and rethrows',
      'typescript',
      'a.ts',
      'save();\n',
      "try {\n  save();\n} catch (error) {\n  log.warn({ error }, 'save failed');\n  throw error;\n}\n",
    ],
    [
      'an empty catch that was already there',
      'java',
      'A.java',
      'class A { void f() { try { a(); } catch (E e) {} } }',
      'class A { void f() { try { a(); b(); } catch (E e) {} } }',
    ],
    [
      'an except that handles the error',
      'python',
      'a.py',
      'save()\n',
      'try:\n    save()\nexcept OSError as e:\n    log.warning(e)\n    raise\n',
    ],
    ['a wrapped Go error', 'go', 'a.go', 'package a\nfunc F() error {\n\treturn g()\n}\n', GO_SAVE],
    [
      'a Go error passed up',
      'go',
      'a.go',
      'package a\n',
      'package a\nfunc F() (int, error) {\n\tn, err := g()\n\tif err != nil {\n\t\treturn 0, err\n\t}\n\treturn n, nil\n}\n',
    ],
    ['a method named ok outside Rust', 'typescript', 'a.ts', 'check();\n', 'check();\nres.ok();\n'],
    [
      'the question mark operator',
      'rust',
      'a.rs',
      'fn f() -> io::Result<()> {\n    Ok(())\n}\n',
      'fn f() -> io::Result<()> {\n    save()?;\n    Ok(())\n}\n',
    ],
  ] as const)('does not flag %s', async (_, language, path, before, after) => {
    expect(await detect(language, path, before, after)).toEqual([]);
  });

  it('reads swallowed errors in other languages by line', async () => {
    const findings = await detect('other', 'a.rb', 'save\n', 'begin\n  save\nrescue => e; nil end\n');
    expect(findings).toHaveLength(1);
    expect(findings[0]?.confidence).toBeLessThanOrEqual(0.6);
  });
});
