import { describe, expect, it } from 'vitest';
import { hashToken, sha256Hex } from './secrets.js';

describe('token and text hashes', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['é', '4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c'],
  ])('gives the SHA-256 of the UTF-8 text %j in hex', (text, expected) => {
    expect(sha256Hex(text)).toBe(expected);
    expect(hashToken(text)).toBe(expected);
  });
});
