import { approvalBindingText } from 'gatehouse-hitl-protocol';
import type { Gate } from '../schemas.js';

// Core runs in Node and browsers alike; both have TextEncoder, which ES2023's lib does not declare.
declare const TextEncoder: new () => { encode(input: string): Uint8Array };

// The first 32 bits of the fractional parts of the cube roots of the first 64 primes (FIPS 180-4, 4.2.2).
const PRIMES = [
  2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 103,
  107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167, 173, 179, 181, 191, 193, 197, 199, 211, 223,
  227, 229, 233, 239, 241, 251, 257, 263, 269, 271, 277, 281, 283, 293, 307, 311,
];
const fraction = (x: number) => (x - Math.floor(x)) * 2 ** 32;
const K = Uint32Array.from(PRIMES, (p) => fraction(Math.cbrt(p)));

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
// Reads a word the loops below keep in range (the index check is for noUncheckedIndexedAccess).
const at = (words: Uint32Array, i: number) => words[i] ?? 0;

function compress(h: Uint32Array, w: Uint32Array): void {
  const s = h.slice();
  for (let i = 0; i < 64; i += 1) {
    const [a, b, c, e, f, g] = [at(s, 0), at(s, 1), at(s, 2), at(s, 4), at(s, 5), at(s, 6)];
    const t1 =
      at(s, 7) + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + at(K, i) + at(w, i);
    const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    s.copyWithin(1, 0, 7);
    s[4] = at(s, 4) + t1;
    s[0] = t1 + t2;
  }
  for (let i = 0; i < 8; i += 1) h[i] = at(h, i) + at(s, i);
}

/** Lowercase hex SHA-256 (FIPS 180-4) of UTF-8 text, synchronously, so a display can show it as it renders. */
export function sha256Hex(text: string): string {
  const bytes = new TextEncoder().encode(text);
  const data = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  data.set(bytes);
  data[bytes.length] = 0x80;
  const view = new DataView(data.buffer);
  view.setUint32(data.length - 8, Math.floor(bytes.length / 0x20000000));
  view.setUint32(data.length - 4, bytes.length * 8);
  // The square roots' fractions of the first 8 primes (4.2.2).
  const h = Uint32Array.from(PRIMES.slice(0, 8), (p) => fraction(Math.sqrt(p)));
  const w = new Uint32Array(64);
  for (let block = 0; block < data.length; block += 64) {
    for (let i = 0; i < 64; i += 1) {
      const x = at(w, i - 15);
      const y = at(w, i - 2);
      w[i] =
        i < 16
          ? view.getUint32(block + i * 4)
          : at(w, i - 16) +
            (rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3)) +
            at(w, i - 7) +
            (rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10));
    }
    compress(h, w);
  }
  return [...h].map((word) => word.toString(16).padStart(8, '0')).join('');
}

/** The action an approval of `gate` binds to: the edited action's hash once a person approved an edit. */
export function boundPayloadHash(gate: Pick<Gate, 'payloadHash' | 'decision'>): string | null {
  const decision = gate.decision;
  if (decision?.editedArgs !== undefined && decision.payloadHash !== undefined) return decision.payloadHash;
  return gate.payloadHash;
}

/**
 * The value an approval of `gate` binds to, SHA-256 of {@link approvalBindingText}: two gates with the
 * same action differ, one gate keeps its value, an edited approval shows the edit's. Null without an action.
 * @example approvalBinding(gate) // '5c1f…' (64 hex digits)
 */
export function approvalBinding(gate: Pick<Gate, 'id' | 'payloadHash' | 'decision'>): string | null {
  const payloadHash = boundPayloadHash(gate);
  return payloadHash === null ? null : sha256Hex(approvalBindingText({ gateId: gate.id, payloadHash }));
}
