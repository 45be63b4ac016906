import { canonicalJson } from 'gatehouse-hitl-protocol';
import type { Gate } from '../schemas.js';

// Core runs in Node and browsers alike; both have TextEncoder, which ES2023's lib does not declare.
declare const TextEncoder: new () => { encode(input: string): Uint8Array };

/** The first line of the text an approval's binding value hashes; a new layout gets a new version. */
export const APPROVAL_BINDING_PREFIX = 'gatehouse-approval-binding-v1\n';

/** What an approval binds to: this gate and the SHA-256 of this exact action. */
export interface ApprovalBindingFields {
  gateId: string;
  payloadHash: string;
}

/** The text whose SHA-256 is an approval's binding value: a version line, then canonical JSON of the gate id and payload hash. */
export function approvalBindingText(fields: ApprovalBindingFields): string {
  return `${APPROVAL_BINDING_PREFIX}${canonicalJson({ gateId: fields.gateId, payloadHash: fields.payloadHash })}`;
}

const K = Uint32Array.from(
  '428a2f98 71374491 b5c0fbcf e9b5dba5 3956c25b 59f111f1 923f82a4 ab1c5ed5 d807aa98 12835b01 243185be 550c7dc3 72be5d74 80deb1fe 9bdc06a7 c19bf174 e49b69c1 efbe4786 0fc19dc6 240ca1cc 2de92c6f 4a7484aa 5cb0a9dc 76f988da 983e5152 a831c66d b00327c8 bf597fc7 c6e00bf3 d5a79147 06ca6351 14292967 27b70a85 2e1b2138 4d2c6dfc 53380d13 650a7354 766a0abb 81c2c92e 92722c85 a2bfe8a1 a81a664b c24b8b70 c76c51a3 d192e819 d6990624 f40e3585 106aa070 19a4c116 1e376c08 2748774c 34b0bcb5 391c0cb3 4ed8aa4a 5b9cca4f 682e6ff3 748f82ee 78a5636f 84c87814 8cc70208 90befffa a4506ceb bef9a3f7 c67178f2'
    .split(' ')
    .map((word) => Number.parseInt(word, 16)),
);

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
  const h = Uint32Array.from([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
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
