import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
} from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { GatehouseError } from 'gatehouse-hitl-core';
import { auditKeyId } from 'gatehouse-hitl-store';
import type { ServerConfig } from '../../config.js';

/** The server's audit key: signs checkpoints; only its public half ever leaves the process. */
export interface AuditSigner {
  keyId: string;
  publicKey: KeyObject;
  /** SPKI PEM of the public key, as GET /v1/audit/key serves it. */
  publicKeyPem: string;
  /** Ed25519 signature of `text`, base64. */
  sign(text: string): string;
}

/** Where the key lives: the configured file, else `audit-signing-key.pem` in the data directory. */
export function auditKeyPath(config: ServerConfig): string {
  return config.auditKeyFile ?? join(config.dataDir, 'audit-signing-key.pem');
}

function createKeyFile(file: string): boolean {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, pem, { flag: 'wx', mode: 0o600 });
  try {
    // A link appears whole or not at all, and never over a key another process published first.
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(draft);
  }
}

function readPrivateKey(file: string): KeyObject {
  try {
    const key = createPrivateKey(readFileSync(file));
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`a ${key.asymmetricKeyType} key`);
    return key;
  } catch (error) {
    throw new GatehouseError(
      'SERVICE_UNAVAILABLE',
      `the audit signing key ${file} is not an Ed25519 private key in PEM; fix or remove the file`,
      { file },
      error,
    );
  }
}

/** Loads the audit key, creating it (mode 0600) on first use; warns when others may read it. */
export function loadAuditSigner(config: ServerConfig, log: FastifyBaseLogger): AuditSigner {
  const file = auditKeyPath(config);
  let created = false;
  try {
    statSync(file);
  } catch {
    created = createKeyFile(file);
  }
  const privateKey = readPrivateKey(file);
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) !== 0)
    log.warn({ file, mode: mode.toString(8) }, 'the audit signing key can be read by others; chmod 600 it');
  const publicKey = createPublicKey(privateKey);
  const keyId = auditKeyId(publicKey);
  if (created) log.info({ file, keyId }, 'created the audit signing key');
  return {
    keyId,
    publicKey,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    sign: (text) => sign(null, Buffer.from(text), privateKey).toString('base64'),
  };
}
