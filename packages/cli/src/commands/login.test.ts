import { describe, expect, it } from 'vitest';
import { parseLoginLink } from './login.js';

describe('parseLoginLink', () => {
  it('takes the token and the server from the link the server prints', () => {
    expect(parseLoginLink('http://127.0.0.1:7300/login#token=ghl_abcdefghijklmnopqrstuv')).toEqual({
      token: 'ghl_abcdefghijklmnopqrstuv',
      url: 'http://127.0.0.1:7300',
    });
    expect(parseLoginLink('https://gate.example/base/login#token=ghl_x')).toEqual({
      token: 'ghl_x',
      url: 'https://gate.example/base',
    });
  });

  it('accepts a bare token', () => {
    expect(parseLoginLink(' ghl_abc ')).toEqual({ token: 'ghl_abc', url: null });
  });

  it('refuses anything else with the fix', () => {
    expect(() => parseLoginLink('hello')).toThrow(/the login link the server printed/);
    expect(() => parseLoginLink('http://127.0.0.1:7300/login')).toThrow(/has no token/);
  });
});
