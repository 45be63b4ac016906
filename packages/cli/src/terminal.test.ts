import { describe, expect, it } from 'vitest';
import { splitKeys } from './terminal.js';

describe('splitKeys', () => {
  it.each([
    ['y', ['y']],
    ['\r', ['enter']],
    ['\x1b[A\x1b[B\x1b[C\x1b[D', ['up', 'down', 'right', 'left']],
    ['\x1bOC', ['right']],
    ['\x1b', ['escape']],
    ['\x03', ['ctrl-c']],
    ['\x7f', ['backspace']],
    ['\t\x1b[Z', ['tab', 'shift-tab']],
    ['ok\r', ['o', 'k', 'enter']],
    ['é😀', ['é', '😀']],
    ['\x01', ['unknown']],
  ])('%j → %j', (chunk, keys) => {
    expect(splitKeys(chunk)).toEqual(keys);
  });
});
