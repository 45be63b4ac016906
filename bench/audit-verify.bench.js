// Offline audit verification: a 1,000,000-event export with a signed checkpoint every 10,000 events,
// checked with the public key and the published heads, against plain sha256 over the same bytes.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  auditHash,
  CHECKPOINT_KIND,
  checkpointStatement,
  GENESIS_HASH,
  verifyAuditExport,
} from '../packages/store/dist/index.js';
import { msSince } from './lib/stats.js';
import { report } from './report.js';

const EVENTS = 1_000_000;
const CHECKPOINT_EVERY = 10_000;
const KINDS = ['gate.opened', 'gate.decided', 'policy.evaluated', 'run.steered', 'confidence.reported'];

function eventFields(seq) {
  const kind = KINDS[seq % KINDS.length];
  const data = {
    gateId: `gate_${seq.toString(16).padStart(12, '0')}`,
    option: 'approve',
    risk: 'medium',
    n: seq,
  };
  return {
    seq,
    id: `evt_${seq.toString(16).padStart(20, '0')}`,
    at: 1_767_225_600_000 + seq,
    kind,
    actor: 'user:user_bench',
    subject: data.gateId,
    data,
  };
}

/** Writes the export and returns its path, the public key and the heads a witness would hold. */
function writeExport(dir) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const keyId = 'bench0000000000a';
  const lines = [];
  const heads = [];
  let previous = GENESIS_HASH;
  const append = (fields) => {
    const hash = auditHash(previous, fields);
    lines.push(JSON.stringify({ ...fields, prevHash: previous, hash }));
    previous = hash;
  };
  for (let seq = 1; seq <= EVENTS; seq += 1) {
    if (seq % CHECKPOINT_EVERY === 0) {
      const unsigned = { seq: seq - 1, hash: previous, at: 1_767_225_600_000 + seq, keyId };
      const signature = sign(null, Buffer.from(checkpointStatement(unsigned)), privateKey).toString('base64');
      heads.push({ ...unsigned, signature });
      append({
        ...eventFields(seq),
        kind: CHECKPOINT_KIND,
        actor: 'system:audit',
        subject: null,
        data: { ...unsigned, signature },
      });
    } else {
      append(eventFields(seq));
    }
  }
  const file = join(dir, 'audit.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(), heads };
}

async function sha256File(file) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest('hex');
}

/** Verifies the export once, and hashes its bytes once as the baseline; reports seconds. */
export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-audit-'));
  try {
    const { file, publicKey, heads } = writeExport(dir);
    let start = process.hrtime.bigint();
    await sha256File(file);
    const baseline = msSince(start) / 1000;
    start = process.hrtime.bigint();
    const result = await verifyAuditExport(createReadStream(file, { encoding: 'utf8' }), {
      publicKey,
      heads,
    });
    const seconds = msSince(start) / 1000;
    if (!result.ok || result.count !== EVENTS)
      throw new Error(`the export did not verify: ${JSON.stringify(result)}`);
    report('audit.verify-offline.1m-events', { value: seconds, unit: 's', baseline });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
