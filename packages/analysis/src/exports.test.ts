import { describe, expect, it } from 'vitest';
import { findExports } from './exports.js';
import { parseSource } from './languages.js';
import type { LanguageId } from './types.js';

async function exportsOf(language: LanguageId, text: string): Promise<string[]> {
  return findExports(language, await parseSource(language, text), text).map(
    (item) => `${item.kind} ${item.name}@${item.line}`,
  );
}

describe('findExports', () => {
  it.each([
    [
      'typescript',
      'export function f() {}\nexport class C {}\nexport interface I {}\nexport type T = 1;\nexport const a = 1, b = 2;\nconst hidden = 1;\nexport { hidden as shown };\nexport * from "./x";\nexport default class {}\n',
      [
        'function f@1',
        'class C@2',
        'class I@3',
        'type T@4',
        'value a@5',
        'value b@5',
        'value shown@7',
        'value default@9',
      ],
    ],
    [
      'javascript',
      "exports.a = 1;\nmodule.exports.b = function () {};\nmodule.exports = { c, d: 1, 'e': 2, f() {} };\nfunction g() { exports.inner = 1; }\n",
      ['function a@1', 'function b@2', 'function c@3', 'function d@3', 'function e@3', 'function f@3'],
    ],
    ['javascript', 'function middleman() {}\nmodule.exports = middleman;\n', ['function middleman@2']],
    ['typescript', '    return 1;\n  }\n}\n\nexport function g() {\n  if (x) {\n', ['function g@5']],
    [
      'python',
      'def public():\n    def inner():\n        pass\n\n\ndef _private():\n    pass\n\n\n@dataclass\nclass Model:\n    def method(self):\n        pass\n',
      ['function public@1', 'class Model@11'],
    ],
    [
      'python',
      '__all__ = ["kept"]\n\n\ndef kept():\n    pass\n\n\ndef unlisted():\n    pass\n',
      ['function kept@4'],
    ],
    [
      'go',
      'package a\n\nfunc Public() {}\nfunc private() {}\ntype Server struct{}\nfunc (s *Server) Serve() {}\nfunc (s *Server) stop() {}\nconst (\n\tMax = 1\n\tmin = 0\n)\nfunc F() {\n\tvar Local = 1\n}\n',
      ['function Public@3', 'function Server.Serve@6', 'class Server@5', 'value Max@9', 'function F@12'],
    ],
    [
      'java',
      'public class Api {\n  public void open() {}\n  void pkg() {}\n  private void hidden() {}\n  public static final int MAX = 1;\n}\nclass Internal { public void x() {} }\npublic interface Port { void send(); }\n',
      ['class Api@1', 'function Api.open@2', 'value Api.MAX@5', 'class Port@8', 'function Port.send@8'],
    ],
    [
      'rust',
      'pub fn open() {}\nfn hidden() {}\npub(crate) fn internal() {}\npub struct S;\nimpl S {\n    pub fn m(&self) {}\n    fn p(&self) {}\n}\n#[cfg(test)]\nmod tests {\n    pub fn helper() {}\n}\n',
      ['function open@1', 'class S@4', 'function S::m@6'],
    ],
    ['other', 'export function f() {}\npublic class K {}\nfun private() {}\n', ['function f@1', 'class K@2']],
  ] as const)('finds the public API of %s', async (language, text, expected) => {
    expect((await exportsOf(language, text)).sort()).toEqual([...expected].sort());
  });
});
