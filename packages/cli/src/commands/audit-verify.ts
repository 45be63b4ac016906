import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { type AuditVerifyResponse, auditRoutes } from 'gatehouse-hitl-protocol';
import type { AuditVerification, SignedCheckpoint } from 'gatehouse-hitl-store';
import { stringOption } from '../args.js';
import type { ActionContext } from '../command.js';
import { CliError } from '../errors.js';
import { printJson, terminalSafe } from '../output.js';

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError(`no such ${what}: ${file}`);
    throw error;
  }
}

async function verifyFile(context: ActionContext, file: string): Promise<AuditVerification> {
  // Loaded here only: the store's modules are not needed by any other command.
  const { readAuditHeads, verifyAuditExport } = await import('gatehouse-hitl-store');
  const keyFile = stringOption(context.values, 'public-key');
  const headsFile = stringOption(context.values, 'heads');
  if (headsFile !== undefined && keyFile === undefined)
    throw new CliError(
      '--heads needs --public-key: a published head is only trusted with its signature checked',
    );
  const heads: SignedCheckpoint[] =
    headsFile === undefined ? [] : await readAuditHeads(readText(headsFile, 'heads file'));
  const publicKey = keyFile === undefined ? undefined : readText(keyFile, 'public key file');
  readText(file, 'file');
  const stream = createReadStream(file, { encoding: 'utf8' });
  try {
    return await verifyAuditExport(stream, { publicKey, heads });
  } finally {
    stream.destroy();
  }
}

function failureLine(result: Extract<AuditVerifyResponse, { ok: false }>, where: string): string {
  const checkpoint = result.checkpoint
    ? ` (signed checkpoint of seq ${result.checkpoint.seq}, from the ${result.checkpoint.source})`
    : '';
  return `audit chain BROKEN ${where} at seq ${result.seq}: ${terminalSafe(result.reason)}${checkpoint}\n`;
}

function successLine(
  result: Extract<AuditVerifyResponse, { ok: true }>,
  where: string,
  signed: boolean,
): string {
  const last = result.lastHash ? `, last hash ${result.lastHash.slice(0, 16)}…` : '';
  const covered = result.lastCheckpoint
    ? `; ${result.checkpoints} signed checkpoints, the last at seq ${result.lastCheckpoint.seq}`
    : signed
      ? '; no signed checkpoint yet'
      : '; signatures not checked (give --public-key)';
  return `audit chain intact ${where}: ${result.count} events verified${last}${covered}\n`;
}

/** `gatehouse audit verify`: on the server, or offline in an export with the public key and heads. */
export async function verifyAudit(context: ActionContext): Promise<number> {
  const file = stringOption(context.values, 'file');
  const result: AuditVerifyResponse =
    file === undefined ? await context.client().call(auditRoutes.verify) : await verifyFile(context, file);
  const where = file === undefined ? 'on the server' : `in ${file}`;
  const signed = file === undefined || stringOption(context.values, 'public-key') !== undefined;
  if (context.json) printJson(context.io, result);
  else context.io.stdout.write(result.ok ? successLine(result, where, signed) : failureLine(result, where));
  return result.ok ? 0 : 1;
}

/** `gatehouse audit key`: the public key that signs checkpoints, to keep beside exports. */
export async function printAuditKey(context: ActionContext): Promise<number> {
  const key = await context.client().call(auditRoutes.key);
  const file = stringOption(context.values, 'output');
  if (context.json) printJson(context.io, key);
  else if (file === undefined) context.io.stdout.write(key.publicKey);
  if (file !== undefined) {
    writeFileSync(file, key.publicKey);
    context.io.stderr.write(`audit public key ${key.keyId} written to ${file}\n`);
  }
  return 0;
}
