import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseUpstream } from './config.js';
import { collidingUri, namespaced, splitCollidingUri, splitName } from './names.js';

const serverName = fc.stringMatching(/^[A-Za-z0-9](?:[A-Za-z0-9-]|_[A-Za-z0-9-]){0,23}$/);

describe('gateway names', () => {
  it('splits every namespaced name back into the server and its own name, whatever the tool is called', () => {
    fc.assert(
      fc.property(serverName, fc.string({ minLength: 1, maxLength: 64 }), (server, tool) => {
        expect(() => parseUpstream(server, { command: 'x' }, {})).not.toThrow();
        expect(splitName(namespaced(server, tool))).toEqual({ server, name: tool });
      }),
    );
  });

  it('has no server for a name without a prefix', () => {
    expect(splitName('write_note')).toBeNull();
    expect(splitName('__write_note')).toBeNull();
    expect(splitName('notes__')).toBeNull();
  });

  it('round-trips a colliding resource URI', () => {
    fc.assert(
      fc.property(serverName, fc.string({ unit: 'grapheme', maxLength: 80 }), (server, uri) => {
        expect(splitCollidingUri(collidingUri(server, uri))).toEqual({ server, uri });
      }),
    );
    expect(splitCollidingUri('notes://readme')).toBeNull();
  });
});
